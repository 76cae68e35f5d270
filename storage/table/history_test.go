package table_test

import (
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/compacttest"
	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// readHistory renders each change as "snapshot user/identifier kind row".
func readHistory(t *testing.T, tbl *table.Table, filter predicate.Predicate) []string {
	t.Helper()
	h, err := tbl.History(context.Background(), filter)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var out []string
	for {
		c, err := h.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s/%d %s %s", c.Snapshot.ID, c.Snapshot.CommitUser, c.Snapshot.CommitIdentifier,
			c.Kind, tabletest.RenderRow(c.Row)))
	}
}

// A key's history names each commit that wrote, changed or deleted it:
// the records of APPEND snapshots, nothing of compactions, and for an
// overwrite the row it removed and the row it wrote.
func TestHistoryNamesTheCommitsOfAKey(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: incrementalFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "2", "write-only": "true"}})
	writetest.Commit(tt, "cdc", tabletest.Insert(int32(1), "a"), tabletest.Insert(int32(2), "b"), tabletest.Insert(int32(3), "c")) // 1
	writetest.Commit(tt, "fix", tabletest.Update(int32(1), "a2"))                                                                  // 2
	compacttest.Full(tt)                                                                                                           // 3
	writetest.Commit(tt, "cdc", tabletest.Delete(int32(2), "b"))                                                                   // 4
	msgs := writetest.Prepare(tt, writetest.Options(tt), tabletest.Insert(int32(1), "a9"))
	tt.Commit("reload", commit.Request{Messages: msgs, Overwrite: &commit.Overwrite{BaseSnapshotID: 4, Static: map[string]any{}}}) // 5
	if kind := snapshotKind(t, tt, 5); kind != spec.CommitKindOverwrite {
		t.Fatalf("snapshot 5 is %s, want an overwrite", kind)
	}
	tbl := tt.Open()
	cases := []struct {
		name   string
		filter predicate.Predicate
		want   []string
	}{
		{name: "inserted, corrected, overwritten", filter: equals(t, 0, int32(1)),
			want: []string{"1 cdc/1 +I 1|a", "2 fix/1 +U 1|a2", "5 reload/1 -D 1|a2", "5 reload/1 +I 1|a9"}},
		{name: "deleted before the overwrite", filter: equals(t, 0, int32(2)),
			want: []string{"1 cdc/1 +I 2|b", "4 cdc/2 -D 2|b"}},
		{name: "removed by the overwrite", filter: equals(t, 0, int32(3)),
			want: []string{"1 cdc/1 +I 3|c", "5 reload/1 -D 3|c"}},
		{name: "a key never written", filter: equals(t, 0, int32(4))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := readHistory(t, tbl, c.filter); !slices.Equal(got, c.want) {
				t.Fatalf("history = %q, want %q", got, c.want)
			}
		})
	}
	want := []string{"1 cdc/1 +I 1|a", "1 cdc/1 +I 2|b", "1 cdc/1 +I 3|c", "2 fix/1 +U 1|a2", "4 cdc/2 -D 2|b",
		"5 reload/1 -D 1|a2", "5 reload/1 -D 3|c", "5 reload/1 +I 1|a9"}
	if all := readHistory(t, tbl, nil); !slices.Equal(all, want) {
		t.Fatalf("the whole history = %q, want %q", all, want)
	}
}

func TestHistoryOfAnAppendTableIsRefused(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: incrementalFields(), Options: map[string]string{"bucket": "-1"}})
	writetest.Commit(tt, "u", tabletest.Insert(int32(1), "a"))
	if _, err := tt.Open().History(context.Background(), nil); err == nil {
		t.Fatal("History of an append table succeeded")
	}
}

// A key's history reads only the data files whose key range can hold it,
// not every file the retained snapshots wrote.
func TestHistoryReadsOnlyTheFilesOfTheKey(t *testing.T) {
	fs := filetest.NewCountingFS(memio.New())
	tt := tabletest.Create(t, tabletest.Config{FS: fs}, catalog.TableDefinition{Fields: incrementalFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "1", "write-only": "true"}})
	for commit := range int32(10) {
		var records []tabletest.Record
		for k := commit * 100; k < commit*100+100; k++ {
			records = append(records, tabletest.Insert(k, "v"))
		}
		writetest.Commit(tt, "u", records...)
	}
	tbl := tt.Open()
	files := tt.LiveFiles()
	opened := func() (n int) {
		for _, e := range files {
			n += fs.Opens(path.Join(tt.Dir, "bucket-0", e.File.FileName))
		}
		return n
	}
	before := opened()
	if got := readHistory(t, tbl, equals(t, 0, int32(250))); !slices.Equal(got, []string{"3 u/3 +I 250|v"}) {
		t.Fatalf("history of 250 = %q", got)
	}
	if n := opened() - before; n != 1 {
		t.Fatalf("the history of one key opened %d of the %d data files, want the 1 whose key range holds it", n, len(files))
	}
}
