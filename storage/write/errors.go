package write

import (
	"errors"
	"fmt"
)

var (
	// ErrInvalidRow marks a row that does not fit the table: wrong arity, a
	// value of the wrong Go type, a NULL in a NOT NULL column, a DECIMAL that
	// overflows its column, a row kind the table cannot take. Nothing of the
	// row was written; the TableWriter stays usable.
	ErrInvalidRow = errors.New("invalid row")

	// ErrBucketCountChanged marks a write into a partition whose live files
	// were written with another bucket count. Java refuses the same write;
	// the partition has to be rewritten (INSERT OVERWRITE) first.
	ErrBucketCountChanged = errors.New("bucket count changed")
)

// bucketCountError is Java's AbstractFileStoreWrite.checkNumBuckets message.
func bucketCountError(where string, expected, previous int32) error {
	return fmt.Errorf("%w: Try to write %s with a new bucket num %d, but the previous bucket num is %d. "+
		"Please switch to batch mode, and perform INSERT OVERWRITE to rescale current data layout first",
		ErrBucketCountChanged, where, expected, previous)
}
