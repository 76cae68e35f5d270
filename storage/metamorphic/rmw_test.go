package metamorphic

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// increment reads the counter o names at the open batch's base, as an
// UPDATE reads the rows it updates, and returns its next version: one
// more, with a seq one more than the read row's, so that it wins over it
// under sequence.field too.
func (w *writer) increment(ctx context.Context, o op) (record, spec.RowKind, error) {
	if w.cur.overwrite {
		return record{}, 0, errors.New("an overwrite batch takes no incr rows")
	}
	r := record{dt: o.dt, pk: o.pk, v: 1, seq: 1, incr: true}
	v, seq, found, err := w.readCounter(ctx, o.dt, o.pk)
	if err != nil || !found {
		return r, spec.RowKindInsert, err
	}
	r.v, r.seq = v+1, seq+1
	return r, spec.RowKindUpdateAfter, nil
}

// readCounter reads the v and seq of key (dt, pk) at the open batch's
// base, through a key filter as a point UPDATE plans its read.
func (w *writer) readCounter(ctx context.Context, dt string, pk int64) (v, seq int64, found bool, err error) {
	base := w.cur.base
	if base == 0 {
		return 0, 0, false, nil // the table was empty
	}
	filter, err := keyFilter(w.env.fields, dt, pk)
	if err != nil {
		return 0, 0, false, err
	}
	rows, err := w.table.Read(ctx, table.ReadOptions{At: snapshot.TimeTravel{SnapshotID: base}, Columns: []string{"v", "seq"}, Filter: filter})
	if err != nil {
		return 0, 0, false, err
	}
	all, err := table.ReadAll(rows)
	switch {
	case err != nil:
		return 0, 0, false, err
	case len(all) == 0:
		return 0, 0, false, nil
	case len(all) > 1:
		return 0, 0, false, fmt.Errorf("key %s/%d has %d rows at snapshot %d", dt, pk, len(all), base)
	}
	v, okV := all[0][0].(int64)
	seq, okSeq := all[0][1].(int64)
	if !okV || !okSeq {
		return 0, 0, false, fmt.Errorf("key %s/%d at snapshot %d: row %v", dt, pk, base, all[0])
	}
	return v, seq, true, nil
}

// keyFilter is dt = dt AND pk = pk over the table's columns.
func keyFilter(fields []spec.DataField, dt string, pk int64) (predicate.Predicate, error) {
	onDT, err := predicate.Leaf(predicate.ColumnOf(0, fields[0]), predicate.OpEq, dt)
	if err != nil {
		return nil, err
	}
	onPK, err := predicate.Leaf(predicate.ColumnOf(1, fields[1]), predicate.OpEq, pk)
	if err != nil {
		return nil, err
	}
	return predicate.And(onDT, onPK), nil
}

// rerun re-runs a read-modify-write statement whose newest request lost
// to a concurrent write of one of its keys, as the server re-runs an
// autocommit UPDATE: its rows again, read on the latest snapshot, as a
// new request with the statement's next identifier, until one does not
// lose or rmwAttempts requests have run. The op's fault stays armed for
// the re-runs: a request that lost the key check never reached the put
// the fault hits.
func (w *writer) rerun(ctx context.Context, o op, b *batch) error {
	for b.readModifyWrite() && lostKeyRace(b.calls[len(b.calls)-1]) && b.attempt+1 < rmwAttempts {
		c := op{index: o.index, writer: o.writer, kind: opCommit, id: b.id + 1, upgrade: o.upgrade, fault: o.fault, faultPart: o.faultPart}
		next, err := w.replay(ctx, c, b)
		if err != nil {
			return err
		}
		w.commit(ctx, c, next)
		b = next
	}
	return nil
}

// replay writes the rows of prev again on a new batch and closes it into
// the statement's next request c.
func (w *writer) replay(ctx context.Context, c op, prev *batch) (*batch, error) {
	if err := w.begin(ctx, op{index: c.index, writer: c.writer, kind: opBegin}); err != nil {
		return nil, err
	}
	for _, r := range prev.rows {
		if err := w.writeRow(ctx, r); err != nil {
			return nil, err
		}
	}
	b, err := w.prepare(ctx, c)
	if err != nil {
		return nil, err
	}
	b.stmt, b.attempt = prev.stmt, prev.attempt+1
	w.batches[b.stmt] = b
	w.order = append(w.order, b)
	return b, nil
}

// lostKeyRace reports whether a call failed the key-level check: the
// retryable conflict a re-run on the latest snapshot resolves.
func lostKeyRace(c *call) bool {
	var ce *commit.ConflictError
	return errors.Is(c.err, lakeerr.ErrRetryableConflict) && errors.As(c.err, &ce) && ce.Kind == commit.WriteWriteConflict
}
