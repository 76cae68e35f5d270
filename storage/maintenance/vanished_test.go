package maintenance

import (
	"context"
	"errors"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// The tests of this file check what storage/table's readers say when
// expiry deletes, or has deleted, what they read. They live here, above
// storage/table, because they expire and tag with this package.

// history is a table whose snapshot 1 holds one data file, first, that
// snapshot 2 compacts away: expiring snapshot 1 deletes first.
type history struct {
	fs    *hookedIO
	dir   string
	first string // path of the data file only snapshot 1 holds
}

func newHistory(t *testing.T) *history {
	t.Helper()
	ctx := context.Background()
	fs := &hookedIO{FileIO: memio.New()}
	w, err := scantest.Create(ctx, fs, "wh", "db", "t", catalog.TableDefinition{
		Fields: []spec.DataField{{Name: "k", Type: spec.DataType{Root: spec.Int, Nullable: true}}, {Name: "s", Type: stringType}},
	})
	if err != nil {
		t.Fatal(err)
	}
	records := []scantest.Record{{Values: []any{int32(1), "one"}}, {Values: []any{int32(2), "two"}}}
	first, err := w.WriteFile(ctx, nil, 0, 0, records)
	if err != nil {
		t.Fatal(err)
	}
	bucket := scantest.Change{Partition: first.Partition, TotalBuckets: first.TotalBuckets}
	add := bucket
	add.Add = []spec.DataFileMeta{first.Meta}
	if _, err := w.Commit(ctx, []scantest.Change{add}); err != nil {
		t.Fatal(err)
	}
	compacted, err := w.WriteFile(ctx, nil, 0, 1, records)
	if err != nil {
		t.Fatal(err)
	}
	compact := bucket
	compact.Add, compact.Remove = []spec.DataFileMeta{compacted.Meta}, []spec.DataFileMeta{first.Meta}
	if _, err := w.Commit(ctx, []scantest.Change{compact}); err != nil {
		t.Fatal(err)
	}
	h := &history{fs: fs, dir: w.Dir, first: path.Join(w.Dir, "bucket-0", first.Meta.FileName)}
	if ok, err := fileio.Exists(ctx, fs, h.first); err != nil || !ok {
		t.Fatalf("snapshot 1's data file %s: exists %v, %v", h.first, ok, err)
	}
	return h
}

func (h *history) open(t *testing.T) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), h.fs, h.dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// expireAllButLatest expires snapshot 1 and checks that it deleted
// snapshot 1's data file unless keepFirst (a tag holds it).
func (h *history) expireAllButLatest(t *testing.T, keepFirst bool) {
	t.Helper()
	ctx := context.Background()
	one, future := 1, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	res, err := ExpireSnapshots(ctx, h.fs, h.dir, ExpireOptions{RetainMin: &one, RetainMax: &one, OlderThan: &future})
	if err != nil || res.Begin != 1 || res.End != 2 {
		t.Fatalf("expiry: %+v, %v; want snapshot 1 expired", res, err)
	}
	if ok, err := fileio.Exists(ctx, h.fs, h.first); err != nil || ok == !keepFirst {
		t.Fatalf("after expiry %s exists: %v, %v; want %v", h.first, ok, err, keepFirst)
	}
}

func readPlan(ctx context.Context, tbl *table.Table, plan *table.Plan) error {
	rows, err := tbl.ExecutePlan(ctx, plan, table.ReadOptions{})
	if err == nil {
		_, err = table.ReadAll(rows)
	}
	return err
}

// wantNotFound checks err is lakeerr.ErrNotFound, not corruption, and
// mentions each of want as a whole word.
func wantNotFound(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if !errors.Is(err, lakeerr.ErrNotFound) || errors.Is(err, lakeerr.ErrCorruption) || !mentionsAll(err, want) {
		t.Errorf("%s: %v; want lakeerr.ErrNotFound naming %q", what, err, want)
	}
}

func mentionsAll(err error, words []string) bool {
	for _, w := range words {
		if !regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(w) + `(\W|$)`).MatchString(err.Error()) {
			return false
		}
	}
	return true
}

func TestReadOfPlanWhoseSnapshotExpiredSaysExpired(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	tbl := h.open(t)
	plan, err := tbl.PlanPinned(ctx, 1, nil, table.Staged{})
	if err != nil {
		t.Fatal(err)
	}
	h.expireAllButLatest(t, false)
	wantNotFound(t, "rows of snapshot 1 after it expired", readPlan(ctx, tbl, plan), "snapshot 1", "earliest is now 2")
	_, err = tbl.AggregatePlan(ctx, plan, 1, []table.AggSpec{{Func: table.AggSum, Column: "k"}})
	wantNotFound(t, "SUM over snapshot 1 after it expired", err, "snapshot 1", "earliest is now 2")
}

