package main

import (
	"os"
	"regexp"
	"testing"
)

// handTypedResult matches what a result copied into prose looks like: a
// number with two or more decimals (an index, a share: 0.85, 93.62) or a
// throughput with a decimal (93.6 Mbit/s). Configuration in the docs
// (0.2 % loss, 100 Mbit/s, 212992 bytes) has neither form.
var handTypedResult = regexp.MustCompile(`\b\d+\.\d{2,}\b|\b\d+\.\d+ ?Mbit/s`)

// TestDocsWithoutTypedResults fails when a document whose results are
// generated (docs/os-testbed.md: the os-testbed-ablation table and the
// os-fig verdicts of the report) gets numbers typed into it again, which
// go stale when a model changes. The Mininet configuration it quotes,
// max_queue_size 8.33 x (q/100) x d, and the versions it names (Linux
// 5.10 and 5.13, the bases of the BBRv2 alpha kernel, and 5.11, where a
// change it cites came in; iperf 3.12) are the allowed matches.
func TestDocsWithoutTypedResults(t *testing.T) {
	allowed := map[string]bool{"8.33": true, "5.10": true, "5.11": true, "5.13": true, "3.12": true}
	for _, f := range []string{"docs/os-testbed.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range handTypedResult.FindAllString(string(b), -1) {
			if !allowed[m] {
				t.Errorf("%s: %q looks like a result typed by hand; generate it (crosslink report) and point to it", f, m)
			}
		}
	}
}
