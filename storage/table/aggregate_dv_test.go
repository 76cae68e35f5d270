package table

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// A file whose deletion vector deletes every row of a batch contributes
// nothing to an aggregate, also when it is the first deletion-vector batch
// a worker sees. The columnar path once took that batch's empty list of
// live rows, still the worker's unallocated buffer, for "no row deleted"
// and counted every deleted row (seed 1796040432284647367 of
// TestAggregateMatchesRowRead: COUNT 20 for 18 rows).
func TestAggregateSkipsFileWhoseRowsAreAllDeleted(t *testing.T) {
	ctx := context.Background()
	tbl := fullyDeletedFileTable(t)
	plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range plan.Splits {
		if !s.RawConvertible {
			t.Fatalf("split of %d files needs a merge; the test needs the columnar path", len(s.Files))
		}
	}
	vNotNull, err := predicate.Leaf(predicate.ColumnOf(1, plan.Schema.Fields[1]), predicate.OpIsNotNull)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		filter predicate.Predicate
		spec   AggSpec
		want   string
	}{
		// Live rows are k 1..3 of the level-2 file, v 100, 200, 300; the
		// level-1 file's v 10 and 20 are deleted.
		{"COUNT(v) unfiltered", nil, AggSpec{AggCount, "v"}, "3"},
		{"SUM(v) unfiltered", nil, AggSpec{AggSum, "v"}, "600"},
		{"MIN(v) unfiltered", nil, AggSpec{AggMin, "v"}, "100"},
		{"COUNT(*) WHERE v IS NOT NULL", vNotNull, AggSpec{Func: AggCountStar}, "3"},
		{"SUM(v) WHERE v IS NOT NULL", vNotNull, AggSpec{AggSum, "v"}, "600"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := tbl.Aggregate(ctx, ReadOptions{Filter: c.filter, Parallelism: 1}, []AggSpec{c.spec})
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprint(got[0].Value); s != c.want {
				t.Fatalf("got %s, want %s", s, c.want)
			}
			checkAggregate(t, tbl, ReadOptions{Filter: c.filter, Parallelism: 1}, []AggSpec{c.spec})
		})
	}
}

// fullyDeletedFileTable is a deletion-vector table of one bucket: a
// level-1 file of keys 1 and 2, both rows deleted by the deletion vector a
// later level-2 file of keys 1..3 brought.
func fullyDeletedFileTable(t *testing.T) *Table {
	t.Helper()
	ctx := context.Background()
	w, err := scantest.Create(ctx, memio.New(), "wh", "db", "t", catalog.TableDefinition{
		Fields:      []spec.DataField{{Name: "k", Type: spec.DataType{Root: spec.Int}}, {Name: "v", Type: intType}},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"},
	})
	if err != nil {
		t.Fatal(err)
	}
	old := writeLevel(t, w, 1, [][2]int32{{1, 10}, {2, 20}})
	if _, err := w.Commit(ctx, []scantest.Change{{Partition: old.Partition, TotalBuckets: 1, Add: []spec.DataFileMeta{old.Meta}}}); err != nil {
		t.Fatal(err)
	}
	dv := spec.NewDeletionVector(false)
	for pos := range old.Meta.RowCount {
		if err := dv.Delete(pos); err != nil {
			t.Fatal(err)
		}
	}
	newer := writeLevel(t, w, 2, [][2]int32{{1, 100}, {2, 200}, {3, 300}})
	if _, err := w.Commit(ctx, []scantest.Change{{Partition: newer.Partition, TotalBuckets: 1, Add: []spec.DataFileMeta{newer.Meta},
		DeletionVectors: map[string]*spec.DeletionVector{old.Meta.FileName: dv}}}); err != nil {
		t.Fatal(err)
	}
	tbl, err := Open(ctx, w.FS, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// writeLevel writes (k, v) rows as one file of bucket 0 at a level.
func writeLevel(t *testing.T, w *scantest.Table, level int32, rows [][2]int32) scantest.File {
	t.Helper()
	records := make([]scantest.Record, len(rows))
	for i, r := range rows {
		records[i] = scantest.Record{Kind: spec.RowKindInsert, Values: []any{r[0], r[1]}}
	}
	f, err := w.WriteFile(context.Background(), nil, 0, level, records)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
