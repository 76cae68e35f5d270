package sqlbackend

import (
	"bytes"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	_ sql.InsertableTable   = (*Table)(nil)
	_ sql.ReplaceableTable  = (*Table)(nil)
	_ sql.UpdatableTable    = (*Table)(nil)
	_ sql.DeletableTable    = (*Table)(nil)
	_ sql.TruncateableTable = (*Table)(nil)
)

// editor writes the rows of one DML statement into the transaction's
// table writer as Paimon row kinds. Paimon has no unique-key checks: on a
// primary-key table an INSERT of an existing key replaces the row (the
// merge engine decides how), which is also what REPLACE means.
type editor struct {
	table *Table
	err   error // from opening the transaction's writer; every call returns it
	w     *tableWrite
	// keys are the statement's keys, when it checks for duplicate keys;
	// its inserter, updater and replacer share them.
	keys *statementKeys
	// replacing makes Delete record that REPLACE deletes an existing row
	// instead of writing a deletion: the upsert that follows replaces it.
	replacing bool
	// inexact, lookup and lookupErr serve keptValues (keepstored.go).
	inexact      []int
	inexactKnown bool
	lookup       *table.KeyLookup
	lookupErr    error
	// keyInexact are the primary-key columns of precision 7..9
	// (requireNamedKey).
	keyInexact      []string
	keyInexactKnown bool
}

// Inserter implements sql.InsertableTable. An INSERT is a blind upsert,
// unless it updates duplicates or selects from the table it inserts into.
func (t *Table) Inserter(ctx *sql.Context) sql.RowInserter {
	return t.editor(ctx, t.duplicates != nil || t.readsItself)
}

// Replacer implements sql.ReplaceableTable. REPLACE is an upsert that
// reports the rows it replaces, so that it counts them as MySQL does (a
// replaced row is a deletion and an insertion); its writes stay blind.
func (t *Table) Replacer(ctx *sql.Context) sql.RowReplacer {
	e := t.editor(ctx, false)
	e.replacing = true
	return e
}

// Updater implements sql.UpdatableTable. An UPDATE derives the new rows
// from those it read.
func (t *Table) Updater(ctx *sql.Context) sql.RowUpdater { return t.editor(ctx, true) }

// Deleter implements sql.DeletableTable. A DELETE removes the rows its
// WHERE read.
func (t *Table) Deleter(ctx *sql.Context) sql.RowDeleter { return t.editor(ctx, true) }

// editor opens the statement's editor. derived says whether the rows it
// writes derive from rows it read, which makes the commit check its keys
// against concurrent commits (see keysChecked).
func (t *Table) editor(ctx *sql.Context, derived bool) *editor {
	tx, ok := ctx.GetTransaction().(*Transaction)
	if !ok {
		return &editor{table: t, err: fmt.Errorf("no transaction for a write to %s", t.name)}
	}
	if tx.readOnly {
		return &editor{table: t, err: sql.ErrReadOnlyTransaction.New()}
	}
	var w *tableWrite
	err := claimBeforeWrite(ctx, t)
	if err == nil {
		w, err = tx.writes.forTable(ctx, t.db.backend, t)
	}
	if err == nil && len(w.schema.Fields) != len(t.schema.Fields) {
		err = fmt.Errorf("table %s changed its schema during the statement; run it again", t.name)
	}
	if err == nil {
		err = refuseHiddenOverwrite(ctx, t)
	}
	if err == nil {
		err = w.settle(ctx)
	}
	if err == nil {
		w.applyPendingOverwrite(ctx, t)
		w.checkKeys = w.checkKeys || keysChecked(ctx, derived)
	}
	e := &editor{table: t, w: w, err: mysqlerr.From(err)}
	if len(t.schema.PrimaryKeys) > 0 {
		e.keys = t.duplicates
	}
	return e
}

// refuseHiddenOverwrite refuses an INSERT OVERWRITE of a table whose batch
// reads skip level 0 (first-row, deletion vectors): an overwrite's writer
// does not compact (it does not see the files its commit replaces), so its
// rows would stay invisible until some later compaction.
func refuseHiddenOverwrite(ctx *sql.Context, t *Table) error {
	s, ok := ctx.Session.(*Session)
	if !ok || !s.overwritePending(t.db.name, t.name) {
		return nil
	}
	hides, err := scan.HidesLevel0(t.schema)
	if err != nil || !hides {
		return err
	}
	return unsupportedf("INSERT OVERWRITE of %s: its rows would stay on level 0, which reads of the table skip until a compaction; TRUNCATE it (or the partition) and INSERT", t.name)
}

