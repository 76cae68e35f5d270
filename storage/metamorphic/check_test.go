package metamorphic

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// checker holds what a finished run left: the snapshot log, read back,
// and the batches with the calls that committed them. Violations are
// collected, not fatal, so that one report lists them all.
type checker struct {
	ctx        context.Context
	env        *env
	concurrent bool
	batches    map[batchKey]*batch
	// snaps[i] is snapshot i+1; touched[i] the partitions its delta
	// changed.
	snaps    []*spec.Snapshot
	touched  []map[string]bool
	problems []string
}

type batchKey struct {
	user string
	id   int64
}

// partKey is one part of one request: at most one snapshot each.
type partKey struct {
	batchKey
	part string
}

func (c *checker) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// check runs every check; see the package comment.
func check(ctx context.Context, e *env, batches []*batch, concurrent bool) []string {
	c := &checker{ctx: ctx, env: e, concurrent: concurrent, batches: map[batchKey]*batch{}}
	for _, b := range batches {
		c.batches[batchKey{b.user, b.id}] = b
	}
	if err := c.readLog(ctx); err != nil {
		return append(c.problems, err.Error())
	}
	landedIn := c.checkLogParts()
	for _, b := range batches {
		c.checkCalls(b, landedIn)
	}
	c.checkStatements(batches, landedIn)
	c.checkOverwrites()
	c.checkDeltas()
	c.checkReceipts(ctx, batches)
	if err := c.checkReads(ctx); err != nil {
		c.fail("%v", err)
	}
	return c.problems
}

// readLog reads every snapshot and the partitions its delta touched, and
// checks that the ids are exactly 1..latest.
func (c *checker) readLog(ctx context.Context) error {
	snaps := snapshot.NewManager(c.env.mem, c.env.dir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if id != int64(i+1) {
			c.fail("snapshot ids are not contiguous from 1: %v", ids)
			break
		}
	}
	reader := manifest.NewReader(c.env.mem, c.env.dir)
	for _, id := range ids {
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			return err
		}
		delta, err := deltaEntries(ctx, reader, s)
		if err != nil {
			return fmt.Errorf("snapshot %d: %w", id, err)
		}
		c.checkRecordCounts(ctx, reader, s, delta)
		touched := map[string]bool{}
		for _, e := range delta {
			touched[decodeDT(e.Partition)] = true
		}
		c.snaps = append(c.snaps, s)
		c.touched = append(c.touched, touched)
	}
	return nil
}

func deltaEntries(ctx context.Context, r *manifest.Reader, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	metas, err := r.ManifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	var out []spec.ManifestEntry
	for _, m := range metas {
		entries, err := r.Entries(ctx, m.FileName)
		if err != nil {
			return nil, err
		}
		out = append(out, entries...)
	}
	return out, nil
}

// checkRecordCounts: the snapshot's delta record count is its delta's
// rows added minus rows deleted, and its total the rows of its live files
// (an overwrite or an upgrade that miscounted would show here).
func (c *checker) checkRecordCounts(ctx context.Context, r *manifest.Reader, s *spec.Snapshot, delta []spec.ManifestEntry) {
	live, err := r.LiveEntries(ctx, s)
	if err != nil {
		c.fail("snapshot %d: live files: %v", s.ID, err)
		return
	}
	wantDelta, wantTotal := rowsOf(delta), rowsOf(live)
	if s.DeltaRecordCount == nil || *s.DeltaRecordCount != wantDelta || s.TotalRecordCount == nil || *s.TotalRecordCount != wantTotal {
		c.fail("snapshot %d: record counts delta %v total %v; its files say delta %d total %d",
			s.ID, deref(s.DeltaRecordCount), deref(s.TotalRecordCount), wantDelta, wantTotal)
	}
}

