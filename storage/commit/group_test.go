package commit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// groupTable is a table whose writers share one FileIO, staging over fs,
// so that their Committers publish through one group, as the writers of
// one server do. Setup commits go to h.mem directly: another FileIO,
// another group.
type groupTable struct {
	t       *testing.T
	h       *harness
	fs      *errorio.FS
	staging *stagingFS
	// inject, set before any commit, faults operations on fs.
	inject func(op errorio.Op) errorio.Fault
}

func newGroupTable(t *testing.T, pk bool, options ...string) *groupTable {
	gt := &groupTable{t: t, h: newHarness(t, pk, options...)}
	gt.fs = errorio.Wrap(gt.h.mem, injectorFunc(func(op errorio.Op) errorio.Fault {
		if gt.inject == nil {
			return errorio.NoFault
		}
		return gt.inject(op)
	}))
	gt.staging = &stagingFS{FileIO: gt.fs}
	return gt
}

// stagingFS gives a FileIO the fileio.Stager capability, as localio has
// it, so that batches stage each snapshot before its put. It logs
// stagings, puts and discards, and fails the stagings failStage picks.
type stagingFS struct {
	fileio.FileIO
	failStage func(path string) bool
	mu        sync.Mutex
	log       []string
}

func (s *stagingFS) note(event, p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, event+" "+strings.TrimPrefix(p, tableDir+"/"))
}

func (s *stagingFS) events() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

func (s *stagingFS) StagePut(_ context.Context, p string, data []byte) (fileio.Staged, error) {
	s.note("stage", p)
	if s.failStage != nil && s.failStage(p) {
		return nil, fmt.Errorf("stage %s: %w", p, fileio.ErrInjected)
	}
	return &loggedStage{fs: s, path: p, data: data}, nil
}

type loggedStage struct {
	fs   *stagingFS
	path string
	data []byte
	done bool
}

func (l *loggedStage) Put(ctx context.Context) error {
	l.done = true
	l.fs.note("put", l.path)
	return l.fs.PutIfAbsent(ctx, l.path, l.data)
}

func (l *loggedStage) Discard() {
	if !l.done {
		l.done = true
		l.fs.note("discard", l.path)
	}
}

// committer opens writer i's Committer on fs. Its uuids, w<i>-<n>, name
// its files apart from other writers', and alike in every run whatever
// the interleaving; it has its own jitter source, as a process would.
func (gt *groupTable) committer(i int) *Committer {
	gt.t.Helper()
	var n atomic.Int64
	c, err := New(Options{
		FileIO: gt.staging, TableDir: tableDir, Core: spec.NewCoreOptions(gt.h.options),
		Now: gt.h.clock.Now, Sleep: gt.h.clock.Sleep, Rand: rand.New(rand.NewPCG(uint64(i), 3)),
		NewUUID: func() string { return fmt.Sprintf("w%d-%d", i, n.Add(1)) },
		Leases:  lease.Disabled(), // as in harness.committer
	})
	if err != nil {
		gt.t.Fatal(err)
	}
	return c
}

// commitBatch commits reqs[i] with writer i's new Committer, all in one
// batch: it holds the group as a leader would, lets each Commit queue in
// turn, then hands the lead to the first, which takes them all. A Commit
// that fails before it queues is not waited for.
func (gt *groupTable) commitBatch(reqs []Request) ([]Result, []error) {
	gt.t.Helper()
	cs := make([]*Committer, len(reqs))
	for i := range cs {
		cs[i] = gt.committer(i)
		gt.h.placeFiles(reqs[i].Messages)
	}
	g := cs[0].group
	hold(gt.t, g)
	results, errs := make([]Result, len(reqs)), make([]error, len(reqs))
	var wg sync.WaitGroup
	queued := 0
	for i := range reqs {
		done := make(chan struct{})
		wg.Go(func() {
			defer close(done)
			defer func() {
				if p := recover(); p != nil {
					errs[i] = callerPanic{p}
				}
			}()
			results[i], errs[i] = cs[i].Commit(context.Background(), reqs[i])
		})
		if waitQueued(g, queued+1, done) {
			queued++
		}
	}
	release(g)
	wg.Wait()
	return results, errs
}

