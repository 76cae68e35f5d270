package sqlbackend

import (
	"errors"
	"io"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Some stored values have no exact SQL value (planner/sqltypes): a
// TIMESTAMP(7..9) is shown with microseconds, and ARRAY, MAP, MULTISET and
// ROW values are shown as JSON, whose TIMESTAMP(7..9) parts are cut the
// same way and whose integers beyond 2^53 a client may not send back. A
// statement that rewrites a whole row (UPDATE, INSERT … ON DUPLICATE KEY
// UPDATE) gets the old row as shown and writes the new one; it must not cut
// the nanoseconds of, or fail on, a column it leaves alone (interop
// findings F6 and F7). So for such columns the editor writes the old row's
// stored value whenever the statement's new value equals the value shown:
// a column the statement did not assign, or assigned the value it shows.
// A column assigned a different value is written as given: a TIMESTAMP(9)
// then holds the six digits MySQL can express, and a nested column the
// value its JSON describes (planner/sqltypes/nested.go).

// inexactColumns are the indexes of the columns whose stored values the SQL
// layer cannot express exactly.
func inexactColumns(fields []spec.DataField) []int {
	var out []int
	for i, f := range fields {
		switch f.Type.Root {
		case spec.Timestamp, spec.TimestampLTZ:
			if f.Type.Precision > 6 {
				out = append(out, i)
			}
		case spec.Array, spec.Map, spec.Multiset, spec.Row:
			out = append(out, i)
		}
	}
	return out
}

// keptValues returns, for the inexact columns new leaves as old shows
// them, old's stored values by column index; nil when there are none or
// the old row is not found.
func (e *editor) keptValues(ctx *sql.Context, old, new sql.Row) (map[int]any, error) {
	if !e.inexactKnown {
		e.inexact, e.inexactKnown = inexactColumns(e.w.schema.Fields), true
	}
	var same []int
	for _, i := range e.inexact {
		if e.unchanged(ctx, i, old[i], new[i]) {
			same = append(same, i)
		}
	}
	if len(same) == 0 {
		return nil, nil
	}
	stored, err := e.storedRow(ctx, old)
	if err != nil || stored == nil {
		return nil, err
	}
	kept := make(map[int]any, len(same))
	for _, i := range same {
		kept[i] = stored[i]
	}
	return kept, nil
}

// unchanged reports whether b, the new value of column i, is a, the old
// value as shown; NULL needs no stored value.
func (e *editor) unchanged(ctx *sql.Context, i int, a, b any) bool {
	if a == nil || b == nil {
		return false
	}
	if ta, ok := a.(time.Time); ok {
		tb, ok := b.(time.Time)
		return ok && ta.Equal(tb)
	}
	cmp, err := e.table.columns[i].Type.Compare(ctx, a, b)
	return err == nil && cmp == 0
}

// storedRow returns the storage values of the live row with old's primary
// key: the one this statement wrote last, else the one in the pinned
// snapshot and the transaction's staged writes.
func (e *editor) storedRow(ctx *sql.Context, old sql.Row) ([]any, error) {
	if e.keys != nil {
		if v, ok := e.keys.stored[e.keyString(old)]; ok {
			return v, nil
		}
	}
	if e.table.readsNothing() {
		return nil, nil
	}
	key, err := e.storageKey(old)
	if err != nil {
		return nil, err
	}
	whole := *e.table
	whole.lookup = nil
	whole.projection = nil
	if e.lookup == nil && e.lookupErr == nil {
		plan, err := whole.plan(ctx)
		if err != nil {
			return nil, err
		}
		e.lookup, e.lookupErr = whole.t.NewKeyLookup(ctx, plan, table.KeyLookupOptions{})
	}
	if errors.Is(e.lookupErr, table.ErrKeyLookupUnsupported) {
		return e.scanStored(ctx, &whole, old)
	}
	if e.lookupErr != nil {
		return nil, e.lookupErr
	}
	found, err := e.lookup.Lookup(ctx, key)
	if err != nil || len(found) == 0 || len(found[0]) != len(e.w.schema.Fields) {
		return nil, err
	}
	return found[0], nil
}

// scanStored reads the stored row with old's key by a filtered scan, for
// tables a KeyLookup cannot serve.
func (e *editor) scanStored(ctx *sql.Context, whole *Table, old sql.Row) ([]any, error) {
	filter, err := e.keyFilter(old)
	if err != nil || filter == nil {
		return nil, err
	}
	whole.lookup = &pushedLookup{}
	whole.lookup.pushdown.Filter = filter
	p, err := whole.plan(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := whole.t.ExecutePlan(ctx, p, table.ReadOptions{Limit: 1})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	r, err := rows.Next()
	if errors.Is(err, io.EOF) || (err == nil && len(r) != len(e.w.schema.Fields)) {
		return nil, nil
	}
	return r, err
}

// requireNamedKey fails the update or deletion of a row whose primary key
// holds a TIMESTAMP(7..9) value with digits past the microseconds SQL shows
// it with: the row as shown names another key, so writing it would add a
// row (UPDATE) or delete nothing (DELETE) while reporting success. The row
// is found by its key as shown unless its key is such a value.
func (e *editor) requireNamedKey(ctx *sql.Context, old sql.Row) error {
	if !e.keyInexactKnown {
		for _, k := range e.table.schema.PrimaryKeys {
			t := e.table.schema.Fields[e.table.schema.FieldIndex(k)].Type
			if (t.Root == spec.Timestamp || t.Root == spec.TimestampLTZ) && t.Precision > 6 {
				e.keyInexact = append(e.keyInexact, k)
			}
		}
		e.keyInexactKnown = true
	}
	if len(e.keyInexact) == 0 {
		return nil
	}
	stored, err := e.storedRow(ctx, old)
	if err != nil {
		return mysqlerr.From(err)
	}
	if stored == nil {
		return unsupportedf("cannot update or delete the row with key %s of %s: its key column %s holds more fraction digits than the six SQL shows",
			e.keyString(old), e.table.name, strings.Join(e.keyInexact, ", "))
	}
	return nil
}