// StatementBegin implements sql.EditOpenerCloser.
func (e *editor) StatementBegin(*sql.Context) {}

// DiscardChanges implements sql.EditOpenerCloser: the failed statement's
// rows never reach a commit. That is all of its rows, also those written
// before a row-level checkpoint of INSERT IGNORE or LOAD DATA: a failed
// statement changes nothing, as in InnoDB.
func (e *editor) DiscardChanges(ctx *sql.Context, _ error) error {
	if e.err != nil {
		return nil
	}
	return mysqlerr.From(e.w.endStatement(ctx, false))
}

// StatementComplete implements sql.EditOpenerCloser.
func (e *editor) StatementComplete(*sql.Context) error {
	if e.err != nil {
		return e.err
	}
	e.w.completeStatement()
	return nil
}

// finishStatement ends a statement that wrote through e without GMS's
// editor calls: kept when err is nil, else undone.
func (e *editor) finishStatement(ctx *sql.Context, err error) error {
	if err != nil {
		_ = e.w.endStatement(ctx, false)
		return mysqlerr.From(err)
	}
	e.w.completeStatement()
	return mysqlerr.From(e.w.settle(ctx))
}

// Close implements sql.Closer: the statement has ended, and what it
// completed becomes messages. The writer lives until the transaction ends.
func (e *editor) Close(ctx *sql.Context) error {
	if e.err != nil {
		return nil
	}
	return mysqlerr.From(e.w.settle(ctx))
}

// Insert implements sql.RowInserter. Under INSERT … ON DUPLICATE KEY
// UPDATE an existing key is reported as a duplicate, so that GMS applies
// the UPDATE part to it.
func (e *editor) Insert(ctx *sql.Context, row sql.Row) error {
	if e.keys != nil && e.err == nil {
		existing, found, err := e.duplicateOf(ctx, row)
		if err != nil {
			return mysqlerr.From(err)
		}
		if found && e.replacing && e.storedAlike(existing, row) {
			// MySQL replaces a row with an identical one in place and
			// counts one affected row, not a deletion and an insertion
			// (sql_insert.cc write_record, HA_ERR_RECORD_IS_THE_SAME).
			found = false
		}
		if found {
			return sql.NewUniqueKeyErr(e.keyString(row), true, existing)
		}
	}
	e.remember(row, row)
	return e.write(ctx, row, spec.RowKindInsert)
}

// Update implements sql.RowUpdater. A changed primary key is a delete of
// the old key and an insert of the new one; otherwise the new row is an
// update-after, which every merge engine applies over the old row.
func (e *editor) Update(ctx *sql.Context, old, new sql.Row) error {
	if e.err != nil {
		// The writer did not open (a table lakesql refuses to write):
		// nothing below may touch it.
		return e.err
	}
	if len(e.table.schema.PrimaryKeys) == 0 {
		return e.updateAppendRow(ctx, old, new)
	}
	if err := e.refuseFirstRowChange("UPDATE"); err != nil {
		return err
	}
	if err := e.requireNamedKey(ctx, old); err != nil {
		return err
	}
	kept, err := e.keptValues(ctx, old, new)
	if err != nil {
		return mysqlerr.From(err)
	}
	e.remember(new, new)
	if !e.sameKey(ctx, old, new) {
		e.remember(old, nil)
		if err := e.write(ctx, old, spec.RowKindDelete); err != nil {
			return err
		}
		return e.writeKeeping(ctx, new, spec.RowKindInsert, kept)
	}
	return e.writeKeeping(ctx, new, spec.RowKindUpdateAfter, kept)
}

// Delete implements sql.RowDeleter.
func (e *editor) Delete(ctx *sql.Context, row sql.Row) error {
	if len(e.table.schema.PrimaryKeys) == 0 {
		return e.deleteFromAppendTable(ctx, row)
	}
	if err := e.refuseFirstRowChange("DELETE or REPLACE"); err != nil {
		return err
	}
	if e.replacing {
		e.remember(row, nil)
		return e.err
	}
	if e.err == nil {
		if err := e.requireNamedKey(ctx, row); err != nil {
			return err
		}
	}
	e.remember(row, nil)
	return e.write(ctx, row, spec.RowKindDelete)
}

