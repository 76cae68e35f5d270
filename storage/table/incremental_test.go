package table_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/compacttest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func incrementalFields() []spec.DataField {
	return []spec.DataField{
		{ID: 0, Name: "k", Type: spec.DataType{Root: spec.Int}},
		{ID: 1, Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	}
}

// readBetween reads the changes of snapshots (from, to] of tt's table, in
// the order the read returns them.
func readBetween(t *testing.T, tt *tabletest.Table, from, to int64, filter predicate.Predicate, withKind bool) []string {
	t.Helper()
	tbl := tt.Open()
	b := snapshot.Between{Start: snapshot.TimeTravel{SnapshotID: from}, End: snapshot.TimeTravel{SnapshotID: to}}
	plan, err := tbl.PlanBetween(context.Background(), b, filter)
	if err != nil {
		t.Fatalf("PlanBetween(%d, %d): %v", from, to, err)
	}
	rows, err := tbl.ExecutePlan(context.Background(), plan, table.ReadOptions{WithRowKind: withKind})
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(all))
	for i, row := range all {
		out[i] = tabletest.RenderRow(row)
	}
	return out
}

// The changes between two snapshots of a primary-key table are each
// commit's records, unmerged and with their kinds, as Java's
// incremental-between reads them; compactions add none.
func TestIncrementalReadReturnsEachCommitsRecords(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: incrementalFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "1", "write-only": "true"}})
	writetest.Commit(tt, "u", tabletest.Insert(int32(1), "a"), tabletest.Insert(int32(2), "b"))  // 1
	writetest.Commit(tt, "u", tabletest.Update(int32(1), "a2"), tabletest.Delete(int32(2), "b")) // 2
	compacttest.Full(tt)                                                                         // 3
	writetest.Commit(tt, "u", tabletest.Update(int32(1), "a3"), tabletest.Insert(int32(3), "c")) // 4
	if got := tt.Latest(); got.ID != 4 || tt.Open() == nil {
		t.Fatalf("latest snapshot %d, want 4", got.ID)
	}
	if kind := snapshotKind(t, tt, 3); kind != spec.CommitKindCompact {
		t.Fatalf("snapshot 3 is %s, want a compaction", kind)
	}
	cases := []struct {
		name     string
		from, to int64
		filter   predicate.Predicate
		withKind bool
		want     []string
	}{
		{name: "every change, with kinds", from: 0, to: 4, withKind: true,
			want: []string{"+I|1|a", "+I|2|b", "+U|1|a2", "-D|2|b", "+U|1|a3", "+I|3|c"}},
		{name: "without kinds retractions are dropped", from: 0, to: 4,
			want: []string{"1|a", "2|b", "1|a2", "1|a3", "3|c"}},
		{name: "a range of one commit", from: 1, to: 2, withKind: true, want: []string{"+U|1|a2", "-D|2|b"}},
		{name: "a compaction adds no change", from: 2, to: 3, withKind: true},
		{name: "an empty range", from: 4, to: 4, withKind: true},
		{name: "filtered by key", from: 0, to: 4, withKind: true, filter: equals(t, 0, int32(1)),
			want: []string{"+I|1|a", "+U|1|a2", "+U|1|a3"}},
		{name: "filtered by value", from: 0, to: 4, withKind: true, filter: equals(t, 1, "b"),
			want: []string{"+I|2|b", "-D|2|b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readBetween(t, tt, c.from, c.to, c.filter, c.withKind)
			if !slices.Equal(got, c.want) {
				t.Fatalf("changes (%d, %d] = %q, want %q", c.from, c.to, got, c.want)
			}
		})
	}
}

func TestIncrementalReadOfAnAppendTable(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: incrementalFields(), Options: map[string]string{"bucket": "-1"}})
	writetest.Commit(tt, "u", tabletest.Insert(int32(1), "a"))
	writetest.Commit(tt, "u", tabletest.Insert(int32(2), "b"), tabletest.Insert(int32(3), "c"))
	writetest.Commit(tt, "u", tabletest.Insert(int32(4), "d"))
	got := readBetween(t, tt, 1, 3, nil, true)
	want := []string{"+I|2|b", "+I|3|c", "+I|4|d"}
	if !slices.Equal(got, want) {
		t.Fatalf("changes (1, 3] = %q, want %q", got, want)
	}
}

func snapshotKind(t *testing.T, tt *tabletest.Table, id int64) spec.CommitKind {
	t.Helper()
	s, err := tt.Open().Snapshots().Snapshot(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s.CommitKind
}

func equals(t *testing.T, col int, v any) predicate.Predicate {
	t.Helper()
	p, err := predicate.Leaf(predicate.ColumnOf(col, incrementalFields()[col]), predicate.OpEq, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
