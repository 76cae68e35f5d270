package compact

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// sweepScenario is a compaction to inject faults into, on copies of one
// table.
type sweepScenario struct {
	name string
	def  catalog.TableDefinition
	mode Mode
	// setup writes the table every run starts from and returns the rows it
	// reads: the model, which no compaction may change.
	setup func(tt *testTable) []string
	// concurrent, when set, is another process's commit that takes the
	// compaction's inputs away. It runs on the unfaulted table just before
	// the compaction's first commit attempt, once per copy of the table,
	// and returns the rows the table reads afterwards.
	concurrent func(tt *testTable) ([]string, error)
	// checkClean checks that a run without faults does what the scenario
	// is about.
	checkClean func(t *testing.T, tt *testTable, res Result)
}

var sweepScenarios = []sweepScenario{
	{
		name: "minor deduplicate",
		def:  pkDefinition(map[string]string{"bucket": "2", "num-sorted-run.compaction-trigger": "2"}),
		mode: Minor,
		setup: func(tt *testTable) []string {
			m := keyModel{}
			m.commit(tt, keyRange(0, 40, "a"))
			m.commit(tt, append(keyRange(0, 10, "b"), deletes(30, 35)...))
			m.commit(tt, keyRange(5, 15, "c"))
			return m.rows()
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.Buckets != 2 || res.FilesWritten == 0 {
				t.Fatalf("clean run %+v, want both buckets rewritten", res)
			}
		},
	},
	{
		name: "minor partial-update",
		def: catalog.TableDefinition{
			Fields:      []spec.DataField{field("id", bigintType), field("a", stringType), field("b", intType)},
			PrimaryKeys: []string{"id"},
			Options:     map[string]string{"bucket": "2", "merge-engine": "partial-update", "num-sorted-run.compaction-trigger": "2"},
		},
		mode: Minor,
		setup: func(tt *testTable) []string {
			m := partialModel{}
			for c := range 3 {
				var batch []tabletest.Record
				for id := range int64(12) {
					switch (id + int64(c)) % 3 {
					case 0:
						batch = append(batch, tabletest.Insert(id, fmt.Sprintf("a%d", c), nil))
					case 1:
						batch = append(batch, tabletest.Insert(id, nil, int32(c)))
					}
				}
				m.commit(tt, batch)
			}
			return m.rows()
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.FilesWritten == 0 {
				t.Fatalf("clean run %+v rewrote nothing", res)
			}
		},
	},
	{
		name: "full drops deletes",
		def:  pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "3"}),
		mode: Full,
		setup: func(tt *testTable) []string {
			m := keyModel{}
			m.commit(tt, keyRange(0, 50, "a"))
			tt.compact(Full)
			m.commit(tt, append(keyRange(0, 5, "b"), deletes(10, 20)...))
			m.commit(tt, deletes(20, 25))
			return m.rows()
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			entries := tt.LiveFiles()
			if len(entries) != 1 || entries[0].File.Level != 3 || deref(entries[0].File.DeleteRowCount) != 0 || res.FilesRewritten != 3 {
				t.Fatalf("clean run %+v left %s, want the 3 files merged into one on level 3 without retractions",
					res, shapeOf(entries))
			}
		},
	},
	{
		// One bucket holds a single file, which moves up as it is; the
		// other holds two that overlap and are merged.
		name: "full upgrades by metadata",
		def:  pkDefinition(map[string]string{"bucket": "2"}),
		mode: Full,
		setup: func(tt *testTable) []string {
			m := keyModel{}
			m.commit(tt, keyRange(0, 20, "a"))
			m.commit(tt, keyRange(0, 1, "b"))
			return m.rows()
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.FilesUpgraded != 1 || res.FilesRewritten != 2 || res.FilesWritten != 1 {
				t.Fatalf("clean run %+v, want one file upgraded and two merged into one", res)
			}
		},
	},
	{
		name: "append fixed bucket",
		def:  appendDefinition(map[string]string{"bucket": "2", "bucket-key": "id", "compaction.min.file-num": "3"}),
		mode: Minor,
		setup: func(tt *testTable) []string {
			writeSmallCommits(tt, 3)
			return appendModel(3)
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.Buckets != 4 || res.FilesRewritten != 12 || res.FilesWritten != 4 {
				t.Fatalf("clean run %+v, want 3 files of each of 4 buckets merged into one", res)
			}
		},
	},
	{
		name: "append bucket-unaware",
		def:  appendDefinition(map[string]string{"bucket": "-1"}),
		mode: Minor,
		setup: func(tt *testTable) []string {
			writeSmallCommits(tt, 6)
			return appendModel(6)
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.Buckets != 2 || res.FilesRewritten != 12 || res.FilesWritten != 2 {
				t.Fatalf("clean run %+v, want 6 files of each partition merged into one", res)
			}
		},
	},
	{
		// Another process compacts everything and writes again between
		// the compaction's rewrite and its commit: the commit loses, and
		// the compaction plans again from the latest snapshot.
		name: "conflict re-plan",
		def:  pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}),
		mode: Minor,
		setup: func(tt *testTable) []string {
			rows, err := updateModel(tt, 0, 3)
			if err != nil {
				tt.T.Fatal(err)
			}
			return rows
		},
		concurrent: func(tt *testTable) ([]string, error) {
			if _, err := Table(context.Background(), tt.options(Full)); err != nil {
				return nil, err
			}
			return updateModel(tt, 3, 6)
		},
		checkClean: func(t *testing.T, tt *testTable, res Result) {
			if res.Attempts != 2 {
				t.Fatalf("clean run %+v, want a second attempt after the lost commit", res)
			}
		},
	},
}

