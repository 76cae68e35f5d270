package filetest

import (
	"context"
	"maps"
	"path"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
)

// AgedFS stamps each file it writes with the time of a test clock and
// reports that time as the file's modification time, as a store reports
// its own, so that a test decides how old files are (orphan removal and
// leases compare those times). Files it did not write keep the times the
// FileIO under it reports.
type AgedFS struct {
	fileio.FileIO
	now   func() time.Time
	mu    sync.Mutex
	times map[string]time.Time
}

// NewAgedFS stamps the files written through inner with now().
func NewAgedFS(inner fileio.FileIO, now func() time.Time) *AgedFS {
	return &AgedFS{FileIO: inner, now: now, times: map[string]time.Time{}}
}

// Over returns an AgedFS over inner, stamping with now, that keeps the
// times of a's files: the same files after a crash clone.
func (a *AgedFS) Over(inner fileio.FileIO, now func() time.Time) *AgedFS {
	a.mu.Lock()
	defer a.mu.Unlock()
	return &AgedFS{FileIO: inner, now: now, times: maps.Clone(a.times)}
}

// stamp records the time of a write that succeeded.
func (a *AgedFS) stamp(p string, err error) error {
	if err == nil {
		a.mu.Lock()
		a.times[path.Clean(p)] = a.now()
		a.mu.Unlock()
	}
	return err
}

func (a *AgedFS) aged(fi fileio.FileInfo) fileio.FileInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t, ok := a.times[path.Clean(fi.Path)]; ok {
		fi.ModTime = t
	}
	return fi
}

func (a *AgedFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	return a.stamp(p, a.FileIO.PutIfAbsent(ctx, p, data))
}

func (a *AgedFS) Overwrite(ctx context.Context, p string, data []byte) error {
	return a.stamp(p, a.FileIO.Overwrite(ctx, p, data))
}

// OverwriteHint writes an advisory file as the FileIO under it would
// (fileio.OverwriteHint), so that a HintWriter underneath keeps its
// semantics.
func (a *AgedFS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	return a.stamp(p, fileio.OverwriteHint(ctx, a.FileIO, p, data))
}

func (a *AgedFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	fi, err := a.FileIO.Stat(ctx, p)
	return a.aged(fi), err
}

func (a *AgedFS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	infos, err := a.FileIO.List(ctx, dir)
	for i := range infos {
		infos[i] = a.aged(infos[i])
	}
	return infos, err
}
