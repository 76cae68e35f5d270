package table

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/footercache"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaFixturesReadThroughFooterCache reads every snapshot of the
// Java-written fixture tables twice through a footer cache: both passes
// return Java's rows, and the second finds every footer in the cache, so
// the file sizes Java recorded in its manifests are the files' sizes.
func TestJavaFixturesReadThroughFooterCache(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	var opened int64
	for _, ft := range tables {
		want := m.Tables[ft.Name]
		if want.Exempt != nil {
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			fsys := footercache.New(fixtures.RemapExternal(localio.New(), filepath.Dir(ft.Dir)), 64<<20)
			tbl, err := Open(context.Background(), fsys, ft.Dir)
			if err != nil {
				t.Fatal(err)
			}
			var afterFirst footercache.Stats
			for pass := range 2 {
				for _, id := range want.Snapshots {
					got := readJSON(t, tbl, snapshot.TimeTravel{SnapshotID: id})
					compareRows(t, fmt.Sprintf("pass %d, snapshot %d", pass+1, id), got, expectedRows(t, ft.Name, fmt.Sprintf("snapshot-%d.jsonl", id)))
				}
				if pass == 0 {
					afterFirst = fsys.Stats()
				}
			}
			st := fsys.Stats()
			firstOpens := afterFirst.Hits + afterFirst.Misses
			if st.Misses != afterFirst.Misses || st.Hits-afterFirst.Hits != firstOpens {
				t.Errorf("second pass: %d misses and %d hits, want %d hits (first pass %+v)",
					st.Misses-afterFirst.Misses, st.Hits-afterFirst.Hits, firstOpens, afterFirst)
			}
			opened += firstOpens
		})
	}
	if opened == 0 {
		t.Error("no data file was opened through the footer cache")
	}
}

// TestWarmFooterCacheSkipsFilesPrunedByRowGroups reads a file whose
// statistics keep it for a filter no row group matches: with its footer
// cached, the read decides that without opening the file.
func TestWarmFooterCacheSkipsFilesPrunedByRowGroups(t *testing.T) {
	ctx := context.Background()
	store := &countingIO{FileIO: memio.New()}
	fsys := footercache.New(store, 1<<20)
	w, err := scantest.Create(ctx, fsys, "wh", "db", "t", catalog.TableDefinition{
		Fields: []spec.DataField{{Name: "k", Type: intType}, {Name: "s", Type: stringType}},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.RowGroupSize = 16 << 10
	var records []scantest.Record
	for k := range 40_000 {
		records = append(records, scantest.Record{Values: []any{int32(k), fmt.Sprintf("payload %d", k*7919%100003)}})
	}
	f, err := w.WriteFile(ctx, nil, 0, 0, records)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(ctx, []scantest.Change{{Partition: f.Partition, TotalBuckets: f.TotalBuckets, Add: []spec.DataFileMeta{f.Meta}}}); err != nil {
		t.Fatal(err)
	}
	tbl, err := Open(ctx, fsys, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// k < 100 AND k > 39900: the file's range [0, 39999] holds both ends,
	// no row group does.
	k := predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: intType})
	low, err := predicate.Leaf(k, predicate.OpLt, int32(100))
	if err != nil {
		t.Fatal(err)
	}
	high, err := predicate.Leaf(k, predicate.OpGt, int32(39_900))
	if err != nil {
		t.Fatal(err)
	}
	nothing := predicate.And(low, high)
	all := mustRead(t, tbl, ReadOptions{})
	if len(all) != 40_000 || store.opened.Load() != 1 {
		t.Fatalf("full read: %d rows from %d opens, want 40000 from 1", len(all), store.opened.Load())
	}
	if got := mustRead(t, tbl, ReadOptions{Filter: nothing}); len(got) != 0 {
		t.Fatalf("k < 100 AND k > 39900: %d rows", len(got))
	}
	if n := store.opened.Load(); n != 1 {
		t.Errorf("a read that needs no row group opened the file again (%d opens in all)", n)
	}
	got := mustRead(t, tbl, ReadOptions{})
	if !slices.EqualFunc(got, all, func(a, b []any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Error("a read with the footer cached returned other rows")
	}
	if st := fsys.Stats(); st.Misses != 1 || st.Hits != 2 {
		t.Errorf("%+v: want the first read to miss and the two later ones to hit", st)
	}
	if n := store.open.Load(); n != 0 {
		t.Errorf("%d files left open", n)
	}
}
