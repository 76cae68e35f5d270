package cacheio

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/fileiotest"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

func TestConformance(t *testing.T) {
	fileiotest.Run(t, fileiotest.Harness{
		New: func(t *testing.T) (fileio.FileIO, string) {
			return New(memio.New(), 1<<20), "/w"
		},
		NoMultiProcess: "memio lives in one process",
	})
}

// countingFS counts the reads that reach the store.
type countingFS struct {
	fileio.FileIO
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	c.mu.Lock()
	c.reads[p]++
	c.mu.Unlock()
	return c.FileIO.ReadFile(ctx, p)
}

func (c *countingFS) readsOf(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[p]
}

func newCounted(maxBytes int64) (*FS, *countingFS) {
	inner := &countingFS{FileIO: memio.New(), reads: map[string]int{}}
	return New(inner, maxBytes), inner
}

const (
	manifest  = "/w/db.db/t/manifest/manifest-3c0e1f7a-0"
	manifest2 = "/w/db.db/t/manifest/manifest-list-9d2b44c1-1"
	snapshot  = "/w/db.db/t/snapshot/snapshot-1"
)

func TestImmutable(t *testing.T) {
	for p, want := range map[string]bool{
		manifest:  true,
		manifest2: true,
		"/w/db.db/t/manifest/index-manifest-5a-0": true,
		snapshot:                         false,
		"/w/db.db/t/schema/schema-0":     false,
		"/w/db.db/t/snapshot/LATEST":     false,
		"/w/db.db/t/commit-user/u":       false,
		"/w/db.db/t/manifest-x/manifest": false,
	} {
		if got := Immutable(p); got != want {
			t.Errorf("Immutable(%s) = %v, want %v", p, got, want)
		}
	}
}

func TestManifestReadOnce(t *testing.T) {
	ctx := context.Background()
	f, inner := newCounted(1 << 20)
	if err := inner.FileIO.PutIfAbsent(ctx, manifest, []byte("m1")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		data, err := f.ReadFile(ctx, manifest)
		if err != nil || string(data) != "m1" {
			t.Fatalf("ReadFile = %q, %v", data, err)
		}
		data[0] = 'X' // the caller's copy
	}
	if n := inner.readsOf(manifest); n != 1 {
		t.Errorf("manifest read %d times from the store, want 1", n)
	}
}

func TestOtherFilesAlwaysReachTheStore(t *testing.T) {
	ctx := context.Background()
	f, _ := newCounted(1 << 20)
	if err := f.PutIfAbsent(ctx, snapshot, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile(ctx, snapshot); err != nil {
		t.Fatal(err)
	}
	// A rollback deletes a snapshot; a later commit writes the same name.
	if err := f.Delete(ctx, snapshot); err != nil {
		t.Fatal(err)
	}
	if err := f.PutIfAbsent(ctx, snapshot, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if data, err := f.ReadFile(ctx, snapshot); err != nil || string(data) != "new" {
		t.Errorf("snapshot after rewrite = %q, %v; want new", data, err)
	}
}

func TestWrittenManifestIsCached(t *testing.T) {
	ctx := context.Background()
	f, inner := newCounted(1 << 20)
	if err := f.PutIfAbsent(ctx, manifest, []byte("m1")); err != nil {
		t.Fatal(err)
	}
	if data, err := f.ReadFile(ctx, manifest); err != nil || string(data) != "m1" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	if n := inner.readsOf(manifest); n != 0 {
		t.Errorf("a manifest this FS wrote was read %d times from the store", n)
	}
	if err := f.PutIfAbsent(ctx, manifest, []byte("other")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("second PutIfAbsent = %v, want ErrExist", err)
	}
	if data, _ := f.ReadFile(ctx, manifest); string(data) != "m1" {
		t.Errorf("after a lost PutIfAbsent the cache holds %q, want the stored m1", data)
	}
}

func TestDeleteEvicts(t *testing.T) {
	ctx := context.Background()
	f, _ := newCounted(1 << 20)
	if err := f.PutIfAbsent(ctx, manifest, []byte("m1")); err != nil {
		t.Fatal(err)
	}
	if err := f.Delete(ctx, manifest); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile(ctx, manifest); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("ReadFile of a deleted manifest = %v, want ErrNotExist", err)
	}
	if f.CachedBytes() != 0 {
		t.Errorf("%d bytes cached after the delete", f.CachedBytes())
	}
}

func TestBoundEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	f, inner := newCounted(10)
	six := bytes.Repeat([]byte("a"), 6)
	for _, p := range []string{manifest, manifest2} {
		if err := inner.FileIO.PutIfAbsent(ctx, p, six); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{manifest, manifest2, manifest} {
		if _, err := f.ReadFile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if f.CachedBytes() > 10 {
		t.Errorf("%d bytes cached over a bound of 10", f.CachedBytes())
	}
	if inner.readsOf(manifest) != 2 || inner.readsOf(manifest2) != 1 {
		t.Errorf("store reads: %d of the first manifest (want 2: evicted by the second), %d of the second (want 1)",
			inner.readsOf(manifest), inner.readsOf(manifest2))
	}
	big := bytes.Repeat([]byte("b"), 11)
	p := "/w/db.db/t/manifest/manifest-big-0"
	if err := f.PutIfAbsent(ctx, p, big); err != nil {
		t.Fatal(err)
	}
	if f.CachedBytes() > 10 {
		t.Errorf("a file over the bound was cached: %d bytes", f.CachedBytes())
	}
}
