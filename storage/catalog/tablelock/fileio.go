package tablelock

import (
	"context"

	"github.com/lakesql/lakesql/storage/fileio"
)

// Locker runs fn holding the catalog lock of one table, as Java's
// CatalogLock.runWithLock(database, table, callable) does. fn's context
// is the caller's.
type Locker interface {
	RunWithLock(ctx context.Context, t Target, fn func(context.Context) error) error
}

// Wrap returns inner with every put that publishes a snapshot or a schema
// of a table of the warehouse at root (PublishTarget) made while holding
// that table's lock from locker. Everything else, including the optional
// capabilities of fileio (staged puts, hints, batch deletes), behaves as
// inner's.
func Wrap(inner fileio.FileIO, root string, locker Locker) fileio.FileIO {
	return &lockedIO{FileIO: inner, root: root, locker: locker}
}

type lockedIO struct {
	fileio.FileIO
	root   string
	locker Locker
}

func (l *lockedIO) PutIfAbsent(ctx context.Context, path string, data []byte) error {
	target, ok := PublishTarget(l.root, path)
	if !ok {
		return l.FileIO.PutIfAbsent(ctx, path, data)
	}
	return l.locker.RunWithLock(ctx, target, func(ctx context.Context) error {
		return l.FileIO.PutIfAbsent(ctx, path, data)
	})
}

// StagePut stages with inner (writing a temporary file takes no lock) and
// takes the lock for the Put that publishes.
func (l *lockedIO) StagePut(ctx context.Context, path string, data []byte) (fileio.Staged, error) {
	staged, err := fileio.StagePut(ctx, l.FileIO, path, data)
	target, ok := PublishTarget(l.root, path)
	if err != nil || !ok {
		return staged, err
	}
	return &lockedPut{Staged: staged, target: target, locker: l.locker}, nil
}

func (l *lockedIO) OverwriteHint(ctx context.Context, path string, data []byte) error {
	return fileio.OverwriteHint(ctx, l.FileIO, path, data)
}

func (l *lockedIO) DeleteFiles(ctx context.Context, paths []string) error {
	return fileio.DeleteFiles(ctx, l.FileIO, paths)
}

type lockedPut struct {
	fileio.Staged
	target Target
	locker Locker
}

func (p *lockedPut) Put(ctx context.Context) error {
	return p.locker.RunWithLock(ctx, p.target, p.Staged.Put)
}

// ListFileNames implements fileio.FileNamesLister with the wrapped FileIO's.
func (l *lockedIO) ListFileNames(ctx context.Context, dir string) ([]string, error) {
	return fileio.ListFileNames(ctx, l.FileIO, dir)
}
