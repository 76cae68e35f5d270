package errorio

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

func TestConformanceWithoutFaults(t *testing.T) {
	// A Toggle left off must be as good as no injector at all.
	filetest.ConformanceOverMemory(t, func(inner fileio.FileIO) fileio.FileIO {
		return Wrap(inner, &Toggle{Injector: OnNth(0, nil, FailBefore)})
	})
}

func TestTraceRecordsOperationsInOrder(t *testing.T) {
	f := Wrap(memio.New(), nil)
	ctx := t.Context()
	_, _ = f.ReadFile(ctx, "/t/snapshot/LATEST")
	_, _ = f.List(ctx, "/t/snapshot")
	_ = f.PutIfAbsent(ctx, "/t/manifest/manifest-list-0", []byte("m"))
	_ = f.PutIfAbsent(ctx, "/t/snapshot/snapshot-1", []byte("s"))
	_ = f.PutIfAbsent(ctx, "/t/snapshot/snapshot-1", []byte("lost"))
	_ = f.Overwrite(ctx, "/t/snapshot/LATEST", []byte("1"))
	_, _ = f.Stat(ctx, "/t/snapshot/snapshot-1")
	file, err := f.Open(ctx, "/t/snapshot/snapshot-1")
	if err != nil {
		t.Fatal(err)
	}
	file.Close()
	_ = f.Delete(ctx, "/t/manifest/manifest-list-0")

	expectTrace(t, f,
		"read /t/snapshot/LATEST",
		"list /t/snapshot",
		"put-if-absent /t/manifest/manifest-list-0",
		"put-if-absent /t/snapshot/snapshot-1",
		"put-if-absent /t/snapshot/snapshot-1",
		"overwrite /t/snapshot/LATEST",
		"stat /t/snapshot/snapshot-1",
		"open /t/snapshot/snapshot-1",
		"delete /t/manifest/manifest-list-0",
	)
	if f.Injected() {
		t.Error("Injected() with no injector")
	}
}

func TestFailBeforeDoesNotApply(t *testing.T) {
	inner := memio.New()
	f := Wrap(inner, OnNth(1, nil, FailBefore))
	ctx := t.Context()
	mustPut(t, f, "/t/a")
	err := f.PutIfAbsent(ctx, "/t/b", []byte("b"))
	expectInjected(t, err)
	mustPut(t, f, "/t/c")
	expectFiles(t, inner, "/t/a", "/t/c")
	expectTrace(t, f, "put-if-absent /t/a", "put-if-absent /t/b", "put-if-absent /t/c")
}

func TestFailAfterApplies(t *testing.T) {
	inner := memio.New()
	f := Wrap(inner, OnNth(0, nil, FailAfter))
	err := f.PutIfAbsent(t.Context(), "/t/snapshot-1", []byte("s"))
	expectInjected(t, err)
	// The put landed although its caller got an error: the lost ack.
	expectFiles(t, inner, "/t/snapshot-1")
	if f.Crashed() {
		t.Error("FailAfter crashed")
	}
}

func TestFailAfterReplacesRealError(t *testing.T) {
	f := Wrap(memio.New(), OnNth(0, nil, FailAfter))
	_, err := f.ReadFile(t.Context(), "/missing")
	expectInjected(t, err)
	if errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("error %v wraps the real ErrNotExist; want only the injected fault", err)
	}
}

func TestFailAfterOpenReturnsNoFile(t *testing.T) {
	inner := memio.New()
	f := Wrap(inner, OnNth(1, nil, FailAfter))
	mustPut(t, f, "/t/data-0")
	file, err := f.Open(t.Context(), "/t/data-0")
	expectInjected(t, err)
	if file != nil {
		t.Errorf("Open returned a file with an injected error")
	}
}

func TestMatchCountsOnlyMatchingOps(t *testing.T) {
	isSnapshot2 := func(op Op) bool { return op.Kind == PutIfAbsent && op.Path == "/t/snapshot-2" }
	for _, tc := range []struct {
		name   string
		inject Injector
		want   []string
	}{
		// Operation 1 is the first put; mutating operation 1 is the second.
		{"Any", OnNth(1, nil, FailBefore), nil},
		{"Mutating", OnNth(1, Mutating, FailBefore), []string{"/t/manifest-1"}},
		{"Predicate", OnNth(0, isSnapshot2, FailBefore), []string{"/t/manifest-1", "/t/manifest-2", "/t/snapshot-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner := memio.New()
			f := Wrap(inner, tc.inject)
			expectInjected(t, runCommits(t, f))
			expectFiles(t, inner, tc.want...)
		})
	}
}

