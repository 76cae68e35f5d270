package parquetio

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// corruptionf reports undecodable content of the named file.
func corruptionf(name, format string, args ...any) error {
	return fmt.Errorf("parquetio: %s: %w: %s", name, lakeerr.ErrCorruption, fmt.Sprintf(format, args...))
}

// unsupportedf reports a valid file using a feature this package does not
// read.
func unsupportedf(name, format string, args ...any) error {
	return fmt.Errorf("parquetio: %s: %w: %s", name, lakeerr.ErrUnsupported, fmt.Sprintf(format, args...))
}

// trackedSource remembers the first failure of the underlying storage, so
// that an error surfacing from parquet-go can be told apart: a storage
// failure (possibly transient) is reported as such, anything else means the
// bytes themselves could not be decoded.
type trackedSource struct {
	src    io.ReaderAt
	size   int64
	failed atomic.Pointer[error]
}

// ReadAt refuses ranges outside the file without asking the storage: a
// hostile footer makes the decoder compute such offsets, and that is
// corruption, not a storage failure.
func (s *trackedSource) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > s.size {
		return 0, io.EOF
	}
	n, err := s.src.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) {
		s.failed.CompareAndSwap(nil, &err)
	}
	return n, err
}

// classify turns an error from decoding the named file into one carrying
// the right failure class.
func (s *trackedSource) classify(name string, err error) error {
	if err == nil || errors.Is(err, lakeerr.ErrCorruption) || errors.Is(err, lakeerr.ErrUnsupported) {
		return err
	}
	if failed := s.failed.Load(); failed != nil {
		return fmt.Errorf("parquetio: reading %s: %w", name, *failed)
	}
	return fmt.Errorf("parquetio: %s: %w: %w", name, lakeerr.ErrCorruption, err)
}

// recoverCorruption converts a panic of the Parquet decoder, which hostile
// input can trigger, into a corruption error stored in *err.
func recoverCorruption(name string, err *error) {
	if r := recover(); r != nil {
		*err = corruptionf(name, "decoder failure: %v", r)
	}
}
