package table

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestORCRowIndexNarrowsReads reads Java's ORC files of 30 row groups of
// 1,000 rows (testdata/orcindex), an append and a primary-key table, with
// filters the row groups' statistics decide: the file's read is narrowed
// to the row groups that may match, and every read returns the rows the
// full read filters to.
func TestORCRowIndexNarrowsReads(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"orc_append", "orc_pk"} {
		tbl := openFixture(t, filepath.Join("..", "..", "testdata", "orcindex", "o.db", name))
		all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 30000 {
			t.Fatalf("%s: %d rows, want 30000", name, len(all))
		}
		col := func(n string) predicate.Column {
			i := fieldIndex(fields, n)
			return predicate.ColumnOf(i, fields[i])
		}
		leaf := func(c string, op predicate.Op, v ...any) predicate.Predicate {
			p, err := predicate.Leaf(col(c), op, v...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// A merge narrows by the key's conjuncts only; IS NULL keeps every
		// group with a value, since row groups' null counts are not read.
		pk := name == "orc_pk"
		for _, c := range []struct {
			filter  predicate.Predicate
			maxRows int64 // rows the narrowed read may decode
		}{
			{leaf("id", predicate.OpEq, int64(12345)), 1000},
			{predicate.And(leaf("id", predicate.OpGe, int64(5000)), leaf("id", predicate.OpLt, int64(7000))), 2000},
			{leaf("id", predicate.OpIn, int64(10), int64(29999)), 2000},
			{leaf("k", predicate.OpEq, "key020500"), ifPK(pk, 30000, 1000)},
			{leaf("d", predicate.OpEq, spec.DateValue(20454)), 30000},
			{leaf("n", predicate.OpIsNull), 30000},
			{leaf("n", predicate.OpEq, int32(1500)), ifPK(pk, 30000, 0)},
			{leaf("n", predicate.OpGt, int32(28500)), ifPK(pk, 30000, 2000)},
		} {
			narrowed := narrowedRows(ctx, t, tbl, c.filter)
			if narrowed > c.maxRows {
				t.Errorf("%s %s: the read decodes %d rows, want at most %d", name, c.filter, narrowed, c.maxRows)
			}
			checkFilteredRead(t, tbl, fields, all, c.filter)
		}
	}
}

// narrowedRows is how many rows of the table's one data file a read
// with filter decodes after its row ranges are narrowed, with the
// filter a read of its kind tests groups with: the residual for a file
// read whole, the key filter in a merge.
func narrowedRows(ctx context.Context, t *testing.T, tbl *Table, filter predicate.Predicate) int64 {
	t.Helper()
	plan, err := tbl.PlanTimeTravel(ctx, snapshot.TimeTravel{}, filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Splits) == 0 {
		return 0
	}
	r, err := newReader(tbl, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &plan.Buckets[0]
	d, err := r.openDataFile(ctx, b, &b.Files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	pred := r.residual
	if len(plan.Schema.PrimaryKeys) > 0 {
		pred = r.keyFilter
	}
	ranges, err := r.rowRanges(d, pred)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, rr := range ranges {
		n += rr.To - rr.From
	}
	return n
}

func ifPK(pk bool, yes, no int64) int64 {
	if pk {
		return yes
	}
	return no
}

// BenchmarkORCRowIndexLookup reads one row of Java's 30,000-row ORC file
// (testdata/orcindex, 1,000-row row groups) by its id, which the row
// index narrows to one row group, and, for comparison, the whole file.
func BenchmarkORCRowIndexLookup(b *testing.B) {
	tbl := openFixture(&testing.T{}, filepath.Join("..", "..", "testdata", "orcindex", "o.db", "orc_append"))
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	id, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, int64(29500))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		filter predicate.Predicate
		rows   int
	}{{"one id", id, 1}, {"whole file", nil, 30000}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := tbl.Read(context.Background(), ReadOptions{Filter: c.filter})
				if err != nil {
					b.Fatal(err)
				}
				got, err := ReadAll(rows)
				if err != nil || len(got) != c.rows {
					b.Fatalf("%d rows (%v), want %d", len(got), err, c.rows)
				}
			}
		})
	}
}

// TestORCAggregatesReadVectors: aggregates over Java's ORC files with a
// filter statistics cannot answer read the columns as vectors (orcio's
// VectorIterator) and equal the sums, counts and bounds of the rows.
func TestORCAggregatesReadVectors(t *testing.T) {
	ctx := context.Background()
	tbl := openFixture(t, filepath.Join("..", "..", "testdata", "orcindex", "o.db", "orc_append"))
	all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
	if err != nil {
		t.Fatal(err)
	}
	v := fieldIndex(fields, "v")
	filter, err := predicate.Leaf(predicate.ColumnOf(v, fields[v]), predicate.OpGt, int32(500))
	if err != nil {
		t.Fatal(err)
	}
	var count, sumV, countN int64
	var minK, maxK string
	var maxD spec.DateValue
	for _, row := range all {
		if filter.Eval(row) != predicate.True {
			continue
		}
		count++
		sumV += int64(row[v].(int32))
		if row[4] != nil {
			countN++
		}
		k := row[1].(string)
		if minK == "" || k < minK {
			minK = k
		}
		maxK = max(maxK, k)
		maxD = max(maxD, row[2].(spec.DateValue))
	}
	res, err := tbl.Aggregate(ctx, ReadOptions{Filter: filter}, []AggSpec{
		{Func: AggCountStar}, {Func: AggSum, Column: "v"}, {Func: AggCount, Column: "n"},
		{Func: AggMin, Column: "k"}, {Func: AggMax, Column: "k"}, {Func: AggMax, Column: "d"}})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{fmt.Sprint(res[0].Value), fmt.Sprint(res[1].Value), fmt.Sprint(res[2].Value), fmt.Sprint(res[3].Value), fmt.Sprint(res[4].Value), fmt.Sprint(res[5].Value)}
	want := []string{fmt.Sprint(count), fmt.Sprint(sumV), fmt.Sprint(countN), minK, maxK, fmt.Sprint(maxD)}
	if !slices.Equal(got, want) {
		t.Errorf("aggregates %v, want %v", got, want)
	}
}