// keyModel is what a deduplicate table holds: the last value of each key.
type keyModel map[int64]string

func (m keyModel) commit(tt *testTable, records []tabletest.Record) {
	tt.T.Helper()
	if err := m.tryCommit(tt, records); err != nil {
		tt.T.Fatal(err)
	}
}

func (m keyModel) tryCommit(tt *testTable, records []tabletest.Record) error {
	if err := tt.tryWriteCommit("writer-test", records); err != nil {
		return err
	}
	for _, r := range records {
		id := r.Row[0].(int64)
		if r.Kind == spec.RowKindDelete {
			delete(m, id)
			continue
		}
		m[id] = r.Row[1].(string)
	}
	return nil
}

func (m keyModel) rows() []string {
	out := []string{}
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%d|%s", id, m[id]))
	}
	slices.Sort(out)
	return out
}

// partialModel is what a partial-update table holds: per key, the last
// non-null value of each column.
type partialModel map[int64][]any

func (m partialModel) commit(tt *testTable, records []tabletest.Record) {
	tt.writeCommit(records...)
	for _, r := range records {
		id := r.Row[0].(int64)
		if m[id] == nil {
			m[id] = slices.Clone(r.Row)
			continue
		}
		for i, v := range r.Row {
			if v != nil {
				m[id][i] = v
			}
		}
	}
}

func (m partialModel) rows() []string {
	out := []string{}
	for _, row := range m {
		out = append(out, tabletest.RenderRow(row))
	}
	slices.Sort(out)
	return out
}

func keyRange(from, to int64, value string) []tabletest.Record {
	var out []tabletest.Record
	for id := from; id < to; id++ {
		out = append(out, tabletest.Insert(id, value))
	}
	return out
}

func deletes(from, to int64) []tabletest.Record {
	var out []tabletest.Record
	for id := from; id < to; id++ {
		out = append(out, tabletest.Delete(id, "x"))
	}
	return out
}

// updateModel commits updates of keys 0..9 to c<from>..c<to-1> in turn
// and returns the rows they leave.
func updateModel(tt *testTable, from, to int) ([]string, error) {
	m := keyModel{}
	for c := from; c < to; c++ {
		if err := m.tryCommit(tt, keyRange(0, 10, fmt.Sprintf("c%d", c))); err != nil {
			return nil, err
		}
	}
	return m.rows(), nil
}

// appendModel is what writeSmallCommits(n) leaves in an append table.
func appendModel(n int) []string {
	var out []string
	for c := range n {
		for i := range 4 {
			out = append(out, fmt.Sprintf("a|%d|c%d", i, c), fmt.Sprintf("b|%d|same", i))
		}
	}
	slices.Sort(out)
	return out
}

func deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// fullSweep faults every read too. By default a sweep faults every
// mutating operation but only the reads at every readStride-th position of
// the trace: a failed read fails the compaction as any other does, before
// it wrote or after, and the mutations around the reads are swept in full.
var fullSweep = flag.Bool("full-sweep", false, "fault every read of the compactions in TestCompactionFaultSweep, not a sample")

