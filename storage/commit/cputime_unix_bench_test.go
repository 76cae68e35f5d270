//go:build unix

package commit_test

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time the process has used, user plus system:
// on a shared machine it measures the benchmark's own work, which wall
// time does not.
func processCPUTime() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