// refuseFirstRowChange refuses to change or remove a row of a first-row
// table: its merge keeps the first row written for each key, so an update
// would be dropped without a trace, and Java's merge fails on a delete.
func (e *editor) refuseFirstRowChange(statement string) error {
	if e.err != nil || !e.table.keepsFirstRow() {
		return nil
	}
	return unsupportedf("%s of a row of first-row table %s: it keeps the first row written for each key", statement, e.table.name)
}

// keepsFirstRow reports whether t's merge engine is first-row.
func (t *Table) keepsFirstRow() bool {
	engine, err := t.schema.CoreOptions().MergeEngine()
	return err == nil && engine == spec.MergeEngineFirstRow
}

// storedAlike reports whether two rows store the same bytes, column by
// column, as MySQL compares a row with its replacement.
func (e *editor) storedAlike(a, b sql.Row) bool {
	if len(a) != len(b) || len(a) != len(e.w.schema.Fields) {
		return false
	}
	x, errA := storageRow(e.w.schema.Fields, a)
	y, errB := storageRow(e.w.schema.Fields, b)
	if errA != nil || errB != nil {
		return false
	}
	types := make([]spec.DataType, len(e.w.schema.Fields))
	for i, f := range e.w.schema.Fields {
		types[i] = f.Type
	}
	ex, errA := spec.EncodeBinaryRow(types, x, spec.RowKindInsert)
	ey, errB := spec.EncodeBinaryRow(types, y, spec.RowKindInsert)
	return errA == nil && errB == nil && bytes.Equal(ex, ey)
}

func (e *editor) sameKey(ctx *sql.Context, old, new sql.Row) bool {
	schema := e.table.columns
	for _, k := range e.table.schema.PrimaryKeys {
		i := e.table.schema.FieldIndex(k)
		if cmp, err := schema[i].Type.Compare(ctx, old[i], new[i]); err != nil || cmp != 0 {
			return false
		}
	}
	return true
}

func (e *editor) write(ctx *sql.Context, row sql.Row, kind spec.RowKind) error {
	return e.writeKeeping(ctx, row, kind, nil)
}

// writeKeeping writes row, with the stored values in kept for the columns
// kept has (see keptValues).
func (e *editor) writeKeeping(ctx *sql.Context, row sql.Row, kind spec.RowKind, kept map[int]any) error {
	if e.err != nil {
		return e.err
	}
	values, err := storageRowKeeping(e.w.schema.Fields, row, kept)
	if err != nil {
		return mysqlerr.From(err)
	}
	if e.keys != nil && len(e.table.schema.PrimaryKeys) > 0 {
		e.keys.rememberStored(e.keyString(row), values, kind)
	}
	return mysqlerr.From(e.w.writer.Write(ctx, values, kind))
}

// storageRow converts a GMS row (all columns, table order) into storage
// values.
func storageRow(fields []spec.DataField, row sql.Row) ([]any, error) {
	return storageRowKeeping(fields, row, nil)
}

func storageRowKeeping(fields []spec.DataField, row sql.Row, kept map[int]any) ([]any, error) {
	if len(row) != len(fields) {
		return nil, fmt.Errorf("%w: %d values for %d columns", sqltypes.ErrValue, len(row), len(fields))
	}
	out := make([]any, len(row))
	for i, f := range fields {
		if v, ok := kept[i]; ok {
			out[i] = v
			continue
		}
		v, err := sqltypes.FromSQL(f.Type, row[i])
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		out[i] = v
	}
	return out, nil
}

// claimBeforeWrite claims the session's commit user on t when lakesql
// picks its identifiers (see identity.go).
func claimBeforeWrite(ctx *sql.Context, t *Table) error {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return nil
	}
	return s.claimBeforeWrite(ctx, t.t.Dir())
}

// keysChecked reports whether a statement's writes must fail on a primary
// key another commit wrote since the statement's transaction read the
// table (commit.KeyCheck, docs/isolation.md): when they derive from rows
// it read, when it runs in an explicit transaction (which may have read
// the rows in an earlier statement), and for every write under
// lakesql_conflict_check = 'all'. Blind upserts are last-writer-wins
// otherwise, as Paimon defines them.
func keysChecked(ctx *sql.Context, derived bool) bool {
	return derived || explicitTransaction(ctx) || conflictCheckAll(ctx)
}
