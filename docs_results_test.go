package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/plots/report"
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

// measuredAt is how a report card dates the numbers it quotes from runs:
// "measured at sat-island 26".
var measuredAt = regexp.MustCompile(`measured at ([a-z][a-z-]*[a-z]) (\d+)`)

// TestCardsMeasuredAtCurrentVersion fails when a card of the report
// quotes runs of a model version that is no longer the model's: a bump
// (new results for the same parameters) leaves the card's numbers those
// of the old rows until its runs are made again (for sp-loss,
// docs/ablations/*.yaml and sp-fig1's full profile) and the card says the
// new version.
func TestCardsMeasuredAtCurrentVersion(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	// The cards that quote runs: each must date them.
	mustDate := map[string]bool{"sp-loss": true, "zh-fig-mbone-loss": true}
	for i := 2; i <= 9; i++ {
		mustDate[fmt.Sprintf("os-fig%d", i)] = true
	}
	for _, e := range report.Catalog() {
		dates := measuredAt.FindAllStringSubmatch(e.Deviation, -1)
		if mustDate[e.ID] && len(dates) == 0 {
			t.Errorf(`%s: the card quotes runs but no longer says "measured at <model> <version>"`, e.ID)
		}
		delete(mustDate, e.ID)
		for _, m := range dates {
			model, ok := reg.Lookup(m[1])
			if !ok {
				t.Errorf("%s: card says %q, and there is no model %s", e.ID, m[0], m[1])
				continue
			}
			if n, _ := strconv.Atoi(m[2]); n != model.Schema().Version {
				t.Errorf("%s: card says %q, but %s is at version %d: make its runs again and update the card", e.ID, m[0], m[1], model.Schema().Version)
			}
		}
	}
	for id := range mustDate {
		t.Errorf("no card %s in the catalog: update mustDate", id)
	}
}
