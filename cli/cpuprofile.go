package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts writing a CPU profile of the process to path
// (run --cpu-profile): what `go tool pprof` reads to show where a sweep's
// time goes, and what `make pgo` merges into default.pgo. The returned
// stop ends the profile and closes the file; its error is that of the
// last write.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpu-profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.Join(fmt.Errorf("--cpu-profile %s: %w", path, err), f.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpu-profile: %w", err)
		}
		return nil
	}, nil
}
