package table

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaFixturesFilteredReads checks pruning against Java-written
// tables: for every readable fixture table, an equality (or IS NULL) on
// each partition key and each bucket key, with values taken from the
// table's rows, returns exactly the full read filtered row by row.
func TestJavaFixturesFilteredReads(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ft := range tables {
		if m.Tables[ft.Name].Exempt != nil {
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			tbl := openFixture(t, ft.Dir)
			all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := tbl.LatestSchema(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range filterColumns(s) {
				for _, p := range equalities(t, fields, all, name) {
					checked++
					checkFilteredRead(t, tbl, fields, all, p)
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no fixture table has a partition or bucket key")
	}
}

// filterColumns are the partition keys and bucket keys of a schema.
func filterColumns(s *spec.TableSchema) []string {
	cols := append([]string{}, s.PartitionKeys...)
	opts := s.CoreOptions()
	if n, _ := opts.Bucket(); n > 0 {
		keys := opts.BucketKey()
		if len(keys) == 0 {
			keys = s.TrimmedPrimaryKeys()
		}
		cols = append(cols, keys...)
	}
	return cols
}

// equalities are col = v for the first and last row's values (IS NULL for
// a NULL), skipping types predicates cannot compare.
func equalities(t *testing.T, fields []spec.DataField, rows [][]any, name string) []predicate.Predicate {
	i := fieldIndex(fields, name)
	if i < 0 || len(rows) == 0 {
		return nil
	}
	col := predicate.ColumnOf(i, fields[i])
	var out []predicate.Predicate
	for _, row := range [][]any{rows[0], rows[len(rows)-1]} {
		var p predicate.Predicate
		var err error
		if row[i] == nil {
			p, err = predicate.Leaf(col, predicate.OpIsNull)
		} else {
			p, err = predicate.Leaf(col, predicate.OpEq, row[i])
		}
		if err != nil {
			t.Logf("%s: no predicate: %v", name, err)
			continue
		}
		out = append(out, p)
	}
	return out
}

func fieldIndex(fields []spec.DataField, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func checkFilteredRead(t *testing.T, tbl *Table, fields []spec.DataField, all [][]any, p predicate.Predicate) {
	t.Helper()
	checkFilteredReadAt(t, tbl, snapshot.TimeTravel{}, fields, all, p)
}

// checkFilteredReadAt reads the snapshot at selects with filter p and
// compares the rows with those of all, that snapshot's rows, p keeps.
func checkFilteredReadAt(t *testing.T, tbl *Table, at snapshot.TimeTravel, fields []spec.DataField, all [][]any, p predicate.Predicate) {
	t.Helper()
	rows, err := tbl.Read(context.Background(), ReadOptions{At: at, Filter: p})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	got, err := ReadAll(rows)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	var want [][]any
	for _, row := range all {
		if p.Eval(row) == predicate.True {
			want = append(want, row)
		}
	}
	compareRows(t, fmt.Sprintf("filter %s", p), toJSON(t, fields, got), toJSON(t, fields, want))
}