const readStride = 4

// sweepFault is one kind of fault a sweep injects into each operation
// match accepts, in turn.
type sweepFault struct {
	fault errorio.Fault
	match func(errorio.Op) bool
}

// A crash is swept over the mutating operations only: a crash before a
// read leaves what a crash before the next write leaves.
var sweepFaults = []sweepFault{
	{errorio.FailBefore, nil}, {errorio.FailAfter, nil},
	{errorio.CrashBefore, errorio.Mutating}, {errorio.CrashAfter, errorio.Mutating},
}

// TestCompactionFaultSweep injects one fault into each I/O operation of a
// compaction in turn, in the manner of the commit and maintenance sweeps:
// a clean failure, a failure after the effect, and a crash before or after
// each mutation, after which the table is reopened on what the crash
// leaves (memio.CrashClone). After every run the latest snapshot must read
// the model's rows; every file of the start table must hold what it held,
// so that every snapshot and tag reads as before; every file a snapshot or
// tag references must exist; the compaction must have committed its whole
// result once or nothing; a failure known not to have committed must have
// deleted the files it wrote; and what a failure leaves behind must be
// unreferenced files it wrote itself. Re-running the compaction without
// faults must then succeed and leave the table as a clean run leaves it.
func TestCompactionFaultSweep(t *testing.T) {
	for _, sc := range sweepScenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			s := newSweep(t, sc)
			for _, f := range sweepFaults {
				t.Run(f.fault.String(), func(t *testing.T) {
					t.Parallel()
					s.run(t, f)
				})
			}
		})
	}
}

// sweep is one scenario's start table and what a clean run does to it.
type sweep struct {
	sc   sweepScenario
	base *testTable
	// model is the rows of the start table.
	model []string
	// startFiles holds the content of every file of the start table;
	// startShape is its live files.
	startFiles map[string][]byte
	startShape []string
	// cleanTrace is the operations of a clean run, in order; cleanShape
	// is the live files it leaves.
	cleanTrace []errorio.Op
	cleanShape []string
}

// sweepUser is the commit user of the compactions under test; a re-run
// after a crash is another process, with a user of its own.
const sweepUser, restartedUser = "sweep-compactor", "sweep-compactor-restarted"

func newSweep(t *testing.T, sc sweepScenario) *sweep {
	base := newMemTable(t, sc.def)
	s := &sweep{sc: sc, base: base, model: sc.setup(base)}
	assertRows(t, "the start table", base.Read(), s.model)
	tagSnapshots(t, base)
	s.startFiles = contents(t, memOf(base))
	s.startShape = shapeOf(base.LiveFiles())

	r := s.newRun(t, memOf(base).CrashClone())
	fsys := errorio.Wrap(r.mem, nil)
	res, err := Table(context.Background(), r.options(fsys, NewIdentity(sweepUser)))
	if err != nil {
		t.Fatalf("clean run: %v", err)
	}
	assertRows(t, "after a clean run", r.tt.Read(), r.want)
	sc.checkClean(t, r.tt, res)
	s.cleanTrace = fsys.Trace()
	s.cleanShape = shapeOf(r.tt.LiveFiles())
	// A re-run after a faulted run that committed must find nothing to
	// do, so that every faulted run ends in the clean run's table.
	again, err := Table(context.Background(), r.options(r.mem, NewIdentity(restartedUser)))
	if err != nil || again.Snapshot != 0 {
		t.Fatalf("a second compaction after the clean run: %+v, %v; want nothing to compact", again, err)
	}
	t.Logf("%s: %d I/O operations, %d of them mutating", sc.name, len(s.cleanTrace), len(s.ops(errorio.Mutating)))
	return s
}

// sweepRun is one copy of the start table, with the rows it must read.
type sweepRun struct {
	s   *sweep
	tt  *testTable
	mem *memio.FS
	// want is the model: the start rows, or the rows after the concurrent
	// commit once it ran.
	want []string
	// wantBefore is the live files the table holds while the compaction
	// has not committed.
	wantBefore []string
	// concurrentRan is set once the scenario's concurrent commit ran.
	concurrentRan bool
}

func (s *sweep) newRun(t *testing.T, mem *memio.FS) *sweepRun {
	tt := s.base.on(t, mem)
	return &sweepRun{s: s, tt: tt, mem: mem, want: s.model, wantBefore: s.startShape}
}

