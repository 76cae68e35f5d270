package commit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// batch runs the queued attempts of a group as consecutive snapshots. It
// plans them in queue order, each on top of the snapshot planned before it
// (the chain), starting the writes of each attempt's base files as soon as
// it is planned, so that the fsyncs of all attempts overlap, and meanwhile
// publishes the planned ones strictly in order: snapshot N+1 only after
// its own files and snapshot N are durable, so a crash between two puts
// leaves contiguous ids and complete snapshots.
//
// An attempt that publishes nothing (already landed, a conflict, an error)
// leaves the chain as it was. The first planned snapshot that is not
// published (a race lost to another process, a failed write or put) breaks
// the chain: every later attempt was planned on a snapshot that does not
// exist, so it is superseded: undone without a trace and queued again,
// first, without counting as an attempt of its part.
type batch struct {
	g    *group
	self *job
	view *chainView
	// tip is the snapshot the next attempt builds on, once tipRead.
	tip     *spec.Snapshot
	tipRead bool
	// base is the latest snapshot in storage when the batch started.
	base *spec.Snapshot
	// broken is set by publish when the chain breaks.
	broken atomic.Bool
}

func newBatch(g *group, self *job) *batch {
	return &batch{g: g, self: self, view: newChainView()}
}

// chainView is what the attempts of one batch see besides storage and
// their caches: the snapshots the batch builds on (its base, and those
// planned by earlier attempts, not yet published) with their live data
// files, and the metadata the attempts wrote or are writing. Manifests and
// lists are decoded back from the bytes written, so that nothing here
// shares memory with a caller's request, and go to the group's cache
// too; the view keeps them for the batch, which a cache may evict.
type chainView struct {
	snapshots map[int64]*spec.Snapshot
	live      map[int64][]spec.ManifestEntry
	lists     map[string][]spec.ManifestFileMeta
	entries   map[string][]spec.ManifestEntry
	index     map[string][]spec.IndexManifestEntry
}

func newChainView() *chainView {
	return &chainView{
		snapshots: map[int64]*spec.Snapshot{},
		live:      map[int64][]spec.ManifestEntry{},
		lists:     map[string][]spec.ManifestFileMeta{},
		entries:   map[string][]spec.ManifestEntry{},
		index:     map[string][]spec.IndexManifestEntry{},
	}
}

// plannedJob is a job after planning: either finished with an outcome, or
// holding a snapshot whose files are being written.
type plannedJob struct {
	j *job
	// latestID is the snapshot the attempt builds on.
	latestID int64
	prep     *preparation
	// written is closed once the attempt's base files are written and its
	// snapshot is staged (fileio.Stager), so that only the put is left on
	// the path from one snapshot to the next.
	written    chan struct{}
	writeErr   error
	staged     fileio.Staged
	stageErr   error
	writePanic *jobPanic
}

// run plans jobs in order and returns the superseded ones. It hands each
// job, once planned, to a goroutine that publishes them in order, so that
// planning the next job overlaps the writes and the put of this one. Once
// the chain is broken, it plans no further job.
func (b *batch) run(jobs []*job) []*job {
	planned := make(chan *plannedJob, len(jobs))
	superseded := make(chan []*job, 1)
	go func() { superseded <- b.publish(planned) }()
	for _, j := range jobs {
		if b.broken.Load() {
			planned <- &plannedJob{j: j}
			continue
		}
		var pj *plannedJob
		if p := capture(func() { pj = b.plan(j) }); p != nil {
			j.panicked, pj = p, &plannedJob{j: j}
		}
		planned <- pj
	}
	close(planned)
	return <-superseded
}

// jobPanic is a panic raised while a batch ran a job. The batch goes on,
// taking it for a break of the chain, and the job's caller panics with it
// (group.attempt): left to unwind the goroutine running the batch, it
// would leave every other writer of the table waiting forever.
type jobPanic struct {
	value any
	// stack is where it was raised, which the caller's panic cannot show.
	stack []byte
}

func (p *jobPanic) Error() string {
	return fmt.Sprintf("%v\n\ngoroutine running the commit batch:\n%s", p.value, p.stack)
}

// capture runs f and returns what it panicked with, if it did.
func capture(f func()) (panicked *jobPanic) {
	defer func() {
		if p := recover(); p != nil {
			if jp, ok := p.(*jobPanic); ok {
				panicked = jp
				return
			}
			panicked = &jobPanic{value: p, stack: debug.Stack()}
		}
	}()
	f()
	return nil
}

