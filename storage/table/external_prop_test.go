package table

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestExternalReadMatchesRead is the property ExternalRead must keep: on
// random local tables (the pruning property test's and genMergeKinds), at
// random snapshots,
// under random filters and projections, the files handed out read as
// stored less their deleted rows and filtered by the residual filter,
// with the rows of Rest, are exactly the rows of a read of the plan.
// Merged splits of every engine but partial-update are handed out whole.
// Replay a failure with -scan.seed; run more with -scan.seeds.
func TestExternalReadMatchesRead(t *testing.T) {
	forEachSeed(t, *metaSeeds*2, "TestExternalReadMatchesRead", checkExternalSeed)
}

func checkExternalSeed(t *testing.T, seed uint64) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	kinds := slices.Concat(genKinds, genMergeKinds)
	g := newGenTableOf(t, r, kinds[r.IntN(len(kinds))], localio.New(), t.TempDir())
	g.fill(ctx)
	tbl, ids := g.open()
	deleted := 0
	for range 30 {
		var p predicate.Predicate
		if r.IntN(3) > 0 {
			p = g.predicate(r, 2)
		}
		plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{SnapshotID: ids[r.IntN(len(ids))]}, p)
		if err != nil {
			t.Fatal(err)
		}
		columns := randomColumns(r, plan.Schema)
		ext, err := tbl.ExternalRead(ctx, plan, columns)
		if err != nil {
			t.Fatal(err)
		}
		if g.kind != "partial-update" && ext.Rest != nil {
			t.Fatalf("a %s table leaves %d splits to the reader", g.kind, len(ext.Rest.Splits))
		}
		for _, f := range ext.Files {
			deleted += len(f.Deleted)
		}
		got, want := ExternalRows(t, tbl, plan, ext, columns), readRows(t, tbl, plan, columns)
		if !sameMultiset(rowStrings(got), rowStrings(want)) {
			t.Fatalf("filter %s, columns %v: files and rest give\n%v\nthe plan reads\n%v", p, columns, got, want)
		}
	}
	t.Logf("%d deleted rows handed out", deleted)
}

// randomColumns is nil (every column) or a random non-empty subset of the
// schema's columns in random order.
func randomColumns(r *rand.Rand, s *spec.TableSchema) []string {
	if r.IntN(3) == 0 {
		return nil
	}
	var out []string
	for _, i := range r.Perm(len(s.Fields)) {
		if len(out) == 0 || r.IntN(2) == 0 {
			out = append(out, s.Fields[i].Name)
		}
	}
	return out
}

func readRows(t *testing.T, tbl *Table, plan *Plan, columns []string) [][]any {
	t.Helper()
	rs, err := tbl.ExecutePlan(context.Background(), plan, ReadOptions{Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ReadAll(rs)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// ExternalRows reads the files of ext as an outside engine would, each
// less its deleted rows and filtered by the residual filter, and the rows
// of ext.Rest, projected to columns.
func ExternalRows(t *testing.T, tbl *Table, plan *Plan, ext ExternalRead, columns []string) [][]any {
	t.Helper()
	var out [][]any
	for _, f := range ext.Files {
		out = append(out, storedRows(t, f, plan, columns)...)
	}
	if ext.Rest != nil {
		out = append(out, readRows(t, tbl, ext.Rest, columns)...)
	}
	return out
}

// storedRows reads a data file as an outside engine would: every column
// of the read schema by name, as stored; the rows not deleted that the
// residual filter keeps, projected to columns.
func storedRows(t *testing.T, ext ExternalFile, plan *Plan, columns []string) [][]any {
	t.Helper()
	if !slices.IsSorted(ext.Deleted) || len(slices.Compact(slices.Clone(ext.Deleted))) != len(ext.Deleted) {
		t.Fatalf("deleted rows of %s are not ascending: %v", ext.Path, ext.Deleted)
	}
	f, err := localio.New().Open(context.Background(), ext.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := parquetio.Open(f, ext.Path)
	if err != nil {
		t.Fatal(err)
	}
	requests := make([]parquetio.ColumnRequest, len(plan.Schema.Fields))
	for i, field := range plan.Schema.Fields {
		requests[i] = parquetio.ColumnRequest{Name: field.Name, Type: field.Type}
	}
	it, err := r.NewRowIterator(requests)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out [][]any
	var pos int64
	for {
		batch := make([][]any, 64)
		n, err := it.NextBatch(batch)
		for _, row := range batch[:n] {
			_, deleted := slices.BinarySearch(ext.Deleted, pos)
			pos++
			if !deleted && plan.Scan.Filter.Residual.Eval(row) == predicate.True {
				out = append(out, projectRow(t, plan.Schema, row, columns))
			}
		}
		if errors.Is(err, io.EOF) || (n == 0 && err == nil) {
			if len(ext.Deleted) > 0 && ext.Deleted[len(ext.Deleted)-1] >= pos {
				t.Fatalf("%s has %d rows; deleted rows %v", ext.Path, pos, ext.Deleted)
			}
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func projectRow(t *testing.T, s *spec.TableSchema, row []any, columns []string) []any {
	if columns == nil {
		return row
	}
	out := make([]any, len(columns))
	for i, name := range columns {
		j := s.FieldIndex(name)
		if j < 0 {
			t.Fatalf("no column %q", name)
		}
		out[i] = row[j]
	}
	return out
}