// options compacts the run's table through fsys, committing as identity;
// the scenario's concurrent commit runs on the unfaulted table before the
// first commit attempt, if it has not run on this copy yet.
func (r *sweepRun) options(fsys fileio.FileIO, identity *Identity) Options {
	opts := r.tt.options(r.s.sc.mode)
	opts.FileIO = fsys
	opts.Identity = identity
	// One worker keeps the order of operations, and so the sweep, the
	// same from run to run.
	opts.Parallelism = 1
	if r.s.sc.concurrent != nil {
		opts.hooks.beforeCommit = func(attempt int) {
			if attempt != 1 || r.concurrentRan {
				return
			}
			r.concurrentRan = true
			var err error
			if r.want, err = r.s.sc.concurrent(r.tt); err != nil {
				r.tt.T.Fatalf("the concurrent commit: %v", err)
			}
			r.wantBefore = shapeOf(r.tt.LiveFiles())
		}
	}
	return opts
}

// run sweeps one kind of fault over every operation it applies to.
func (s *sweep) run(t *testing.T, f sweepFault) {
	steps := s.ops(f.match)
	swept := 0
	for k := 0; ; k++ {
		if k < len(steps) && !*fullSweep && !steps[k].Kind.Mutating() && k%readStride != 0 {
			continue
		}
		swept++
		r := s.newRun(t, memOf(s.base).CrashClone())
		fsys := errorio.Wrap(r.mem, errorio.OnNth(k, f.match, f.fault))
		identity := NewIdentity(sweepUser)
		res, err := Table(context.Background(), r.options(fsys, identity))
		if !fsys.Injected() {
			if err != nil || k != len(steps) {
				t.Fatalf("run %d without a fault: %v; a clean run has %d operations to fault", k, err, len(steps))
			}
			t.Logf("faulted %d of %d operations", swept-1, len(steps))
			return
		}
		op := nthOp(fsys.Trace(), k, f.match)
		if op != steps[k] {
			t.Fatalf("operation %d is %s, but %s in a clean run: the sweep is not deterministic", k, op, steps[k])
		}
		what := fmt.Sprintf("%v at operation %d (%s)", f.fault, k, op)
		if err != nil && !errors.Is(err, fileio.ErrInjected) {
			t.Fatalf("%s: error does not wrap the injected fault: %v", what, err)
		}
		if fsys.Crashed() {
			// The re-run is another process, on what the crash left.
			r = r.reopen(t, r.mem.CrashClone())
			identity = NewIdentity(restartedUser)
		}
		committed, left := r.checkFaulted(t, what, fsys, op, f.fault, res, err)
		r.checkRerun(t, what, identity, committed, left)
		if t.Failed() {
			t.Fatalf("%s broke the table", what)
		}
	}
}

// ops returns the operations of a clean run that match accepts (nil: all).
func (s *sweep) ops(match func(errorio.Op) bool) []errorio.Op {
	var out []errorio.Op
	for _, op := range s.cleanTrace {
		if match == nil || match(op) {
			out = append(out, op)
		}
	}
	return out
}

// nthOp returns the k-th operation of trace that match accepts.
func nthOp(trace []errorio.Op, k int, match func(errorio.Op) bool) errorio.Op {
	for _, op := range trace {
		if match != nil && !match(op) {
			continue
		}
		if k == 0 {
			return op
		}
		k--
	}
	panic("the faulted operation is not in the trace")
}

// reopen returns the run on mem, a copy of its table, keeping what the
// concurrent commit did.
func (r *sweepRun) reopen(t *testing.T, mem *memio.FS) *sweepRun {
	return &sweepRun{s: r.s, tt: r.tt.on(t, mem), mem: mem, want: r.want, wantBefore: r.wantBefore, concurrentRan: r.concurrentRan}
}

