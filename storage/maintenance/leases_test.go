package maintenance

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/leasetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// zeroAge removes orphans however young they are.
func zeroAge(f *fixture, fio fileio.FileIO) (OrphanResult, error) {
	return RemoveOrphanFiles(context.Background(), fio, f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: f.clock.Now})
}

// openWriter opens a TableWriter on the fixture's table that takes its
// lease from leases.
func (f *fixture) openWriter(leases *lease.Registry) *write.TableWriter {
	f.T.Helper()
	opts := writetest.Options(f.Table)
	opts.Leases = leases
	w, err := write.Open(context.Background(), opts)
	if err != nil {
		f.T.Fatal(err)
	}
	return w
}

func (f *fixture) writeRows(w *write.TableWriter, rows ...[]any) []commit.Message {
	f.T.Helper()
	ctx := context.Background()
	for _, r := range rows {
		if err := w.Write(ctx, r, spec.RowKindInsert); err != nil {
			f.T.Fatal(err)
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		f.T.Fatal(err)
	}
	return msgs
}

func pendingPaths(f *fixture, msgs []commit.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, file := range m.NewFiles {
			out = append(out, file.FileName)
		}
	}
	return out
}

func deletedNames(res OrphanResult) []string {
	var out []string
	for _, p := range res.Deleted {
		out = append(out, path.Base(p))
	}
	return out
}

// TestOrphanRemovalSparesAWriterMidWrite: orphan removal at zero age next
// to a TableWriter that has prepared its files and not committed them
// deletes the strays and keeps the writer's files, which its commit then
// publishes whole. Without the writer's lease, the same run deletes them.
func TestOrphanRemovalSparesAWriterMidWrite(t *testing.T) {
	t.Run("leased", func(t *testing.T) {
		f := newFixture(t, pkTable)
		withStrays(f)
		w := f.openWriter(nil)
		pending := f.writeRows(w, row("d1", 77, "pending"), row("d5", 78, "pending"))
		f.clock.Advance(time.Hour)
		res, err := zeroAge(f, f.FS)
		if err != nil || !slices.Equal(res.Deleted, strayPaths(f.Dir)) || res.Protected != len(pendingPaths(f, pending)) {
			t.Fatalf("orphan removal: deleted %v, %d protected, %v; want the strays, and the %d pending files protected",
				res.Deleted, res.Protected, err, len(pendingPaths(f, pending)))
		}
		f.commit("late", commit.Request{Messages: pending})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{}); err != nil || !slices.Contains(got, "d5 78 pending") {
			t.Fatalf("the commit after orphan removal reads %v, %v", got, err)
		}
		checkNoLeak(t, f.FS, f.Dir)
	})
	t.Run("without a lease", func(t *testing.T) {
		f := newFixture(t, pkTable)
		withStrays(f)
		w := f.openWriter(lease.Disabled())
		defer w.Close()
		pending := f.writeRows(w, row("d1", 77, "pending"), row("d5", 78, "pending"))
		f.clock.Advance(time.Hour)
		res, err := zeroAge(f, f.FS)
		if err != nil || res.Protected != 0 || !containsAll(deletedNames(res), pendingPaths(f, pending)) {
			t.Fatalf("orphan removal without leases: deleted %v, %v; want the pending files among them", res.Deleted, err)
		}
	})
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return len(want) > 0
}

// TestOrphanRemovalSparesACommitMidCommit runs orphan removal at zero age
// between a commit's last metadata file and its snapshot put, on the
// local disk: the commit's manifests and the staged snapshot file (a temp
// file in snapshot/) must survive, and the snapshot must be whole. The
// commit drops a live file, so no writer's lease but the commit's own
// covers what it writes; without it, the same run deletes its files.
func TestOrphanRemovalSparesACommitMidCommit(t *testing.T) {
	for _, leased := range []bool{true, false} {
		name := map[bool]string{true: "leased", false: "without a lease"}[leased]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tt := localTable(t)
			fsys, dir := tt.FS, tt.Dir
			var removal OrphanResult
			var removalErr error
			hooked := &stagedHookFS{FileIO: fsys, hook: func() {
				removal, removalErr = RemoveOrphanFiles(ctx, fsys, dir, OrphanOptions{OlderThan: new(time.Duration)})
			}}
			registry := lease.Default()
			if !leased {
				registry = lease.Disabled()
			}
			c, err := commit.New(commit.Options{FileIO: hooked, TableDir: dir, Core: tt.Schema().CoreOptions(), Leases: registry})
			if err != nil {
				t.Fatal(err)
			}
			_, commitErr := c.Commit(ctx, commit.Request{CommitUser: "dropper", Identifier: 1, Messages: dropMessage(t, fsys, dir)})
			if !hooked.fired.Load() || removalErr != nil {
				t.Fatalf("orphan removal during the commit: ran %v, %v", hooked.fired.Load(), removalErr)
			}
			if !leased {
				if len(removal.Deleted) == 0 {
					t.Fatal("without a lease, orphan removal during the commit deleted nothing of it")
				}
				return
			}
			if commitErr != nil || len(removal.Deleted) != 0 || removal.Protected < 3 {
				t.Fatalf("commit %v; orphan removal deleted %v, protected %d; want the commit's manifests, lists and staged snapshot kept",
					commitErr, removal.Deleted, removal.Protected)
			}
			if rows, err := readAt(fsys, dir, snapshot.TimeTravel{}); err != nil || len(rows) != 1 {
				t.Fatalf("after the commit the table reads %v, %v; want the other partition's row", rows, err)
			}
			checkNoLeak(t, fsys, dir)
		})
	}
}

