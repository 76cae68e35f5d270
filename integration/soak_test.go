package integration

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

var (
	soakDuration = flag.Duration("soak.duration", 15*time.Second,
		"how long TestSoak runs its writers, compactor, maintenance and readers at once")
	soakSeed = flag.Uint64("soak.seed", 0, "seed of TestSoak's random choices; 0 takes one from the clock")
	// A positive age protects files written less than that long ago, and
	// so the files of writers and compactions that have not committed yet:
	// a run with it exercises everything else without orphan removal's
	// known race with uncommitted files.
	soakOrphanAge = flag.Duration("soak.orphan-age", 0,
		"age below which TestSoak's orphan removal keeps unreferenced files; the issue asks for 0")
)

const (
	soakWriters = 3
	soakReaders = 3
	// Expiry keeps at least soakRetainMin and at most soakRetainMax
	// snapshots, and lets go of those older than soakExpireAge: with
	// writers committing continuously, a snapshot lives for a second or
	// two.
	soakRetainMin = 2
	soakRetainMax = 30
	soakExpireAge = time.Second
	// soakLongHold is the least time a reader that means to outlive its
	// snapshot holds it: past the expiry age plus the longest pause
	// between two expiry runs.
	soakLongHold = soakExpireAge + 2*time.Second
	// soakCommitCalls bounds how often a writer calls Commit for one
	// batch: retryable conflicts and unknown outcomes are retried with the
	// same identifier, which makes the retry safe.
	soakCommitCalls = 10
)

// TestSoak runs everything that changes a table at once for a fixed time
// (-soak.duration): writers upserting and deleting rows of one primary-key
// table with write-only = true, a dedicated compactor, snapshot expiry
// every second or two, a tag created and later deleted, orphan removal
// with a zero age (-soak.orphan-age), and readers that pin a snapshot, hold it, and read it,
// some long enough for it to expire. Then:
//
//   - the latest snapshot holds exactly the rows of the writers' models
//     (0 lost, 0 duplicated);
//   - the published snapshots are exactly 1..latest, and those left are
//     contiguous;
//   - every file every remaining snapshot and tag references exists (0
//     live files deleted), and the tags and a sample of the snapshots read
//     as the model at their snapshot;
//   - every read that succeeded saw the model at its snapshot, and every
//     read that failed was of an expired snapshot and failed with
//     lakeerr.ErrNotFound naming it (0 reads of a missing file while the
//     snapshot was retained).
//
// Each writer owns its pay ids and keeps the model of what it committed,
// with the snapshot each commit landed in, so the table at any snapshot is
// known.
func TestSoak(t *testing.T) {
	seed := *soakSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d draws the batches, holds and pauses (the interleaving itself is not reproducible); rerun: go test ./integration -run '^TestSoak$' -soak.seed=%d -soak.duration=%s -soak.orphan-age=%s -v",
		seed, seed, *soakDuration, *soakOrphanAge)
	s := newSoak(t, seed)
	s.run(*soakDuration)
	s.verify()
	t.Logf("%s", &s.counts)
}

// soak is one TestSoak run.
type soak struct {
	t    *testing.T
	fsys fileio.FileIO
	dir  string
	seed uint64
	// stop closes when the run's time is up or a component failed.
	stop     chan struct{}
	stopOnce sync.Once
	writers  []*writerModel
	// expiring counts the ExpireSnapshots calls in flight.
	expiring atomic.Int32
	reads    readLog
	tagReads readLog
	// published lists every snapshot a writer or the compactor published.
	mu        sync.Mutex
	published []int64
	counts    soakCounts
}

