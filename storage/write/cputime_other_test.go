//go:build !unix

package write

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
