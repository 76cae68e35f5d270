package table

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestDataEvolutionFixturesFilterAndProject reads each Java-written
// data-evolution table at every snapshot with an equality on every column
// for the values of its first and last rows (values that base files and
// column files may hold differently, which no file statistics may prune
// by), one column at a time, and COUNT(*) and MIN/MAX through the
// aggregate path: each must match the full read.
func TestDataEvolutionFixturesFilterAndProject(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ft := range tables {
		want := m.Tables[ft.Name]
		if want.Exempt != nil {
			continue
		}
		tbl := openFixture(t, ft.Dir)
		s, err := tbl.LatestSchema(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if on, _ := s.CoreOptions().DataEvolutionEnabled(); !on {
			continue
		}
		checked++
		t.Run(ft.Name, func(t *testing.T) {
			all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fields {
				for _, p := range equalities(t, fields, all, f.Name) {
					checkFilteredRead(t, tbl, fields, all, p)
				}
				checkProjectedRead(t, tbl, fields, all, f.Name)
			}
			checkCount(t, tbl, int64(len(all)))
		})
	}
	if checked < 5 {
		t.Fatalf("%d data-evolution fixture tables read, want 5", checked)
	}
}

func checkProjectedRead(t *testing.T, tbl *Table, fields []spec.DataField, all [][]any, column string) {
	t.Helper()
	rows, err := tbl.Read(context.Background(), ReadOptions{Columns: []string{column}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	i := fieldIndex(fields, column)
	var want [][]any
	for _, row := range all {
		want = append(want, []any{row[i]})
	}
	if !sameMultiset(rowStrings(got), rowStrings(want)) {
		t.Errorf("column %s: got %v, want %v", column, got, want)
	}
}

func checkCount(t *testing.T, tbl *Table, want int64) {
	t.Helper()
	res, err := tbl.Aggregate(context.Background(), ReadOptions{}, []AggSpec{{Func: AggCountStar}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Value != want {
		t.Errorf("COUNT(*) = %v, want %d", res[0].Value, want)
	}
}

// TestRowIDGroups: files group by overlapping row ids, in row-id order,
// data files newest first and each column's blob files in row-id order;
// data files that share only some row ids, files without row ids, blob
// files that leave a gap, and blob files of several writes are refused.
func TestRowIDGroups(t *testing.T) {
	file := func(name string, first *int64, rows, maxSeq int64, writeCols ...string) spec.DataFileMeta {
		return spec.DataFileMeta{FileName: name, FirstRowID: first, RowCount: rows, MaxSequenceNumber: maxSeq, WriteCols: writeCols}
	}
	id := func(v int64) *int64 { return &v }
	groups, err := rowIDGroups([]spec.DataFileMeta{
		file("c", id(10), 5, 3), file("a", id(0), 10, 1), file("b", id(0), 10, 2, "x"), file("d", id(15), 0, 4),
		file("b2.blob", id(4), 6, 2, "img"), file("b1.blob", id(0), 4, 2, "img"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var names [][]string
	for _, g := range groups {
		var n []string
		for _, bunch := range g.bunches() {
			for _, f := range bunch {
				n = append(n, f.FileName)
			}
		}
		names = append(names, n)
	}
	if want := [][]string{{"b", "a", "b1.blob", "b2.blob"}, {"c"}, {"d"}}; !reflect.DeepEqual(names, want) {
		t.Errorf("groups %v, want %v", names, want)
	}
	for name, files := range map[string][]spec.DataFileMeta{
		"partly shared row ids": {file("a", id(0), 10, 1), file("b", id(5), 10, 2)},
		"no first row id":       {file("a", nil, 10, 1)},
		"a gap between blobs":   {file("a", id(0), 10, 1), file("b1.blob", id(0), 4, 2, "img"), file("b2.blob", id(5), 5, 2, "img")},
		"blobs short of rows":   {file("a", id(0), 10, 1), file("b1.blob", id(0), 4, 2, "img")},
	} {
		if _, err := rowIDGroups(files); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: %v", name, err)
		}
	}
	twoWrites := []spec.DataFileMeta{file("a", id(0), 10, 1), file("b1.blob", id(0), 10, 2, "img"), file("b2.blob", id(0), 10, 3, "img")}
	if _, err := rowIDGroups(twoWrites); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("blobs of two writes: %v", err)
	}
}