func newSoak(t *testing.T, seed uint64) *soak {
	t.Helper()
	ctx := context.Background()
	fsys, root := openWarehouse(t, newWarehouse(t))
	cat := catalog.New(fsys, root, nil)
	if err := cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	def := paymentTable()
	// A dedicated compactor compacts; the writers only add level-0 files.
	def.Options[spec.OptionWriteOnly] = "true"
	if err := cat.CreateTable(ctx, "db", "payments", def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := cat.TablePath("db", "payments")
	if err != nil {
		t.Fatal(err)
	}
	s := &soak{t: t, fsys: fsys, dir: dir, seed: seed, stop: make(chan struct{})}
	for i := range soakWriters {
		s.writers = append(s.writers, newWriterModel(i+1))
	}
	return s
}

// rand is the random source of one component: the seed, one stream each.
func (s *soak) rand(stream uint64) *rand.Rand { return rand.New(rand.NewPCG(s.seed, stream)) }

func (s *soak) halt() { s.stopOnce.Do(func() { close(s.stop) }) }

func (s *soak) running() bool {
	select {
	case <-s.stop:
		return false
	default:
		return true
	}
}

// pause waits for d, or less if the run stops; it reports whether the
// run goes on.
func (s *soak) pause(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-s.stop:
		return false
	case <-timer.C:
		return true
	}
}

// between draws a duration in [lo, hi).
func between(r *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(r.Int64N(int64(hi-lo)))
}

func (s *soak) publish(ids ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.published = append(s.published, ids...)
}

// run starts every component, lets them run for d (less if one fails),
// and waits for each to finish what it is doing.
func (s *soak) run(d time.Duration) {
	var wg sync.WaitGroup
	start := func(name string, stream uint64, body func(*rand.Rand) error) {
		r := s.rand(stream)
		wg.Go(func() {
			if err := body(r); err != nil {
				s.t.Errorf("%s: %v", name, err)
				s.halt()
			}
		})
	}
	for i, m := range s.writers {
		spill := s.t.TempDir()
		start(m.user, uint64(i), func(r *rand.Rand) error { return s.writeLoop(m, spill, r) })
	}
	start("compactor", 100, s.compactLoop)
	start("expiry", 101, s.expireLoop)
	start("tags", 102, s.tagLoop)
	start("orphan removal", 103, s.orphanLoop)
	for i := range soakReaders {
		start(fmt.Sprintf("reader %d", i), 200+uint64(i), s.readLoop)
	}
	s.pause(d)
	s.halt()
	wg.Wait()
}

// writeLoop commits batches 1, 2, ... of one writer until the run stops.
func (s *soak) writeLoop(m *writerModel, spill string, r *rand.Rand) error {
	ctx := context.Background()
	c, err := s.committer(ctx, r)
	if err != nil {
		return err
	}
	for id := int64(1); s.running(); id++ {
		ids, err := s.writeBatch(ctx, c, m.user, spill, id, m.nextBatch(r, id))
		if err != nil {
			return fmt.Errorf("batch %d: %w", id, err)
		}
		m.committed(ids[0])
		s.publish(ids...)
		s.counts.commits.Add(1)
	}
	return nil
}

func (s *soak) committer(ctx context.Context, r *rand.Rand) (*commit.Committer, error) {
	tbl, err := table.Open(ctx, s.fsys, s.dir)
	if err != nil {
		return nil, err
	}
	sch, err := tbl.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	return commit.New(commit.Options{FileIO: s.fsys, TableDir: s.dir, Core: sch.CoreOptions(), Rand: rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))})
}

// writeBatch writes and commits one batch and returns the snapshots it
// landed in.
func (s *soak) writeBatch(ctx context.Context, c *commit.Committer, user, spill string, id int64, changes []change) ([]int64, error) {
	req, tw, err := s.prepareBatch(ctx, user, spill, id, changes)
	if err != nil {
		return nil, err
	}
	ids, err := s.commitBatch(ctx, c, req)
	if err != nil {
		return nil, errors.Join(err, tw.Abort(ctx))
	}
	return ids, tw.Close()
}

