// Package localio is the fileio.FileIO of a local disk. Paths are OS paths,
// absolute or relative to the working directory.
//
// Writes never expose a partial file: the bytes are staged in a temp file
// ".<name>.<uuid>.tmp" next to the target (fileio.IsTempName), fsynced, and
// only then published under the target name. PutIfAbsent publishes with
// link(2), which the kernel refuses when the target exists, so exactly one of
// any number of racing writers wins, across processes too; StagePut
// (fileio.Stager) splits it between the two steps. Overwrite publishes with
// rename(2). Both fsync the directory before returning, so a nil error
// means the target survives a crash; concurrent writers into one directory
// share its fsyncs.
//
// A writer that crashes mid-way may leave its temp file behind. Temp files
// are never read back as data and never block a later write; List reports
// them because they exist, and callers skip them with fileio.IsTempName.
package localio

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
)

// FS is the local-disk FileIO. The zero value is ready to use.
type FS struct{}

var (
	_ fileio.FileIO          = (*FS)(nil)
	_ fileio.HintWriter      = (*FS)(nil)
	_ fileio.FilesDeleter    = (*FS)(nil)
	_ fileio.FileNamesLister = (*FS)(nil)
	_ fileio.Stager          = (*FS)(nil)
)

// New returns a local-disk FileIO.
func New() *FS { return &FS{} }

// ReadFile returns the whole content of path.
func (*FS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return os.ReadFile(path)
}

// Open opens path for random access.
func (*FS) Open(ctx context.Context, path string) (fileio.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &file{f: f, size: info.Size()}, nil
}

// Stat describes path, which may be a file or a directory.
func (*FS) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return fileio.FileInfo{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	info, err := os.Stat(path)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	return fileInfo(path, info), nil
}

// List returns the direct children of dir in lexical order. A missing dir
// lists as empty, because a table directory that was never written to is
// not an error.
func (*FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	infos := make([]fileio.FileInfo, 0, len(entries))
	for _, entry := range entries {
		info, err := entry.Info()
		if errors.Is(err, fs.ErrNotExist) {
			// Deleted since ReadDir: it is no longer a child.
			continue
		}
		if err != nil {
			return nil, err
		}
		infos = append(infos, fileInfo(filepath.Join(dir, entry.Name()), info))
	}
	return infos, nil
}

// ListFileNames implements fileio.FileNamesLister from the directory's
// entries alone: their types come with the names (d_type), so no file is
// stat'ed as List does.
func (*FS) ListFileNames(ctx context.Context, dir string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, entry := range entries {
		if !entry.IsDir() {
			names = append(names, entry.Name())
		}
	}
	return names, nil
}

// Delete removes path and fsyncs its directory, so that a file deleted
// before a crash (an expired snapshot, say) does not come back after it.
func (*FS) Delete(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: "delete", Path: path, Err: err}
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// deleteWorkers is how many files DeleteFiles removes at once: an unlink
// that frees data blocks waits for the disk (synchronously, on file
// systems mounted with discard), and those waits overlap.
const deleteWorkers = 16

// DeleteFiles implements fileio.FilesDeleter: it removes the paths,
// several at once, then syncs each of their directories once, so that
// dropping a table of 50,000 files costs a sync per directory rather than
// one per file. A missing path counts as deleted.
func (*FS) DeleteFiles(ctx context.Context, paths []string) error {
	errs := make([]error, len(paths))
	removed := make([]bool, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(deleteWorkers, len(paths)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				removed[i], errs[i] = removeFile(ctx, paths[i])
			}
		})
	}
	wg.Wait()
	dirs := map[string]bool{}
	for i, p := range paths {
		if removed[i] {
			dirs[filepath.Dir(p)] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		errs = append(errs, syncDir(dir))
	}
	return errors.Join(errs...)
}

// removeFile removes one path for DeleteFiles; a missing path is no error.
func removeFile(ctx context.Context, p string) (removed bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, &fs.PathError{Op: "delete", Path: p, Err: err}
	}
	err = os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// PutIfAbsent creates path holding data, creating missing parent
// directories, and fails with an error wrapping fileio.ErrExist if path
// already exists. An error other than ErrExist raised after the link (the
// directory fsync) leaves the outcome unknown: the file may be in place.
func (l *FS) PutIfAbsent(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: "put-if-absent", Path: path, Err: err}
	}
	// A loser of a publish race usually arrives after the winner's file is
	// visible: refusing it before staging saves the loser a create and an
	// fsync. The link below stays the real guard for simultaneous writers.
	if _, err := os.Lstat(path); err == nil {
		return &fs.PathError{Op: "put-if-absent", Path: path, Err: fileio.ErrExist}
	}
	s, err := l.StagePut(ctx, path, data)
	if err != nil {
		return err
	}
	return s.Put(ctx)
}

// StagePut implements fileio.Stager: it writes and fsyncs the temp file
// PutIfAbsent links to path, so that Put only links it and fsyncs the
// directory.
func (*FS) StagePut(ctx context.Context, path string, data []byte) (fileio.Staged, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "stage-put", Path: path, Err: err}
	}
	tmp, err := stageTemp(path, data)
	if err != nil {
		return nil, err
	}
	return &staged{path: path, tmp: tmp}, nil
}

// staged is a temp file waiting to be linked to path; tmp is "" once the
// temp file is gone.
type staged struct {
	path, tmp string
}

// Put links the temp file to path, which the kernel refuses if path
// exists, so that exactly one of any number of racing writers wins.
func (s *staged) Put(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		s.Discard()
		return &fs.PathError{Op: "put-if-absent", Path: s.path, Err: err}
	}
	err := os.Link(s.tmp, s.path)
	// Removed before the directory fsync, so that the fsync covers it.
	s.Discard()
	if errors.Is(err, fs.ErrExist) {
		return &fs.PathError{Op: "put-if-absent", Path: s.path, Err: fileio.ErrExist}
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(s.path))
}

