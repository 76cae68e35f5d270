package cacheio

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

func TestConformance(t *testing.T) {
	filetest.ConformanceOverMemory(t, func(inner fileio.FileIO) fileio.FileIO { return New(inner, 1<<20) })
}

// newCounted is a cache of maxBytes over a memio store whose reads and
// opens are counted.
func newCounted(maxBytes int64) (*FS, *filetest.CountingFS) {
	inner := filetest.NewCountingFS(memio.New())
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
	if n := inner.Reads(manifest); n != 1 {
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
	if n := inner.Reads(manifest); n != 0 {
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
	if inner.Reads(manifest) != 2 || inner.Reads(manifest2) != 1 {
		t.Errorf("store reads: %d of the first manifest (want 2: evicted by the second), %d of the second (want 1)",
			inner.Reads(manifest), inner.Reads(manifest2))
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
