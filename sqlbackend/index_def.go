package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/sqltypes"
)

// tableIndex is an index over columns of a table: the primary key, or the
// pseudo index of a pushed filter. Paimon stores no secondary indexes; the
// key order inside each bucket is what makes PRIMARY an index.
type tableIndex struct {
	id, db, table string
	columns       []string
	types         []sql.Type
}

var _ sql.Index = (*tableIndex)(nil)

func (t *Table) index(id string, columns []string) *tableIndex {
	ix := &tableIndex{id: id, db: t.db.name, table: t.name, columns: columns}
	for _, c := range columns {
		for _, f := range t.schema.Fields {
			if f.Name == c {
				typ, _ := sqltypes.Type(f.Type) // every column type was checked in newTable
				ix.types = append(ix.types, typ)
			}
		}
	}
	return ix
}

func (ix *tableIndex) ID() string       { return ix.id }
func (ix *tableIndex) Database() string { return ix.db }
func (ix *tableIndex) Table() string    { return ix.table }

// Expressions are "table.column", the form GMS's memo splits on '.'.
func (ix *tableIndex) Expressions() []string {
	out := make([]string, len(ix.columns))
	for i, c := range ix.columns {
		out[i] = strings.ToLower(ix.table + "." + c)
	}
	return out
}

func (ix *tableIndex) IsUnique() bool    { return ix.id == primaryIndexID }
func (ix *tableIndex) IsSpatial() bool   { return false }
func (ix *tableIndex) IsFullText() bool  { return false }
func (ix *tableIndex) IsVector() bool    { return false }
func (ix *tableIndex) IsGenerated() bool { return false }
func (ix *tableIndex) Comment() string   { return "" }
func (ix *tableIndex) IndexType() string { return "BTREE" }

func (ix *tableIndex) ColumnExpressionTypes() []sql.ColumnExpressionType {
	out := make([]sql.ColumnExpressionType, len(ix.columns))
	for i, e := range ix.Expressions() {
		out[i] = sql.ColumnExpressionType{Expression: e, Type: ix.types[i]}
	}
	return out
}

// CanSupport accepts every lookup: ranges become a storage predicate that
// selects exactly the rows the ranges hold (rangesPredicate).
func (ix *tableIndex) CanSupport(*sql.Context, ...sql.Range) bool { return true }

// CanSupportOrderBy is false: rows come merged per bucket, not in key order
// across buckets.
func (ix *tableIndex) CanSupportOrderBy(sql.Expression) bool { return false }

func (ix *tableIndex) PrefixLengths() []uint16 { return nil }

// indexColumns are the indexed columns as the table names them.
func (ix *tableIndex) indexColumns() []string { return ix.columns }