// Discard removes the temp file. Once Put linked it, this only removes
// its temp name.
func (s *staged) Discard() {
	if s.tmp != "" {
		removeTemp(s.tmp)
		s.tmp = ""
	}
}

// Overwrite atomically replaces the content of path, creating it and its
// missing parent directories if needed.
func (*FS) Overwrite(ctx context.Context, path string, data []byte) error {
	return replace(ctx, "overwrite", path, data, true)
}

// OverwriteHint is Overwrite without the directory fsync: the rename is
// atomic but may be lost in a crash (fileio.HintWriter). The temp file is
// still fsynced before the rename: without that a crash could leave the
// renamed name on an empty or partly written inode, which a receipt reader
// would take for corruption.
func (*FS) OverwriteHint(ctx context.Context, path string, data []byte) error {
	return replace(ctx, "overwrite-hint", path, data, false)
}

// replace renames a staged temp file over path, fsyncing the directory
// when the replacement must survive a crash.
func replace(ctx context.Context, op, path string, data []byte, durable bool) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: path, Err: err}
	}
	tmp, err := stageTemp(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		removeTemp(tmp)
		return err
	}
	if !durable {
		return nil
	}
	return syncDir(filepath.Dir(path))
}

// stageTemp writes data to a new, fsynced temp file in the directory of
// target and returns its path. Nothing is left behind on failure.
func stageTemp(target string, data []byte) (string, error) {
	dir := filepath.Dir(target)
	if err := ensureDir(dir); err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, "."+filepath.Base(target)+"."+ids.NewUUID()+".tmp")
	// Not os.CreateTemp: its 0600 mode would hide table files from readers
	// running as other users (Spark, Flink).
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	if err := writeAndSync(f, data); err != nil {
		removeTemp(tmp)
		return "", err
	}
	return tmp, nil
}

func writeAndSync(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return err
}

// removeTemp removes a temp file whose job is done or failed. Its error is
// dropped on purpose: the outcome of the write is already decided, and a temp
// file left behind is harmless (fileio.IsTempName marks it).
func removeTemp(tmp string) {
	_ = os.Remove(tmp)
}

// ensureDir creates dir and its missing ancestors, fsyncing the parent of
// each directory it creates: a file fsynced into a directory whose own entry
// was lost in a crash would be lost with it.
func ensureDir(dir string) error {
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		// Present, or unusable in a way the caller's create will report.
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := ensureDir(parent); err != nil {
			return err
		}
	}
	// A concurrent writer may have created dir meanwhile; it still gets
	// fsynced below, in case that writer crashes before doing so.
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// syncDir makes the entries of dir (links, renames, removals) made before
// the call durable. An fsync of a directory covers every change made to it
// before the fsync started, so concurrent callers share fsyncs (see
// dirSync) rather than each running one: the concurrent commits of one
// table put their metadata files into one directory.
func syncDir(dir string) error {
	dirSyncs.Lock()
	d := dirSyncs.byDir[dir]
	if d == nil {
		d = &dirSync{}
		dirSyncs.byDir[dir] = d
	}
	switch {
	case d.running == nil:
		r := newSyncRound()
		d.running = r
		dirSyncs.Unlock()
		return d.run(dir, r)
	case d.next == nil:
		r := newSyncRound()
		d.next = r
		dirSyncs.Unlock()
		<-r.start
		return d.run(dir, r)
	default:
		r := d.next
		dirSyncs.Unlock()
		<-r.done
		return r.err
	}
}

// dirSyncs holds the directories being fsynced, process-wide: paths name
// the same directory whichever FS value reaches them.
var dirSyncs = struct {
	sync.Mutex
	byDir map[string]*dirSync
}{byDir: map[string]*dirSync{}}

// dirSync is the fsync of one directory in progress, and the one that
// will start when it ends, which every caller arriving meanwhile joins:
// that one starts after their changes, the running one may not have.
type dirSync struct {
	running, next *syncRound
}

type syncRound struct {
	// start is closed when the round may run; done when it has run.
	start, done chan struct{}
	err         error
}

func newSyncRound() *syncRound {
	return &syncRound{start: make(chan struct{}), done: make(chan struct{})}
}

// run fsyncs dir for round r, then starts the next round, if any.
func (d *dirSync) run(dir string, r *syncRound) error {
	r.err = fsyncDir(dir)
	dirSyncs.Lock()
	next := d.next
	d.running, d.next = next, nil
	if next == nil {
		delete(dirSyncs.byDir, dir)
	}
	dirSyncs.Unlock()
	close(r.done)
	if next != nil {
		close(next.start)
	}
	return r.err
}

// fsyncDir fsyncs dir; a variable, so that tests can watch the fsyncs
// syncDir runs.
var fsyncDir = fsyncDirectory

func fsyncDirectory(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if closeErr := d.Close(); err == nil {
		err = closeErr
	}
	return err
}

// fileInfo converts an OS description. A directory's size means nothing
// portable (ext4 says 4096, tmpfs counts entries), so it is reported as 0.
func fileInfo(path string, info fs.FileInfo) fileio.FileInfo {
	if info.IsDir() {
		return fileio.FileInfo{Path: path, ModTime: info.ModTime(), IsDir: true}
	}
	return fileio.FileInfo{Path: path, Size: info.Size(), ModTime: info.ModTime()}
}

// file is an open local file. Its size is fixed at Open because files are
// immutable once published.
type file struct {
	f    *os.File
	size int64
}

func (f *file) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }
func (f *file) Close() error                            { return f.f.Close() }
func (f *file) Size() int64                             { return f.size }