func rowsOf(entries []spec.ManifestEntry) int64 {
	var n int64
	for _, e := range entries {
		if e.Kind == spec.FileKindDelete {
			n -= e.File.RowCount
		} else {
			n += e.File.RowCount
		}
	}
	return n
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func (c *checker) snapshot(id int64) *spec.Snapshot {
	if id < 1 || id > int64(len(c.snaps)) {
		return nil
	}
	return c.snaps[id-1]
}

// checkLogParts maps every snapshot to the request part it published and
// fails a part that landed twice or a snapshot no op explains.
func (c *checker) checkLogParts() map[partKey][]int64 {
	landedIn := map[partKey][]int64{}
	for _, s := range c.snaps {
		k := partKey{batchKey{s.CommitUser, s.CommitIdentifier}, partOfKind(s.CommitKind)}
		landedIn[k] = append(landedIn[k], s.ID)
		b, ok := c.batches[k.batchKey]
		switch {
		case !ok:
			c.fail("snapshot %d (user %s identifier %d %s) belongs to no request", s.ID, s.CommitUser, s.CommitIdentifier, s.CommitKind)
		case !slices.Contains(b.parts(), k.part):
			c.fail("snapshot %d: request %s/%d has no %s part", s.ID, b.user, b.id, k.part)
		case k.part == partData && b.overwrite != (s.CommitKind == spec.CommitKindOverwrite):
			c.fail("snapshot %d of request %s/%d has kind %s", s.ID, b.user, b.id, s.CommitKind)
		}
	}
	for k, ids := range landedIn {
		if len(ids) > 1 {
			c.fail("request %s/%d: %s part landed %d times, in snapshots %v", k.user, k.id, k.part, len(ids), ids)
		}
	}
	return landedIn
}

// checkCalls checks each call's error class, that the snapshots it
// reported are its own, and that the last word on each part agrees with
// the log.
func (c *checker) checkCalls(b *batch, landedIn map[partKey][]int64) {
	final := map[string]string{}
	for _, cl := range b.calls {
		c.checkError(b, cl)
		c.checkReported(b, cl)
		maps.Copy(final, callParts(b, cl))
	}
	for _, p := range b.parts() {
		ids := landedIn[partKey{batchKey{b.user, b.id}, p}]
		switch status := final[p]; {
		case status == "landed" && len(ids) != 1:
			c.fail("request %s/%d: %s part reported landed, but is in snapshots %v", b.user, b.id, p, ids)
		case (status == "failed" || status == "") && len(ids) != 0:
			c.fail("request %s/%d: %s part reported %q, but landed in snapshots %v", b.user, b.id, p, cmpOr(status, "not attempted"), ids)
		}
	}
}

// checkStatements: of the requests of one read-modify-write statement (its
// first and its re-runs), at most one lands; a second would apply the
// statement twice, as a server re-running an UPDATE that had committed
// would.
func (c *checker) checkStatements(batches []*batch, landedIn map[partKey][]int64) {
	landed := map[batchKey][]string{}
	var stmts []batchKey
	for _, b := range batches {
		ids := landedIn[partKey{batchKey{b.user, b.id}, partData}]
		if !b.readModifyWrite() || len(ids) == 0 {
			continue
		}
		k := batchKey{b.user, b.stmt}
		if landed[k] == nil {
			stmts = append(stmts, k)
		}
		landed[k] = append(landed[k], fmt.Sprintf("%s/%d in snapshot %d", b.user, b.id, ids[0]))
	}
	for _, k := range stmts {
		if reqs := landed[k]; len(reqs) > 1 {
			c.fail("statement %s/%d applied %d times: %s", k.user, k.id, len(reqs), strings.Join(reqs, ", "))
		}
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkReported checks that the snapshots a call says it published and
// the one it says the request landed in are the request's.
func (c *checker) checkReported(b *batch, cl *call) {
	for _, id := range cl.res.Snapshots {
		s := c.snapshot(id)
		if s == nil || s.CommitUser != b.user || s.CommitIdentifier != b.id {
			c.fail("op %d %s: reported publishing snapshot %d, which is %s", cl.op.index, cl.op, id, describe(s))
		}
	}
	if id := cl.res.AlreadyCommittedIn; id != 0 {
		if s := c.snapshot(id); s == nil || s.CommitUser != b.user || s.CommitIdentifier < b.id {
			c.fail("op %d %s: reported already committed in snapshot %d, which is %s", cl.op.index, cl.op, id, describe(s))
		}
	}
}

func describe(s *spec.Snapshot) string {
	if s == nil {
		return "not in the log"
	}
	return fmt.Sprintf("user %s identifier %d %s", s.CommitUser, s.CommitIdentifier, s.CommitKind)
}

// checkOverwrites: an OVERWRITE snapshot must have no snapshot between its
// base and itself that changed its target's rows; the rows of such a
// snapshot would have been dropped (Paimon) or kept against the statement
// (deleting from the base only): either way it had to fail instead. A
// COMPACT snapshot rewrites files without changing rows, so an overwrite
// lands over it (deleting the files the compaction left); the row checks
// at every snapshot prove that it did so correctly.
func (c *checker) checkOverwrites() {
	for _, s := range c.snaps {
		b := c.batches[batchKey{s.CommitUser, s.CommitIdentifier}]
		if b == nil || !b.overwrite || s.CommitKind != spec.CommitKindOverwrite {
			continue
		}
		target := b.target()
		for id := b.base + 1; id < s.ID; id++ {
			if c.snaps[id-1].CommitKind != spec.CommitKindCompact && intersects(c.touched[id-1], target) {
				c.fail("overwrite %s/%d in snapshot %d (base %d, target %v) landed over snapshot %d, which changed %v",
					b.user, b.id, s.ID, b.base, keys(target), id, keys(c.touched[id-1]))
			}
		}
	}
}

// checkDeltas cross-checks each snapshot's delta partitions with its
// request: the checks above rely on them.
func (c *checker) checkDeltas() {
	for i, s := range c.snaps {
		b := c.batches[batchKey{s.CommitUser, s.CommitIdentifier}]
		if b == nil {
			continue
		}
		want := map[string]bool{}
		switch {
		case s.CommitKind == spec.CommitKindCompact && b.upgraded != nil:
			want[b.upgraded.dt] = true
		case b.overwrite:
			want = b.target()
		default:
			want = b.partitions()
		}
		got := c.touched[i]
		// An overwrite of a partition that held nothing deletes nothing.
		if b.overwrite && s.CommitKind == spec.CommitKindOverwrite {
			if !subset(got, want) {
				c.fail("snapshot %d: overwrite of %v changed %v", s.ID, keys(want), keys(got))
			}
			continue
		}
		if !maps.Equal(got, want) {
			c.fail("snapshot %d (%s/%d %s): delta partitions %v, want %v", s.ID, b.user, b.id, s.CommitKind, keys(got), keys(want))
		}
	}
}

func intersects(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