// callerPanic is a panic of a Commit call in commitBatch.
type callerPanic struct{ value any }

func (p callerPanic) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// hold makes g look led, so that Commit calls queue.
func hold(t *testing.T, g *group) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.mu.leading {
		t.Fatal("the group is already led")
	}
	g.mu.leading = true
}

// release hands the lead of a held group on, as a finishing leader does.
func release(g *group) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.handOffLocked()
}

// waitQueued waits until g's queue holds n jobs, and reports whether it
// does, or until done is closed.
func waitQueued(g *group, n int, done <-chan struct{}) bool {
	for {
		g.mu.Lock()
		queued := len(g.mu.queue)
		g.mu.Unlock()
		if queued == n {
			return true
		}
		select {
		case <-done:
			return false
		default:
			runtime.Gosched()
		}
	}
}

// commitKey names a part of a request in the snapshot log.
func commitKey(user string, identifier int64, kind spec.CommitKind) string {
	return fmt.Sprintf("%s/%d/%s", user, identifier, kind)
}

// snapshotLog checks that the table on mem has snapshots 1..latest without
// a gap, each complete (inspect), and returns the ids carrying each part.
func snapshotLog(t *testing.T, mem *memio.FS) (map[string][]int64, tableView) {
	t.Helper()
	ctx := context.Background()
	view := inspect(t, mem)
	snaps := snapshot.NewManager(mem, tableDir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	log := map[string][]int64{}
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("snapshot ids %v have a gap", ids)
		}
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		key := commitKey(s.CommitUser, s.CommitIdentifier, s.CommitKind)
		log[key] = append(log[key], id)
	}
	return log, view
}

// groupWorkload is three single-part requests of three writers, one
// batch: an append, a static overwrite and a compaction, on a table set up
// with two snapshots. merge-min-count=2 makes each of them merge manifests,
// so every base list is built on the one planned before it.
type groupWorkload struct {
	reqs  []Request
	kinds []spec.CommitKind
}

var groupOptions = []string{"manifest.merge-min-count=2"}

const groupSetupSnapshots = 2

func newGroupWorkload(gt *groupTable) groupWorkload {
	h := gt.h
	k1 := fileSpec{name: "k1", rows: 10, minK: 1, maxK: 10}
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", k1))
	h.commitFiles("setup", 2, h.appendMsg("2024-01-02", fileSpec{name: "k2", rows: 11, minK: 20, maxK: 30}))
	compact := Message{Partition: partition("2024-01-01"), Bucket: 0, TotalBuckets: h.totalBuckets(),
		CompactBefore: []spec.DataFileMeta{h.file(k1)},
		CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "c1", rows: 10, level: 5, minK: 1, maxK: 10, compacted: true})}}
	return groupWorkload{
		reqs: []Request{
			{CommitUser: "a", Identifier: 1, Messages: []Message{h.appendMsg("2024-01-01", fileSpec{name: "a1", rows: 2, minK: 40, maxK: 41})}},
			{CommitUser: "b", Identifier: 1, Messages: []Message{h.appendMsg("2024-01-02", fileSpec{name: "b1", rows: 3, minK: 20, maxK: 22})},
				Overwrite: &Overwrite{BaseSnapshotID: groupSetupSnapshots, Static: map[string]any{"dt": "2024-01-02"}}},
			{CommitUser: "c", Identifier: 1, Messages: []Message{compact}},
		},
		kinds: []spec.CommitKind{spec.CommitKindAppend, spec.CommitKindOverwrite, spec.CommitKindCompact},
	}
}

// wantLive is what the table holds once each request landed once.
var groupWantLive = []string{"a1", "b1", "c1"}