// prepareBatch writes a batch with a new TableWriter, which continues the
// sequence numbers of the table's files, and returns its commit request
// and the writer holding its files.
func (s *soak) prepareBatch(ctx context.Context, user, spill string, id int64, changes []change) (commit.Request, *write.TableWriter, error) {
	tw, err := write.Open(ctx, write.Options{FileIO: s.fsys, TableDir: s.dir, SpillDir: spill})
	if err != nil {
		return commit.Request{}, nil, err
	}
	for _, ch := range changes {
		if err := tw.Write(ctx, ch.row, ch.kind); err != nil {
			return commit.Request{}, nil, errors.Join(err, tw.Abort(ctx))
		}
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		return commit.Request{}, nil, errors.Join(err, tw.Abort(ctx))
	}
	return commit.Request{CommitUser: user, Identifier: id, Messages: msgs}, tw, nil
}

// commitBatch commits a request, calling again with the same identifier
// after a retryable conflict or an unknown outcome, and returns the
// snapshots it landed in.
func (s *soak) commitBatch(ctx context.Context, c *commit.Committer, req commit.Request) ([]int64, error) {
	for call := 1; ; call++ {
		res, err := c.Commit(ctx, req)
		switch {
		case err == nil && res.AlreadyCommitted():
			// An earlier call whose outcome was unknown had landed.
			return []int64{res.AlreadyCommittedIn}, nil
		case err == nil:
			return res.Snapshots, nil
		case call == soakCommitCalls || !(errors.Is(err, lakeerr.ErrRetryableConflict) || errors.Is(err, lakeerr.ErrUnknownOutcome)):
			return nil, err
		}
		s.counts.commitRetries.Add(1)
	}
}

// compactLoop is the dedicated compactor: minor compactions, and now and
// then a full one, under one commit user.
func (s *soak) compactLoop(r *rand.Rand) error {
	ctx := context.Background()
	identity := compact.NewIdentity("soak-compactor")
	for s.running() {
		mode := compact.Minor
		if r.IntN(5) == 0 {
			mode = compact.Full
		}
		res, err := compact.Table(ctx, compact.Options{FileIO: s.fsys, TableDir: s.dir, Mode: mode, Identity: identity})
		switch {
		case errors.Is(err, lakeerr.ErrRetryableConflict) || errors.Is(err, lakeerr.ErrTerminalConflict):
			s.counts.compactLost.Add(1)
		case err != nil:
			return fmt.Errorf("%s compaction: %w", mode, err)
		case res.Snapshot == 0:
			s.counts.compactNoops.Add(1)
		default:
			s.publish(res.Snapshot)
			s.counts.compactions.Add(1)
		}
		if !s.pause(between(r, 0, 200*time.Millisecond)) {
			return nil
		}
	}
	return nil
}

// expireLoop expires snapshots every second or two. A run that finds
// the table changed under it stops with a retryable conflict; the next
// run finishes its work.
func (s *soak) expireLoop(r *rand.Rand) error {
	ctx := context.Background()
	retainMin, retainMax := soakRetainMin, soakRetainMax
	for s.pause(between(r, time.Second, 2*time.Second)) {
		olderThan := time.Now().Add(-soakExpireAge)
		s.expiring.Add(1)
		res, err := maintenance.ExpireSnapshots(ctx, s.fsys, s.dir,
			maintenance.ExpireOptions{RetainMin: &retainMin, RetainMax: &retainMax, OlderThan: &olderThan})
		s.expiring.Add(-1)
		s.counts.expiryRuns.Add(1)
		switch {
		case errors.Is(err, lakeerr.ErrRetryableConflict):
			s.counts.expiryConflicts.Add(1)
		case err != nil:
			return err
		}
		s.counts.expired.Add(int64(res.SnapshotsExpired()))
	}
	return nil
}