// checkFaulted checks the table a faulted compaction left and returns
// whether the compaction committed, and the files it left behind.
func (r *sweepRun) checkFaulted(t *testing.T, what string, fsys *errorio.FS, op errorio.Op, fault errorio.Fault,
	res Result, err error) (committed bool, leftovers []string) {
	t.Helper()
	v := r.inspect(t, what)
	own := v.compactions(sweepUser)
	committed = len(own) == 1
	switch {
	case len(own) > 1:
		t.Fatalf("%s: the compaction committed %d times", what, len(own))
	case err == nil && (!committed || res.Snapshot != own[0]):
		t.Fatalf("%s: the compaction reported %+v, but committed %v", what, res, own)
	case err != nil && !fsys.Crashed() && !errors.Is(err, lakeerr.ErrUnknownOutcome):
		if committed {
			t.Fatalf("%s: the compaction committed snapshot %d, but failed with %v", what, own[0], err)
		}
		// A known failure deletes what it wrote; only a delete that
		// failed before it applied may leave its file.
		for _, p := range v.leftovers {
			if fault != errorio.FailBefore || op.Kind != errorio.Delete || op.Path != p {
				t.Errorf("%s: the failed compaction (%v) left %s", what, err, p)
			}
		}
	}
	// A failure whose outcome is unknown may leave files, but only files
	// it wrote itself.
	v.checkLeftoversWrittenBy(t, what, fsys)
	wantShape := r.wantBefore
	if committed {
		wantShape = r.s.cleanShape
	}
	if !slices.Equal(v.latestShape, wantShape) {
		t.Errorf("%s: the latest snapshot (compaction committed: %v) holds\n%s\nwant\n%s",
			what, committed, strings.Join(v.latestShape, "\n"), strings.Join(wantShape, "\n"))
	}
	return committed, v.leftovers
}

// checkRerun compacts again without faults, as identity, and checks that
// the table ends as a clean run leaves it, with one compaction in all, and
// no file left behind but those the faulted run left.
func (r *sweepRun) checkRerun(t *testing.T, what string, identity *Identity, committed bool, left []string) {
	t.Helper()
	leftBefore := toSet(left)
	res, err := Table(context.Background(), r.options(r.mem, identity))
	if err != nil {
		t.Fatalf("%s: re-run: %v", what, err)
	}
	if committed && res.Snapshot != 0 {
		t.Errorf("%s: the compaction committed, yet the re-run committed again: %+v", what, res)
	}
	v := r.inspect(t, what+", after the re-run")
	if n := len(v.compactions(sweepUser)) + len(v.compactions(restartedUser)); n != 1 {
		t.Errorf("%s: after the re-run the table holds %d compactions, want 1", what, n)
	}
	if !slices.Equal(v.latestShape, r.s.cleanShape) {
		t.Errorf("%s: after the re-run the latest snapshot holds\n%s\nwant what a clean run leaves\n%s",
			what, strings.Join(v.latestShape, "\n"), strings.Join(r.s.cleanShape, "\n"))
	}
	for _, p := range v.leftovers {
		if !leftBefore[p] {
			t.Errorf("%s: the re-run left %s", what, p)
		}
	}
}

// runView is what a fresh reader finds in a run's table.
type runView struct {
	snapshots []*spec.Snapshot
	// latestShape is the live files of the latest snapshot.
	latestShape []string
	// leftovers are files written since the start that no snapshot or tag
	// references.
	leftovers []string
}

// checkLeftoversWrittenBy checks that every file left behind is one the
// compaction put through fsys.
func (v runView) checkLeftoversWrittenBy(t *testing.T, what string, fsys *errorio.FS) {
	t.Helper()
	written := map[string]bool{}
	for _, op := range fsys.Trace() {
		if op.Kind == errorio.PutIfAbsent {
			written[op.Path] = true
		}
	}
	for _, p := range v.leftovers {
		if !written[p] {
			t.Errorf("%s: %s is left behind, but the compaction did not write it", what, p)
		}
	}
}

