package predicate

import (
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// column returns a column of the SQL type typ (Paimon's spelling) at index.
func column(t testing.TB, index int, name, typ string) Column {
	t.Helper()
	dt, err := spec.ParseDataType(typ)
	if err != nil {
		t.Fatalf("type %q: %v", typ, err)
	}
	return Column{Index: index, ID: index + 1, Name: name, Type: dt}
}

func mustLeaf(t testing.TB, col Column, op Op, literals ...any) Predicate {
	t.Helper()
	p, err := Leaf(col, op, literals...)
	if err != nil {
		t.Fatalf("Leaf(%s %s %v): %v", col.Name, op, literals, err)
	}
	return p
}

func count(n int64) *int64 { return &n }

// stats1 is the statistics of one column over rows rows.
func stats1(rows int64, min, max any, nulls *int64) Stats {
	return Stats{RowCount: rows, Columns: []spec.ColumnStats{{Min: min, Max: max, NullCount: nulls}}}
}