// tagLoop tags a random retained snapshot, holds the tag for a few
// seconds, long enough for the snapshot to expire, reads the snapshot
// through the tag, and deletes the tag; then tags another. Tagging a
// snapshot an expiry is deleting is refused with lakeerr.ErrNotFound.
func (s *soak) tagLoop(r *rand.Rand) error {
	ctx := context.Background()
	tbl, err := table.Open(ctx, s.fsys, s.dir)
	if err != nil {
		return err
	}
	var held string
	deleting := false
	for n := 1; s.pause(between(r, 2*time.Second, 4*time.Second)); n++ {
		if held != "" {
			done, err := s.dropTag(ctx, tbl, held, deleting)
			if err != nil {
				return err
			}
			deleting = !done
			if done {
				held = ""
			}
			continue
		}
		ids, err := tbl.Snapshots().IDs(ctx)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		name := fmt.Sprintf("soak-%d", n)
		_, err = maintenance.CreateTag(ctx, s.fsys, s.dir, name, maintenance.CreateTagOptions{SnapshotID: ids[r.IntN(len(ids))]})
		switch {
		case errors.Is(err, lakeerr.ErrNotFound):
			s.counts.tagsRefused.Add(1)
		case err != nil:
			return err
		default:
			s.counts.tagsCreated.Add(1)
			held = name
		}
	}
	return nil
}

// dropTag reads the snapshot a tag holds, unless an earlier call did,
// and deletes the tag; it reports whether the tag is gone. A deletion
// that stops with a retryable conflict (an expiry removed a snapshot it
// protects) is run again by the next call, which may find the tag file
// already gone: DeleteTag removes it first.
func (s *soak) dropTag(ctx context.Context, tbl *table.Table, name string, again bool) (bool, error) {
	if !again {
		if err := s.readTag(ctx, tbl, name); err != nil {
			return false, err
		}
	}
	_, err := maintenance.DeleteTag(ctx, s.fsys, s.dir, name)
	switch {
	case errors.Is(err, lakeerr.ErrRetryableConflict):
		s.counts.tagConflicts.Add(1)
		return false, nil
	case again && errors.Is(err, lakeerr.ErrNotFound):
	case err != nil:
		return false, err
	}
	s.counts.tagsDeleted.Add(1)
	return true, nil
}

// readTag reads the snapshot a tag holds. Nothing deletes the tag but
// tagLoop, so the read must succeed; its rows are checked at the end.
func (s *soak) readTag(ctx context.Context, tbl *table.Table, name string) error {
	plan, err := tbl.PlanTimeTravel(ctx, snapshot.TimeTravel{Tag: name}, nil)
	if err != nil {
		return fmt.Errorf("plan tag %s: %w", name, err)
	}
	rows, err := tbl.ExecutePlan(ctx, plan, table.ReadOptions{})
	if err != nil {
		return fmt.Errorf("read tag %s: %w", name, err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return fmt.Errorf("read tag %s: %w", name, err)
	}
	s.tagReads.add(readResult{snapshot: plan.Snapshot.ID, got: tallyOf(all)})
	return nil
}

// orphanLoop removes orphan files of any age (-soak.orphan-age) every
// second or two. A run that sees a snapshot or tag come or go deletes
// nothing and stops with a retryable conflict.
func (s *soak) orphanLoop(r *rand.Rand) error {
	ctx := context.Background()
	age := *soakOrphanAge
	for s.pause(between(r, time.Second, 2*time.Second)) {
		res, err := maintenance.RemoveOrphanFiles(ctx, s.fsys, s.dir, maintenance.OrphanOptions{OlderThan: &age})
		s.counts.orphanRuns.Add(1)
		switch {
		case errors.Is(err, lakeerr.ErrRetryableConflict):
			s.counts.orphanFence.Add(1)
		case err != nil:
			return err
		}
		s.counts.orphansRemoved.Add(int64(len(res.Deleted)))
	}
	return nil
}

// readLoop pins snapshots and reads them until the run stops.
func (s *soak) readLoop(r *rand.Rand) error {
	ctx := context.Background()
	tbl, err := table.Open(ctx, s.fsys, s.dir)
	if err != nil {
		return err
	}
	for s.running() {
		ids, err := tbl.Snapshots().IDs(ctx)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			s.pause(10 * time.Millisecond)
			continue
		}
		if err := s.readOnce(ctx, tbl, ids, r); err != nil {
			return err
		}
	}
	return nil
}

