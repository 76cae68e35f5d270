package maintenance

import (
	"context"
	"errors"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// strays are files nothing references, of every kind orphan removal
// looks at, relative to the table directory.
var strays = []string{
	"dt=d1/bucket-0/data-stray-0.parquet",
	"dt=d9/bucket-1/data-stray-1.parquet",
	"manifest/manifest-stray-0",
	"index/index-stray-0",
	"snapshot/.snapshot-99.0123.tmp",
	"snapshot/.LATEST.4567.tmp",
	"schema/.schema-7.89ab.tmp",
	"commit-user/.writer-1.cdef.tmp",
}

// withStrays is expiredHistory plus the strays, written two days before
// the clock's time when it returns.
func withStrays(f *fixture) {
	f.T.Helper()
	expiredHistory(f)
	for _, p := range strays {
		if err := f.FS.PutIfAbsent(context.Background(), path.Join(f.Dir, p), []byte("stray")); err != nil {
			f.T.Fatal(err)
		}
	}
	f.clock.Advance(48 * time.Hour)
}

func strayPaths(dir string) []string {
	var out []string
	for _, p := range strays {
		out = append(out, path.Join(dir, p))
	}
	slices.Sort(out)
	return out
}

func candidatePaths(res OrphanResult) []string {
	var out []string
	for _, c := range res.Candidates {
		out = append(out, c.Path)
	}
	return out
}

// TestRemoveOrphanFiles: old unreferenced files go; files of a writer that
// has not committed yet are younger than the threshold and stay, and its
// commit afterwards is whole.
func TestRemoveOrphanFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	withStrays(f)
	pending := f.prepare([][]any{row("d1", 77, "pending"), row("d5", 78, "pending")}, false)
	f.clock.Advance(time.Hour)
	before := captureState(t, f.FS, f.Dir)

	dry, err := RemoveOrphanFiles(ctx, f.FS, f.Dir, OrphanOptions{DryRun: true, Now: f.clock.Now})
	if err != nil || !slices.Equal(candidatePaths(dry), strayPaths(f.Dir)) || len(dry.Deleted) != 0 {
		t.Fatalf("dry run: candidates %v, deleted %v, %v; want the strays, nothing deleted", candidatePaths(dry), dry.Deleted, err)
	}
	for _, p := range strayPaths(f.Dir) {
		if ok, err := fileio.Exists(ctx, f.FS, p); err != nil || !ok {
			t.Fatalf("dry run deleted %s", p)
		}
	}
	res, err := RemoveOrphanFiles(ctx, f.FS, f.Dir, OrphanOptions{Now: f.clock.Now})
	if err != nil || !slices.Equal(res.Deleted, strayPaths(f.Dir)) || res.BytesDeleted != int64(5*len(strays)) {
		t.Fatalf("deleted %v (%d bytes), %v; want the strays", res.Deleted, res.BytesDeleted, err)
	}
	checkRetained(t, f.FS, f.Dir, before, from(0))
	checkNoLeakBut(t, f, pending)
	f.commit("late", commit.Request{Messages: pending})
	if _, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{}); err != nil {
		t.Fatalf("the pending commit lost files: %v", err)
	}
	checkNoLeak(t, f.FS, f.Dir)

	if _, err := RemoveOrphanFiles(ctx, f.FS, f.Dir, OrphanOptions{OlderThan: ptr(-time.Second)}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative age: %v, want an invalid-argument error", err)
	}
}

// checkNoLeakBut is checkNoLeak for a table where the files of pending
// messages are written but not committed.
func checkNoLeakBut(t *testing.T, f *fixture, pending []commit.Message) {
	t.Helper()
	used := referencedNames(t, f.FS, f.Dir, from(0))
	for _, m := range pending {
		for _, file := range m.NewFiles {
			used[file.FileName] = true
		}
	}
	for name := range diskNames(t, f.FS, f.Dir) {
		if !used[name] {
			t.Errorf("file %s is neither used nor pending", name)
		}
	}
}

// firstDelete is the index of the first Delete operation of a clean run of
// op: the end of the scan, where the fence is checked.
func firstDelete(t *testing.T, f *fixture, op func(fio fileio.FileIO) error) int {
	t.Helper()
	trace := errorio.Wrap(f.FS, nil)
	if err := op(trace); err != nil {
		t.Fatal(err)
	}
	for i, o := range trace.Trace() {
		if o.Kind == errorio.Delete {
			return i
		}
	}
	t.Fatal("the clean run deleted nothing")
	return 0
}

