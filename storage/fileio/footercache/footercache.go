// Package footercache keeps the footers of Parquet data files in memory,
// so that reading a data file again does not fetch its footer again.
//
// A data file's reader asks for its footer before anything else. On an
// object store that costs a request, and a reader whose filter prunes
// every row group by the footer's statistics needs nothing else from the
// file. With the footer in memory, such a reader makes no request at all,
// and any other makes only those for the pages it reads.
//
// The cache relies on Paimon never writing a data file twice under one
// name: data files are named by a fresh UUID, and a file is deleted only
// when no live snapshot names it. So the cached bytes of a path stay the
// file's bytes for as long as a reader can ask for it. The size the
// caller passes (a data file's size is in its manifest entry) is part of
// the key anyway: a cached footer is never served for a file of another
// size, and a file found to have another size when its pages are read is
// an error rather than a mix of two files.
package footercache

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/bytelru"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// SizedOpener is a FileIO that opens files whose size the caller already
// knows, as it does a data file's from the manifest entry naming it.
type SizedOpener interface {
	// OpenSized opens path, a file of size bytes, for random access, as
	// fileio.FileIO.Open does.
	OpenSized(ctx context.Context, path string, size int64) (fileio.File, error)
}

// Open opens path, a file of size bytes, with fsys's OpenSized when it is
// a SizedOpener, else with its Open.
func Open(ctx context.Context, fsys fileio.FileIO, path string, size int64) (fileio.File, error) {
	if s, ok := fsys.(SizedOpener); ok {
		return s.OpenSized(ctx, path, size)
	}
	return fsys.Open(ctx, path)
}

// trailerSize is the length and the magic that end a Parquet file.
const trailerSize = 8

// FS is a FileIO whose OpenSized serves the footers of Parquet files from
// memory after the first open; everything else goes to the wrapped
// FileIO. It is safe for concurrent use.
type FS struct {
	fileio.FileIO
	maxBytes int64

	hits, misses atomic.Int64
	cache        *bytelru.Cache[string, footer]
}

// footer is the cached end of one file.
type footer struct {
	// size is the size of the file the tail was read from.
	size int64
	// tail is the file's last bytes: its footer, the footer's length and
	// the magic.
	tail []byte
}

var (
	_ fileio.FileIO       = (*FS)(nil)
	_ fileio.HintWriter   = (*FS)(nil)
	_ fileio.FilesDeleter = (*FS)(nil)
	_ fileio.Stager       = (*FS)(nil)
	_ SizedOpener         = (*FS)(nil)
)

// New caches up to maxBytes of footers in front of inner; the least
// recently used are evicted first, and a footer larger than maxBytes is
// never cached. maxBytes <= 0 turns the cache off: OpenSized is inner's
// Open.
func New(inner fileio.FileIO, maxBytes int64) *FS {
	return &FS{FileIO: inner, maxBytes: maxBytes,
		cache: bytelru.New[string](maxBytes, func(e footer) int64 { return int64(len(e.tail)) })}
}

// Stats describes the cache's use since New.
type Stats struct {
	// Hits and Misses count the OpenSized calls that found the file's
	// footer in the cache and those that did not.
	Hits, Misses int64
	// Files and Bytes are the footers cached now and their total size.
	Files int
	Bytes int64
}

// Stats returns the cache's counters and occupancy.
func (f *FS) Stats() Stats {
	return Stats{Hits: f.hits.Load(), Misses: f.misses.Load(), Files: f.cache.Len(), Bytes: f.cache.Bytes()}
}

// OpenSized implements SizedOpener. When the footer of path, a file of
// size bytes, is cached, nothing is opened until a read reaches below the
// footer; the reads then run under ctx. Otherwise the file is opened now,
// and its footer cached when a read covers it. A size <= 0 is unknown and
// bypasses the cache.
func (f *FS) OpenSized(ctx context.Context, p string, size int64) (fileio.File, error) {
	if f.maxBytes <= 0 || size <= 0 {
		return f.FileIO.Open(ctx, p)
	}
	if tail, ok := f.get(p, size); ok {
		f.hits.Add(1)
		return &cachedFile{ctx: ctx, inner: f.FileIO, path: p, size: size, tail: tail}, nil
	}
	f.misses.Add(1)
	file, err := f.FileIO.Open(ctx, p)
	if err != nil || file.Size() != size {
		// A file of another size than the caller's is read as it is,
		// uncached; judging it is the reader's business.
		return file, err
	}
	return &recordingFile{File: file, fs: f, path: p}, nil
}

// Delete implements fileio.FileIO, dropping the path's cached footer.
func (f *FS) Delete(ctx context.Context, p string) error {
	f.evict(p)
	return f.FileIO.Delete(ctx, p)
}