// TestGroupPublishesABatchOnOneRead commits three requests of three
// writers as one batch: consecutive snapshots, each request once, no lost
// race, and one read of the latest snapshot for the batch, the later
// requests being planned on the snapshots planned before them.
func TestGroupPublishesABatchOnOneRead(t *testing.T) {
	gt := newGroupTable(t, true, groupOptions...)
	w := newGroupWorkload(gt)
	results, errs := gt.commitBatch(w.reqs)
	for i := range w.reqs {
		want := []int64{groupSetupSnapshots + 1 + int64(i)}
		if errs[i] != nil || !slices.Equal(results[i].Snapshots, want) {
			t.Fatalf("request %d: %s, %v; want snapshots %v", i, results[i], errs[i], want)
		}
	}
	log, view := snapshotLog(t, gt.h.mem)
	for i, req := range w.reqs {
		if got := log[commitKey(req.CommitUser, req.Identifier, w.kinds[i])]; len(got) != 1 {
			t.Fatalf("request %d landed in %v", i, got)
		}
	}
	if !slices.Equal(view.live, groupWantLive) || len(leftovers(gt.h.mem, view)) > 0 {
		t.Fatalf("live %v, leftovers %v; want live %v and no leftover", view.live, leftovers(gt.h.mem, view), groupWantLive)
	}
	var latestReads, snapshotPuts int
	for _, op := range gt.fs.Trace() {
		switch {
		case op.Kind == errorio.Read && strings.HasSuffix(op.Path, "/snapshot/LATEST"):
			latestReads++
		case isSnapshotPut(op):
			snapshotPuts++
		}
	}
	if latestReads != 1 || snapshotPuts != 3 {
		t.Fatalf("%d reads of the LATEST hint and %d snapshot puts; want 1 and 3", latestReads, snapshotPuts)
	}
}

// TestGroupFaultSweep injects one fault into each I/O operation of a
// batch of three requests in turn (TestFaultSweep for one writer). The
// operations of a batch interleave, so each is targeted by what it is
// (kind, path, and how many equal operations precede it in a clean run)
// rather than by its position. Every run must leave a table with
// contiguous ids and complete snapshots; each request must end published
// once, or failed with an error that says whether it may have landed;
// a fault other than a crash may fail only one request; and a retry of
// every request by restarted writers must apply each exactly once.
func TestGroupFaultSweep(t *testing.T) {
	faults := []errorio.Fault{errorio.FailBefore, errorio.FailAfter, errorio.CrashBefore, errorio.CrashAfter}
	for _, fault := range faults {
		t.Run(fault.String(), func(t *testing.T) { groupSweep(t, fault) })
	}
}

func groupSweep(t *testing.T, fault errorio.Fault) {
	gt := newGroupTable(t, true, groupOptions...)
	w := newGroupWorkload(gt)
	if _, errs := gt.commitBatch(w.reqs); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	clean := gt.fs.Trace()
	crashedBetweenPuts := false
	for i, op := range clean {
		nth := 0
		for _, earlier := range clean[:i] {
			if earlier == op {
				nth++
			}
		}
		gt := newGroupTable(t, true, groupOptions...)
		w := newGroupWorkload(gt)
		gt.inject = faultOnce(op, nth, fault)
		results, errs := gt.commitBatch(w.reqs)
		if !gt.fs.Injected() {
			t.Fatalf("%s #%d of a clean run did not happen", op, nth)
		}
		published := checkGroupRun(t, gt, w, fault, fmt.Sprintf("%s at %s #%d", fault, op, nth), results, errs)
		crashedBetweenPuts = crashedBetweenPuts || gt.fs.Crashed() && published > 0 && published < len(w.reqs)
	}
	if (fault == errorio.CrashBefore || fault == errorio.CrashAfter) && !crashedBetweenPuts {
		t.Fatal("no crash fell between two snapshot puts of the batch")
	}
}

// faultOnce faults the nth occurrence (from 0) of target.
func faultOnce(target errorio.Op, nth int, fault errorio.Fault) func(errorio.Op) errorio.Fault {
	seen := 0
	return func(op errorio.Op) errorio.Fault {
		if op != target {
			return errorio.NoFault
		}
		seen++
		if seen-1 == nth {
			return fault
		}
		return errorio.NoFault
	}
}

