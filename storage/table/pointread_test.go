package table_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// A point read's one split is read on the caller's goroutine: it must
// return exactly the rows the worker path returns for the same filter,
// over merged and unmerged splits, with limits, and stop cleanly.
func TestPointReadsMatchTheWorkerPath(t *testing.T) {
	key := spec.DataType{Root: spec.Int}
	fields := []spec.DataField{{ID: 0, Name: "a", Type: key}, {ID: 1, Name: "b", Type: key}, {ID: 2, Name: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}}}
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: fields, PrimaryKeys: []string{"a", "b"},
		Options: map[string]string{"bucket": "1", "write-only": "true"}})
	var inserts, changes []tabletest.Record
	for a := range int32(300) {
		for b := range int32(3) {
			inserts = append(inserts, tabletest.Insert(a, b, fmt.Sprint("v", a, b)))
		}
		if a%7 == 0 {
			changes = append(changes, tabletest.Update(a, int32(1), "changed"), tabletest.Delete(a, int32(2), fmt.Sprint("v", a, 2)))
		}
	}
	writetest.Commit(tt, "u", inserts...)
	tbl, err := table.Open(context.Background(), tt.FS, tt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	leaf := func(col int, op predicate.Op, literals ...any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, fields[col]), op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	check := func(stage string) {
		t.Helper()
		all := readStrings(t, tbl, table.ReadOptions{})
		for _, a := range []int32{0, 7, 8, 150, 299, 300} {
			want := slices.DeleteFunc(slices.Clone(all), func(r string) bool { return field(r, 0) != fmt.Sprint(a) })
			if (len(want) == 0) != (a == 300) {
				t.Fatalf("%s: the full read has %d rows of key %d", stage, len(want), a)
			}
			for _, c := range []struct {
				name   string
				filter predicate.Predicate
				limit  int64
				want   []string
			}{
				{"a = k", leaf(0, predicate.OpEq, a), 0, want},
				{"a = k LIMIT 1", leaf(0, predicate.OpEq, a), 1, want[:min(1, len(want))]},
				{"a = k AND b = 1", predicate.And(leaf(0, predicate.OpEq, a), leaf(1, predicate.OpEq, int32(1))), 0,
					slices.DeleteFunc(slices.Clone(want), func(r string) bool { return field(r, 1) != "1" })},
				{"a BETWEEN k AND k", leaf(0, predicate.OpBetween, a, a), 0, want},
			} {
				rows, err := tbl.Read(context.Background(), table.ReadOptions{Filter: c.filter, Limit: c.limit})
				if err != nil {
					t.Fatal(err)
				}
				// Key 300 is past every file's key range: no split is left.
				if a < 300 && !rows.ReadsOnCallersGoroutine() {
					t.Errorf("%s: %s, a = %d: not read as a point read", stage, c.name, a)
				}
				got, err := table.ReadAll(rows)
				if err != nil {
					t.Fatal(err)
				}
				if g := tabletest.RenderRows(got); !slices.Equal(g, c.want) {
					t.Errorf("%s: %s, a = %d: got %v, want %v", stage, c.name, a, g, c.want)
				}
			}
		}
	}
	check("one file")
	writetest.Commit(tt, "u", changes...)
	check("merged with a second file")

	rows, err := tbl.Read(context.Background(), table.ReadOptions{Filter: leaf(0, predicate.OpGe, int32(5))})
	if err != nil {
		t.Fatal(err)
	}
	if rows.ReadsOnCallersGoroutine() {
		t.Error("a >= 5 read as a point read")
	}
	rows.Close()
}

func readStrings(t *testing.T, tbl *table.Table, opts table.ReadOptions) []string {
	t.Helper()
	got, err := tabletest.ReadTable(tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// field is field i of a row rendered as "a|b|s" (tabletest.RenderRow).
func field(row string, i int) string {
	return strings.Split(row, "|")[i]
}

func TestPointReadStopsWhenCancelledOrClosed(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: extFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "1"}})
	writetest.Commit(tt, "u", extRows(0, 100)...)
	tbl, err := table.Open(context.Background(), tt.FS, tt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	point, err := predicate.Leaf(predicate.ColumnOf(0, extFields()[0]), predicate.OpEq, int32(42))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	rows, err := tbl.Read(ctx, table.ReadOptions{Filter: point})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := rows.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel: %v, want context.Canceled", err)
	}
	rows.Close()

	rows, err = tbl.Read(context.Background(), table.ReadOptions{Filter: point})
	if err != nil {
		t.Fatal(err)
	}
	if row, err := rows.Next(); err != nil || row[0] != int32(42) {
		t.Fatalf("first row %v, %v", row, err)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rows.Next(); err == nil || err == io.EOF {
		t.Errorf("Next after Close: %v, want an error", err)
	}
}