// plan runs the attempt up to its publish on top of the chain.
func (b *batch) plan(j *job) *plannedJob {
	r := j.r
	r.view = b.view
	pj := &plannedJob{j: j}
	if err := j.ctx.Err(); err != nil {
		j.err = fmt.Errorf("commit: %w", err)
		return pj
	}
	latest, err := b.latest(j)
	if err != nil {
		j.err = err
		return pj
	}
	pj.latestID = idOf(latest)
	prep, early, err := r.plan(j.ctx, j.p, j.attempt, j.checkedUpTo, latest)
	if err != nil || prep == nil {
		j.out, j.err = early, err
		return pj
	}
	pj.prep, pj.written = prep, make(chan struct{})
	b.view.add(prep, j.p.delta.writer)
	b.extendLive(j, prep.snap)
	b.tip = prep.snap
	go func() {
		defer close(pj.written)
		pj.writePanic = capture(func() {
			if pj.writeErr = prep.w.flush(j.ctx); pj.writeErr == nil {
				pj.staged, pj.stageErr = r.stageSnapshot(j.ctx, prep)
			}
		})
	}()
	return pj
}

// latest returns the snapshot job j builds on: the chain's tip, or, for
// the first job that reads it, the latest snapshot in storage.
func (b *batch) latest(j *job) (*spec.Snapshot, error) {
	r := j.r
	if j.attempt > 1 {
		if err := r.refreshSchema(j.ctx); err != nil {
			return nil, err
		}
	}
	if !b.tipRead {
		latest, err := b.readLatest(j.ctx, r)
		if err != nil {
			return nil, err
		}
		b.base, b.tip, b.tipRead = latest, latest, true
		if latest != nil {
			b.seed(latest)
		}
	}
	r.c.observe(b.base)
	return b.tip, nil
}

// seed puts the latest snapshot into the view, with its live files if the
// group knows them.
func (b *batch) seed(latest *spec.Snapshot) {
	b.view.snapshots[latest.ID] = latest
	if l := b.g.live; l.id == latest.ID && l.uuid == uuidOf(latest) {
		b.view.live[latest.ID] = l.entries
	}
}

// extendLive computes the data files live in snap, planned by job j, from
// those live in the tip it builds on, if known: the next job's conflict
// check needs them, or the next batch's. Without them, liveEntries folds
// the manifests when asked.
func (b *batch) extendLive(j *job, snap *spec.Snapshot) {
	var before []spec.ManifestEntry
	if b.tip != nil {
		var ok bool
		if before, ok = b.view.live[b.tip.ID]; !ok {
			return
		}
	}
	if live, err := j.r.liveAfter(j.ctx, before, snap); err == nil {
		b.view.live[snap.ID] = live
	}
}

// readLatest reads the latest snapshot, taking the group's knownID for
// the LATEST hint: the hint may lag, since only the last job of each batch
// writes it, and after the batch, and a stale hint costs a listing.
//
// knownID is the latest only if its snapshot is still in storage: when
// other processes published after it and expiry deleted it and the one
// after, the next id is free too, and a snapshot built on knownID (which
// a run may still hold in its cache) would re-create an expired snapshot
// off the chain, whose rows no later snapshot holds.
func (b *batch) readLatest(ctx context.Context, r *run) (*spec.Snapshot, error) {
	if known := b.g.knownID; known > 0 {
		isLatest, err := r.stillLatest(ctx, known)
		if err != nil {
			return nil, fmt.Errorf("commit: find latest snapshot: %w", err)
		}
		if isLatest {
			s, found, err := r.readSnapshot(ctx, known)
			if err != nil || found {
				return s, err
			}
		}
	}
	return r.readLatest(ctx)
}

// stillLatest reports whether snapshot id is in storage and the next one
// is not.
func (r *run) stillLatest(ctx context.Context, id int64) (bool, error) {
	next, err := fileio.Exists(ctx, r.c.io, r.c.snapshots.SnapshotPath(id+1))
	if err != nil || next {
		return false, err
	}
	return fileio.Exists(ctx, r.c.io, r.c.snapshots.SnapshotPath(id))
}

