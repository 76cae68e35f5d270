package table

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaFixturesFileIndexReads reads the Java-written tables that
// declare file indexes (bloom filters; bitmaps of versions 1 and 2;
// embedded, beside the file, beside an external path; on a
// deletion-vector primary-key table) with an equality on each indexed
// column for every value it holds, IS NULL, and values it does not hold
// within its statistics: each read returns exactly the full read filtered
// row by row, and every table with a bloom filter or a bitmap has files
// its indexes skip (bsi indexes are not evaluated), but for data-evolution
// tables, whose files hold columns of the same rows.
func TestJavaFixturesFileIndexReads(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	indexed := 0
	for _, ft := range tables {
		if m.Tables[ft.Name].Exempt != nil {
			continue
		}
		tbl := openFixture(t, ft.Dir)
		s, err := tbl.LatestSchema(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		decls, err := s.CoreOptions().FileIndexColumns()
		if err != nil || len(decls) == 0 {
			continue
		}
		indexed++
		t.Run(ft.Name, func(t *testing.T) {
			all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
			if err != nil {
				t.Fatal(err)
			}
			skipped, evaluated := 0, false
			for _, d := range decls {
				evaluated = evaluated || d.Type == spec.FileIndexBloomFilter || d.Type == spec.FileIndexBitmap
				for _, p := range indexProbes(t, fields, all, d) {
					checkFilteredRead(t, tbl, fields, all, p)
					skipped += skippedFiles(t, tbl, snapshot.TimeTravel{}, p, scan.PrunedByFileIndex)
				}
			}
			// A data-evolution table's files that share rows are never
			// skipped one without the others (scan.IndexTests).
			joined, _ := s.CoreOptions().DataEvolutionEnabled()
			if evaluated && skipped == 0 && !joined {
				t.Errorf("no read skipped a file by its index (declared %+v)", decls)
			}
		})
	}
	if indexed < 6 {
		t.Fatalf("%d fixture tables declare file indexes, want at least 6", indexed)
	}
}

// indexProbes are the equalities on an indexed column: every value it
// holds, IS NULL, and for numbers and text values between them it lacks.
func indexProbes(t *testing.T, fields []spec.DataField, rows [][]any, d spec.FileIndexColumn) []predicate.Predicate {
	i := fieldIndex(fields, d.Column)
	if i < 0 {
		return nil
	}
	col := predicate.ColumnOf(i, fields[i])
	held := map[string]bool{}
	var values []any
	for _, r := range rows {
		if r[i] != nil && !held[fmt.Sprint(r[i])] {
			held[fmt.Sprint(r[i])] = true
			values = append(values, r[i])
		}
	}
	for _, v := range values[:len(values):len(values)] {
		if near, ok := neighbour(v); ok && !held[fmt.Sprint(near)] {
			values = append(values, near)
		}
	}
	isNull, err := predicate.Leaf(col, predicate.OpIsNull)
	if err != nil {
		t.Fatal(err)
	}
	out := []predicate.Predicate{isNull}
	for _, v := range values {
		p, err := predicate.Leaf(col, predicate.OpEq, v)
		if err != nil {
			t.Fatalf("%s = %v: %v", d.Column, v, err)
		}
		out = append(out, p)
	}
	return out
}

// neighbour is a value next to v of the same type.
func neighbour(v any) (any, bool) {
	switch x := v.(type) {
	case int32:
		return x + 1, true
	case int64:
		return x + 1, true
	case string:
		return x + "~", true
	}
	return nil, false
}

// skippedFiles is how many files a read of the snapshot at selects with
// filter p leaves out for reason.
func skippedFiles(t *testing.T, tbl *Table, at snapshot.TimeTravel, p predicate.Predicate, reason scan.Reason) int {
	t.Helper()
	plan, err := tbl.PlanTimeTravel(context.Background(), at, p)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range plan.Scan.Explain.Files {
		if f.Reason == reason {
			n++
		}
	}
	return n
}
