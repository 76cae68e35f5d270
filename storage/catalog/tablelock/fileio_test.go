package tablelock

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

// recordingLocker records the tables locked, and fails to lock with
// failure when it is set.
type recordingLocker struct {
	locked  []Target
	failure error
}

func (l *recordingLocker) RunWithLock(ctx context.Context, t Target, fn func(context.Context) error) error {
	l.locked = append(l.locked, t)
	if l.failure != nil {
		return l.failure
	}
	return fn(ctx)
}

func TestWrapLocksPublishingPutsOnly(t *testing.T) {
	ctx := context.Background()
	inner := memio.New()
	locker := &recordingLocker{}
	fs := Wrap(inner, "/wh", locker)

	must(t, fs.PutIfAbsent(ctx, "/wh/pay.db/orders/manifest/manifest-1", []byte("m")))
	if len(locker.locked) != 0 {
		t.Fatalf("a manifest put took the lock: %v", locker.locked)
	}
	must(t, fs.PutIfAbsent(ctx, "/wh/pay.db/orders/snapshot/snapshot-1", []byte("s")))
	if want := []Target{{"pay", "orders"}}; !slices.Equal(locker.locked, want) {
		t.Fatalf("locked %v, want %v", locker.locked, want)
	}
	if err := fs.PutIfAbsent(ctx, "/wh/pay.db/orders/snapshot/snapshot-1", []byte("other")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("second put of snapshot-1: %v, want ErrExist", err)
	}
	data, err := inner.ReadFile(ctx, "/wh/pay.db/orders/snapshot/snapshot-1")
	if err != nil || string(data) != "s" {
		t.Fatalf("snapshot-1 holds %q, %v", data, err)
	}
}

func TestWrapStagedPutTakesLockAtPut(t *testing.T) {
	ctx := context.Background()
	locker := &recordingLocker{}
	fs := Wrap(memio.New(), "/wh", locker)
	staged, err := fileio.StagePut(ctx, fs, "/wh/pay.db/orders/snapshot/snapshot-2", []byte("s"))
	must(t, err)
	if len(locker.locked) != 0 {
		t.Fatalf("staging took the lock: %v", locker.locked)
	}
	must(t, staged.Put(ctx))
	if len(locker.locked) != 1 {
		t.Fatalf("the staged put took the lock %d times, want 1", len(locker.locked))
	}
}

func TestWrapLockFailurePublishesNothing(t *testing.T) {
	ctx := context.Background()
	inner := memio.New()
	held := errors.New("held by another writer")
	fs := Wrap(inner, "/wh", &recordingLocker{failure: held})
	if err := fs.PutIfAbsent(ctx, "/wh/pay.db/orders/schema/schema-0", []byte("s")); !errors.Is(err, held) {
		t.Fatalf("put: %v, want the lock's error", err)
	}
	if exists, err := fileio.Exists(ctx, inner, "/wh/pay.db/orders/schema/schema-0"); err != nil || exists {
		t.Fatalf("schema-0 exists=%v (%v) although the lock was not acquired", exists, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
