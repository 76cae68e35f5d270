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
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/table"
)

// TestFileIndexesKeepEveryMatch writes files with bloom filters on k and
// s, embedded in the manifest and as .index files, to an append table and
// to a primary-key table whose later files update keys of earlier ones and
// are never compacted (every read merges). The files interleave the even
// keys, so that their statistics prune no point lookup. Each filter returns exactly
// the rows of a full read it accepts, and the selective ones skip files by
// their index. On the primary-key table a filter on s, whose old value an
// update replaced in another file, must not bring the stale row back, nor
// lose the new one.
func TestFileIndexesKeepEveryMatch(t *testing.T) {
	const files, perFile = 8, 300
	row := func(k int32) []any { return []any{k, k % 17, fmt.Sprintf("s%05d", k)} }
	pkUpdates := []tabletest.Record{tabletest.Update(int32(10), int32(-1), "s00998"), tabletest.Update(int32(2000), int32(-2), "moved")}
	for _, threshold := range []string{"1 b", "64 kb"} {
		for _, pk := range []bool{false, true} {
			name := fmt.Sprintf("threshold %s, primary key %v", threshold, pk)
			def := catalog.TableDefinition{Fields: extFields(), Options: map[string]string{
				"file-index.bloom-filter.columns": "k, s", "file-index.in-manifest-threshold": threshold}}
			if pk {
				def.PrimaryKeys = []string{"k"}
				def.Options["bucket"], def.Options["write-only"] = "1", "true"
			}
			tt := tabletest.NewLocal(t, def)
			for f := range int32(files) {
				var batch []tabletest.Record
				for i := range int32(perFile) {
					batch = append(batch, tabletest.Insert(row(2*(f+files*i))...))
				}
				writetest.Commit(tt, "u", batch...)
			}
			if pk {
				writetest.Commit(tt, "u", pkUpdates...)
			}
			checkIndexedReads(t, name, tt.Open(), pk, threshold == "1 b")
		}
	}
}

func checkIndexedReads(t *testing.T, name string, tbl *table.Table, pk, sidecars bool) {
	fields := extFields()
	leaf := func(col int, op predicate.Op, literals ...any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, fields[col]), op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		filter    predicate.Predicate
		skipsSome bool
	}{
		{leaf(0, predicate.OpEq, int32(2468)), true},
		{leaf(0, predicate.OpEq, int32(1235)), true},
		{leaf(2, predicate.OpEq, "s02468"), !pk},
		{leaf(2, predicate.OpEq, "s00998"), !pk},  // also key 10's since the update (pk)
		{leaf(2, predicate.OpEq, "s00010"), !pk},  // key 10's replaced value (pk)
		{leaf(2, predicate.OpEq, "moved"), false}, // above every s by statistics
		{leaf(0, predicate.OpIn, int32(6), int32(2002), int32(99998)), true},
		{predicate.Or(leaf(0, predicate.OpEq, int32(20)), leaf(2, predicate.OpEq, "s00610")), !pk},
		{predicate.And(leaf(1, predicate.OpEq, int32(3)), leaf(0, predicate.OpEq, int32(1706))), true},
		{predicate.And(leaf(1, predicate.OpEq, int32(3)), leaf(2, predicate.OpEq, "s01706")), !pk},
		{leaf(1, predicate.OpEq, int32(3)), false},
		{leaf(0, predicate.OpGt, int32(4770)), false},
	}
	all := readRows(t, tbl, table.ReadOptions{})
	for _, c := range cases {
		var want [][]any
		for _, r := range all {
			if c.filter.Eval(r) == predicate.True {
				want = append(want, r)
			}
		}
		got := readRows(t, tbl, table.ReadOptions{Filter: c.filter})
		if g, w := tabletest.RenderRows(got), tabletest.RenderRows(want); !slices.Equal(g, w) {
			t.Errorf("%s, filter %v: rows %v, want %v", name, c.filter, head(g), head(w))
		}
		plan, err := tbl.PlanTimeTravel(context.Background(), snapshot.TimeTravel{}, c.filter)
		if err != nil {
			t.Fatal(err)
		}
		skipped := skippedByIndex(plan.Scan.Explain)
		if c.skipsSome != (skipped > 0) {
			t.Errorf("%s, filter %v: %d files skipped by their index\n%s", name, c.filter, skipped, plan.Scan.Explain.String())
		}
	}
	checkIndexPlacement(t, name, tbl, sidecars)
}

func skippedByIndex(e scan.Explanation) int {
	n := 0
	for _, f := range e.Files {
		if f.Reason == scan.PrunedByFileIndex {
			n++
		}
	}
	return n
}

// checkIndexPlacement: every file has its index, in the manifest or as
// an extra file, as the threshold decides.
func checkIndexPlacement(t *testing.T, name string, tbl *table.Table, sidecars bool) {
	plan, err := tbl.PlanTimeTravel(context.Background(), snapshot.TimeTravel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range plan.Scan.Splits {
		for _, f := range s.Files {
			embedded, extra := f.EmbeddedIndex != nil, strings.Join(f.ExtraFiles, ",")
			if embedded == sidecars || (extra == f.FileName+".index") != sidecars {
				t.Errorf("%s: file %s has embedded index %v and extra files %q", name, f.FileName, embedded, extra)
			}
		}
	}
}