// publish publishes the planned snapshots in order and finishes each job
// once the snapshots its planning relied on are in the table. It owns the
// group's knownID and live while the batch runs; the planner reads them
// before the first publish.
func (b *batch) publish(planned <-chan *plannedJob) []*job {
	var superseded []*job
	broken := false
	var newest *job
	for pj := range planned {
		switch {
		case broken:
			b.supersede(pj)
			superseded = append(superseded, pj.j)
		case pj.j.panicked != nil:
			broken = true
			b.broken.Store(true)
			b.finish(pj.j)
		case pj.prep == nil:
			b.finish(pj.j)
		default:
			pj.j.panicked = capture(func() { b.publishOne(pj) })
			if pj.j.panicked != nil || pj.j.err != nil || pj.j.out.status != published {
				broken = true
				b.broken.Store(true)
				b.finish(pj.j)
				continue
			}
			b.g.knownID = pj.j.snap.ID
			if newest != nil {
				b.finish(newest)
			}
			newest = pj.j
		}
	}
	if newest != nil {
		b.g.live = liveSet{}
		if live, ok := b.view.live[newest.snap.ID]; ok && len(live) <= maxKeptLiveEntries {
			b.g.live = liveSet{id: newest.snap.ID, uuid: uuidOf(newest.snap), entries: live}
		}
		newest.writeLatest = true
		b.finish(newest)
	}
	return superseded
}

// publishOne waits for the job's files, then puts its snapshot.
func (b *batch) publishOne(pj *plannedJob) {
	j := pj.j
	<-pj.written
	if pj.writePanic != nil {
		panic(pj.writePanic)
	}
	if pj.writeErr != nil {
		j.err = errors.Join(pj.writeErr, pj.prep.w.deleteFresh(j.ctx))
		return
	}
	if b.refuseLostLease(pj) {
		return
	}
	// A re-based overwrite's snapshot names its own delta (in its base
	// files), not the part's.
	j.p.base = pj.prep.base
	j.p.deltaNamed = j.p.deltaNamed || pj.prep.base.delta == nil
	j.snap = pj.prep.snap
	j.out, j.err = j.r.publish(j.ctx, pj.prep.snap, pj.latestID, pj.staged, pj.stageErr)
}

// supersede undoes an attempt planned on a snapshot that was not
// published: it deletes the files the attempt wrote, none of which a put
// named.
func (b *batch) supersede(pj *plannedJob) {
	j := pj.j
	j.r.view = nil
	j.out, j.err = attemptOutcome{}, nil
	if pj.prep == nil {
		return
	}
	<-pj.written
	if pj.staged != nil {
		pj.staged.Discard()
	}
	// A failed delete leaves an orphan manifest, which orphan cleanup
	// removes; the attempt itself is retried either way.
	_ = pj.prep.w.deleteFresh(j.ctx)
}

// finish hands the job's outcome to its caller.
func (b *batch) finish(j *job) {
	j.r.view = nil
	j.finished = true
	if j != b.self {
		j.wake <- struct{}{}
	}
}

// add makes the snapshot of prep, and the files it references that its
// attempt wrote, visible to the later attempts of the batch.
func (v *chainView) add(prep *preparation, delta *fileWriter) {
	v.snapshots[prep.snap.ID] = prep.snap
	for _, w := range []*fileWriter{delta, prep.w} {
		maps.Copy(v.lists, w.lists)
		maps.Copy(v.entries, w.entries)
		maps.Copy(v.index, w.index)
	}
}

// The lookups of a nil view, outside a batch, find nothing.

func (v *chainView) snapshot(id int64) (*spec.Snapshot, bool) {
	if v == nil {
		return nil, false
	}
	s, ok := v.snapshots[id]
	return s, ok
}

// holds reports whether the batch builds on snapshot id: its base, or one
// it is about to publish.
func (v *chainView) holds(id int64) bool {
	if v == nil {
		return false
	}
	_, ok := v.snapshots[id]
	return ok
}

func (v *chainView) manifestList(name string) ([]spec.ManifestFileMeta, bool) {
	if v == nil {
		return nil, false
	}
	metas, ok := v.lists[name]
	return metas, ok
}

func (v *chainView) manifestEntries(name string) ([]spec.ManifestEntry, bool) {
	if v == nil {
		return nil, false
	}
	entries, ok := v.entries[name]
	return entries, ok
}

func (v *chainView) indexEntries(name string) ([]spec.IndexManifestEntry, bool) {
	if v == nil {
		return nil, false
	}
	entries, ok := v.index[name]
	return entries, ok
}
