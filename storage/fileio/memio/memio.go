// Package memio is an in-memory fileio.FileIO for tests.
//
// Besides the visible state every FileIO has, an FS keeps the state a crash
// would leave behind, so crash tests can reopen a table on CrashClone and
// check what survives. A write becomes durable when it returns nil: a write
// still in flight (visible to readers but not yet acknowledged to its
// caller) does not survive a crash, as on a disk whose directory is not yet
// fsynced. A Delete is durable as soon as it is visible. OverwriteHint never
// becomes durable by itself (fileio.HintWriter).
//
// Paths are slash-separated and cleaned (path.Clean), so "a//b" and "a/b"
// name the same file. Directories are implied by the files under them: a
// directory exists while it holds a file.
package memio

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
)

var (
	errIsDir  = errors.New("is a directory")
	errNotDir = errors.New("not a directory")
)

// FS is an in-memory FileIO. Create it with New.
type FS struct {
	mu sync.Mutex
	// files is the visible state, keyed by cleaned path.
	files map[string]*file
	// durable is what a crash leaves at each path that was ever written or
	// deleted: the latest acknowledged write, or a deletion.
	durable map[string]durableVersion
	// seq orders writes and deletes, so a write acknowledged late never
	// hides a newer write or delete of the same path in durable.
	seq uint64
	// afterVisible, when set by a test, runs between a write becoming
	// visible and its acknowledgement: the window CrashClone must exclude.
	afterVisible func(key string)
}

var (
	_ fileio.FileIO     = (*FS)(nil)
	_ fileio.HintWriter = (*FS)(nil)
)

// file is one immutable version of a file; writes replace it, never mutate
// it, so readers and clones share it without copying.
type file struct {
	data    []byte
	modTime time.Time
	seq     uint64
}

// durableVersion is what survives a crash at one path: file, or nothing if
// file is nil (deleted), as of write or delete number seq.
type durableVersion struct {
	file *file
	seq  uint64
}

// New returns an empty FS.
func New() *FS {
	return &FS{files: map[string]*file{}, durable: map[string]durableVersion{}}
}

// CrashClone returns an independent FS holding what a crash at this instant
// would leave: every acknowledged write and delete, and no write that is
// still in flight.
func (m *FS) CrashClone() *FS {
	m.mu.Lock()
	defer m.mu.Unlock()
	clone := New()
	clone.seq = m.seq
	for key, version := range m.durable {
		if version.file != nil {
			clone.files[key] = version.file
			clone.durable[key] = version
		}
	}
	return clone
}

// Files returns the cleaned path of every visible file, sorted.
func (m *FS) Files() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.files))
	for key := range m.files {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// ReadFile returns a copy of the content of p.
func (m *FS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	f, err := m.lookup(ctx, "read", p)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(f.data), nil
}

// Open opens p for random access.
func (m *FS) Open(ctx context.Context, p string) (fileio.File, error) {
	f, err := m.lookup(ctx, "open", p)
	if err != nil {
		return nil, err
	}
	return memFile{bytes.NewReader(f.data)}, nil
}

// Stat describes p, which may be a file or a directory.
func (m *FS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return fileio.FileInfo{}, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	key := path.Clean(p)
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.files[key]; ok {
		return fileInfo(p, f), nil
	}
	if m.isDir(key) {
		return fileio.FileInfo{Path: p, IsDir: true}, nil
	}
	return fileio.FileInfo{}, &fs.PathError{Op: "stat", Path: p, Err: fileio.ErrNotExist}
}

// List returns the direct children of dir in lexical order; a missing dir
// lists as empty.
func (m *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	key := path.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[key]; ok {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: errNotDir}
	}
	children := map[string]fileio.FileInfo{}
	for fileKey, f := range m.files {
		name, nested, ok := childOf(key, fileKey)
		if !ok {
			continue
		}
		if nested {
			children[name] = fileio.FileInfo{Path: path.Join(dir, name), IsDir: true}
		} else {
			children[name] = fileInfo(path.Join(dir, name), f)
		}
	}
	names := make([]string, 0, len(children))
	for name := range children {
		names = append(names, name)
	}
	slices.Sort(names)
	infos := make([]fileio.FileInfo, len(names))
	for i, name := range names {
		infos[i] = children[name]
	}
	return infos, nil
}

