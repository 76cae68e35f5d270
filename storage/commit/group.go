package commit

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"weak"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// group commits the attempts of every Committer of one process on one
// branch of one table, reached through one FileIO, so that they never race
// each other for a snapshot id (see doc.go, Group commit). Committers of
// other processes, and Committers of this one over another FileIO, still
// race it through PutIfAbsent.
//
// Attempts queue; the first caller that finds no leader leads: it takes the
// whole queue as a batch and runs it (batch), then hands the lead to the
// oldest attempt still queued, so no caller waits on a goroutine it does
// not own and every I/O runs under its own caller's context.
type group struct {
	// decoded is the Committers' shared cache of decoded manifests and
	// lists, read from storage or decoded from the bytes a commit wrote.
	decoded *scan.ManifestCache

	mu struct {
		sync.Mutex
		queue []*job
		// leading is set while some caller leads.
		leading bool
	}

	// Only the leader touches these; the lead passes under mu.
	//
	// knownID is the newest snapshot the group published, which stands in
	// for the LATEST hint when a batch reads the latest snapshot. live
	// holds the data files live in the newest snapshot the group knows
	// them of, so that a batch on top of it need not fold its manifests.
	knownID int64
	live    liveSet

	hint struct {
		sync.Mutex
		// written is the newest id this process wrote to the LATEST hint,
		// so that a slow writer never moves the hint back.
		written int64
	}
}

// maxKeptLiveEntries bounds the live set a group keeps between batches,
// as decodedCacheEntries bounds its cache: a table with more files pays a
// fold of its manifests per batch rather than the memory.
const maxKeptLiveEntries = decodedCacheEntries

// liveSet is the data files live in one snapshot.
type liveSet struct {
	id      int64
	uuid    string
	entries []spec.ManifestEntry
}

// groupKey names the table a group serializes: the FileIO reaching it and
// the branch directory.
type groupKey struct {
	io  fileio.FileIO
	dir string
}

// groups holds the live groups. The registry must not keep a group alive:
// a group lives as long as some Committer holds it, so that its cache and
// knownID last across Commit calls without leaking one group per table a
// process ever opened.
var groups = struct {
	sync.Mutex
	byKey map[groupKey]weak.Pointer[group]
}{byKey: map[groupKey]weak.Pointer[group]{}}

// groupFor returns the group of the table at branchDir reached through io.
// A FileIO that is not comparable cannot be a key; its Committer gets a
// group of its own and races the others as another process would.
func groupFor(io fileio.FileIO, branchDir string) *group {
	if !reflect.ValueOf(io).Comparable() {
		return newGroup()
	}
	key := groupKey{io: io, dir: path.Clean(branchDir)}
	groups.Lock()
	defer groups.Unlock()
	if g := groups.byKey[key].Value(); g != nil {
		return g
	}
	g := newGroup()
	ref := weak.Make(g)
	groups.byKey[key] = ref
	runtime.AddCleanup(g, forgetGroup, groupEntry{key: key, ref: ref})
	return g
}

type groupEntry struct {
	key groupKey
	ref weak.Pointer[group]
}

// forgetGroup drops a collected group, unless a new one took its key.
func forgetGroup(e groupEntry) {
	groups.Lock()
	defer groups.Unlock()
	if groups.byKey[e.key] == e.ref {
		delete(groups.byKey, e.key)
	}
}

func newGroup() *group {
	return &group{decoded: scan.NewManifestCache(decodedCacheEntries)}
}

// job is one attempt of one part, queued for a batch.
type job struct {
	ctx         context.Context
	r           *run
	p           *part
	attempt     int
	checkedUpTo int64

	// Set by the batch that finishes the job.
	out  attemptOutcome
	err  error
	snap *spec.Snapshot
	// writeLatest is set on the job that published the newest snapshot
	// of its batch: it alone writes the LATEST hint.
	writeLatest bool
	finished    bool
	panicked    *jobPanic

	// wake receives once: when the job is finished, or when its caller
	// is to lead.
	wake chan struct{}
	// lead is set, under group.mu, on the job whose caller is to lead.
	lead bool
}

// attempt runs attempt n of part p in a batch of the group and returns
// its outcome. After a publish it writes the hints, outside the batch, so
// that they do not delay the next publish.
func (g *group) attempt(ctx context.Context, r *run, p *part, n int, checkedUpTo int64) (attemptOutcome, error) {
	j := &job{ctx: ctx, r: r, p: p, attempt: n, checkedUpTo: checkedUpTo, wake: make(chan struct{}, 1)}
	if g.enqueue(j) || g.await(j) {
		g.lead(j)
	}
	if j.panicked != nil {
		panic(j.panicked)
	}
	if j.err == nil && j.out.status == published {
		j.out.warnings = r.afterPublish(ctx, j.snap, j.writeLatest)
	}
	return j.out, j.err
}

// enqueue queues j and reports whether its caller must lead.
func (g *group) enqueue(j *job) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.mu.queue = append(g.mu.queue, j)
	if g.mu.leading {
		return false
	}
	g.mu.leading = true
	return true
}

// await waits until j is finished or its caller is to lead, and reports
// the latter. A caller whose context ends while j is still queued takes
// it back; once a batch holds j, its outcome must be waited for, since
// the batch may publish it.
func (g *group) await(j *job) bool {
	select {
	case <-j.wake:
	case <-j.ctx.Done():
		if g.withdraw(j) {
			j.err = fmt.Errorf("commit: waiting to publish: %w", j.ctx.Err())
			return false
		}
		<-j.wake
	}
	return j.lead
}

func (g *group) withdraw(j *job) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if j.lead {
		return false
	}
	for i, queued := range g.mu.queue {
		if queued == j {
			g.mu.queue = append(g.mu.queue[:i], g.mu.queue[i+1:]...)
			return true
		}
	}
	return false
}

// lead runs batches until self is finished, then hands the lead on.
func (g *group) lead(self *job) {
	for !self.finished {
		g.mu.Lock()
		jobs := g.mu.queue
		g.mu.queue = nil
		g.mu.Unlock()

		superseded := newBatch(g, self).run(jobs)

		g.mu.Lock()
		g.mu.queue = append(superseded, g.mu.queue...)
		g.mu.Unlock()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.handOffLocked()
}

// handOffLocked gives the lead to the oldest queued job, whose caller is
// waiting in await, or ends it if none is queued. g.mu is held.
func (g *group) handOffLocked() {
	if len(g.mu.queue) == 0 {
		g.mu.leading = false
		return
	}
	next := g.mu.queue[0]
	next.lead = true
	next.wake <- struct{}{}
}

// writeLatestHint points the LATEST hint at id unless this process already
// pointed it at a newer snapshot.
func (g *group) writeLatestHint(ctx context.Context, io fileio.FileIO, hint string, id int64) error {
	g.hint.Lock()
	defer g.hint.Unlock()
	if id <= g.hint.written {
		return nil
	}
	if err := fileio.OverwriteHint(ctx, io, hint, []byte(strconv.FormatInt(id, 10))); err != nil {
		return err
	}
	g.hint.written = id
	return nil
}
