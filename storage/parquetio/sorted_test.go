package parquetio

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// sortedFile is a file of several row groups and pages whose columns are
// each sorted: unique BIGINT (PLAIN), repeated BIGINT and DATE and a
// repeated string (dictionary-encoded), and a unique string (PLAIN).
func sortedFile(t *testing.T) ([]byte, []spec.DataField, [][]any) {
	t.Helper()
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "grp", Type: typ(spec.BigInt, false)},
		{ID: 2, Name: "day", Type: typ(spec.Date, false)},
		{ID: 3, Name: "name", Type: typ(spec.VarChar, false)},
		{ID: 4, Name: "code", Type: typ(spec.VarChar, false)},
	}
	rows := make([][]any, 20_000)
	for i := range rows {
		rows[i] = []any{int64(i) - 10_000, int64(i / 3), spec.DateValue(19_000 + i/1_000),
			fmt.Sprintf("k%06d", i/2), fmt.Sprintf("c%07d", i)}
	}
	return writeFile(t, fields, rows, WriterOptions{PageRowLimit: 500, PageSize: 16 << 10, RowGroupSize: 96 << 10}), fields, rows
}

// TestNarrowSortedKeepsExactlyTheRowsWithinBounds: on sorted columns of
// each layout, random bounds (comparisons, equality, BETWEEN, one or two
// at once, within, between and beyond the values) narrow random row
// ranges to exactly the rows the predicate holds for, with and without
// offset indexes and through a page cache.
func TestNarrowSortedKeepsExactlyTheRowsWithinBounds(t *testing.T) {
	data, fields, rows := sortedFile(t)
	r, err := Open(bytes.NewReader(data), "sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	groups := r.RowGroups()
	if len(groups) < 3 {
		t.Fatalf("%d row groups, want several", len(groups))
	}
	withoutIndexes, err := Open(bytes.NewReader(data), "sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for g := range withoutIndexes.meta.RowGroups {
		for c := range withoutIndexes.meta.RowGroups[g].Columns {
			withoutIndexes.meta.RowGroups[g].Columns[c].OffsetIndexLength = 0
		}
	}
	cached, err := Open(bytes.NewReader(data), "sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	cache := &mapPageCache{pages: map[PageCacheKey]*CachedPages{}}
	cached.CachePages(cache)
	rnd := rand.New(rand.NewPCG(8, 13))
	narrowed := 0
	for range 400 {
		c := rnd.IntN(len(fields))
		ranges := randomRanges(rnd, groups)
		inRanges, _ := rowsOfRanges(rows, groups, ranges)
		pred := randomBounds(t, rnd, fields[c], inRanges, c)
		bounds, ok := vector.BoundsOf(pred, 0)
		if !ok {
			t.Fatalf("%s: no bounds", pred)
		}
		want := rangesWithin(rows, groups, ranges, c, pred)
		for _, reader := range []*Reader{r, withoutIndexes, cached, cached} {
			got, err := reader.NarrowSorted(ColumnRequest{Name: fields[c].Name, Type: fields[c].Type}, ranges, bounds)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s over %v: %v, want %v", pred, ranges, got, want)
			}
		}
		if len(want) > 0 && fmt.Sprint(want) != fmt.Sprint(ranges) {
			narrowed++
		}
	}
	if narrowed < 150 || cache.hits == 0 {
		t.Fatalf("%d of 400 rounds narrowed ranges without dropping them all, %d page cache hits", narrowed, cache.hits)
	}
}

// randomBounds is one or two bounds on column c, laid out as a predicate
// on column 0, with literals near the column's values in rows.
func randomBounds(t *testing.T, rnd *rand.Rand, field spec.DataField, rows [][]any, c int) predicate.Predicate {
	col := predicate.ColumnOf(0, field)
	ops := []predicate.Op{predicate.OpEq, predicate.OpLt, predicate.OpLe, predicate.OpGt, predicate.OpGe, predicate.OpBetween}
	var conjuncts []predicate.Predicate
	for range 1 + rnd.IntN(2) {
		op := ops[rnd.IntN(len(ops))]
		literals := []any{nearValue(rnd, rows, c)}
		if op == predicate.OpBetween {
			hi := nearValue(rnd, rows, c)
			if spec.CompareValues(field.Type, literals[0], hi) > 0 {
				literals[0], hi = hi, literals[0]
			}
			literals = append(literals, hi)
		}
		p, err := predicate.Leaf(col, op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		conjuncts = append(conjuncts, p)
	}
	return predicate.And(conjuncts...)
}

// nearValue is a value of column c of a random row, or one just past it,
// or beyond every value of the column.
func nearValue(rnd *rand.Rand, rows [][]any, c int) any {
	v := rows[rnd.IntN(len(rows))][c]
	switch x := v.(type) {
	case int64:
		return []int64{x, x + 1, x - 1, math.MinInt64, math.MaxInt64}[rnd.IntN(5)]
	case spec.DateValue:
		return []spec.DateValue{x, x + 1, 0, 30_000}[rnd.IntN(4)]
	case string:
		return []string{x, x + "0", "", "z"}[rnd.IntN(4)]
	}
	panic(fmt.Sprintf("no near value for %T", v))
}

// randomRanges are one to three random ranges of rows.
func randomRanges(rnd *rand.Rand, groups []RowGroup) []RowRange {
	var ranges []RowRange
	for range 1 + rnd.IntN(3) {
		g := rnd.IntN(len(groups))
		from := rnd.Int64N(groups[g].NumRows)
		to := from + 1 + rnd.Int64N(groups[g].NumRows-from)
		ranges = append(ranges, RowRange{Group: g, From: from, To: to})
	}
	return ranges
}

// rangesWithin narrows each range to the rows for which pred holds on
// column c, found row by row, dropping ranges left empty; it fails the
// test when they are not one stretch.
func rangesWithin(rows [][]any, groups []RowGroup, ranges []RowRange, c int, pred predicate.Predicate) []RowRange {
	var out []RowRange
	for _, rg := range ranges {
		narrowed := RowRange{Group: rg.Group, From: -1}
		for i := rg.From; i < rg.To; i++ {
			if pred.Eval([]any{rows[groups[rg.Group].FirstRow+i][c]}) != predicate.True {
				continue
			}
			if narrowed.From < 0 {
				narrowed.From = i
			} else if narrowed.To != i {
				panic(fmt.Sprintf("%s holds for rows that are not one stretch", pred))
			}
			narrowed.To = i + 1
		}
		if narrowed.From >= 0 {
			out = append(out, narrowed)
		}
	}
	return out
}

// TestNarrowSortedKeepsRangesItCannotSearch: a column with NULLs, a
// column the file lacks and contradictory bounds.
func TestNarrowSortedKeepsRangesItCannotSearch(t *testing.T) {
	data, fields, _ := pagedFile(t)
	r, err := Open(bytes.NewReader(data), "paged.parquet")
	if err != nil {
		t.Fatal(err)
	}
	ranges := []RowRange{{Group: 0, From: 10, To: 400}, {Group: 1, From: 0, To: 300}}
	status := predicate.ColumnOf(0, fields[1])
	p, err := predicate.Leaf(status, predicate.OpEq, "PAID")
	if err != nil {
		t.Fatal(err)
	}
	bounds, _ := vector.BoundsOf(p, 0)
	for _, req := range []ColumnRequest{{Name: "status", Type: fields[1].Type}, {Name: "absent", Type: fields[1].Type}} {
		got, err := r.NarrowSorted(req, ranges, bounds)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(ranges) {
			t.Errorf("column %s: %v, %v; want the ranges kept", req.Name, got, err)
		}
	}
	key := predicate.ColumnOf(0, fields[0])
	gt, _ := predicate.Leaf(key, predicate.OpGt, int64(5))
	lt, _ := predicate.Leaf(key, predicate.OpLt, int64(6))
	bounds, _ = vector.BoundsOf(predicate.And(gt, lt), 0)
	if got, err := r.NarrowSorted(ColumnRequest{Name: "key", Type: fields[0].Type}, ranges, bounds); err != nil || len(got) != 0 {
		t.Errorf("key > 5 AND key < 6: %v, %v; want no range", got, err)
	}
}