// checkGroupRun checks a faulted batch (see TestGroupFaultSweep) and
// returns how many of its snapshots the table holds before the retries.
func checkGroupRun(t *testing.T, gt *groupTable, w groupWorkload, fault errorio.Fault, what string, results []Result, errs []error) int {
	t.Helper()
	failed := 0
	for i, err := range errs {
		if err == nil {
			continue
		}
		failed++
		if !errors.Is(err, fileio.ErrInjected) {
			t.Fatalf("%s: request %d failed with an error that does not wrap the fault: %v", what, i, err)
		}
	}
	if !gt.fs.Crashed() && failed > 1 {
		t.Fatalf("%s: one fault failed %d requests: %v", what, failed, errs)
	}
	if gt.fs.Crashed() {
		gt.h.mem = gt.h.mem.CrashClone()
	}
	log, _ := snapshotLog(t, gt.h.mem)
	published := 0
	for i, req := range w.reqs {
		got := log[commitKey(req.CommitUser, req.Identifier, w.kinds[i])]
		published += len(got)
		switch err := errs[i]; {
		case err == nil && !slices.Equal(got, results[i].Snapshots):
			t.Fatalf("%s: request %d reported %s, but the table has it in %v", what, i, results[i], got)
		case err != nil && !errors.Is(err, lakeerr.ErrUnknownOutcome) && len(got) > 0:
			t.Fatalf("%s: request %d failed (%v) without an unknown outcome, but landed in %v", what, i, err, got)
		case len(got) > 1:
			t.Fatalf("%s: request %d landed in %v", what, i, got)
		}
	}
	for i, req := range w.reqs {
		if _, err := gt.h.committer(nil).Commit(context.Background(), req); err != nil {
			t.Fatalf("%s: retry of request %d failed: %v", what, i, err)
		}
	}
	log, view := snapshotLog(t, gt.h.mem)
	for i, req := range w.reqs {
		if got := log[commitKey(req.CommitUser, req.Identifier, w.kinds[i])]; len(got) != 1 {
			t.Fatalf("%s: after the retries request %d is in %v", what, i, got)
		}
	}
	if !slices.Equal(view.live, groupWantLive) {
		t.Fatalf("%s: live files %v; want %v", what, view.live, groupWantLive)
	}
	for _, f := range leftovers(gt.h.mem, view) {
		if !strings.HasPrefix(f, "manifest/") {
			t.Fatalf("%s: leftover %s is not a metadata file of a failed attempt", what, f)
		}
	}
	return published
}

// A conflict is its request's error only: the requests around it in the
// batch publish consecutive snapshots, the later one planned on the
// earlier, and the conflicting request writes nothing.
func TestGroupConflictFailsOnlyItsRequest(t *testing.T) {
	gt := newGroupTable(t, true)
	h := gt.h
	k1 := fileSpec{name: "k1", rows: 10, minK: 1, maxK: 10}
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", k1))
	compaction := func(after string) Message {
		return Message{Partition: partition("2024-01-01"), Bucket: 0, TotalBuckets: 1,
			CompactBefore: []spec.DataFileMeta{h.file(k1)},
			CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: after, rows: 10, level: 5, minK: 1, maxK: 10, compacted: true})}}
	}
	results, errs := gt.commitBatch([]Request{
		{CommitUser: "a", Identifier: 1, Messages: []Message{compaction("a1")}},
		{CommitUser: "b", Identifier: 1, Messages: []Message{compaction("b1")}},
		{CommitUser: "c", Identifier: 1, Messages: []Message{h.appendMsg("2024-01-01", fileSpec{name: "c1", rows: 1, minK: 50, maxK: 50})}},
	})
	if errs[0] != nil || errs[2] != nil || !slices.Equal(results[0].Snapshots, []int64{2}) || !slices.Equal(results[2].Snapshots, []int64{3}) {
		t.Fatalf("a: %s, %v; c: %s, %v; want snapshots 2 and 3", results[0], errs[0], results[2], errs[2])
	}
	var ce *ConflictError
	if !errors.As(errs[1], &ce) || ce.Kind != DeletedFileNotLive || !errors.Is(errs[1], lakeerr.ErrTerminalConflict) ||
		ce.Conflicting.ID != 2 || ce.Conflicting.CommitUser != "a" || len(results[1].Snapshots) != 0 {
		t.Fatalf("b: %s, %v; want a terminal DeletedFileNotLive conflict with a's snapshot 2", results[1], errs[1])
	}
	view := inspect(t, h.mem)
	if !slices.Equal(view.live, []string{"a1", "c1"}) {
		t.Fatalf("live files %v", view.live)
	}
	for _, f := range manifestFiles(h.mem) {
		if strings.Contains(f, "-w1-") {
			t.Fatalf("the conflicting request left %s", f)
		}
	}
}

