//go:build !linux

package sweep

// machineMemory is 0 (unknown) where sysinfo(2) is not available: the
// models' own limits still apply.
func machineMemory() int64 { return 0 }
