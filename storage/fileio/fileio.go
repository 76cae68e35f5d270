// Package fileio is the storage abstraction under every lakesql table: a
// warehouse is a tree of immutable files plus a few hint files, and this
// package says exactly what the commit protocol may assume of it.
package fileio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"time"
)

var (
	// ErrExist is returned by PutIfAbsent when the path already exists. It is
	// the normal outcome for the loser of a publish race.
	ErrExist = fs.ErrExist
	// ErrNotExist is returned when a path does not exist.
	ErrNotExist = fs.ErrNotExist
	// ErrInjected is returned by fault-injecting wrappers, so tests can tell an
	// injected failure from a real one.
	ErrInjected = errors.New("injected fault")
)

// FileInfo describes one file.
type FileInfo struct {
	// Path is the full path, in the same form the FileIO was given.
	Path    string
	Size    int64
	ModTime time.Time
	IsDir   bool
}

// FileIO is the set of operations lakesql performs on a warehouse.
//
// Paths are slash-separated. Implementations are safe for concurrent use.
//
// Guarantees every implementation must provide (checked by fileiotest):
//
//   - PutIfAbsent is an atomic create. Under any number of concurrent callers
//     for the same path, in goroutines of one process or in separate
//     processes, exactly one succeeds; every other caller gets an error
//     wrapping ErrExist. No reader ever observes a partially written file:
//     a path either does not exist or holds the complete bytes of the winner.
//     When PutIfAbsent returns nil the file is durable.
//   - Overwrite atomically replaces the content of a path (used only for
//     LATEST/EARLIEST hints, which readers treat as advisory). Readers see the
//     old or the new content, never a mix.
//   - ReadFile and Stat of a path written by a completed PutIfAbsent or
//     Overwrite see that write (read-after-write consistency).
//   - List returns the direct children of a directory, files and
//     sub-directories, in lexical order. A missing directory lists as empty.
//   - Delete removes a file; deleting a missing file wraps ErrNotExist.
type FileIO interface {
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// Open returns a random-access reader for large files (Parquet) whose
	// footer is read before the pages. The caller closes it.
	Open(ctx context.Context, path string) (File, error)
	Stat(ctx context.Context, path string) (FileInfo, error)
	List(ctx context.Context, dir string) ([]FileInfo, error)
	Delete(ctx context.Context, path string) error
	PutIfAbsent(ctx context.Context, path string, data []byte) error
	Overwrite(ctx context.Context, path string, data []byte) error
}

// File is an open, immutable file.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Exists reports whether path exists. Errors other than ErrNotExist are
// returned, so a transient failure is never mistaken for absence.
func Exists(ctx context.Context, f FileIO, path string) (bool, error) {
	_, err := f.Stat(ctx, path)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	return false, err
}

// HintWriter is an optional capability of a FileIO: replacing advisory
// files (the LATEST hint, commit receipts) without paying for durability.
// Those files are rewritten by every commit and re-derived by readers when
// stale or missing, so the fsyncs that make Overwrite durable are mostly
// wasted on them.
//
// OverwriteHint atomically replaces the content of path, creating it and
// its missing parent directories if needed, as Overwrite does, and with
// the same read-after-write consistency. It need not be durable: after a
// crash path may hold its previous content, or be missing if it was
// created by this write, but never a mix or a torn version.
type HintWriter interface {
	OverwriteHint(ctx context.Context, path string, data []byte) error
}

// OverwriteHint replaces an advisory file with f's HintWriter if it has
// one, else with the durable Overwrite.
func OverwriteHint(ctx context.Context, f FileIO, path string, data []byte) error {
	if h, ok := f.(HintWriter); ok {
		return h.OverwriteHint(ctx, path, data)
	}
	return f.Overwrite(ctx, path, data)
}

// Stager is an optional capability of a FileIO: PutIfAbsent in two steps.
// StagePut does the part of the put that does not touch path, such as
// writing and syncing a temp file, and Staged.Put then creates path with
// PutIfAbsent's guarantees. A writer that must create files strictly one
// after another (a commit publishing consecutive snapshots) stages the next
// while the previous one is being put.
//
// Nothing at path changes before Put; what staging leaves behind is
// scaffolding that readers skip (see IsTempName) and Discard removes.
type Stager interface {
	StagePut(ctx context.Context, path string, data []byte) (Staged, error)
}

// Staged is a PutIfAbsent prepared by StagePut.
type Staged interface {
	// Put creates the path holding the staged data as PutIfAbsent does,
	// with the same errors. It is called at most once.
	Put(ctx context.Context) error
	// Discard releases a staged put that will not be made. After Put it
	// does nothing.
	Discard()
}

// StagePut stages a PutIfAbsent with f's Stager if it has one. Otherwise
// the put is not prepared at all: Put is f.PutIfAbsent.
func StagePut(ctx context.Context, f FileIO, path string, data []byte) (Staged, error) {
	if s, ok := f.(Stager); ok {
		return s.StagePut(ctx, path, data)
	}
	return &unstaged{f: f, path: path, data: data}, nil
}

type unstaged struct {
	f    FileIO
	path string
	data []byte
}

func (u *unstaged) Put(ctx context.Context) error { return u.f.PutIfAbsent(ctx, u.path, u.data) }

func (u *unstaged) Discard() {}

// FileNamesLister is an optional capability of a FileIO: the names of a
// directory's files without their sizes and times. Commits list the
// snapshot directory, which holds a file per retained snapshot (thousands
// for a table committed every second and kept an hour); on local disk
// List stats each of them, which cost more than the rest of a small
// commit, and the names alone need no stat.
//
// ListFileNames returns the base names of dir's direct children that are
// not directories, in any order; a missing dir lists as empty.
type FileNamesLister interface {
	ListFileNames(ctx context.Context, dir string) ([]string, error)
}

// ListFileNames lists dir's file names with f's FileNamesLister if it has
// one, else from List.
func ListFileNames(ctx context.Context, f FileIO, dir string) ([]string, error) {
	if l, ok := f.(FileNamesLister); ok {
		return l.ListFileNames(ctx, dir)
	}
	infos, err := f.List(ctx, dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(infos))
	for _, fi := range infos {
		if !fi.IsDir {
			names = append(names, path.Base(fi.Path))
		}
	}
	return names, nil
}

// FilesDeleter is an optional capability of a FileIO: deleting many files
// in one call, at a cost far below a Delete each (one DeleteObjects
// request per thousand keys on S3; one directory sync per directory on
// local disk instead of one per file). A missing path counts as deleted.
// The error joins the failures of the paths that could not be deleted.
type FilesDeleter interface {
	DeleteFiles(ctx context.Context, paths []string) error
}

// DeleteFiles deletes paths with f's FilesDeleter if it has one, else with
// a Delete each. As with FilesDeleter, a missing path counts as deleted.
func DeleteFiles(ctx context.Context, f FileIO, paths []string) error {
	if d, ok := f.(FilesDeleter); ok {
		return d.DeleteFiles(ctx, paths)
	}
	var errs []error
	for _, p := range paths {
		if err := f.Delete(ctx, p); err != nil && !errors.Is(err, ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
