package maintenance

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// yieldFS yields the processor before every operation, so that goroutines
// sharing it interleave at I/O granularity.
type yieldFS struct{ fileio.FileIO }

func (y yieldFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	runtime.Gosched()
	return y.FileIO.ReadFile(ctx, p)
}

func (y yieldFS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	runtime.Gosched()
	return y.FileIO.List(ctx, dir)
}

func (y yieldFS) Delete(ctx context.Context, p string) error {
	runtime.Gosched()
	return y.FileIO.Delete(ctx, p)
}

func (y yieldFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	runtime.Gosched()
	return y.FileIO.Stat(ctx, p)
}

// untilSettled runs op until it does not fail with a retryable conflict.
func untilSettled(op func() error) error {
	for {
		if err := op(); !errors.Is(err, lakeerr.ErrRetryableConflict) {
			return err
		}
	}
}

// TestConcurrentExpiries runs two expiries with different retention at
// once: each may stop with a retryable conflict when the other removes a
// snapshot it protects, and must succeed when run again; together they
// must leave exactly what the more aggressive one alone leaves.
func TestConcurrentExpiries(t *testing.T) {
	base := newFixture(t, pkTable)
	buildHistory(base)
	before := captureState(t, base.FS, base.Dir)
	for round := range 10 {
		f := base.clone(base.mem.CrashClone())
		fio := yieldFS{f.FS}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, retainMin := range []int{3, 6} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = untilSettled(func() error {
					_, err := ExpireSnapshots(context.Background(), fio, f.Dir, ExpireOptions{RetainMin: intp(retainMin),
						OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
					return err
				})
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		checkRetained(t, f.FS, f.Dir, before, from(11))
		checkNoLeak(t, f.FS, f.Dir)
		ids, err := snapshot.NewManager(f.FS, f.Dir, "").IDs(context.Background())
		if err != nil || !slices.Equal(ids, []int64{11, 12, 13}) {
			t.Fatalf("round %d: snapshots %v (%v), want 11..13", round, ids, err)
		}
	}
}

// TestExpiryInsideExpiry runs a second expiry, with other retention, at
// every point of a first one. Either may stop with a retryable conflict
// when the other removes a snapshot it protects; the first must then
// succeed when run again, and in the end the table must be what the more
// aggressive expiry alone leaves.
func TestExpiryInsideExpiry(t *testing.T) {
	base := newFixture(t, pkTable)
	buildHistory(base)
	before := captureState(t, base.FS, base.Dir)
	expire := func(f *fixture, fio fileio.FileIO, retainMin int) error {
		_, err := ExpireSnapshots(context.Background(), fio, f.Dir, ExpireOptions{RetainMin: intp(retainMin),
			OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
		return err
	}
	for _, order := range [][2]int{{3, 6}, {6, 3}} {
		conflicts, innerConflicts := 0, 0
		for k := 0; ; k++ {
			f := base.clone(base.mem.CrashClone())
			var inner error
			h := &hookFS{FileIO: f.FS, at: k, hook: func() { inner = expire(f, f.FS, order[1]) }}
			outer := expire(f, h, order[0])
			if !h.fired {
				break
			}
			if inner != nil && !errors.Is(inner, lakeerr.ErrRetryableConflict) {
				t.Fatalf("retain %v, point %d: inner expiry: %v", order, k, inner)
			}
			if inner != nil {
				innerConflicts++
			}
			if errors.Is(outer, lakeerr.ErrRetryableConflict) {
				conflicts++
				outer = expire(f, f.FS, order[0])
			}
			if outer != nil {
				t.Fatalf("retain %v, point %d: outer expiry: %v", order, k, outer)
			}
			checkRetained(t, f.FS, f.Dir, before, from(11))
			checkNoLeak(t, f.FS, f.Dir)
			ids, err := snapshot.NewManager(f.FS, f.Dir, "").IDs(context.Background())
			if err != nil || !slices.Equal(ids, []int64{11, 12, 13}) {
				t.Fatalf("retain %v, point %d: snapshots %v (%v), want 11..13", order, k, ids, err)
			}
			if t.Failed() {
				t.Fatalf("retain %v, point %d broke the table", order, k)
			}
		}
		t.Logf("retain %v: retryable conflicts stopped the outer expiry at %d points, the inner one at %d", order, conflicts, innerConflicts)
	}
}

// TestTagCreatedDuringExpiry tags snapshot 9 at every point of an expiry
// that deletes it. Either the tag is refused, or it is whole afterwards:
// never a tag whose files expiry deleted.
func TestTagCreatedDuringExpiry(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	buildHistory(base)
	before := captureState(t, base.FS, base.Dir)
	created, refused := 0, 0
	for k := 0; ; k++ {
		f := base.clone(base.mem.CrashClone())
		var tagErr error
		h := &hookFS{FileIO: f.FS, at: k, hook: func() {
			_, tagErr = CreateTag(ctx, f.FS, f.Dir, "t9", CreateTagOptions{SnapshotID: 9})
		}}
		expire := func(fio fileio.FileIO) error {
			_, err := ExpireSnapshots(ctx, fio, f.Dir, ExpireOptions{RetainMin: intp(3), OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
			return err
		}
		err := expire(h)
		if !h.fired {
			break
		}
		if errors.Is(err, lakeerr.ErrRetryableConflict) {
			err = expire(f.FS)
		}
		if err != nil {
			t.Fatalf("point %d: expiry: %v", k, err)
		}
		want := before
		switch {
		case tagErr == nil:
			created++
			want = tableState{snapshots: before.snapshots, tags: maps.Clone(before.tags)}
			want.tags["t9"] = before.snapshots[9]
		case errors.Is(tagErr, lakeerr.ErrNotFound):
			refused++
			if names, _ := snapshot.NewManager(f.FS, f.Dir, "").TagNames(ctx); slices.Contains(names, "t9") {
				t.Fatalf("point %d: refused tag t9 is still there", k)
			}
		default:
			t.Fatalf("point %d: create tag: %v", k, tagErr)
		}
		checkRetained(t, f.FS, f.Dir, want, from(11))
		if t.Failed() {
			t.Fatalf("point %d broke the table", k)
		}
	}
	if created == 0 || refused == 0 {
		t.Fatalf("%d points created the tag and %d refused it; want both outcomes", created, refused)
	}
}