// DeleteFiles implements fileio.FilesDeleter with the wrapped FileIO's,
// dropping the paths' cached footers.
func (f *FS) DeleteFiles(ctx context.Context, paths []string) error {
	for _, p := range paths {
		f.evict(p)
	}
	return fileio.DeleteFiles(ctx, f.FileIO, paths)
}

// OverwriteHint implements fileio.HintWriter with the wrapped FileIO's.
func (f *FS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	return fileio.OverwriteHint(ctx, f.FileIO, p, data)
}

// StagePut implements fileio.Stager with the wrapped FileIO's.
func (f *FS) StagePut(ctx context.Context, p string, data []byte) (fileio.Staged, error) {
	return fileio.StagePut(ctx, f.FileIO, p, data)
}

func (f *FS) get(p string, size int64) ([]byte, bool) {
	e, ok := f.cache.Get(p)
	if !ok || e.size != size {
		return nil, false
	}
	return e.tail, true
}

// put caches tail, which it keeps: the caller must not modify it.
func (f *FS) put(p string, size int64, tail []byte) {
	f.cache.Put(p, footer{size: size, tail: tail})
}

func (f *FS) evict(p string) { f.cache.Remove(p) }

// recordingFile is a file opened on a cache miss. The first successful
// read that covers the file's footer puts the footer in the cache, so
// caching costs no read of its own.
type recordingFile struct {
	fileio.File
	fs       *FS
	path     string
	recorded atomic.Bool
}

func (r *recordingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.File.ReadAt(p, off)
	if (err == nil || errors.Is(err, io.EOF)) && off+int64(n) == r.Size() {
		r.record(p[:n])
	}
	return n, err
}

// record caches the footer at the end of end, the file's last bytes, if
// end holds all of it. A file that does not end like a Parquet file is
// not cached: the reader reports it.
func (r *recordingFile) record(end []byte) {
	if len(end) < trailerSize || string(end[len(end)-4:]) != "PAR1" || r.recorded.Load() {
		return
	}
	tailSize := int64(binary.LittleEndian.Uint32(end[len(end)-trailerSize:])) + trailerSize
	if tailSize > int64(len(end)) || !r.recorded.CompareAndSwap(false, true) {
		return
	}
	r.fs.put(r.path, r.Size(), bytes.Clone(end[int64(len(end))-tailSize:]))
}

// cachedFile is a file whose footer is cached: reads of the footer are
// served from memory, and the file is opened by the first read of
// anything else. It implements parquetio.MemoryTail, so that the Parquet
// reader asks for exactly the cached bytes first.
type cachedFile struct {
	ctx   context.Context
	inner fileio.FileIO
	path  string
	size  int64
	tail  []byte

	mu sync.Mutex
	// opened is the file opened in inner and err the failure to open it,
	// kept for every later read: the file is opened at most once.
	opened fileio.File
	err    error
}

func (c *cachedFile) Size() int64 { return c.size }

// MemoryTail returns how many of the file's last bytes are in memory.
func (c *cachedFile) MemoryTail() int64 { return int64(len(c.tail)) }

// ReadAt reads len(p) bytes at off, from memory when they lie in the
// cached footer. Like any io.ReaderAt it returns io.EOF with the bytes
// that exist when the range runs past the end.
func (c *cachedFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: c.path, Err: errors.New("negative offset")}
	}
	start := c.size - int64(len(c.tail))
	if off < start {
		file, err := c.file()
		if err != nil {
			return 0, err
		}
		return file.ReadAt(p, off)
	}
	if off >= c.size {
		return 0, io.EOF
	}
	n := copy(p, c.tail[off-start:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// file opens the file in the wrapped FileIO on first use.
func (c *cachedFile) file() (fileio.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opened == nil && c.err == nil {
		c.opened, c.err = c.open()
	}
	return c.opened, c.err
}

func (c *cachedFile) open() (fileio.File, error) {
	file, err := c.inner.Open(c.ctx, c.path)
	if err != nil {
		return nil, err
	}
	if file.Size() != c.size {
		return nil, errors.Join(fmt.Errorf("%s is %d bytes, but its cached footer is that of a file of %d: %w",
			c.path, file.Size(), c.size, lakeerr.ErrCorruption), file.Close())
	}
	return file, nil
}

// Close closes the file if a read opened it.
func (c *cachedFile) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opened == nil {
		return nil
	}
	return c.opened.Close()
}

// ListFileNames implements fileio.FileNamesLister with the wrapped FileIO's.
func (f *FS) ListFileNames(ctx context.Context, dir string) ([]string, error) {
	return fileio.ListFileNames(ctx, f.FileIO, dir)
}
