package table_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/table"
)

// TestPagePruningKeepsEveryMatch reads files of several pages (50,000
// rows, pages of 20,000 rows or fewer, a text column's cut elsewhere by
// size) through filters the column index
// narrows to some pages, on an append table (row reads) and on a
// primary-key table whose second commit updates and deletes keys across
// the first file's pages (merged key-value reads): every read returns
// exactly the rows of a full read the filter accepts, and again from the
// page cache.
func TestPagePruningKeepsEveryMatch(t *testing.T) {
	const n = 50_000
	// s is unique and long, so its pages are cut by size, at other rows
	// than k's and v's.
	text := func(k int32) string { return fmt.Sprintf("%06d%s", k, strings.Repeat("-", 54)) }
	row := func(k int32) []any {
		var s any
		if k%7 != 0 {
			s = text(k)
		}
		return []any{k, k * 10, s}
	}
	var inserts []tabletest.Record
	for k := range int32(n) {
		inserts = append(inserts, tabletest.Insert(row(k)...))
	}
	var changes []tabletest.Record
	for k := int32(5); k < n; k += 997 {
		changes = append(changes, tabletest.Update(k, int32(-1), "changed"), tabletest.Delete(row(k+1)...))
	}
	appendTable := tabletest.NewLocal(t, catalog.TableDefinition{Fields: extFields()})
	writetest.Commit(appendTable, "u", inserts...)
	pkTable := tabletest.NewLocal(t, catalog.TableDefinition{Fields: extFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "1", "write-only": "true"}})
	writetest.Commit(pkTable, "u", inserts...)
	writetest.Commit(pkTable, "u", changes...)

	fields := extFields()
	leaf := func(col int, op predicate.Op, literals ...any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, fields[col]), op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	filters := []predicate.Predicate{
		leaf(0, predicate.OpEq, int32(30_000)),
		leaf(0, predicate.OpEq, int32(5+997*20)),
		leaf(0, predicate.OpEq, int32(6+997*20)),
		leaf(0, predicate.OpIn, int32(3), int32(25_000), int32(49_999)),
		leaf(0, predicate.OpBetween, int32(19_990), int32(20_010)),
		leaf(0, predicate.OpLt, int32(100)),
		predicate.And(leaf(0, predicate.OpLe, int32(41_000)), leaf(1, predicate.OpEq, int32(409_990))),
		predicate.Or(leaf(0, predicate.OpEq, int32(7)), leaf(0, predicate.OpEq, int32(44_444))),
		predicate.And(leaf(2, predicate.OpIsNull), leaf(0, predicate.OpBetween, int32(40_000), int32(40_020))),
		leaf(2, predicate.OpEq, text(16_500)),
		leaf(2, predicate.OpBetween, text(32_000), text(32_400)),
		predicate.And(leaf(2, predicate.OpLt, text(20_005)), leaf(0, predicate.OpBetween, int32(16_000), int32(20_000))),
		predicate.Or(leaf(2, predicate.OpEq, text(48_388)), leaf(1, predicate.OpEq, int32(163_000))),
		leaf(2, predicate.OpEq, "changed"),
		predicate.Not(leaf(0, predicate.OpLt, int32(49_990))),
		// k is NOT NULL and within [0, n) in every row group: the first
		// conjunct holds and late materialization drops it, the second
		// alone is left, or nothing.
		predicate.And(leaf(0, predicate.OpGe, int32(0)), leaf(1, predicate.OpEq, int32(409_990))),
		predicate.And(leaf(0, predicate.OpLt, int32(n)), leaf(0, predicate.OpGe, int32(-5))),
		predicate.And(leaf(0, predicate.OpLt, int32(n)), leaf(2, predicate.OpEq, text(16_500))),
	}
	for name, tt := range map[string]*tabletest.Table{"append": appendTable, "primary key": pkTable} {
		tbl := tt.Open()
		tbl.SetPageCache(table.NewPageCache(32 << 20))
		all := readRows(t, tbl, table.ReadOptions{})
		if len(all) < n-60 {
			t.Fatalf("%s: %d rows", name, len(all))
		}
		matched := 0
		for _, f := range filters {
			var want [][]any
			for _, r := range all {
				if f.Eval(r) == predicate.True {
					want = append(want, r)
				}
			}
			for _, round := range []string{"cold", "cached"} {
				got := readRows(t, tbl, table.ReadOptions{Filter: f})
				if g, w := tabletest.RenderRows(got), tabletest.RenderRows(want); !slices.Equal(g, w) {
					t.Errorf("%s, filter %v, %s: %d rows %v, want %d %v", name, f, round, len(g), head(g), len(w), head(w))
				}
			}
			if len(want) > 0 {
				matched++
			}
		}
		// Only the deleted key and the changed rows an append table lacks
		// select nothing.
		if matched < len(filters)-1 {
			t.Errorf("%s: %d of %d filters select rows", name, matched, len(filters))
		}
	}
}

func readRows(t testing.TB, tbl *table.Table, opts table.ReadOptions) [][]any {
	t.Helper()
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func head(rows []string) []string { return rows[:min(len(rows), 5)] }
