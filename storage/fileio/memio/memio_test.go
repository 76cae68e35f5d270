package memio

import (
	"bytes"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/fileiotest"
)

func TestConformance(t *testing.T) {
	fileiotest.Run(t, fileiotest.Harness{
		New:            func(*testing.T) (fileio.FileIO, string) { return New(), "/warehouse" },
		NoMultiProcess: "memio lives in one process's memory",
	})
}

func TestFilesListsEveryFileSorted(t *testing.T) {
	m := New()
	for _, p := range []string{"/w/t/snapshot/snapshot-2", "/w/t/bucket-0/data-1", "/w//t/snapshot/../schema/schema-0"} {
		mustPut(t, m, p, "x")
	}
	want := []string{"/w/t/bucket-0/data-1", "/w/t/schema/schema-0", "/w/t/snapshot/snapshot-2"}
	if got := m.Files(); !slices.Equal(got, want) {
		t.Errorf("Files() = %q, want %q", got, want)
	}
}

func TestCrashCloneKeepsAcknowledgedState(t *testing.T) {
	m := New()
	ctx := t.Context()
	mustPut(t, m, "/t/snapshot/snapshot-1", "s1")
	mustPut(t, m, "/t/snapshot/snapshot-2", "s2")
	if err := m.Overwrite(ctx, "/t/snapshot/LATEST", []byte("2")); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, "/t/snapshot/snapshot-1"); err != nil {
		t.Fatal(err)
	}

	clone := m.CrashClone()
	expectFiles(t, clone, "/t/snapshot/LATEST", "/t/snapshot/snapshot-2")
	expectContent(t, clone, "/t/snapshot/LATEST", "2")
	expectContent(t, clone, "/t/snapshot/snapshot-2", "s2")
}

// TestCrashLosesHintWrites: a hint write is visible at once, but a crash
// brings back the last durable content, or nothing.
func TestCrashLosesHintWrites(t *testing.T) {
	m := New()
	ctx := t.Context()
	if err := m.Overwrite(ctx, "/t/snapshot/LATEST", []byte("1")); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string]string{"/t/snapshot/LATEST": "2", "/t/commit-user/w": "r"} {
		if err := m.OverwriteHint(ctx, p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		expectContent(t, m, p, data)
	}
	clone := m.CrashClone()
	expectFiles(t, clone, "/t/snapshot/LATEST")
	expectContent(t, clone, "/t/snapshot/LATEST", "1")
}

func TestCrashCloneIsIndependent(t *testing.T) {
	m := New()
	mustPut(t, m, "/t/a", "a")
	clone := m.CrashClone()
	mustPut(t, m, "/t/only-original", "o")
	mustPut(t, clone, "/t/only-clone", "c")
	if err := clone.Delete(t.Context(), "/t/a"); err != nil {
		t.Fatal(err)
	}
	expectFiles(t, m, "/t/a", "/t/only-original")
	expectFiles(t, clone, "/t/only-clone")
	// Writes to a clone are themselves crash-tracked.
	expectFiles(t, clone.CrashClone(), "/t/only-clone")
}

func TestCrashCloneExcludesWriteInFlight(t *testing.T) {
	m := New()
	ctx := t.Context()
	mustPut(t, m, "/t/LATEST", "1")
	var inFlight *FS
	m.afterVisible = func(string) { inFlight = m.CrashClone() }
	mustPut(t, m, "/t/snapshot-2", "s2")
	if err := m.Overwrite(ctx, "/t/LATEST", []byte("2")); err != nil {
		t.Fatal(err)
	}
	// inFlight was cloned while the Overwrite was visible but unacknowledged:
	// the put before it survives, the Overwrite does not.
	expectFiles(t, inFlight, "/t/LATEST", "/t/snapshot-2")
	expectContent(t, inFlight, "/t/LATEST", "1")
	expectContent(t, m.CrashClone(), "/t/LATEST", "2")
}

func TestLateAcknowledgementDoesNotUndoNewerChange(t *testing.T) {
	m := New()
	ctx := t.Context()
	// While the put of /t/a is in flight, a newer delete of /t/a and a newer
	// overwrite of /t/b complete; the put's acknowledgement comes last.
	m.afterVisible = func(key string) {
		if key != "/t/a" {
			return
		}
		if err := m.Delete(ctx, "/t/a"); err != nil {
			t.Fatal(err)
		}
	}
	mustPut(t, m, "/t/a", "a")
	expectFiles(t, m.CrashClone())

	mustPut(t, m, "/t/b", "old")
	m.afterVisible = func(key string) {
		m.afterVisible = nil
		if err := m.Overwrite(ctx, key, []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Overwrite(ctx, "/t/b", []byte("middle")); err != nil {
		t.Fatal(err)
	}
	expectContent(t, m.CrashClone(), "/t/b", "new")
}

func mustPut(t *testing.T, m *FS, p, content string) {
	t.Helper()
	if err := m.PutIfAbsent(t.Context(), p, []byte(content)); err != nil {
		t.Fatal(err)
	}
}

func expectFiles(t *testing.T, m *FS, want ...string) {
	t.Helper()
	if got := m.Files(); !slices.Equal(got, want) {
		t.Errorf("Files() = %q, want %q", got, want)
	}
}

func expectContent(t *testing.T, m *FS, p, want string) {
	t.Helper()
	got, err := m.ReadFile(t.Context(), p)
	if err != nil || !bytes.Equal(got, []byte(want)) {
		t.Errorf("ReadFile(%s) = %q, %v; want %q", p, got, err, want)
	}
}