// localTable creates a table on the local disk, on the wall clock, with
// one file in each of two partitions, committed by a writer that is closed
// since.
func localTable(t *testing.T) *tabletest.Table {
	t.Helper()
	tt := tabletest.Create(t, tabletest.Config{FS: localio.New(), Warehouse: t.TempDir(), Now: time.Now}, pkTable)
	writetest.Commit(tt, "setup", tabletest.Inserts(row("d1", 1, "a"), row("d2", 2, "b"))...)
	return tt
}

// dropMessage removes the first live file of the table.
func dropMessage(t *testing.T, fsys fileio.FileIO, dir string) []commit.Message {
	t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live, err := tbl.LiveFiles(ctx, latest)
	if err != nil || len(live) == 0 {
		t.Fatalf("live files %v, %v", live, err)
	}
	e := live[0]
	return []commit.Message{{Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: e.TotalBuckets, DeletedFiles: []spec.DataFileMeta{e.File}}}
}

// stagedHookFS runs hook once, after a snapshot put is staged and before
// it is made: the staged file is in snapshot/, and every metadata file of
// the commit is written.
type stagedHookFS struct {
	fileio.FileIO
	hook  func()
	fired atomic.Bool
}

func (s *stagedHookFS) StagePut(ctx context.Context, p string, data []byte) (fileio.Staged, error) {
	staged, err := fileio.StagePut(ctx, s.FileIO, p, data)
	if err != nil || !strings.Contains(p, "/snapshot/snapshot-") {
		return staged, err
	}
	return &hookedStaged{Staged: staged, before: func() {
		if s.fired.CompareAndSwap(false, true) {
			s.hook()
		}
	}}, nil
}

type hookedStaged struct {
	fileio.Staged
	before func()
}

func (h *hookedStaged) Put(ctx context.Context) error {
	h.before()
	return h.Staged.Put(ctx)
}

// TestOrphanRemovalSparesACompactionMidRewrite runs orphan removal at zero
// age after a full compaction wrote its first output file and before its
// second: the outputs must survive and the compaction's snapshot must be
// whole. Without the compaction's lease, the same run deletes the output.
func TestOrphanRemovalSparesACompactionMidRewrite(t *testing.T) {
	for _, leased := range []bool{true, false} {
		name := map[bool]string{true: "leased", false: "without a lease"}[leased]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, pkTable)
			buildHistory(f)
			f.clock.Advance(time.Hour)
			before := captureState(t, f.FS, f.Dir)
			var removal OrphanResult
			var removalErr error
			var outputs []string
			hooked := &beforePutFS{FileIO: f.FS, match: func(p string) bool {
				if strings.Contains(p, "/bucket-") {
					outputs = append(outputs, p)
				}
				return len(outputs) == 2
			}, hook: func() {
				f.clock.Advance(time.Minute) // the first output is a minute old
				removal, removalErr = zeroAge(f, f.FS)
			}}
			// One bucket at a time: the first output's put has returned
			// when the second one's starts, so it is there to be seen.
			opts := compact.Options{FileIO: hooked, TableDir: f.Dir, Mode: compact.Full, Parallelism: 1, Now: f.clock.Now, NewUUID: f.NewUUID}
			if !leased {
				opts.Leases = lease.Disabled()
			}
			res, err := compact.Table(ctx, opts)
			if !hooked.fired || removalErr != nil {
				t.Fatalf("orphan removal during the compaction: ran %v, %v", hooked.fired, removalErr)
			}
			if !leased {
				if !slices.Contains(removal.Deleted, outputs[0]) {
					t.Fatalf("without a lease, orphan removal deleted %v, not the first output %s", removal.Deleted, outputs[0])
				}
				return
			}
			if err != nil || res.FilesWritten < 2 || len(removal.Deleted) != 0 || removal.Protected == 0 {
				t.Fatalf("compaction %+v, %v; orphan removal deleted %v, protected %d; want the outputs kept",
					res, err, removal.Deleted, removal.Protected)
			}
			latest := f.LatestID()
			checkRetained(t, f.FS, f.Dir, before, from(0))
			if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{SnapshotID: latest}); err != nil || !slices.Equal(got, before.snapshots[latest-1]) {
				t.Fatalf("the compacted snapshot reads %v, %v; want what the snapshot before it read", got, err)
			}
		})
	}
}

