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
	"context"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/bytelru"
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
	cache *bytelru.Cache[string, []byte]
}

var (
	_ fileio.FileIO       = (*FS)(nil)
	_ fileio.HintWriter   = (*FS)(nil)
	_ fileio.FilesDeleter = (*FS)(nil)
)

// New caches up to maxBytes of file contents in front of inner; the least
// recently used files are evicted first. A file larger than maxBytes is
// never cached.
func New(inner fileio.FileIO, maxBytes int64) *FS {
	return &FS{FileIO: inner, cache: bytelru.New[string](maxBytes, func(data []byte) int64 { return int64(len(data)) })}
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

// DeleteFiles implements fileio.FilesDeleter with the wrapped FileIO's.
func (f *FS) DeleteFiles(ctx context.Context, paths []string) error {
	for _, p := range paths {
		f.evict(p)
	}
	return fileio.DeleteFiles(ctx, f.FileIO, paths)
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
func (f *FS) CachedBytes() int64 { return f.cache.Bytes() }

func (f *FS) get(p string) ([]byte, bool) {
	data, ok := f.cache.Get(p)
	return bytes.Clone(data), ok
}

// put caches a copy of data; the files cached are immutable, so a path
// cached already keeps its value.
func (f *FS) put(p string, data []byte) {
	if _, ok := f.cache.Get(p); !ok {
		f.cache.Put(p, bytes.Clone(data))
	}
}

func (f *FS) evict(p string) { f.cache.Remove(p) }

// ListFileNames implements fileio.FileNamesLister with the wrapped FileIO's.
func (f *FS) ListFileNames(ctx context.Context, dir string) ([]string, error) {
	return fileio.ListFileNames(ctx, f.FileIO, dir)
}