// compactions returns the snapshots user committed.
func (v runView) compactions(user string) []int64 {
	var ids []int64
	for _, s := range v.snapshots {
		if s.CommitUser == user {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// inspect reopens the run's table and checks what holds after any fault:
// the latest snapshot reads the model, every file of the start table is
// unchanged, and every file a snapshot or tag references exists.
func (r *sweepRun) inspect(t *testing.T, what string) runView {
	t.Helper()
	ctx := context.Background()
	tbl := r.tt.Open()
	if got, err := tabletest.ReadTable(tbl, table.ReadOptions{}); err != nil || !slices.Equal(got, r.want) {
		t.Fatalf("%s: the latest snapshot reads %v (%v), want the model %v", what, got, err, r.want)
	}
	r.s.checkStartFiles(t, what, r.mem)
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var v runView
	for _, id := range ids {
		s, err := tbl.Snapshots().Snapshot(ctx, id)
		if err != nil {
			t.Fatalf("%s: snapshot %d: %v", what, id, err)
		}
		v.snapshots = append(v.snapshots, s)
	}
	v.latestShape = shapeOf(liveFilesOf(t, tbl))
	referenced := referencedPaths(t, tbl, v.snapshots)
	onDisk := toSet(r.mem.Files())
	for _, p := range slices.Sorted(maps.Keys(referenced)) {
		if !onDisk[p] {
			t.Errorf("%s: %s is referenced but missing", what, p)
		}
	}
	for _, p := range r.mem.Files() {
		if _, old := r.s.startFiles[p]; !old && !referenced[p] && isTableContent(p) {
			v.leftovers = append(v.leftovers, p)
		}
	}
	return v
}

// isDataFile reports whether p is a data file, in a bucket directory.
func isDataFile(p string) bool { return strings.Contains(p, "/bucket-") }

// isTableContent reports whether p is a manifest, index or data file: not
// a snapshot, schema or tag, nor a LATEST or EARLIEST hint or a commit
// receipt, which are rewritten rather than left behind.
func isTableContent(p string) bool {
	return strings.Contains(p, "/manifest/") || strings.Contains(p, "/index/") || isDataFile(p)
}

// referencedPaths is the path of every file a snapshot of snaps or a tag
// of tbl needs: manifest lists, manifests, index manifests and files, and
// live data files with their extra files.
func referencedPaths(t *testing.T, tbl *table.Table, snaps []*spec.Snapshot) map[string]bool {
	t.Helper()
	ctx := context.Background()
	mgr := tbl.Snapshots()
	names, err := mgr.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all := slices.Clone(snaps)
	for _, name := range names {
		tag, err := mgr.Tag(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, &tag.Snapshot)
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	manifests := tbl.Manifests()
	for _, snap := range all {
		lists := []string{snap.BaseManifestList, snap.DeltaManifestList}
		if snap.ChangelogManifestList != nil {
			lists = append(lists, *snap.ChangelogManifestList)
		}
		for _, l := range lists {
			used[manifests.Path(l)] = true
			metas, err := manifests.ManifestList(ctx, l)
			if errors.Is(err, fileio.ErrNotExist) {
				continue // the caller reports it missing
			}
			if err != nil {
				t.Fatalf("manifest list %s of snapshot %d: %v", l, snap.ID, err)
			}
			for _, m := range metas {
				used[manifests.Path(m.FileName)] = true
			}
		}
		if snap.IndexManifest != nil {
			used[manifests.Path(*snap.IndexManifest)] = true
			index, err := tbl.IndexFiles(ctx, snap)
			if err != nil {
				t.Fatalf("index files of snapshot %d: %v", snap.ID, err)
			}
			for _, e := range index {
				used[tbl.Dir()+"/index/"+e.IndexFile.FileName] = true
			}
		}
		live, err := tbl.LiveFiles(ctx, snap)
		if err != nil {
			t.Fatalf("live files of snapshot %d: %v", snap.ID, err)
		}
		for _, e := range live {
			dir, err := bucketDir(s, tbl.Dir(), e.Partition, e.Bucket)
			if err != nil {
				t.Fatal(err)
			}
			used[dir+"/"+e.File.FileName] = true
			for _, x := range e.File.ExtraFiles {
				used[dir+"/"+x] = true
			}
		}
	}
	return used
}

// shapeOf describes live files without their names, which hold uuids that
// differ from run to run: what a compaction produced.
func shapeOf(entries []spec.ManifestEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		f := e.File
		out[i] = fmt.Sprintf("partition %x bucket %d level %d: %d rows (%d retractions), sequence %d-%d, keys %x-%x, %d bytes",
			e.Partition, e.Bucket, f.Level, f.RowCount, deref(f.DeleteRowCount), f.MinSequenceNumber, f.MaxSequenceNumber,
			f.MinKey, f.MaxKey, f.FileSize)
	}
	slices.Sort(out)
	return out
}

// checkStartFiles checks that every file of the start table holds what it
// held, but for the advisory hints and receipts a commit rewrites: a
// compaction only adds files, so every snapshot and tag of the start reads
// as it did.
func (s *sweep) checkStartFiles(t *testing.T, what string, mem *memio.FS) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(s.startFiles)) {
		if isAdvisory(p) {
			continue
		}
		got, err := mem.ReadFile(context.Background(), p)
		if err != nil || !bytes.Equal(got, s.startFiles[p]) {
			t.Errorf("%s: %s of the start table changed (%v)", what, p, err)
		}
	}
}

// isAdvisory reports whether p is a LATEST or EARLIEST hint or a commit
// receipt, which commits rewrite and crashes may roll back.
func isAdvisory(p string) bool {
	return strings.HasSuffix(p, "/LATEST") || strings.HasSuffix(p, "/EARLIEST") || strings.Contains(p, "/commit-user/")
}

func contents(t *testing.T, mem *memio.FS) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range mem.Files() {
		data, err := mem.ReadFile(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	return out
}

// tagSnapshots tags the first and the latest snapshot, so that the sweep
// checks tags as well.
func tagSnapshots(t *testing.T, tt *testTable) {
	t.Helper()
	tags := []struct {
		name string
		id   int64
	}{{"first", 1}, {"latest", tt.Latest().ID}}
	for _, tag := range tags {
		if _, err := maintenance.CreateTag(context.Background(), tt.FS, tt.Dir, tag.name,
			maintenance.CreateTagOptions{SnapshotID: tag.id, Now: tt.Now}); err != nil {
			t.Fatal(err)
		}
	}
}

func memOf(tt *testTable) *memio.FS { return tt.FS.(*memio.FS) }

func toSet(paths []string) map[string]bool {
	set := map[string]bool{}
	for _, p := range paths {
		set[p] = true
	}
	return set
}

// TestConcurrentCommitAtEveryStep lets the concurrent commit of the
// conflict scenario land just before each I/O operation of the compaction
// in turn, rather than between its rewrite and its commit. Wherever it
// lands, the compaction must commit exactly once, planning again when its
// commit lost, must delete what a lost attempt wrote, and must leave the
// table reading the model.
func TestConcurrentCommitAtEveryStep(t *testing.T) {
	i := slices.IndexFunc(sweepScenarios, func(sc sweepScenario) bool { return sc.name == "conflict re-plan" })
	s := newSweep(t, sweepScenarios[i])
	replanned, metadataLeft := 0, 0
	for n := 0; ; n++ {
		r := s.newRun(t, memOf(s.base).CrashClone())
		var concurrentErr error
		at := &beforeNth{n: n, run: func() { r.want, concurrentErr = s.sc.concurrent(r.tt) }}
		fsys := errorio.Wrap(r.mem, at)
		opts := r.options(fsys, NewIdentity(sweepUser))
		opts.hooks = testHooks{}
		res, err := Table(context.Background(), opts)
		if concurrentErr != nil {
			t.Fatalf("the concurrent commit before operation %d: %v", n, concurrentErr)
		}
		if !at.fired {
			t.Logf("the concurrent commit landed before each of %d operations; the compaction planned again %d times and left %d manifests",
				n, replanned, metadataLeft)
			if replanned == 0 || replanned == n {
				t.Fatalf("the compaction planned again %d times in %d runs: the sweep missed the conflict or its absence", replanned, n)
			}
			return
		}
		what := fmt.Sprintf("the concurrent commit before operation %d", n)
		if err != nil {
			t.Fatalf("%s: the compaction failed: %v", what, err)
		}
		v := r.inspect(t, what)
		if own := v.compactions(sweepUser); len(own) != 1 || own[0] != res.Snapshot {
			t.Fatalf("%s: the compaction reported %+v, but committed %v", what, res, own)
		}
		// A lost attempt deletes the data files it wrote. The committer
		// keeps the manifests a snapshot put named even when the put lost
		// the race for its id (package commit, deltaNamed), so those may
		// stay behind, unreferenced.
		for _, p := range v.leftovers {
			if isDataFile(p) {
				t.Errorf("%s: the compaction (%+v) left %s", what, res, p)
			} else {
				metadataLeft++
			}
		}
		v.checkLeftoversWrittenBy(t, what, fsys)
		if t.Failed() {
			t.FailNow()
		}
		if res.Attempts > 1 {
			replanned++
		}
	}
}

// beforeNth is an errorio.Injector that injects no fault, but runs another
// process's work just before the n-th operation, while the operation waits.
type beforeNth struct {
	n, seen int
	run     func()
	fired   bool
}

func (b *beforeNth) Fault(errorio.Op) errorio.Fault {
	if b.seen == b.n {
		b.fired = true
		b.run()
	}
	b.seen++
	return errorio.NoFault
}
