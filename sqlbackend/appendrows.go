package sqlbackend

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/rowdelete"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// appendRowDeletes are the rows one DELETE or UPDATE statement removes
// from an append table. An append table has no key to name a row by, so
// the statement remembers each row it removes by its values, and at its
// end the rows are found again by position in the files of the snapshot
// it read (rowdelete.Selection.Find): of rows equal in every column, which
// SQL cannot tell apart, as many are removed as the statement removed.
//
// A statement whose pushed filter selects whole partitions removes their
// files instead, when it removed as many rows as they hold (not so under
// a LIMIT); it remembers the values of at most maxRowDeletes rows for the
// other case.
type appendRowDeletes struct {
	table *Table
	// rows counts the rows still to find, by digest of their values; nil
	// once more rows were removed than it may hold.
	rows    map[commit.Digest]int
	pending int
	// wholePartitions is the pushed filter when it selects whole
	// partitions; removed counts the rows the statement removed.
	wholePartitions predicate.Predicate
	removed         int64
}

// maxRowDeletes bounds the rows one statement removes from an append
// table other than whole partitions: each costs about 80 bytes of memory
// until the statement ends.
const maxRowDeletes = 4 << 20

// removeAppendRow remembers that the statement removes row from the
// append table.
func (e *editor) removeAppendRow(ctx *sql.Context, row sql.Row) error {
	if e.err != nil {
		return e.err
	}
	w := e.w
	if w.rowDeletes == nil {
		if w.overwrite != nil {
			return unsupportedf("removing rows of append table %s after an INSERT OVERWRITE of it in the same transaction: COMMIT it first", e.table.name)
		}
		w.rowDeletes = &appendRowDeletes{table: e.table, rows: map[commit.Digest]int{}}
		w.rowDeletes.wholePartitions, _ = e.wholePartitionFilter()
	}
	d := w.rowDeletes
	d.removed++
	if d.rows == nil {
		return nil
	}
	if d.pending == maxRowDeletes {
		if d.wholePartitions == nil {
			return unsupportedf("removing more than %d single rows of append table %s in one statement: split it, or rewrite whole partitions with INSERT OVERWRITE", maxRowDeletes, e.table.name)
		}
		d.rows = nil
		return nil
	}
	key, err := sqlRowDigest(row)
	if err != nil {
		return mysqlerr.From(err)
	}
	d.rows[key]++
	d.pending++
	return nil
}

// updateAppendRow updates a row of an append table: the old row is
// removed and the new one appended, as Paimon's Spark UPDATE does.
func (e *editor) updateAppendRow(ctx *sql.Context, old, new sql.Row) error {
	if err := e.removeAppendRow(ctx, old); err != nil {
		return err
	}
	return e.write(ctx, new, spec.RowKindInsert)
}

// sqlRowDigest identifies a row by its values as SQL sees them: the
// table's scans convert stored values with sqltypes.ToSQL, which both the
// rows a statement removes and the rows Find reads again go through, so
// equal stored rows digest alike (timestamps cut to microseconds, CHAR
// padding dropped, nested values as JSON, on both sides).
func sqlRowDigest(row sql.Row) (commit.Digest, error) {
	h := sha256.New()
	var buf []byte
	for i, v := range row {
		var err error
		if buf, err = appendSQLValue(buf[:0], v); err != nil {
			return commit.Digest{}, fmt.Errorf("column %d: %w", i+1, err)
		}
		h.Write(binary.AppendUvarint(nil, uint64(len(buf))))
		h.Write(buf)
	}
	var d commit.Digest
	copy(d[:], h.Sum(nil))
	return d, nil
}

// appendSQLValue appends a tagged encoding of one SQL value.
func appendSQLValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, 0), nil
	case int8, int16, int32, int64, int:
		return binary.AppendVarint(append(b, 1), reflect.ValueOf(v).Int()), nil
	case uint8, uint16, uint32, uint64, uint:
		return binary.AppendUvarint(append(b, 2), reflect.ValueOf(v).Uint()), nil
	case float32:
		return binary.BigEndian.AppendUint64(append(b, 3), math.Float64bits(float64(v))), nil
	case float64:
		return binary.BigEndian.AppendUint64(append(b, 3), math.Float64bits(v)), nil
	case string:
		return append(append(b, 4), v...), nil
	case []byte:
		return append(append(b, 5), v...), nil
	case decimal.Decimal:
		return append(append(b, 6), v.String()...), nil
	case time.Time:
		return binary.AppendVarint(append(b, 7), v.UnixNano()), nil
	case types.Timespan:
		return binary.AppendVarint(append(b, 8), int64(v)), nil
	case types.JSONDocument:
		doc, err := json.Marshal(v.Val)
		return append(append(b, 9), doc...), err
	}
	return nil, fmt.Errorf("%w: a %T value cannot name a row", lakeerr.ErrUnsupported, v)
}

