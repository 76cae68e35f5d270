package fileio

import (
	"context"
	"errors"
)

// AmbiguousPuts records the paths of a writer's puts whose outcome it does
// not know, so that it can delete them with the files it wrote when it
// abandons its work. A put that failed may have landed all the same: an S3
// PUT whose acknowledgement was lost, or one cut short by a cancelled
// context after the object was stored. A put that failed with ErrExist
// is the exception: it did not land, and the file at its path belongs to
// another writer, so it is never recorded and never deleted.
//
// The zero value is ready to use. An AmbiguousPuts is not safe for
// concurrent use.
type AmbiguousPuts struct {
	paths []string
}

// PutIfAbsent is f.PutIfAbsent, recording path when the put fails other
// than with ErrExist.
func (a *AmbiguousPuts) PutIfAbsent(ctx context.Context, f FileIO, path string, data []byte) error {
	err := f.PutIfAbsent(ctx, path, data)
	if err != nil && !errors.Is(err, ErrExist) {
		a.paths = append(a.paths, path)
	}
	return err
}

// Paths returns the recorded paths, in the order of their puts.
func (a *AmbiguousPuts) Paths() []string { return append([]string(nil), a.paths...) }

// DeleteAll deletes the recorded paths and forgets them. A path that is
// absent (its put failed before landing) is not an error. The deletes run
// even when ctx is cancelled, since a cancelled context is a common
// reason for both the failed put and the cleanup; a path whose delete
// fails is forgotten too and left to orphan cleanup, which the returned
// error reports.
func (a *AmbiguousPuts) DeleteAll(ctx context.Context, f FileIO) error {
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for _, p := range a.paths {
		if err := f.Delete(ctx, p); err != nil && !errors.Is(err, ErrNotExist) {
			errs = append(errs, err)
		}
	}
	a.paths = nil
	return errors.Join(errs...)
}
