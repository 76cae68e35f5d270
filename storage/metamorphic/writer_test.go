package metamorphic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// writer is one job: its commit user, its Committer, its fault-injecting
// view of the table, and the batch it is writing.
type writer struct {
	env       *env
	idx       int
	user      string
	fs        *timeoutFS
	committer *commit.Committer
	// table reads the values incr rows increment.
	table *table.Table
	rand  *rand.Rand
	uuids atomic.Int64
	cur   *batch
	tw    *write.TableWriter
	// batches maps an identifier to its request; a read-modify-write
	// statement's first identifier maps to its newest request.
	batches map[int64]*batch
	// level0 holds this writer's committed level-0 files, in commit
	// order: the candidates of an upgrade.
	level0 []liveFile
	// order lists the batches in the order they were committed.
	order []*batch
}

func newWriter(ctx context.Context, e *env, idx int) (*writer, error) {
	w := &writer{env: e, idx: idx, user: fmt.Sprintf("w%d", idx), fs: &timeoutFS{FileIO: e.mem},
		rand: rand.New(rand.NewPCG(e.cfg.seed, uint64(idx))), batches: map[int64]*batch{}}
	var err error
	if w.table, err = table.Open(ctx, e.mem, e.dir); err != nil {
		return nil, err
	}
	return w, w.openCommitter()
}

// newUUID names the writer's files and metadata: unique across writers,
// and readable in a listing.
func (w *writer) newUUID() string {
	return fmt.Sprintf("00000000-0000-4000-%04x-%012x", w.idx, w.uuids.Add(1))
}

// openCommitter (re)creates the writer's Committer, as a restarted job
// process would.
func (w *writer) openCommitter() error {
	c, err := commit.New(commit.Options{FileIO: w.fs, TableDir: w.env.dir, Core: w.env.core,
		NewUUID: w.newUUID, Rand: w.rand})
	w.committer = c
	return err
}

// do executes one op of this writer. Errors are failures of the harness or
// of the write path; commit errors are recorded, not returned.
func (w *writer) do(ctx context.Context, o op) error {
	switch {
	case o.kind == opBegin:
		return w.begin(ctx, o)
	case o.kind.isRow():
		return w.writeRow(ctx, o)
	case o.kind == opCommit || o.kind == opOverwrite:
		b, err := w.prepare(ctx, o)
		if err != nil {
			return err
		}
		w.order = append(w.order, b)
		w.commit(ctx, o, b)
		return w.rerun(ctx, o, b)
	case o.kind == opRecommit:
		return w.recommit(ctx, o)
	}
	return fmt.Errorf("op %d %s: unknown kind", o.index, o)
}

func (w *writer) begin(ctx context.Context, o op) error {
	if w.cur != nil {
		return fmt.Errorf("op %d %s: batch already open", o.index, o)
	}
	latest, _, err := snapshot.NewManager(w.env.mem, w.env.dir, "").LatestID(ctx)
	if err != nil {
		return err
	}
	tw, err := write.Open(ctx, write.Options{FileIO: w.fs, TableDir: w.env.dir, NewUUID: w.newUUID,
		SpillDir: w.env.spillDir, IgnorePreviousFiles: o.overwrite})
	if err != nil {
		return fmt.Errorf("op %d %s: %w", o.index, o, err)
	}
	w.tw, w.cur = tw, &batch{writer: w.idx, user: w.user, overwrite: o.overwrite, base: latest}
	return nil
}

func (w *writer) writeRow(ctx context.Context, o op) error {
	if w.cur == nil {
		return fmt.Errorf("op %d %s: no batch open", o.index, o)
	}
	r, kind, err := w.recordOf(ctx, o)
	if err != nil {
		return fmt.Errorf("op %d %s: %w", o.index, o, err)
	}
	row := []any{r.dt, r.pk, r.v, r.seq}
	if r.retracted {
		row[2] = nil
	}
	if err := w.tw.Write(ctx, row, kind); err != nil {
		return fmt.Errorf("op %d %s: %w", o.index, o, err)
	}
	w.cur.records = append(w.cur.records, r)
	w.cur.rows = append(w.cur.rows, o)
	return nil
}

// recordOf returns the record a row op writes, and its row kind.
func (w *writer) recordOf(ctx context.Context, o op) (record, spec.RowKind, error) {
	r := record{dt: o.dt, pk: o.pk, v: o.v, seq: int64(o.index)}
	switch o.kind {
	case opUpdate:
		return r, spec.RowKindUpdateAfter, nil
	case opDelete:
		r.retracted = true
		return r, spec.RowKindDelete, nil
	case opIncr:
		return w.increment(ctx, o)
	}
	return r, spec.RowKindInsert, nil
}

