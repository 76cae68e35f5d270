package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// readRowTracking reads f0, _ROW_ID and _SEQUENCE_NUMBER of every row at
// snapshot id, as "name:rowid:seq", sorted.
func readRowTracking(t *testing.T, tbl *Table, id int64) []string {
	t.Helper()
	rows, err := tbl.Read(context.Background(), ReadOptions{At: snapshot.TimeTravel{SnapshotID: id}, WithRowTracking: true,
		Columns: []string{"f0", RowIDField.Name, SequenceNumberField.Name}})
	if err != nil {
		t.Fatal(err)
	}
	all, err := ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range all {
		out = append(out, fmt.Sprintf("%v:%v:%v", r[0], r[1], r[2]))
	}
	slices.Sort(out)
	return out
}

// TestRowTrackingColumns reads the Java-written row-tracking table whose
// two appends Java then compacted (README of the fixture): each row's id
// is its file's first row id plus its position, its sequence number its
// file's largest, and the compacted file, which holds both as columns,
// keeps them.
func TestRowTrackingColumns(t *testing.T) {
	tbl := openFixture(t, fixtures.TableDir("paimon-java/append_table_row_tracking_with_compact"))
	ctx := context.Background()
	seqOf := func(id int64) int64 {
		s, err := tbl.Snapshots().Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		live, err := tbl.LiveFiles(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		var newest int64
		for _, e := range live {
			newest = max(newest, e.File.MaxSequenceNumber)
		}
		return newest
	}
	first := []string{fmt.Sprintf("Alice:1:%d", seqOf(1)), fmt.Sprintf("Lily:0:%d", seqOf(1))}
	if got := readRowTracking(t, tbl, 1); !slices.Equal(got, first) {
		t.Fatalf("snapshot 1: %v, want %v", got, first)
	}
	both := append([]string{fmt.Sprintf("Bob:2:%d", seqOf(2)), fmt.Sprintf("David:3:%d", seqOf(2))}, first...)
	slices.Sort(both)
	if got := readRowTracking(t, tbl, 2); !slices.Equal(got, both) {
		t.Fatalf("snapshot 2: %v, want %v", got, both)
	}
	if seqOf(1) == seqOf(2) {
		t.Fatal("both appends have one sequence number: the test cannot tell them apart")
	}
	latest, _, err := tbl.Snapshots().LatestID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := readRowTracking(t, tbl, latest); !slices.Equal(got, both) {
		t.Fatalf("after Java's compaction (snapshot %d): %v, want the ids and sequence numbers of before: %v", latest, got, both)
	}
}

// TestRowTrackingRefusedWithoutTheOption: a table without
// row-tracking.enabled has no row ids to read.
func TestRowTrackingRefusedWithoutTheOption(t *testing.T) {
	tbl := openFixture(t, fixtures.TableDir("paimon-java/parquet_append_table"))
	_, err := tbl.Read(context.Background(), ReadOptions{WithRowTracking: true})
	if !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("got %v, want unsupported", err)
	}
}

// TestRowTrackingFill: a file's own values win; a missing id is the
// file's first row id plus the position, a missing sequence number the
// file's largest; a file without either id has lost them, which is an
// error rather than a NULL in a NOT NULL column.
func TestRowTrackingFill(t *testing.T) {
	first := int64(100)
	tr := &rowTracking{file: "data-1.parquet", firstRowID: &first, maxSeq: 7, rowID: 1, seq: 2}
	for _, tc := range []struct {
		row, want []any
	}{
		{[]any{"a", nil, nil}, []any{"a", int64(103), int64(7)}},
		{[]any{"a", int64(5), int64(2)}, []any{"a", int64(5), int64(2)}},
		{[]any{"a", int64(5), nil}, []any{"a", int64(5), int64(7)}},
	} {
		if err := tr.fill(tc.row, 3); err != nil || fmt.Sprint(tc.row) != fmt.Sprint(tc.want) {
			t.Errorf("got %v (%v), want %v", tc.row, err, tc.want)
		}
	}
	lost := &rowTracking{file: "data-2.parquet", maxSeq: 7, rowID: 1, seq: 2}
	if err := lost.fill([]any{"a", nil, nil}, 0); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("a file without row ids: got %v, want a corruption error", err)
	}
	if err := lost.fill([]any{"a", int64(9), nil}, 0); err != nil {
		t.Errorf("a file holding its ids: %v", err)
	}
}