// applyRowDeletes stages the removal of the rows the statement removed
// from an append table.
func (w *tableWrite) applyRowDeletes(ctx *sql.Context) error {
	d := w.rowDeletes
	w.rowDeletes = nil
	if d == nil || d.removed == 0 {
		return nil
	}
	if d.wholePartitions != nil {
		done, err := w.removeWholePartitions(ctx, d)
		if done || err != nil {
			return err
		}
	}
	if d.rows == nil {
		return unsupportedf("removing more than %d rows of append table %s in one statement that are not whole partitions: split it, or rewrite whole partitions with INSERT OVERWRITE", maxRowDeletes, d.table.name)
	}
	return w.removeRows(ctx, d)
}

// removeWholePartitions stages the deletion of the files of the
// partitions d's filter selects, when the statement removed every row
// they hold; it reports whether it did.
func (w *tableWrite) removeWholePartitions(ctx *sql.Context, d *appendRowDeletes) (bool, error) {
	t := d.table
	plan, err := t.t.PlanPinned(ctx, w.base, d.wholePartitions, t.staged)
	if err != nil {
		return false, err
	}
	if err := checkRowDeletePlan(t, w, plan); err != nil {
		return false, err
	}
	if live, known := liveRows(plan); !known || live != d.removed {
		return false, nil
	}
	msgs, err := deletionMessages(plan)
	if err != nil {
		return false, err
	}
	w.stageRemovals(ctx, msgs)
	return true, nil
}

// liveRows counts the rows of a plan's files that no deletion vector
// deletes; known is false when a vector's count is not recorded.
func liveRows(plan *table.Plan) (rows int64, known bool) {
	for _, b := range plan.Buckets {
		for _, f := range b.Files {
			rows += f.RowCount
			if df, ok := b.DeletionFiles[f.FileName]; ok {
				if df.Meta.Cardinality == nil {
					return 0, false
				}
				rows -= *df.Meta.Cardinality
			}
		}
	}
	return rows, true
}

// checkRowDeletePlan refuses plans a removal of rows cannot apply to.
func checkRowDeletePlan(t *Table, w *tableWrite, plan *table.Plan) error {
	if plan.Fallback != nil {
		return unsupportedf("DELETE on %s: the table reads partitions from fallback branch %s", t.name, plan.Fallback.Branch)
	}
	if plan.Schema.ID != w.schema.ID {
		return fmt.Errorf("table %s changed its schema during the statement; run it again", t.name)
	}
	return nil
}

// removeRows finds the rows d remembers in the snapshot the statement
// read and stages their removal.
func (w *tableWrite) removeRows(ctx *sql.Context, d *appendRowDeletes) error {
	t := d.table
	plan, err := t.t.PlanPinned(ctx, w.base, t.filter(), t.staged)
	if err != nil {
		return err
	}
	if err := checkRowDeletePlan(t, w, plan); err != nil {
		return err
	}
	sel := rowdelete.NewSelection()
	if err := sel.Find(ctx, t.t, plan, d.match(w.schema.Fields)); err != nil {
		return err
	}
	if d.pending > 0 && t.filter() != nil {
		// The rows passed the pushed filter when the statement read them;
		// reading the rest of the table only guards against a filter the
		// plan prunes by differently.
		if plan, err = t.t.PlanPinned(ctx, w.base, nil, t.staged); err != nil {
			return err
		}
		if err := sel.Find(ctx, t.t, plan, d.match(w.schema.Fields)); err != nil {
			return err
		}
	}
	if d.pending > 0 {
		return fmt.Errorf("%w: %d rows the statement removed from %s are not in snapshot %d it read", lakeerr.ErrCorruption, d.pending, t.name, w.base)
	}
	return w.stageRowDeletes(ctx, t, plan.Index, sel)
}