// TestOrphanScanVersusCommit is apache/paimon#3074 with no age threshold:
// a writer commits files at every point of the scan. Whenever the commit
// lands during the scan, the run must notice: delete nothing, or take the
// new snapshot's files into what it keeps; in every case the committed
// snapshot must stay whole.
func TestOrphanScanVersusCommit(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	withStrays(base)
	pending := base.prepare([][]any{row("d1", 77, "pending"), row("d5", 78, "pending")}, false)
	base.clock.Advance(time.Second)
	remove := func(f *fixture, fio fileio.FileIO) (OrphanResult, error) {
		return RemoveOrphanFiles(ctx, fio, f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: f.clock.Now})
	}
	scanEnd := firstDelete(t, base.clone(base.mem.CrashClone()), func(fio fileio.FileIO) error {
		_, err := remove(base, fio)
		return err
	})
	detected := 0
	for k := 0; k < scanEnd; k++ {
		f := base.clone(base.mem.CrashClone())
		h := &hookFS{FileIO: f.FS, at: k, hook: func() { f.commit("late", commit.Request{Messages: pending}) }}
		res, err := remove(f, h)
		switch {
		case errors.Is(err, lakeerr.ErrRetryableConflict):
			detected++
			if len(res.Deleted) != 0 {
				t.Fatalf("point %d: deleted %v before reporting the conflict", k, res.Deleted)
			}
		case err != nil:
			t.Fatalf("point %d: %v", k, err)
		case !slices.Equal(res.Deleted, strayPaths(f.Dir)):
			t.Fatalf("point %d: deleted %v, want the strays", k, res.Deleted)
		case res.SnapshotsDuringScan > 0:
			detected++
		}
		if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{}); err != nil || !slices.Contains(got, "d5 78 pending") {
			t.Fatalf("point %d: the commit made during the scan reads %v, %v", k, got, err)
		}
	}
	if detected == 0 {
		t.Fatal("no commit during the scan was detected")
	}
	t.Logf("%d of %d scan points saw the commit land", detected, scanEnd)
}

// TestOrphanScanVersusExpiry is apache/paimon#7710: an expiry keeping a
// single snapshot runs at every point of the scan. The scan must never
// compute its used set from a half-expired table and delete live files.
func TestOrphanScanVersusExpiry(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	withStrays(base)
	remove := func(f *fixture, fio fileio.FileIO) (OrphanResult, error) {
		return RemoveOrphanFiles(ctx, fio, f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: f.clock.Now})
	}
	scanEnd := firstDelete(t, base.clone(base.mem.CrashClone()), func(fio fileio.FileIO) error {
		_, err := remove(base, fio)
		return err
	})
	detected := 0
	for k := 0; k < scanEnd; k++ {
		f := base.clone(base.mem.CrashClone())
		var before tableState
		h := &hookFS{FileIO: f.FS, at: k, hook: func() {
			if _, err := ExpireSnapshots(ctx, f.FS, f.Dir, ExpireOptions{RetainMin: intp(1), RetainMax: intp(1), Now: f.clock.Now}); err != nil {
				t.Fatal(err)
			}
			before = captureState(t, f.FS, f.Dir)
		}}
		_, err := remove(f, h)
		if errors.Is(err, lakeerr.ErrRetryableConflict) {
			detected++
		} else if err != nil {
			t.Fatalf("point %d: %v", k, err)
		}
		checkRetained(t, f.FS, f.Dir, before, from(0))
		if t.Failed() {
			t.Fatalf("point %d: live files were deleted", k)
		}
	}
	if detected == 0 {
		t.Fatal("no expiry during the scan was detected")
	}
}

func TestOrphanFaultSweep(t *testing.T) {
	sweep(t, sweepCase{
		setup: withStrays,
		run: func(f *fixture, fio fileio.FileIO) error {
			_, err := RemoveOrphanFiles(context.Background(), fio, f.Dir, OrphanOptions{Now: f.clock.Now})
			return err
		},
		keep: from(0),
	})
}

func TestOrphansAndFence(t *testing.T) {
	now := time.Unix(1000, 0)
	listed := []fileio.FileInfo{
		{Path: "t/manifest/m-used", ModTime: now.Add(-time.Hour)},
		{Path: "t/manifest/m-old", Size: 3, ModTime: now.Add(-time.Hour)},
		{Path: "t/manifest/m-young", ModTime: now},
		{Path: "t/dt=1/bucket-0/data-a", Size: 5, ModTime: now.Add(-2 * time.Hour)},
	}
	got := orphans(listed, map[string]bool{"m-used": true}, now.Add(-time.Minute))
	if len(got) != 2 || got[0].Path != "t/dt=1/bucket-0/data-a" || got[1].Path != "t/manifest/m-old" || got[1].Size != 3 {
		t.Fatalf("orphans %+v; want data-a and m-old, by path", got)
	}
	a := fence{"branches": "", "/snapshot": "3,4", "/tag": "tag-x@10/5"}
	if d := a.diff(fence{"branches": "", "/snapshot": "3,4", "/tag": "tag-x@10/5"}); d != "" {
		t.Fatalf("equal fences differ: %s", d)
	}
	if d := a.diff(fence{"branches": "", "/snapshot": "4,5", "/tag": "tag-x@10/5"}); d != "/snapshot: [3,4] -> [4,5]" {
		t.Fatalf("diff %q", d)
	}
	if d := a.diff(fence{"branches": "b", "/snapshot": "3,4", "/tag": "tag-x@10/5", "b/snapshot": "1"}); d != "branches: [] -> [b]; b/snapshot: new [1]" {
		t.Fatalf("diff %q", d)
	}
	if !(fence{"branches": "", "/snapshot": "", "/tag": ""}).empty() || a.empty() {
		t.Fatal("fence.empty is wrong")
	}
}