// readOnce pins a snapshot, mostly the latest, sometimes the earliest
// left; holds it, mostly briefly, sometimes for longer than expiry lets
// it live; and reads it in full. The pin is either the snapshot id alone,
// planned after the hold as the SQL layer plans a transaction's later
// statements, or a plan made before the hold, whose data files the hold
// outlives. A failed read is recorded with whether its snapshot was still
// there, for verify to classify.
func (s *soak) readOnce(ctx context.Context, tbl *table.Table, ids []int64, r *rand.Rand) error {
	id := ids[len(ids)-1]
	if r.IntN(4) == 0 {
		id = ids[0]
	}
	hold := between(r, 0, 200*time.Millisecond)
	if r.IntN(4) == 0 {
		hold = between(r, soakLongHold, soakLongHold+time.Second)
	}
	got, err := s.readSnapshot(ctx, tbl, id, hold, r)
	if err == nil {
		s.reads.add(readResult{snapshot: id, got: got})
		return nil
	}
	// Load before looking at the snapshot: an expiry that ends in
	// between has deleted the snapshot by the time it is looked at.
	expiring := s.expiring.Load() > 0
	existed, statErr := fileio.Exists(ctx, s.fsys, tbl.Snapshots().SnapshotPath(id))
	if statErr != nil {
		return statErr
	}
	s.reads.add(readResult{snapshot: id, err: err, existed: existed, expiring: expiring})
	return nil
}

func (s *soak) readSnapshot(ctx context.Context, tbl *table.Table, id int64, hold time.Duration, r *rand.Rand) (tally, error) {
	var plan *table.Plan
	var err error
	planFirst := r.IntN(2) == 0
	if planFirst {
		if plan, err = tbl.PlanPinned(ctx, id, nil, table.Staged{}); err != nil {
			return tally{}, err
		}
	}
	time.Sleep(hold)
	if !planFirst {
		if plan, err = tbl.PlanPinned(ctx, id, nil, table.Staged{}); err != nil {
			return tally{}, err
		}
	}
	rows, err := tbl.ExecutePlan(ctx, plan, table.ReadOptions{Parallelism: 1 + r.IntN(3)})
	if err != nil {
		return tally{}, err
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return tally{}, err
	}
	got := tallyOf(all)
	if r.IntN(3) == 0 {
		return got, s.checkAggregates(ctx, tbl, plan, got)
	}
	return got, nil
}

// checkAggregates computes COUNT(*) and SUM(amount) of a plan the way
// the SQL layer does, which must agree with the rows read from it.
func (s *soak) checkAggregates(ctx context.Context, tbl *table.Table, plan *table.Plan, rows tally) error {
	aggs, err := tbl.AggregatePlan(ctx, plan, 0, []table.AggSpec{{Func: table.AggCountStar}, {Func: table.AggSum, Column: "amount"}})
	if err != nil {
		return err
	}
	count, _ := aggs[0].Value.(int64)
	sum, isDecimal := aggs[1].Value.(spec.DecimalValue)
	unscaled, fits := sum.UnscaledInt64()
	sumOK := (rows.rows == 0 && aggs[1].Value == nil) || (isDecimal && fits && sum.Scale() == 0 && unscaled == rows.amount)
	if count != rows.rows || !sumOK {
		s.t.Errorf("snapshot %d: COUNT(*), SUM(amount) = %v, %v; its rows have %v", plan.Snapshot.ID, aggs[0].Value, aggs[1].Value, rows)
	}
	return nil
}