// runCommits is a workload of two commits, each a read, a manifest put and
// a snapshot put; it stops at the first error.
func runCommits(t *testing.T, f fileio.FileIO) error {
	ctx := t.Context()
	for id := 1; id <= 2; id++ {
		if _, err := f.List(ctx, "/t"); err != nil {
			return err
		}
		for _, p := range []string{fmt.Sprintf("/t/manifest-%d", id), fmt.Sprintf("/t/snapshot-%d", id)} {
			if err := f.PutIfAbsent(ctx, p, []byte(p)); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestErrorSweepReachesEveryOperation(t *testing.T) {
	// runCommits issues 6 operations; a sweep faults each in turn, then
	// finds the k at which the workload runs clean.
	var faulted []string
	for k := 0; ; k++ {
		f := Wrap(memio.New(), OnNth(k, nil, FailBefore))
		err := runCommits(t, f)
		if !f.Injected() {
			if err != nil || k != 6 {
				t.Fatalf("clean run at k=%d: %v; want k=6 and no error", k, err)
			}
			break
		}
		expectInjected(t, err)
		trace := f.Trace()
		faulted = append(faulted, trace[len(trace)-1].String())
	}
	want := []string{
		"list /t", "put-if-absent /t/manifest-1", "put-if-absent /t/snapshot-1",
		"list /t", "put-if-absent /t/manifest-2", "put-if-absent /t/snapshot-2",
	}
	if !slices.Equal(faulted, want) {
		t.Errorf("faulted operations %q, want %q", faulted, want)
	}
}

func TestCrash(t *testing.T) {
	for _, tc := range []struct {
		fault Fault
		want  []string
	}{
		{CrashBefore, []string{"/t/manifest-1"}},
		{CrashAfter, []string{"/t/manifest-1", "/t/snapshot-1"}},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			inner := memio.New()
			f := Wrap(inner, OnNth(1, Mutating, tc.fault))
			err := runCommits(t, f)
			if !errors.Is(err, ErrCrashed) || !errors.Is(err, fileio.ErrInjected) {
				t.Fatalf("crashing operation: %v, want an error wrapping ErrCrashed and ErrInjected", err)
			}
			// Nothing issued after the crash reaches storage or the trace.
			_, err = f.ReadFile(t.Context(), "/t/manifest-1")
			if !errors.Is(err, ErrCrashed) {
				t.Errorf("read after the crash: %v, want an error wrapping ErrCrashed", err)
			}
			if err := f.Overwrite(t.Context(), "/t/LATEST", []byte("1")); !errors.Is(err, ErrCrashed) {
				t.Errorf("overwrite after the crash: %v, want an error wrapping ErrCrashed", err)
			}
			expectTrace(t, f, "list /t", "put-if-absent /t/manifest-1", "put-if-absent /t/snapshot-1")
			expectFiles(t, inner.CrashClone(), tc.want...)
			if !f.Crashed() {
				t.Error("Crashed() = false after a crash")
			}
		})
	}
}

func TestToggleCountsOnlyWhileOn(t *testing.T) {
	inner := memio.New()
	toggle := &Toggle{Injector: OnNth(0, nil, FailBefore)}
	f := Wrap(inner, toggle)
	mustPut(t, f, "/t/setup")
	toggle.On()
	expectInjected(t, f.PutIfAbsent(t.Context(), "/t/phase", []byte("x")))
	toggle.Off()
	mustPut(t, f, "/t/after")
	expectFiles(t, inner, "/t/after", "/t/setup")
}

func mustPut(t *testing.T, f fileio.FileIO, p string) {
	t.Helper()
	if err := f.PutIfAbsent(t.Context(), p, []byte(p)); err != nil {
		t.Fatal(err)
	}
}

func expectInjected(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, fileio.ErrInjected) {
		t.Fatalf("error %v, want one wrapping ErrInjected", err)
	}
}

func expectTrace(t *testing.T, f *FS, want ...string) {
	t.Helper()
	var got []string
	for _, op := range f.Trace() {
		got = append(got, op.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("trace\n%q\nwant\n%q", got, want)
	}
}

func expectFiles(t *testing.T, m *memio.FS, want ...string) {
	t.Helper()
	if got := m.Files(); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}