// A retry of a request that already landed, queued in a batch between two
// new requests, is found landed (by its receipt, or without one by the
// walk, which passes the snapshot planned before it) and publishes nothing.
func TestGroupRetryOfCommittedIdentifier(t *testing.T) {
	for _, withReceipt := range []bool{true, false} {
		t.Run(fmt.Sprintf("receipt=%v", withReceipt), func(t *testing.T) {
			gt := newGroupTable(t, false)
			h := gt.h
			retried := appendRequest(h, "r", 5, "r5")
			h.commit(retried)
			if !withReceipt {
				if err := h.mem.Delete(context.Background(), tableDir+"/commit-user/r"); err != nil {
					t.Fatal(err)
				}
			}
			results, errs := gt.commitBatch([]Request{
				appendRequest(h, "a", 1, "a1"),
				retried,
				appendRequest(h, "c", 1, "c1"),
			})
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			if !results[1].AlreadyCommitted() || results[1].AlreadyCommittedIn != 1 {
				t.Fatalf("retry: %s; want already committed in snapshot 1", results[1])
			}
			if !slices.Equal(results[0].Snapshots, []int64{2}) || !slices.Equal(results[2].Snapshots, []int64{3}) {
				t.Fatalf("a: %s; c: %s; want snapshots 2 and 3", results[0], results[2])
			}
			if live := inspect(t, h.mem).live; !slices.Equal(live, []string{"a1", "c1", "r5"}) {
				t.Fatalf("live files %v", live)
			}
		})
	}
}

// A race lost to another process mid-batch is the loser's attempt only:
// with commit.max-retries=0 the loser runs out of retries, while the
// request behind it, planned on the loser's snapshot, is undone without a
// trace and planned again, which does not count as an attempt.
func TestGroupRaceLostToAnotherProcess(t *testing.T) {
	gt := newGroupTable(t, false, "commit.max-retries=0")
	h := gt.h
	// The rival commits from the leader's goroutine, where the test must
	// not fail: its error is checked after the batch.
	rivalReq := appendRequest(h, "rival", 1, "r1")
	var rivalErr error
	fired := false
	gt.inject = func(op errorio.Op) errorio.Fault {
		if !fired && isSnapshotPut(op) && strings.HasSuffix(op.Path, "/snapshot-2") {
			fired = true
			_, rivalErr = h.committer(nil).Commit(context.Background(), rivalReq)
		}
		return errorio.NoFault
	}
	results, errs := gt.commitBatch([]Request{
		appendRequest(h, "a", 1, "a1"),
		appendRequest(h, "b", 1, "b1"),
		appendRequest(h, "c", 1, "c1"),
	})
	if !fired || rivalErr != nil {
		t.Fatalf("the rival did not commit: fired %v, %v", fired, rivalErr)
	}
	var re *RetryExhaustedError
	if !errors.As(errs[1], &re) || re.Latest.ID != 2 || re.Latest.CommitUser != "rival" {
		t.Fatalf("b: %v; want retries exhausted, lost to the rival's snapshot 2", errs[1])
	}
	if errs[0] != nil || errs[2] != nil || !slices.Equal(results[0].Snapshots, []int64{1}) || !slices.Equal(results[2].Snapshots, []int64{3}) {
		t.Fatalf("a: %s, %v; c: %s, %v; want snapshots 1 and 3", results[0], errs[0], results[2], errs[2])
	}
	view := inspect(t, h.mem)
	if !slices.Equal(view.live, []string{"a1", "c1", "r1"}) {
		t.Fatalf("live files %v", view.live)
	}
	// b's metadata files stay, named by the put that lost; those of c's
	// first attempt, never put, are gone, its staged snapshot discarded.
	for _, f := range metadataLeftovers(h.mem, view) {
		if !strings.HasPrefix(f, "manifest/") || !strings.Contains(f, "-w1-") {
			t.Fatalf("leftover %s", f)
		}
	}
	var snapshot3 []string
	for _, e := range gt.staging.events() {
		if strings.HasSuffix(e, "/snapshot-3") {
			snapshot3 = append(snapshot3, strings.Fields(e)[0])
		}
	}
	if want := []string{"stage", "discard", "stage", "put"}; !slices.Equal(snapshot3, want) {
		t.Fatalf("snapshot-3 was %v; want %v: c's first attempt staged and discarded", snapshot3, want)
	}
}

