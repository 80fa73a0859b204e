package cli

import (
	"errors"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// brokenWriter fails every write of some bytes, as a closed pipe does
// (an empty write sends nothing and succeeds).
type brokenWriter struct{}

func (brokenWriter) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return 0, errors.New("broken pipe")
}

// TestReportWriteError checks that writeReport returns the error of its
// writer, so that `crosslink status | head` does not exit 0 on a lost line.
func TestReportWriteError(t *testing.T) {
	r := &sweep.Report{Spec: "s", Dir: "out/s", Total: 2, OK: 1, Missing: 1, Failed: map[dataset.Status]int{}}
	if err := writeReport(brokenWriter{}, r); err == nil {
		t.Errorf("writeReport(broken writer) = nil, want the write error")
	}
}
