package rowdelete

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

var (
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

// appendTable is an append table of (id, v) with the options given,
// holding ids 0..9 in two commits, and rows with v = "dup" twice.
func appendTable(t *testing.T, options map[string]string) *tabletest.Table {
	tt := tabletest.New(t, catalog.TableDefinition{
		Fields:  []spec.DataField{{Name: "id", Type: bigintType}, {Name: "v", Type: stringType}},
		Options: options,
	})
	for _, ids := range [][]int64{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}} {
		var records []tabletest.Record
		for _, id := range ids {
			records = append(records, tabletest.Insert(id, fmt.Sprint("v", id)))
		}
		records = append(records, tabletest.Insert(int64(100), "dup"))
		writetest.Commit(tt, "writer", records...)
	}
	return tt
}

// deleteWhere removes the rows match selects and commits the removal.
func deleteWhere(t *testing.T, tt *tabletest.Table, match func(row []any) bool) Result {
	t.Helper()
	ctx := context.Background()
	tbl := tt.Open()
	plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := NewSelection()
	if err := sel.Find(ctx, tbl, plan, func(row []any) (bool, error) { return match(row), nil }); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(ctx, Options{FileIO: tt.FS, Table: tbl, Schema: plan.Schema, Index: plan.Index, Now: tt.Now, NewUUID: tt.NewUUID}, sel)
	if err != nil {
		t.Fatal(err)
	}
	tt.Commit("deleter", commit.Request{Messages: res.Messages, ReadSnapshotID: plan.Snapshot.ID})
	return res
}

func TestApplyRemovesTheSelectedRows(t *testing.T) {
	for _, layout := range []struct {
		name    string
		options map[string]string
		vectors bool
	}{
		{"rewrite, unaware", map[string]string{"bucket": "-1"}, false},
		{"rewrite, two buckets", map[string]string{"bucket": "2", "bucket-key": "id"}, false},
		{"vectors, unaware", map[string]string{"bucket": "-1", "deletion-vectors.enabled": "true"}, true},
		{"vectors, two buckets", map[string]string{"bucket": "2", "bucket-key": "id", "deletion-vectors.enabled": "true"}, true},
		{"vectors, 64-bit", map[string]string{"bucket": "-1", "deletion-vectors.enabled": "true", "deletion-vectors.bitmap64": "true"}, true},
	} {
		t.Run(layout.name, func(t *testing.T) {
			tt := appendTable(t, layout.options)
			before := tt.LiveFiles()
			odd := func(row []any) bool { id := row[0].(int64); return id < 100 && id%2 == 1 }
			res := deleteWhere(t, tt, odd)
			want := []string{"0|v0", "100|dup", "100|dup", "2|v2", "4|v4", "6|v6", "8|v8"}
			if got := tt.Read(); !slices.Equal(got, want) {
				t.Fatalf("rows after removing the odd ids: %q, want %q", got, want)
			}
			if tt.Latest().CommitKind != spec.CommitKindOverwrite {
				t.Fatalf("committed %s, want OVERWRITE", tt.Latest().CommitKind)
			}
			files, index := 0, 0
			for _, m := range res.Messages {
				files += len(m.NewFiles) + len(m.DeletedFiles)
				index += len(m.NewIndexFiles)
			}
			if layout.vectors != (index > 0 && files == 0) || !layout.vectors && files == 0 {
				t.Fatalf("%d data files and %d index files changed; want only index files exactly with deletion vectors", files, index)
			}
			// The second removal merges with the vectors of the first, and
			// takes one of two equal rows.
			dups := 0
			deleteWhere(t, tt, func(row []any) bool {
				if row[1] == "dup" {
					dups++
					return dups == 1
				}
				return row[0].(int64) == 2
			})
			if got := tt.Read(); !slices.Equal(got, []string{"0|v0", "100|dup", "4|v4", "6|v6", "8|v8"}) {
				t.Fatalf("rows after the second removal: %q", got)
			}
			if layout.vectors && !slices.EqualFunc(tt.LiveFiles(), before, func(a, b spec.ManifestEntry) bool { return a.File.FileName == b.File.FileName }) {
				t.Fatal("deletion vectors changed the data files")
			}
		})
	}
}
