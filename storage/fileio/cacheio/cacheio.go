// Package cacheio wraps a fileio.FileIO with a bounded in-memory cache of
// the files that never change once written, for object stores where every
// read is a round trip.
//
// Only files named by a random UUID are cached: Paimon manifests, manifest
// lists and index manifests (see Immutable). Snapshot and schema files are
// immutable too, but a rollback deletes them and a later commit writes the
// same name with other content, so they are always read from the store; so
// are hints, receipts and everything else.
//
// A file deleted by another process may still be served from the cache.
// That is harmless for manifests: only a snapshot that names a manifest
// reads it, and a deleted manifest belongs to an expired snapshot.
package cacheio

import (
	"bytes"
	"container/list"
	"context"
	"path"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/fileio"
)

// Immutable reports whether p names a Paimon metadata file whose name is a
// fresh UUID: a file in a manifest directory named manifest-…,
// manifest-list-… or index-manifest-….
func Immutable(p string) bool {
	dir, name := path.Split(p)
	if path.Base(dir) != "manifest" {
		return false
	}
	return strings.HasPrefix(name, "manifest-") || strings.HasPrefix(name, "index-manifest-")
}

// FS is a FileIO whose ReadFile of Immutable paths is served from memory
// after the first read or a successful PutIfAbsent. Everything else goes
// to the wrapped FileIO. It is safe for concurrent use.
type FS struct {
	fileio.FileIO
	maxBytes int64

	mu    sync.Mutex
	bytes int64
	// lru holds *entry values, most recently used first.
	lru   *list.List
	index map[string]*list.Element
}

type entry struct {
	path string
	data []byte
}

var (
	_ fileio.FileIO     = (*FS)(nil)
	_ fileio.HintWriter = (*FS)(nil)
)

// New caches up to maxBytes of file contents in front of inner; the least
// recently used files are evicted first. A file larger than maxBytes is
// never cached.
func New(inner fileio.FileIO, maxBytes int64) *FS {
	return &FS{FileIO: inner, maxBytes: maxBytes, lru: list.New(), index: map[string]*list.Element{}}
}

// ReadFile implements fileio.FileIO. The returned slice is the caller's.
func (f *FS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if !Immutable(p) {
		return f.FileIO.ReadFile(ctx, p)
	}
	if data, ok := f.get(p); ok {
		return data, nil
	}
	data, err := f.FileIO.ReadFile(ctx, p)
	if err != nil {
		return nil, err
	}
	f.put(p, data)
	return data, nil
}

// PutIfAbsent implements fileio.FileIO. A written immutable file is
// cached: the writer reads its own manifests back when it commits again.
func (f *FS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if err := f.FileIO.PutIfAbsent(ctx, p, data); err != nil {
		return err
	}
	if Immutable(p) {
		f.put(p, data)
	}
	return nil
}

// Overwrite implements fileio.FileIO.
func (f *FS) Overwrite(ctx context.Context, p string, data []byte) error {
	f.evict(p)
	return f.FileIO.Overwrite(ctx, p, data)
}

// OverwriteHint implements fileio.HintWriter with the wrapped FileIO's.
func (f *FS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	f.evict(p)
	return fileio.OverwriteHint(ctx, f.FileIO, p, data)
}

// Delete implements fileio.FileIO.
func (f *FS) Delete(ctx context.Context, p string) error {
	f.evict(p)
	return f.FileIO.Delete(ctx, p)
}

// CachedBytes is the size of the cached contents.
func (f *FS) CachedBytes() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bytes
}

func (f *FS) get(p string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	el, ok := f.index[p]
	if !ok {
		return nil, false
	}
	f.lru.MoveToFront(el)
	return bytes.Clone(el.Value.(*entry).data), true
}

func (f *FS) put(p string, data []byte) {
	size := int64(len(data))
	if size > f.maxBytes {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.index[p]; ok {
		return
	}
	f.index[p] = f.lru.PushFront(&entry{path: p, data: bytes.Clone(data)})
	f.bytes += size
	for f.bytes > f.maxBytes {
		f.remove(f.lru.Back())
	}
}

func (f *FS) evict(p string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if el, ok := f.index[p]; ok {
		f.remove(el)
	}
}

func (f *FS) remove(el *list.Element) {
	e := f.lru.Remove(el).(*entry)
	delete(f.index, e.path)
	f.bytes -= int64(len(e.data))
}