func TestPlanOfSnapshotExpiringUnderItSaysExpired(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	tbl := h.open(t)
	snapshotFile := tbl.Snapshots().SnapshotPath(1)
	h.fs.afterRead(snapshotFile, func() { h.expireAllButLatest(t, false) })
	_, err := tbl.PlanPinned(ctx, 1, nil, table.Staged{})
	wantNotFound(t, "plan of snapshot 1 expiring after its snapshot file was read", err, "snapshot 1")
	if !h.fs.ran() {
		t.Fatalf("planning never read %s", snapshotFile)
	}
}

// An expiry deletes data files before snapshot files: a read between the
// two finds snapshot-1 still there, and must still say it expired.
func TestReadDuringExpirySaysExpired(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	tbl := h.open(t)
	plan, err := tbl.PlanPinned(ctx, 1, nil, table.Staged{})
	if err != nil {
		t.Fatal(err)
	}
	var readErr error
	h.fs.beforeDelete(tbl.Snapshots().SnapshotPath(1), func() { readErr = readPlan(ctx, tbl, plan) })
	h.expireAllButLatest(t, false)
	if !h.fs.ran() {
		t.Fatal("expiry never deleted snapshot-1")
	}
	wantNotFound(t, "rows of snapshot 1 while expiry deleted it", readErr, "snapshot 1")
}

func TestReadOfTagDeletedUnderItSaysDeleted(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	createTag(t, h, "audit", 1)
	h.expireAllButLatest(t, true)
	tbl := h.open(t)
	plan, err := tbl.PlanTimeTravel(ctx, snapshot.TimeTravel{Tag: "audit"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteTag(ctx, h.fs, h.dir, "audit"); err != nil {
		t.Fatal(err)
	}
	wantNotFound(t, "rows of tag audit after it was deleted", readPlan(ctx, tbl, plan), `tag "audit"`, "snapshot 1")
}

// A file missing while its snapshot, or a tag of it, is retained was not
// deleted by expiry: that is corruption, and the error names the file.
func TestMissingFileOfRetainedSnapshotIsCorruption(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		setUp func(t *testing.T, h *history)
		at    snapshot.TimeTravel
		names string
	}{
		{"snapshot", func(*testing.T, *history) {}, snapshot.TimeTravel{SnapshotID: 1}, "snapshot 1"},
		{"tag of an expired snapshot", func(t *testing.T, h *history) {
			createTag(t, h, "audit", 1)
			h.expireAllButLatest(t, true)
		}, snapshot.TimeTravel{Tag: "audit"}, `tag "audit"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHistory(t)
			c.setUp(t, h)
			if err := h.fs.Delete(ctx, h.first); err != nil {
				t.Fatal(err)
			}
			tbl := h.open(t)
			plan, err := tbl.PlanTimeTravel(ctx, c.at, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = readPlan(ctx, tbl, plan)
			if !errors.Is(err, lakeerr.ErrCorruption) || errors.Is(err, lakeerr.ErrNotFound) ||
				!mentionsAll(err, []string{c.names}) || !strings.Contains(err.Error(), h.first) {
				t.Errorf("read with %s missing: %v; want lakeerr.ErrCorruption naming %s and the file", h.first, err, c.names)
			}
		})
	}
}

func createTag(t *testing.T, h *history, name string, id int64) {
	t.Helper()
	if _, err := CreateTag(context.Background(), h.fs, h.dir, name, CreateTagOptions{SnapshotID: id}); err != nil {
		t.Fatal(err)
	}
}

// hookedIO runs a hook once, right after a read of one path or right
// before a delete of it.
type hookedIO struct {
	fileio.FileIO
	mu                   sync.Mutex
	readPath, deletePath string
	hook                 func()
	done                 bool
}

func (f *hookedIO) afterRead(p string, hook func())    { f.set(&f.readPath, p, hook) }
func (f *hookedIO) beforeDelete(p string, hook func()) { f.set(&f.deletePath, p, hook) }

func (f *hookedIO) set(field *string, p string, hook func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*field, f.hook = p, hook
}

func (f *hookedIO) ran() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.done
}

// take returns the hook if p is its path and it has not run yet.
func (f *hookedIO) take(field *string, p string) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done || f.hook == nil || *field != p {
		return nil
	}
	f.done = true
	return f.hook
}

func (f *hookedIO) ReadFile(ctx context.Context, p string) ([]byte, error) {
	data, err := f.FileIO.ReadFile(ctx, p)
	if hook := f.take(&f.readPath, p); hook != nil {
		hook()
	}
	return data, err
}

func (f *hookedIO) Delete(ctx context.Context, p string) error {
	if hook := f.take(&f.deletePath, p); hook != nil {
		hook()
	}
	return f.FileIO.Delete(ctx, p)
}