// A staging that fails is a put that failed without landing: the attempt
// finds its snapshot absent, waits and tries again, and the batch goes on
// from the snapshot before it.
func TestGroupStagingFailureIsRetried(t *testing.T) {
	gt := newGroupTable(t, false)
	failed := false
	gt.staging.failStage = func(p string) bool {
		if !failed && strings.HasSuffix(p, "/snapshot-2") {
			failed = true
			return true
		}
		return false
	}
	results, errs := gt.commitBatch([]Request{
		appendRequest(gt.h, "a", 1, "a1"),
		appendRequest(gt.h, "b", 1, "b1"),
		appendRequest(gt.h, "c", 1, "c1"),
	})
	if err := errors.Join(errs...); err != nil || !failed {
		t.Fatalf("errors %v, staging failed %v; want every request published after one failed staging", err, failed)
	}
	log, view := snapshotLog(t, gt.h.mem)
	for i, user := range []string{"a", "b", "c"} {
		if got := log[commitKey(user, 1, spec.CommitKindAppend)]; len(got) != 1 || !slices.Equal(got, results[i].Snapshots) {
			t.Fatalf("%s reported %s, landed in %v", user, results[i], got)
		}
	}
	if !slices.Equal(view.live, []string{"a1", "b1", "c1"}) || len(gt.h.clock.sleeps) != 1 {
		t.Fatalf("live files %v, waits %v; want all three files after one wait", view.live, gt.h.clock.sleeps)
	}
}

// A panic while a batch runs one request (here in the write of its base
// list) is raised in that request's caller, with the stack where it
// happened; the batch goes on with the others.
func TestGroupPanicReachesOnlyItsCaller(t *testing.T) {
	gt := newGroupTable(t, false)
	gt.inject = func(op errorio.Op) errorio.Fault {
		if op.Kind == errorio.PutIfAbsent && strings.HasSuffix(op.Path, "/manifest-list-w1-1-2") {
			panic("boom")
		}
		return errorio.NoFault
	}
	results, errs := gt.commitBatch([]Request{
		appendRequest(gt.h, "a", 1, "a1"),
		appendRequest(gt.h, "b", 1, "b1"),
		appendRequest(gt.h, "c", 1, "c1"),
	})
	var cp callerPanic
	if !errors.As(errs[1], &cp) || !strings.Contains(fmt.Sprint(cp.value), "boom") || !strings.Contains(fmt.Sprint(cp.value), "fileWriter).flush") {
		t.Fatalf("b: %v; want the panic, with the stack of the write", errs[1])
	}
	if errs[0] != nil || errs[2] != nil || !slices.Equal(results[0].Snapshots, []int64{1}) || !slices.Equal(results[2].Snapshots, []int64{2}) {
		t.Fatalf("a: %s, %v; c: %s, %v; want snapshots 1 and 2", results[0], errs[0], results[2], errs[2])
	}
}

