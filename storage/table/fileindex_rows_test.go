package table_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// TestBitmapRowsNarrowReads: in one file of 200,000 rows whose order
// numbers are shuffled (every page's statistics span them all), a lookup
// by an order number with a bitmap index reads only the pages of its
// rows (one page of each column, where its order-number pages are few
// and large), under half of what the same lookup reads without the
// index, and every filter returns exactly the rows of a full read it
// accepts.
func TestBitmapRowsNarrowReads(t *testing.T) {
	const n = 200_000
	intType := spec.DataType{Root: spec.Int, Nullable: true}
	fields := []spec.DataField{{ID: 0, Name: "k", Type: intType},
		{ID: 1, Name: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}}, {ID: 2, Name: "v", Type: intType}}
	read := map[string]int64{}
	for _, indexed := range []bool{false, true} {
		fs := filetest.NewCountingFS(memio.New())
		def := catalog.TableDefinition{Fields: fields, Options: map[string]string{"write-only": "true"}}
		if indexed {
			def.Options[spec.FileIndexColumnsOption(spec.FileIndexBitmap)] = "s,v"
		}
		tt := tabletest.Create(t, tabletest.Config{FS: fs}, def)
		records := make([]tabletest.Record, n)
		for k := range int32(n) {
			v := any(k % 5)
			if k%17 == 0 {
				v = nil
			}
			records[k] = tabletest.Insert(k, fmt.Sprintf("s%06d", (int64(k)*7919)%n), v)
		}
		writetest.Commit(tt, "u", records...)
		tbl := tt.Open()
		all := readRows(t, tbl, table.ReadOptions{})
		leaf := func(col int, op predicate.Op, lits ...any) predicate.Predicate {
			p, err := predicate.Leaf(predicate.ColumnOf(col, fields[col]), op, lits...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		lookup := leaf(1, predicate.OpEq, "s123457")
		before := fs.BytesRead()
		checkFiltered(t, tbl, all, lookup)
		read[fmt.Sprint(indexed)] = fs.BytesRead() - before
		for _, p := range []predicate.Predicate{
			leaf(1, predicate.OpIn, "s000001", "s199999", "nope"),
			leaf(1, predicate.OpEq, "nope"),
			leaf(2, predicate.OpEq, int32(3)),
			leaf(2, predicate.OpIsNull),
			predicate.And(leaf(2, predicate.OpEq, int32(1)), leaf(0, predicate.OpLt, int32(50))),
			predicate.And(leaf(1, predicate.OpEq, "s000007"), leaf(2, predicate.OpEq, int32(4))),
			predicate.Or(leaf(1, predicate.OpEq, "s000007"), leaf(0, predicate.OpEq, int32(9))),
		} {
			checkFiltered(t, tbl, all, p)
		}
	}
	if plain, indexed := read["false"], read["true"]; indexed*2 > plain || plain == 0 {
		t.Errorf("a lookup read %d bytes with a bitmap index, %d without", indexed, plain)
	}
	t.Logf("lookup bytes read: %v", read)
}

// checkFiltered: a read with filter p returns the rows of all it accepts.
func checkFiltered(t *testing.T, tbl *table.Table, all [][]any, p predicate.Predicate) {
	t.Helper()
	var want [][]any
	for _, r := range all {
		if p.Eval(r) == predicate.True {
			want = append(want, r)
		}
	}
	got := readRows(t, tbl, table.ReadOptions{Filter: p})
	if g, w := tabletest.RenderRows(got), tabletest.RenderRows(want); !slices.Equal(g, w) {
		t.Errorf("filter %v: %d rows %v, want %d %v", p, len(g), head(g), len(w), head(w))
	}
}