// Delete removes the file p.
func (m *FS) Delete(ctx context.Context, p string) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: "delete", Path: p, Err: err}
	}
	key := path.Clean(p)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[key]; !ok {
		if m.isDir(key) {
			return &fs.PathError{Op: "delete", Path: p, Err: errIsDir}
		}
		return &fs.PathError{Op: "delete", Path: p, Err: fileio.ErrNotExist}
	}
	delete(m.files, key)
	m.seq++
	m.durable[key] = durableVersion{seq: m.seq}
	return nil
}

// PutIfAbsent creates p holding a copy of data, or fails with an error
// wrapping fileio.ErrExist if p exists.
func (m *FS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	return m.write(ctx, "put-if-absent", p, data, true)
}

// Overwrite replaces the content of p with a copy of data, creating p if
// needed.
func (m *FS) Overwrite(ctx context.Context, p string, data []byte) error {
	return m.write(ctx, "overwrite", p, data, false)
}

// OverwriteHint is Overwrite without the acknowledgement
// (fileio.HintWriter): the new content is visible at once, but a crash
// before a later durable write of p brings back what p held before.
func (m *FS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: "overwrite-hint", Path: p, Err: err}
	}
	if _, err := m.publish(path.Clean(p), data, false); err != nil {
		return &fs.PathError{Op: "overwrite-hint", Path: p, Err: err}
	}
	return nil
}

// write makes the new version visible, then acknowledges it by making it
// durable. The two steps take the lock separately, so that CrashClone can
// fall between them. An exclusive write fails if p exists.
func (m *FS) write(ctx context.Context, op, p string, data []byte, exclusive bool) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	key := path.Clean(p)
	f, err := m.publish(key, data, exclusive)
	if err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	if m.afterVisible != nil {
		m.afterVisible(key)
	}
	m.acknowledge(key, f)
	return nil
}

func (m *FS) publish(key string, data []byte, exclusive bool) (*file, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkWritable(key, exclusive); err != nil {
		return nil, err
	}
	m.seq++
	f := &file{data: append([]byte{}, data...), modTime: time.Now(), seq: m.seq}
	m.files[key] = f
	return f, nil
}

// checkWritable refuses the writes a disk refuses: writing below a file
// (ENOTDIR), replacing a directory (link: EEXIST, rename: EISDIR), and an
// exclusive create of an existing file.
func (m *FS) checkWritable(key string, exclusive bool) error {
	for dir := path.Dir(key); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, ok := m.files[dir]; ok {
			return errNotDir
		}
	}
	if m.isDir(key) {
		if exclusive {
			return fileio.ErrExist
		}
		return errIsDir
	}
	if _, exists := m.files[key]; exists && exclusive {
		return fileio.ErrExist
	}
	return nil
}

func (m *FS) acknowledge(key string, f *file) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.durable[key].seq < f.seq {
		m.durable[key] = durableVersion{file: f, seq: f.seq}
	}
}

func (m *FS) lookup(ctx context.Context, op, p string) (*file, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: op, Path: p, Err: err}
	}
	key := path.Clean(p)
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.files[key]; ok {
		return f, nil
	}
	if m.isDir(key) {
		return nil, &fs.PathError{Op: op, Path: p, Err: errIsDir}
	}
	return nil, &fs.PathError{Op: op, Path: p, Err: fileio.ErrNotExist}
}

// isDir reports whether some file lies below key. Callers hold m.mu.
func (m *FS) isDir(key string) bool {
	for fileKey := range m.files {
		if _, _, ok := childOf(key, fileKey); ok {
			return true
		}
	}
	return false
}

// childOf reports whether fileKey lies below dirKey and, if so, the name of
// the direct child of dirKey on its way and whether that child is a
// directory.
func childOf(dirKey, fileKey string) (name string, nested, ok bool) {
	prefix := dirKey + "/"
	switch dirKey {
	case "/":
		prefix = "/"
	case ".":
		prefix = ""
	}
	rest, found := strings.CutPrefix(fileKey, prefix)
	if !found {
		return "", false, false
	}
	name, _, nested = strings.Cut(rest, "/")
	// An absolute key is not below ".", and yields an empty first element.
	return name, nested, name != ""
}

func fileInfo(p string, f *file) fileio.FileInfo {
	return fileio.FileInfo{Path: p, Size: int64(len(f.data)), ModTime: f.modTime}
}

// memFile reads an immutable version, so it stays valid after the path is
// overwritten or deleted, as an open file on disk does.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }
