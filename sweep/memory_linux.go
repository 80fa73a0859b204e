package sweep

import "syscall"

// machineMemory is the machine's total memory, bytes (sysinfo(2)); 0
// when it cannot be read.
func machineMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