// prepare closes the open batch into its request.
func (w *writer) prepare(ctx context.Context, o op) (*batch, error) {
	b := w.cur
	if b == nil || b.overwrite != (o.kind == opOverwrite) {
		return nil, fmt.Errorf("op %d %s: no matching batch open", o.index, o)
	}
	msgs, err := w.tw.PrepareCommit(ctx)
	if err != nil {
		return nil, fmt.Errorf("op %d %s: %w", o.index, o, err)
	}
	// Close, not Abort: a failed request may be retried by a later op, so
	// its files must stay; the files of requests that never land are
	// orphans, as in Java.
	if err := w.tw.Close(); err != nil {
		return nil, err
	}
	w.tw, w.cur = nil, nil
	b.id, b.stmt, b.static, b.truncate = o.id, o.id, o.static, o.truncate
	b.request = commit.Request{CommitUser: w.user, Identifier: o.id, Messages: msgs}
	if b.readModifyWrite() {
		// Its rows derive from the base's: a commit of one of their keys
		// since then must fail it (first-committer-wins) rather than be
		// overwritten by it.
		b.request.KeyCheck = &commit.KeyCheck{BaseSnapshotID: b.base}
	}
	if b.overwrite {
		ow := &commit.Overwrite{BaseSnapshotID: b.base, Truncate: o.truncate}
		if o.static != "" {
			ow.Static = map[string]any{"dt": o.static}
		}
		b.request.Overwrite = ow
	}
	if o.upgrade != 0 && len(w.level0) > 0 {
		b.upgraded = w.upgrade(&b.request, o.upgrade)
	}
	w.batches[o.id] = b
	return b, nil
}

// upgrade adds a COMPACT part moving one of the writer's committed level-0
// files to level, as Java's compaction does with a file it needs not
// rewrite: the newest for an even level, the likeliest to be live still,
// and the oldest for an odd one, the likeliest to have been replaced by an
// overwrite. A file no longer live, or overlapping a file of that level,
// must fail the COMPACT part with a terminal conflict. Reads merge by
// sequence number whatever the level, so an upgrade changes no row.
func (w *writer) upgrade(req *commit.Request, level int32) *liveFile {
	i := 0
	if level%2 == 0 {
		i = len(w.level0) - 1
	}
	f := w.level0[i]
	w.level0 = slices.Delete(w.level0, i, i+1)
	after := f.meta
	after.Level = level
	req.Messages = append(req.Messages, commit.Message{Partition: f.partition, Bucket: f.bucket,
		TotalBuckets: f.totalBuckets, CompactBefore: []spec.DataFileMeta{f.meta}, CompactAfter: []spec.DataFileMeta{after}})
	return &f
}

func (w *writer) recommit(ctx context.Context, o op) error {
	b, ok := w.batches[o.id]
	if !ok {
		return fmt.Errorf("op %d %s: no request with id %d", o.index, o, o.id)
	}
	if o.fresh {
		if err := w.openCommitter(); err != nil {
			return err
		}
	}
	w.commit(ctx, o, b)
	return w.rerun(ctx, o, b)
}

// commit runs one Commit of b's request, with the op's fault armed, and
// records it.
func (w *writer) commit(ctx context.Context, o op, b *batch) {
	c := &call{op: o, faulted: o.fault != noFault}
	if c.faulted {
		c.faultPart = partData
		if o.faultPart == 1 {
			c.faultPart = partCompact
		}
		w.fs.arm(o.fault, c.faultPart)
	}
	c.res, c.err = w.committer.Commit(ctx, b.request)
	w.fs.disarm()
	b.calls = append(b.calls, c)
	if w.env.cfg.pk && landedParts(b, c)[partData] {
		w.track(b)
	}
}

// track makes the new files of a landed batch candidates for upgrades,
// once.
func (w *writer) track(b *batch) {
	if b.tracked {
		return
	}
	b.tracked = true
	for _, m := range b.request.Messages {
		dt := decodeDT(m.Partition)
		for _, f := range m.NewFiles {
			w.level0 = append(w.level0, liveFile{partition: m.Partition, dt: dt, bucket: m.Bucket, totalBuckets: m.TotalBuckets, meta: f})
		}
	}
}