// verify checks the table and the readers' results once every component
// has stopped.
func (s *soak) verify() {
	ctx := context.Background()
	tbl, err := table.Open(ctx, s.fsys, s.dir)
	if err != nil {
		s.t.Fatal(err)
	}
	s.checkSnapshotIDs(ctx, tbl)
	s.checkLatestRows(ctx, tbl)
	s.checkRetained(ctx, tbl)
	s.checkReads(ctx, tbl)
}

// expectedAt is the model's table at snapshot id.
func (s *soak) expectedAt(id int64) tally {
	var sum tally
	for _, m := range s.writers {
		sum = sum.plus(m.at(id))
	}
	return sum
}

// checkSnapshotIDs: the writers and the compactor published exactly the
// snapshots 1..latest, each once, and expiry left a contiguous run
// ending at latest.
func (s *soak) checkSnapshotIDs(ctx context.Context, tbl *table.Table) {
	published := slices.Sorted(slices.Values(s.published))
	for i, id := range published {
		if id != int64(i+1) {
			s.t.Errorf("published snapshots are not 1..%d: at position %d there is %d", len(published), i, id)
			break
		}
	}
	left, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	contiguous := len(left) > 0 && left[len(left)-1]-left[0] == int64(len(left)-1)
	if !contiguous || left[len(left)-1] != int64(len(published)) {
		s.t.Errorf("snapshots left %v; want a contiguous run ending at %d", left, len(published))
	}
}

// checkLatestRows: the latest snapshot holds exactly the writers' rows.
func (s *soak) checkLatestRows(ctx context.Context, tbl *table.Table) {
	rows, err := tbl.Read(ctx, table.ReadOptions{})
	if err != nil {
		s.t.Errorf("read the latest snapshot: %v", err)
		return
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		s.t.Errorf("read the latest snapshot: %v", err)
		return
	}
	var want [][]any
	for _, m := range s.writers {
		for _, row := range m.rows {
			want = append(want, row)
		}
	}
	got, wantRows := sortedRows(all), sortedRows(want)
	if !slices.Equal(got, wantRows) {
		lost, extra := difference(wantRows, got), difference(got, wantRows)
		s.t.Errorf("latest snapshot has %d rows, the model %d: %d lost (first %q), %d unexpected (first %q)",
			len(got), len(wantRows), len(lost), head(lost), len(extra), head(extra))
	}
}

// difference lists the elements of sorted a not in sorted b.
func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

