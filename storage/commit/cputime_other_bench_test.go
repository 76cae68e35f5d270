//go:build !unix

package commit_test

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
