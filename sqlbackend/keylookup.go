package sqlbackend

import (
	"errors"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// A lookup join asks the table for the rows of one primary key per outer row.
// Planning and reading a filtered scan for each of them cost a plan and a file
// decode per row: a reconciliation join of 100 K payments into a 1 M-row
// orders table had not finished after 10 minutes, where MariaDB takes half a
// second. Lookups of whole primary keys therefore go to one table.KeyLookup
// per statement, which reads each split they land in once and keeps its rows
// by key, as a hash join would; lookups of a key prefix or a range still scan.

// keyLookups is the KeyLookup of one statement's lookup-join table,
// shared by the copies of the table GMS makes while it runs the join, and
// made by the first lookup.
type keyLookups struct {
	once   sync.Once
	lookup *table.KeyLookup
	err    error
}

// keysPartition is the partition of a lookup of whole primary keys: the
// keys, as storage values in primary-key order, and the predicate a scan
// would read them with, for tables a KeyLookup cannot serve.
type keysPartition struct {
	keys   [][]any
	filter predicate.Predicate
}

func (keysPartition) Key() []byte { return []byte("keys") }

// primaryKeyPoints turns the ranges of a lookup on the PRIMARY index into
// whole primary keys, or false when a range is not one point on every
// key column. A key no value of its column equals (5.5 into an INT key)
// is left out: it matches no row.
func (t *Table) primaryKeyPoints(ctx *sql.Context, index sql.Index, ranges sql.MySQLRangeCollection) ([][]any, bool) {
	ix, ok := index.(*tableIndex)
	if !ok || ix.id != primaryIndexID || t.keys == nil {
		return nil, false
	}
	var keys [][]any
	for _, r := range ranges {
		if len(r) != len(t.schema.PrimaryKeys) {
			return nil, false
		}
		key, matchable, ok := t.storageKey(ctx, ix, r)
		if !ok {
			return nil, false
		}
		if matchable {
			keys = append(keys, key)
		}
	}
	return keys, true
}

// storageKey converts one point range into storage values, as an equality
// predicate converts its literal; matchable is false when a value falls
// between the values of its column's type.
func (t *Table) storageKey(ctx *sql.Context, ix *tableIndex, r sql.MySQLRange) (key []any, matchable, ok bool) {
	key = make([]any, len(r))
	for i, expr := range r {
		k, isPoint := pointKey(ctx, expr)
		col, found := t.column(ix.columns[i])
		if !isPoint || k == nil || !found {
			return nil, false, false
		}
		p, err := predicate.Leaf(col, predicate.OpEq, k)
		if err != nil {
			return nil, false, false
		}
		switch leaf := p.(type) {
		case *predicate.LeafPredicate:
			key[i] = leaf.Literals()[0]
		case predicate.Constant:
			if predicate.Tri(leaf) != predicate.False {
				return nil, false, false
			}
			return nil, false, true
		default:
			return nil, false, false
		}
	}
	return key, true, true
}

// keyRows reads the rows of a keys partition.
func (t *Table) keyRows(ctx *sql.Context, part keysPartition) (sql.RowIter, error) {
	if t.readsNothing() || len(part.keys) == 0 {
		return sql.RowsToRowIter(), nil
	}
	lookup, err := t.keyLookup(ctx)
	if errors.Is(err, table.ErrKeyLookupUnsupported) {
		c := *t
		c.lookup = &pushedLookup{pushdown: planner.Pushdown{Filter: part.filter}}
		return c.scan(ctx)
	}
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	types := t.projectedTypes()
	var rows []sql.Row
	for _, key := range part.keys {
		found, err := lookup.Lookup(ctx, key)
		if err != nil {
			return nil, mysqlerr.From(err)
		}
		for _, r := range found {
			row, err := toSQLRow(types, r)
			if err != nil {
				return nil, mysqlerr.From(err)
			}
			rows = append(rows, row)
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// keyLookup is the statement's KeyLookup over the whole pinned table,
// made on first use.
func (t *Table) keyLookup(ctx *sql.Context) (*table.KeyLookup, error) {
	t.keys.once.Do(func() {
		whole := *t
		whole.lookup = nil
		whole.allLevels = t.duplicates != nil && t.hidesLevel0()
		plan, err := whole.plan(ctx)
		if err != nil {
			t.keys.err = err
			return
		}
		t.db.backend.opts.Metrics.RecordScan(t.db.name, t.name, plan)
		t.keys.lookup, t.keys.err = t.t.NewKeyLookup(ctx, plan, table.KeyLookupOptions{Columns: t.projection})
	})
	return t.keys.lookup, t.keys.err
}

// projectedTypes are the storage types of the columns the table returns.
func (t *Table) projectedTypes() []spec.DataType {
	if t.projection == nil {
		types := make([]spec.DataType, len(t.schema.Fields))
		for i, f := range t.schema.Fields {
			types[i] = f.Type
		}
		return types
	}
	types := make([]spec.DataType, len(t.projection))
	for i, name := range t.projection {
		types[i] = t.schema.Fields[t.schema.FieldIndex(name)].Type
	}
	return types
}

func toSQLRow(types []spec.DataType, values []any) (sql.Row, error) {
	return convertRow(types, values, make(sql.Row, len(values)))
}

// convertRow writes the SQL values of values into out, which may be
// values itself, and returns out.
func convertRow(types []spec.DataType, values []any, out sql.Row) (sql.Row, error) {
	for i, v := range values {
		var err error
		if out[i], err = sqltypes.ToSQL(types[i], v); err != nil {
			return nil, err
		}
	}
	return out, nil
}