// beforePutFS runs hook once, just before the first put match accepts.
type beforePutFS struct {
	fileio.FileIO
	match func(path string) bool
	hook  func()
	once  sync.Once
	fired bool
}

func (b *beforePutFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if b.match(p) {
		b.once.Do(func() {
			b.fired = true
			b.hook()
		})
	}
	return b.FileIO.PutIfAbsent(ctx, p, data)
}

// TestStaleLeaseDoesNotProtect: a writer whose lease went stale (it did
// nothing for two hours) loses its files to orphan removal, which also
// deletes the lease; the writer's commit then fails instead of publishing
// a snapshot whose files are gone.
func TestStaleLeaseDoesNotProtect(t *testing.T) {
	f := newFixture(t, pkTable)
	withStrays(f)
	leases := leasetest.New("lease", f.clock.Now, 0)
	w := f.openWriter(leases)
	defer w.Close()
	pending := f.writeRows(w, row("d1", 77, "pending"), row("d5", 78, "pending"))
	before := captureState(t, f.FS, f.Dir)
	f.clock.Advance(2 * time.Hour)
	res, err := zeroAge(f, f.FS)
	if err != nil || res.Protected != 0 || len(res.StaleLeases) != 1 || !containsAll(deletedNames(res), pendingPaths(f, pending)) {
		t.Fatalf("orphan removal next to a stale lease: deleted %v, %d protected, stale leases %v, %v; want the pending files and the lease gone",
			res.Deleted, res.Protected, res.StaleLeases, err)
	}
	if ok, err := fileio.Exists(context.Background(), f.FS, res.StaleLeases[0]); err != nil || ok {
		t.Fatalf("the stale lease %s is still there (%v)", res.StaleLeases[0], err)
	}
	_, err = f.Committer(f.FS).Commit(context.Background(), commit.Request{CommitUser: "late", Identifier: 1, Messages: pending})
	if !errors.Is(err, lease.ErrExpired) || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("commit of files whose lease went stale: %v; want lease.ErrExpired", err)
	}
	checkRetained(t, f.FS, f.Dir, before, from(0))
	if ids, _ := snapshot.NewManager(f.FS, f.Dir, "").IDs(context.Background()); len(ids) != len(before.snapshots) {
		t.Fatalf("snapshots %v after the refused commit; want %d as before", ids, len(before.snapshots))
	}
}

