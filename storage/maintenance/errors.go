package maintenance

import (
	"errors"
	"fmt"
)

// ErrInvalidArgument marks a call whose arguments no retry can make valid:
// a negative retention count, a blank tag name, an unknown date pattern.
// The SQL layer reports it as a bad argument to the procedure.
var ErrInvalidArgument = errors.New("invalid argument")

// ErrAlreadyExists marks a tag that cannot be created because a tag of the
// same name exists.
var ErrAlreadyExists = errors.New("already exists")

// ErrWatermarkTimeout marks a WaitWatermark that gave up; the error is a
// *WatermarkTimeoutError naming the latest progress it saw.
var ErrWatermarkTimeout = errors.New("watermark wait timed out")

// ErrNotPartitioned marks ExpirePartitions of a table without partition
// keys; it wraps ErrInvalidArgument.
var ErrNotPartitioned = fmt.Errorf("table is not partitioned: %w", ErrInvalidArgument)