// Two Committers sharing a commit user in one batch: the second finds the
// first's snapshot in the chain and refuses, as it would after it.
func TestGroupSharedUserIsRefused(t *testing.T) {
	gt := newGroupTable(t, false)
	results, errs := gt.commitBatch([]Request{
		appendRequest(gt.h, "job", 1, "f1"),
		appendRequest(gt.h, "job", 2, "f2"),
	})
	var su *SharedUserError
	if errs[0] != nil || !slices.Equal(results[0].Snapshots, []int64{1}) || !errors.As(errs[1], &su) || su.Foreign.ID != 1 {
		t.Fatalf("first: %s, %v; second: %v; want snapshot 1, then a SharedUserError naming it", results[0], errs[0], errs[1])
	}
	if latest := inspect(t, gt.h.mem).latest.ID; latest != 1 {
		t.Fatalf("latest snapshot %d; the refused commit must publish nothing", latest)
	}
}

// A Commit whose context ends while it is queued leaves the queue and
// publishes nothing; the group goes on with the others.
func TestGroupWithdrawsCancelledCommit(t *testing.T) {
	gt := newGroupTable(t, false)
	cancelled, next := gt.committer(0), gt.committer(1)
	g := cancelled.group
	hold(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := cancelled.Commit(ctx, appendRequest(gt.h, "a", 1, "a1"))
		done <- err
	}()
	waitQueued(g, 1, nil)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want the context's", err)
	}
	release(g)
	res, err := next.Commit(context.Background(), appendRequest(gt.h, "b", 1, "b1"))
	if err != nil || !slices.Equal(res.Snapshots, []int64{1}) {
		t.Fatalf("next commit: %s, %v; want snapshot 1", res, err)
	}
	if live := inspect(t, gt.h.mem).live; !slices.Equal(live, []string{"b1"}) {
		t.Fatalf("live files %v", live)
	}
}

// Writers of one process on one table, committing at will: no publish race
// among them (every snapshot put succeeds), contiguous ids, each request
// once. Run with -race.
func TestGroupConcurrentWriters(t *testing.T) {
	const writers, commits = 6, 15
	gt := newGroupTable(t, false)
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		c := gt.committer(i)
		reqs := make([]Request, commits)
		for n := range reqs {
			reqs[n] = appendRequest(gt.h, fmt.Sprintf("w%d", i), int64(n+1), fmt.Sprintf("w%d-%d", i, n))
		}
		wg.Go(func() {
			for _, req := range reqs {
				if _, err := c.Commit(context.Background(), req); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	log, view := snapshotLog(t, gt.h.mem)
	if view.latest.ID != writers*commits || len(log) != writers*commits || len(view.live) != writers*commits {
		t.Fatalf("latest snapshot %d, %d commits in the log, %d live files; want %d of each",
			view.latest.ID, len(log), len(view.live), writers*commits)
	}
	puts := 0
	for _, op := range gt.fs.Trace() {
		if isSnapshotPut(op) {
			puts++
		}
	}
	if puts != writers*commits {
		t.Fatalf("%d snapshot puts for %d snapshots: writers of one group raced", puts, writers*commits)
	}
}

// Committers share a group exactly when they reach one branch of one table
// through one FileIO, and a group lives only as long as its Committers.
func TestGroupRegistry(t *testing.T) {
	mem := memio.New()
	func() {
		g := groupFor(mem, "wh/t")
		if groupFor(mem, "wh/t/") != g || groupFor(mem, "wh/u") == g || groupFor(memio.New(), "wh/t") == g {
			t.Fatal("groups are not keyed by FileIO and directory")
		}
	}()
	unkeyable := uncomparableFS{FileIO: mem, labels: map[string]string{}}
	if first, second := groupFor(unkeyable, "wh/t"), groupFor(unkeyable, "wh/t"); first == second {
		t.Fatal("a FileIO that cannot be a key shares a group")
	}
	key := groupKey{io: mem, dir: "wh/t"}
	for i := 0; i < 100 && registered(key); i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if registered(key) {
		t.Fatal("a group outlives its Committers")
	}
}

type uncomparableFS struct {
	fileio.FileIO
	labels map[string]string
}

func registered(key groupKey) bool {
	groups.Lock()
	defer groups.Unlock()
	_, ok := groups.byKey[key]
	return ok
}
