package localio

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// A caller that arrives while an fsync of its directory runs must wait for
// one that starts after it: the running one may miss its change.
func TestSyncDirWaitsForAnFsyncStartedAfterTheCall(t *testing.T) {
	release := make(chan error)
	var fsyncs atomic.Int32
	watchFsyncs(t, func(string) error {
		fsyncs.Add(1)
		return <-release
	})
	dir := t.TempDir()
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- syncDir(dir) }()
	waitFor(t, "the first fsync", func() bool { return fsyncs.Load() == 1 })
	go func() { second <- syncDir(dir) }()
	waitFor(t, "the second caller to queue", func() bool { return queuedBehind(dir) })

	release <- nil
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for fsyncs.Load() < 2 {
		select {
		case err := <-second:
			t.Fatalf("the second caller returned (%v) without an fsync started after its call", err)
		default:
			runtime.Gosched()
		}
	}
	failed := errors.New("fsync failed")
	release <- failed
	if err := <-second; !errors.Is(err, failed) {
		t.Fatalf("second caller: %v; want the error of its fsync", err)
	}
}

// Concurrent callers share fsyncs, and each returns only after an fsync
// that started after its call ended: the order of a logical clock ticked
// at each call, return, and start and end of an fsync shows it.
func TestSyncDirSharesFsyncsSafely(t *testing.T) {
	var clock atomic.Int64
	var mu sync.Mutex
	type span struct{ from, to int64 }
	var runs []span
	watchFsyncs(t, func(string) error {
		s := span{from: clock.Add(1)}
		s.to = clock.Add(1)
		mu.Lock()
		runs = append(runs, s)
		mu.Unlock()
		return nil
	})
	dir := t.TempDir()
	const callers, calls = 8, 50
	spans := make([][]span, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for range calls {
				s := span{from: clock.Add(1)}
				if err := syncDir(dir); err != nil {
					t.Error(err)
				}
				s.to = clock.Add(1)
				spans[c] = append(spans[c], s)
			}
		})
	}
	wg.Wait()
	for _, calls := range spans {
		for _, call := range calls {
			covered := false
			for _, run := range runs {
				covered = covered || run.from > call.from && run.to < call.to
			}
			if !covered {
				t.Fatalf("a call during ticks %d..%d returned without an fsync inside them", call.from, call.to)
			}
		}
	}
	if len(runs) > callers*calls {
		t.Fatalf("%d fsyncs for %d calls", len(runs), callers*calls)
	}
}

// watchFsyncs makes syncDir call fsync instead of fsyncing.
func watchFsyncs(t *testing.T, fsync func(string) error) {
	saved := fsyncDir
	fsyncDir = fsync
	t.Cleanup(func() { fsyncDir = saved })
}

// queuedBehind reports whether a caller waits for the next fsync of dir.
func queuedBehind(dir string) bool {
	dirSyncs.Lock()
	defer dirSyncs.Unlock()
	d := dirSyncs.byDir[dir]
	return d != nil && d.next != nil
}

// waitFor yields until cond holds. The bound on yields only turns a
// broken syncDir into a failure rather than a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 1_000_000 {
		if cond() {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("gave up waiting for %s", what)
}