// TestOrphanRemovalOutsideItsDirectories: neither a file under _lakesql
// that is not a lease nor a live lease is ever a candidate.
func TestOrphanRemovalOutsideItsDirectories(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	withStrays(f)
	other := path.Join(f.Dir, "_lakesql", "notes", "keep")
	if err := f.FS.PutIfAbsent(ctx, other, []byte("x")); err != nil {
		t.Fatal(err)
	}
	held, err := lease.Default().Acquire(ctx, f.FS, f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release(ctx)
	live, err := lease.List(ctx, f.FS, f.Dir)
	if err != nil || len(live) != 1 {
		t.Fatalf("leases %v, %v; want the one held", live, err)
	}
	res, err := zeroAge(f, f.FS)
	if err != nil || len(res.StaleLeases) != 0 || !slices.Equal(res.Deleted, strayPaths(f.Dir)) {
		t.Fatalf("orphan removal: deleted %v, stale leases %v, %v; want the strays only", res.Deleted, res.StaleLeases, err)
	}
	for _, p := range []string{other, live[0].Path} {
		if ok, err := fileio.Exists(ctx, f.FS, p); err != nil || !ok {
			t.Fatalf("orphan removal deleted %s (%v)", p, err)
		}
	}
}

// TestProgressDuringTheScan: snapshots appended while orphan removal
// scans do not stop it; their files are kept. Any other change still
// stops it: a tag created, snapshots expired, or the fenced latest
// snapshot replaced by a rollback followed by commits.
func TestProgressDuringTheScan(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	withStrays(base)
	pending := [][]commit.Message{
		base.prepare([][]any{row("d1", 77, "p1")}, false),
		base.prepare([][]any{row("d6", 78, "p2")}, false),
	}
	// The changes run once the used set is computed, just before the
	// second fence, which starts, as the first does, by listing branches.
	secondFence := func(f *fixture) int {
		trace := errorio.Wrap(f.FS, nil)
		if _, err := zeroAge(f, trace); err != nil {
			t.Fatal(err)
		}
		listBranches := errorio.Op{Kind: errorio.List, Path: path.Join(f.Dir, "branch")}
		if i := slices.Index(trace.Trace(), listBranches); i >= 0 {
			if j := slices.Index(trace.Trace()[i+1:], listBranches); j >= 0 {
				return i + 1 + j
			}
		}
		t.Fatal("no second fence")
		return 0
	}
	at := secondFence(base.clone(base.mem.CrashClone()))
	cases := []struct {
		name     string
		change   func(f *fixture)
		progress bool
	}{
		{"two commits", func(f *fixture) {
			f.commit("late", commit.Request{Messages: pending[0]})
			f.commit("late", commit.Request{Messages: pending[1]})
		}, true},
		{"a tag", func(f *fixture) {
			if _, err := CreateTag(ctx, f.FS, f.Dir, "new", CreateTagOptions{}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"an expiry and a commit", func(f *fixture) {
			if _, err := ExpireSnapshots(ctx, f.FS, f.Dir, ExpireOptions{RetainMin: intp(1), RetainMax: intp(1), Now: f.clock.Now}); err != nil {
				t.Fatal(err)
			}
			f.commit("late", commit.Request{Messages: pending[0]})
		}, false},
		{"a rollback and commits past the fenced latest", func(f *fixture) {
			latest := f.LatestID()
			if _, err := RollbackTo(ctx, f.FS, f.Dir, RollbackTarget{SnapshotID: latest - 1}); err != nil {
				t.Fatal(err)
			}
			f.commit("late", commit.Request{Messages: pending[0]})
			f.commit("late", commit.Request{Messages: pending[1]})
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := base.clone(base.mem.CrashClone())
			h := &hookFS{FileIO: f.FS, at: at, hook: func() { c.change(f) }}
			res, err := zeroAge(f, h)
			if !h.fired {
				t.Fatal("the change did not run")
			}
			if !c.progress {
				if !errors.Is(err, lakeerr.ErrRetryableConflict) || len(res.Deleted) != 0 {
					t.Fatalf("orphan removal: deleted %v, %v; want a retryable conflict and nothing deleted", res.Deleted, err)
				}
				return
			}
			if err != nil || res.SnapshotsDuringScan != 2 || !slices.Equal(res.Deleted, strayPaths(f.Dir)) {
				t.Fatalf("orphan removal: %d snapshots during the scan, deleted %v, %v; want 2, and the strays",
					res.SnapshotsDuringScan, res.Deleted, err)
			}
			got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{})
			if err != nil || !slices.Contains(got, "d1 77 p1") || !slices.Contains(got, "d6 78 p2") {
				t.Fatalf("the commits made during the scan read %v, %v", got, err)
			}
			checkNoLeak(t, f.FS, f.Dir)
		})
	}
}

func TestFenceAppended(t *testing.T) {
	base := fence{"branches": "b", "/snapshot": "3,4", "/tag": "tag-x@10/5", "b/snapshot": ""}
	cases := []struct {
		other fence
		want  map[string][]int64
	}{
		{fence{"branches": "b", "/snapshot": "3,4,5,6", "/tag": "tag-x@10/5", "b/snapshot": "1"},
			map[string][]int64{"": {5, 6}, "b": {1}}},
		{fence{"branches": "b", "/snapshot": "4,5", "/tag": "tag-x@10/5", "b/snapshot": ""}, nil},
		{fence{"branches": "b", "/snapshot": "3,4,5", "/tag": "", "b/snapshot": ""}, nil},
		{fence{"branches": "b,c", "/snapshot": "3,4,5", "/tag": "tag-x@10/5", "b/snapshot": "", "c/snapshot": "1"}, nil},
		{fence{"branches": "b", "/snapshot": "3,4,5", "/tag": "tag-x@10/5"}, nil},
		{fence{"branches": "b", "/snapshot": "3", "/tag": "tag-x@10/5", "b/snapshot": ""}, nil},
	}
	for i, c := range cases {
		got, ok := base.appended(c.other)
		if ok != (c.want != nil) || (ok && !equalIDs(got, c.want)) {
			t.Errorf("case %d: appended %v, %v; want %v", i, got, ok, c.want)
		}
	}
}

func equalIDs(a, b map[string][]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