// match selects each file row whose values are those of a row still to
// find, once per such row.
func (d *appendRowDeletes) match(fields []spec.DataField) func(row []any) (bool, error) {
	columnTypes := make([]spec.DataType, len(fields))
	for i, f := range fields {
		columnTypes[i] = f.Type
	}
	return func(row []any) (bool, error) {
		asSQL, err := toSQLRow(columnTypes, row)
		if err != nil {
			return false, err
		}
		key, err := sqlRowDigest(asSQL)
		if err != nil || d.rows[key] == 0 {
			return false, err
		}
		d.rows[key]--
		if d.pending--; d.pending == 0 {
			return true, rowdelete.ErrSelected
		}
		return true, nil
	}
}

// stageRowDeletes writes the removal of the selected rows and stages its
// messages with the transaction's deletions.
func (w *tableWrite) stageRowDeletes(ctx *sql.Context, t *Table, index []spec.IndexManifestEntry, sel *rowdelete.Selection) error {
	res, err := rowdelete.Apply(ctx, rowdelete.Options{
		FileIO: w.io, Table: t.t, Schema: w.schema, Index: index,
		Now: w.now, NewUUID: w.newUUID, Lease: w.writer.Lease(),
	}, sel)
	if err != nil {
		deleteWritten(ctx, w.io, res.Written)
		return err
	}
	w.rowDeleteFiles = append(w.rowDeleteFiles, res.Written...)
	w.stageRemovals(ctx, res.Messages)
	return nil
}

// stageRemovals adds the messages of a removal of rows to the
// transaction's. A file or index file the removal replaces that the
// transaction added itself (rows an earlier statement inserted, or its
// rewrite or deletion vectors) was never committed: it is dropped from
// the staged messages and deleted, instead of being named as a deletion
// no snapshot could apply.
func (w *tableWrite) stageRemovals(ctx *sql.Context, msgs []commit.Message) {
	for i := range msgs {
		m := &msgs[i]
		m.DeletedFiles = slices.DeleteFunc(m.DeletedFiles, func(f spec.DataFileMeta) bool {
			return w.unstage(ctx, m, f.FileName, false)
		})
		m.DeletedIndexFiles = slices.DeleteFunc(m.DeletedIndexFiles, func(f spec.IndexFileMeta) bool {
			return w.unstage(ctx, m, f.FileName, true)
		})
	}
	w.deleted = append(w.deleted, msgs...)
}

// unstage drops the file named name from the staged messages of m's
// bucket and deletes it, reporting whether the transaction staged it.
func (w *tableWrite) unstage(ctx *sql.Context, m *commit.Message, name string, index bool) bool {
	for _, staged := range [][]commit.Message{w.messages, w.deleted} {
		for i := range staged {
			s := &staged[i]
			if s.Bucket != m.Bucket || !bytes.Equal(s.Partition, m.Partition) {
				continue
			}
			if index {
				if j := slices.IndexFunc(s.NewIndexFiles, func(f spec.IndexFileMeta) bool { return f.FileName == name }); j >= 0 {
					s.NewIndexFiles = slices.Delete(s.NewIndexFiles, j, j+1)
					w.deleteRowDeleteFile(ctx, name)
					return true
				}
				continue
			}
			if j := slices.IndexFunc(s.NewFiles, func(f spec.DataFileMeta) bool { return f.FileName == name }); j >= 0 {
				gone := s.NewFiles[j]
				s.NewFiles = slices.Delete(s.NewFiles, j, j+1)
				if err := w.deleteFiles(ctx, s.Partition, s.Bucket, []spec.DataFileMeta{gone}); err != nil {
					ctx.GetLogger().Warnf("%s.%s: deleting replaced file %s: %v", w.db, w.name, name, err)
				}
				return true
			}
		}
	}
	return false
}

// deleteRowDeleteFile deletes the file named name that a removal of rows
// wrote.
func (w *tableWrite) deleteRowDeleteFile(ctx context.Context, name string) {
	i := slices.IndexFunc(w.rowDeleteFiles, func(p string) bool { return path.Base(p) == name })
	if i < 0 {
		return
	}
	deleteWritten(ctx, w.io, w.rowDeleteFiles[i:i+1])
	w.rowDeleteFiles = slices.Delete(w.rowDeleteFiles, i, i+1)
}

// deleteWritten deletes files no commit will name; what it cannot delete
// is left to orphan removal.
func deleteWritten(ctx context.Context, fsys fileio.FileIO, paths []string) {
	_ = fileio.DeleteFiles(context.WithoutCancel(ctx), fsys, paths)
}
