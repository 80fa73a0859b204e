package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/validation"
	"github.com/crosslink-sim/crosslink/validation/linuxpeer"
)

// TestKeptBBR2 checks -keep-bbr2's reading of the samples file: every
// published-mix scenario's kernel samples, and nothing of crosslink's or
// of the mainline kernel's scenarios, or an error naming the scenario the
// file lacks.
func TestKeptBBR2(t *testing.T) {
	var all []validation.Sample
	for _, s := range linuxpeer.Scenarios() {
		for _, side := range []validation.Side{validation.Linux, validation.Crosslink} {
			all = append(all, validation.Sample{Scenario: s.Name(), Side: side, Seed: 1, Metric: "goodput", Value: 1e6})
		}
	}
	for _, tc := range []struct {
		name    string
		drop    string // a scenario whose kernel samples the file lacks
		wantErr string
	}{
		{name: "complete"},
		{name: "a published-mix scenario missing", drop: "q70-loss0.5-bbr2", wantErr: "holds no kernel samples of q70-loss0.5-bbr2"},
		{name: "a mainline scenario missing", drop: "q70-loss0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var samples []validation.Sample
			for _, s := range all {
				if s.Scenario == tc.drop && s.Side == validation.Linux {
					continue
				}
				samples = append(samples, s)
			}
			data := filepath.Join(t.TempDir(), "results.csv")
			if err := validation.WriteSamplesFile(data, samples); err != nil {
				t.Fatal(err)
			}
			kept, err := keptBBR2(data)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range linuxpeer.Scenarios() {
				if !s.BBRv2 {
					continue
				}
				got := kept[s.Name()]
				if len(got) != 1 || got[0].Side != validation.Linux {
					t.Errorf("%s: kept %v, want its one kernel sample", s.Name(), got)
				}
			}
			if n := len(kept); n != 35 {
				t.Errorf("kept the samples of %d scenarios, want the published mix's 35 (31 points, 4 start spacings)", n)
			}
		})
	}
}