// checkRetained: every file of every snapshot and tag left exists, and
// every tag, the first and last snapshot left and a few in between read
// as the model at their snapshot (reading them all takes longer than
// the run itself; the readers have compared many more).
func (s *soak) checkRetained(ctx context.Context, tbl *table.Table) {
	const contentChecks = 10
	snaps := tbl.Snapshots()
	ids, err := snaps.IDs(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	var broken []string
	step := max(1, len(ids)/contentChecks)
	for i, id := range ids {
		readAll := i%step == 0 || i == len(ids)-1
		snap, err := snaps.Snapshot(ctx, id)
		if err == nil {
			err = s.intactError(ctx, tbl, snap, snapshot.TimeTravel{SnapshotID: id}, readAll)
		}
		if err != nil {
			broken = append(broken, fmt.Sprintf("snapshot %d: %v", id, err))
		}
	}
	names, err := snaps.TagNames(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, name := range names {
		tag, err := snaps.Tag(ctx, name)
		if err == nil {
			err = s.intactError(ctx, tbl, &tag.Snapshot, snapshot.TimeTravel{Tag: name}, true)
		}
		if err != nil {
			broken = append(broken, fmt.Sprintf("tag %s: %v", name, err))
		}
	}
	if len(broken) > 0 {
		s.t.Errorf("%d of the %d snapshots and %d tags left are broken, e.g. %q", len(broken), len(ids), len(names), head(broken))
	}
}

// intactError plans a read of snap as at selects it, checks that every
// file it references exists, and if readAll, that it reads as the model.
func (s *soak) intactError(ctx context.Context, tbl *table.Table, snap *spec.Snapshot, at snapshot.TimeTravel, readAll bool) error {
	plan, err := tbl.PlanTimeTravel(ctx, at, nil)
	if err != nil {
		return err
	}
	if err := missingFilesError(ctx, s.fsys, tbl, snap, plan); err != nil || !readAll {
		return err
	}
	return contentError(ctx, tbl, plan, s.expectedAt(snap.ID))
}

// checkReads: every read that succeeded saw the model at its snapshot,
// and every read that failed was of an expired snapshot and said so
// clearly. A failure is of an expired snapshot if the snapshot was gone
// right after it, or if an expiry was running then and the snapshot is
// gone now.
func (s *soak) checkReads(ctx context.Context, tbl *table.Table) {
	var wrong, retained, unclear []string
	for _, r := range s.tagReads.results {
		if want := s.expectedAt(r.snapshot); r.got != want {
			wrong = append(wrong, fmt.Sprintf("tag of snapshot %d read %v; the model has %v", r.snapshot, r.got, want))
		}
	}
	for _, r := range s.reads.results {
		if r.err == nil {
			if want := s.expectedAt(r.snapshot); r.got != want {
				wrong = append(wrong, fmt.Sprintf("snapshot %d read %v; the model has %v", r.snapshot, r.got, want))
			} else {
				s.counts.readsOK.Add(1)
			}
			continue
		}
		expired := !r.existed
		if r.existed && r.expiring {
			still, err := fileio.Exists(ctx, s.fsys, tbl.Snapshots().SnapshotPath(r.snapshot))
			if err != nil {
				s.t.Fatal(err)
			}
			expired = !still
		}
		switch {
		case !expired:
			retained = append(retained, fmt.Sprintf("snapshot %d: %v", r.snapshot, r.err))
		case !expiredClearly(r.err, r.snapshot):
			unclear = append(unclear, fmt.Sprintf("snapshot %d: %v", r.snapshot, r.err))
		default:
			s.counts.readsExpired.Add(1)
		}
	}
	if len(wrong) > 0 {
		s.t.Errorf("%d reads differ from the model, e.g. %q", len(wrong), head(wrong))
	}
	if len(retained) > 0 {
		s.t.Errorf("%d reads of retained snapshots failed, e.g. %q", len(retained), head(retained))
	}
	if len(unclear) > 0 {
		s.t.Errorf("%d reads of expired snapshots failed without lakeerr.ErrNotFound naming the snapshot, e.g. %q",
			len(unclear), head(unclear))
	}
}

// TestSoakOrphanRemovalSparesUncommittedFiles is TestSoak's loss of
// live files reduced to one step: a writer has written its data files
// and not yet committed them when orphan removal with a zero age runs.
// The commit must not end with a snapshot whose files are gone.
func TestSoakOrphanRemovalSparesUncommittedFiles(t *testing.T) {
	ctx := context.Background()
	s := newSoak(t, 1)
	r := s.rand(0)
	c, err := s.committer(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	first, second := s.writers[0], s.writers[1]
	ids, err := s.writeBatch(ctx, c, first.user, t.TempDir(), 1, first.nextBatch(r, 1))
	if err != nil {
		t.Fatal(err)
	}
	first.committed(ids[0])
	s.publish(ids...)
	req, tw, err := s.prepareBatch(ctx, second.user, t.TempDir(), 1, second.nextBatch(r, 1))
	if err != nil {
		t.Fatal(err)
	}
	var zero time.Duration
	orphans, err := maintenance.RemoveOrphanFiles(ctx, s.fsys, s.dir, maintenance.OrphanOptions{OlderThan: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if ids, err = s.commitBatch(ctx, c, req); err != nil {
		t.Fatalf("commit after orphan removal: %v", err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	second.committed(ids[0])
	s.publish(ids...)
	s.verify()
	if t.Failed() {
		t.Logf("orphan removal deleted %q while they waited for their commit", orphans.Deleted)
	}
}

// TestSoakExpiredPinReadSaysExpired is TestSoak's unclear errors reduced: a
// reader pins snapshot 1, whose data files only it and snapshot 2 hold,
// and expiry deletes snapshots 1 and 2 before the reader is done. The
// read must fail with lakeerr.ErrNotFound naming snapshot 1, whether its
// plan was made before the expiry or the expiry came while it planned.
func TestSoakExpiredPinReadSaysExpired(t *testing.T) {
	ctx := context.Background()
	t.Run("plan made before the expiry", func(t *testing.T) {
		s := historyToExpire(t)
		tbl, err := table.Open(ctx, s.fsys, s.dir)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := tbl.PlanPinned(ctx, 1, nil, table.Staged{})
		if err != nil {
			t.Fatal(err)
		}
		s.expireAllButLatest(ctx)
		rows, err := tbl.ExecutePlan(ctx, plan, table.ReadOptions{})
		if err == nil {
			_, err = table.ReadAll(rows)
		}
		if !expiredClearly(err, 1) {
			t.Errorf("read of a plan of snapshot 1 after it expired: %v; want lakeerr.ErrNotFound naming snapshot 1", err)
		}
	})
	t.Run("expiry while planning", func(t *testing.T) {
		s := historyToExpire(t)
		snapshotFile := snapshot.NewManager(s.fsys, s.dir, "").SnapshotPath(1)
		hooked := &afterReadFS{FileIO: s.fsys, path: snapshotFile, hook: func() { s.expireAllButLatest(ctx) }}
		tbl, err := table.Open(ctx, hooked, s.dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.PlanPinned(ctx, 1, nil, table.Staged{}); !expiredClearly(err, 1) {
			t.Errorf("plan of snapshot 1 expiring under it: %v; want lakeerr.ErrNotFound naming snapshot 1", err)
		}
	})
}

// historyToExpire commits the same keys twice (snapshots 1 and 2) and
// compacts them fully (snapshot 3), which rewrites the overlapping
// files: the data files of snapshots 1 and 2 are live in neither 3 nor
// any tag, so expiring 1 and 2 deletes them.
func historyToExpire(t *testing.T) *soak {
	ctx := context.Background()
	s := newSoak(t, 1)
	r := s.rand(0)
	c, err := s.committer(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	m := s.writers[0]
	for id := int64(1); id <= 2; id++ {
		var changes []change
		for payID := m.nextID; payID < m.nextID+4; payID++ {
			changes = append(changes, m.upsert(payID, id, r))
		}
		if _, err := s.writeBatch(ctx, c, m.user, t.TempDir(), id, changes); err != nil {
			t.Fatal(err)
		}
	}
	res, err := compact.Table(ctx, compact.Options{FileIO: s.fsys, TableDir: s.dir, Mode: compact.Full})
	if err != nil || res.Snapshot != 3 || res.FilesRewritten == 0 {
		t.Fatalf("full compaction: %v, %v; want snapshot 3 rewriting files", res, err)
	}
	return s
}

// expireAllButLatest expires every snapshot but the latest, however young.
func (s *soak) expireAllButLatest(ctx context.Context) {
	one, now := 1, time.Now()
	res, err := maintenance.ExpireSnapshots(ctx, s.fsys, s.dir, maintenance.ExpireOptions{RetainMin: &one, RetainMax: &one, OlderThan: &now})
	if err != nil || res.Deleted[maintenance.FileKindData] == 0 {
		s.t.Fatalf("expiry: %+v, %v; want data files deleted", res, err)
	}
}

// afterReadFS runs hook once, right after the first read of path.
type afterReadFS struct {
	fileio.FileIO
	path string
	once sync.Once
	hook func()
}

func (f *afterReadFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	data, err := f.FileIO.ReadFile(ctx, p)
	if p == f.path {
		f.once.Do(f.hook)
	}
	return data, err
}
