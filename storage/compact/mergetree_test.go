package compact

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/spec"
)

func pkDefinition(options map[string]string) catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields:      []spec.DataField{field("id", bigintType), field("v", stringType)},
		PrimaryKeys: []string{"id"},
		Options:     options,
	}
}

// filesOnLevel returns the live files of one level.
func filesOnLevel(entries []spec.ManifestEntry, level int32) []spec.DataFileMeta {
	var out []spec.DataFileMeta
	for _, e := range entries {
		if e.File.Level == level {
			out = append(out, e.File)
		}
	}
	return out
}

// TestDeduplicateCompaction follows one bucket through an upgrade, a minor
// compaction into an intermediate level (which must keep retractions,
// since older rows lie below it) and a full compaction (which drops them).
// The table reads the same rows before and after each.
func TestDeduplicateCompaction(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}))
	var base []tabletest.Record
	for i := range 2000 {
		base = append(base, tabletest.Insert(int64(i), fmt.Sprintf("a-%04d-padding-to-make-the-base-file-large", i)))
	}
	tt.writeCommit(base...)

	// A single file without retractions moves to the highest level (2,
	// since num-levels defaults to trigger + 1) without a rewrite.
	before := tt.Read()
	first := tt.LiveFiles()[0].File
	res := tt.compact(Full)
	if res.FilesUpgraded != 1 || res.FilesRewritten != 0 || res.FilesWritten != 0 {
		t.Fatalf("first full compaction: %+v, want one upgrade", res)
	}
	top := filesOnLevel(tt.LiveFiles(), 2)
	if len(top) != 1 || top[0].FileName != first.FileName {
		t.Fatalf("level 2 holds %v, want the upgraded %s", top, first.FileName)
	}
	assertRows(t, "after upgrade", tt.Read(), before)

	var updates, deletes []tabletest.Record
	for i := range 10 {
		updates = append(updates, tabletest.Insert(int64(i), "b"))
		deletes = append(deletes, tabletest.Delete(int64(10+i), "gone"))
	}
	tt.writeCommit(updates...)
	tt.writeCommit(deletes...)
	before = tt.Read()
	if len(before) != 1990 {
		t.Fatalf("%d rows before the minor compaction, want 1990", len(before))
	}

	res = tt.compact(Minor)
	snap := tt.Latest()
	if res.Snapshot != snap.ID || snap.CommitKind != spec.CommitKindCompact || !strings.HasPrefix(snap.CommitUser, "lakesql-compact-") {
		t.Fatalf("minor compaction: result %+v, latest snapshot %d %s by %s", res, snap.ID, snap.CommitKind, snap.CommitUser)
	}
	assertRows(t, "after minor compaction", tt.Read(), before)
	entries := tt.LiveFiles()
	mid := filesOnLevel(entries, 1)
	if levels := levelsOf(entries); levels[0] != 0 || levels[1] != 1 || levels[2] != 1 {
		t.Fatalf("levels after minor compaction: %v, want one file on levels 1 and 2", levels)
	}
	if mid[0].DeleteRowCount == nil || *mid[0].DeleteRowCount != 10 || mid[0].RowCount != 20 {
		t.Fatalf("level-1 file has %d rows, %v retractions; want 20 rows, 10 retractions kept above level 2",
			mid[0].RowCount, mid[0].DeleteRowCount)
	}
	if src := mid[0].FileSource; src == nil || *src != spec.FileSourceCompact {
		t.Fatalf("compacted file source %v, want COMPACT", src)
	}

	res = tt.compact(Full)
	assertRows(t, "after full compaction", tt.Read(), before)
	entries = tt.LiveFiles()
	if len(entries) != 1 || entries[0].File.Level != 2 {
		t.Fatalf("after full compaction: %d files, want one on level 2", len(entries))
	}
	bottom := entries[0].File
	if bottom.DeleteRowCount == nil || *bottom.DeleteRowCount != 0 || bottom.RowCount != 1990 {
		t.Fatalf("bottom file has %d rows, %v retractions; want 1990 rows and none", bottom.RowCount, bottom.DeleteRowCount)
	}
	if res.FilesRewritten != 2 || res.FilesWritten != 1 || res.BytesRead <= 0 || res.BytesWritten != bottom.FileSize {
		t.Fatalf("full compaction result %+v", res)
	}
	assertNoOrphans(t, tt)
}

// assertNoOrphans checks that every data file on disk is live: compactions
// that replaced files do not delete them (expiry does), so this holds only
// where every compacted input is still referenced by some snapshot, but an
// attempt that did not commit must leave nothing behind.
func assertNoOrphans(t *testing.T, tt *testTable) {
	t.Helper()
	referenced := map[string]bool{}
	tbl := tt.Open()
	ctx := context.Background()
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := tt.Schema()
	for _, id := range ids {
		snap, err := tbl.Snapshots().Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := tbl.LiveFiles(ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			dir, err := bucketDir(s, tt.Dir, e.Partition, e.Bucket)
			if err != nil {
				t.Fatal(err)
			}
			referenced[strings.TrimPrefix(dir+"/"+e.File.FileName, tt.Dir+"/")] = true
		}
	}
	for _, f := range dataFilesOnDisk(t, tt.FS, tt.Dir) {
		if !referenced[f] {
			t.Errorf("data file %s is referenced by no snapshot", f)
		}
	}
}

// TestMergeEngineCompaction compacts tables of every writable merge
// engine, minor then full, and compares reads with the model.
func TestMergeEngineCompaction(t *testing.T) {
	cases := []struct {
		name    string
		def     catalog.TableDefinition
		commits [][]tabletest.Record
		want    []string
	}{
		{
			name: "partial-update",
			def: catalog.TableDefinition{
				Fields:      []spec.DataField{field("id", bigintType), field("a", stringType), field("b", intType)},
				PrimaryKeys: []string{"id"},
				Options:     map[string]string{"bucket": "2", "merge-engine": "partial-update", "num-sorted-run.compaction-trigger": "2"},
			},
			commits: [][]tabletest.Record{
				{tabletest.Insert(int64(1), "x", nil), tabletest.Insert(int64(2), nil, int32(5))},
				{tabletest.Insert(int64(1), nil, int32(7)), tabletest.Insert(int64(2), "y", nil)},
				{tabletest.Insert(int64(3), "z", int32(1)), tabletest.Insert(int64(1), "x2", nil)},
			},
			want: []string{"1|x2|7", "2|y|5", "3|z|1"},
		},
		{
			name: "aggregation",
			def: catalog.TableDefinition{
				Fields:      []spec.DataField{field("id", bigintType), field("total", bigintType), field("last", stringType)},
				PrimaryKeys: []string{"id"},
				Options: map[string]string{"bucket": "2", "merge-engine": "aggregation", "num-sorted-run.compaction-trigger": "2",
					"fields.total.aggregate-function": "sum", "fields.last.aggregate-function": "last_non_null_value"},
			},
			commits: [][]tabletest.Record{
				{tabletest.Insert(int64(1), int64(10), "a"), tabletest.Insert(int64(2), int64(1), "b")},
				{tabletest.Insert(int64(1), int64(5), nil), tabletest.Insert(int64(3), int64(7), "c")},
				{tabletest.Delete(int64(1), int64(3), nil), tabletest.Insert(int64(2), int64(2), "d")},
			},
			want: []string{"1|12|a", "2|3|d", "3|7|c"},
		},
		{
			name: "deduplicate with sequence field",
			def: catalog.TableDefinition{
				Fields:      []spec.DataField{field("id", bigintType), field("ts", bigintType), field("v", stringType)},
				PrimaryKeys: []string{"id"},
				Options:     map[string]string{"bucket": "1", "sequence.field": "ts", "num-sorted-run.compaction-trigger": "2"},
			},
			commits: [][]tabletest.Record{
				{tabletest.Insert(int64(1), int64(5), "new"), tabletest.Insert(int64(2), int64(1), "old")},
				{tabletest.Insert(int64(1), int64(3), "stale"), tabletest.Insert(int64(2), int64(2), "newer")},
				{tabletest.Delete(int64(2), int64(1), nil), tabletest.Insert(int64(3), int64(0), "kept")},
			},
			want: []string{"1|5|new", "2|2|newer", "3|0|kept"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := newMemTable(t, c.def)
			for _, records := range c.commits {
				tt.writeCommit(records...)
			}
			assertRows(t, "before compaction", tt.Read(), c.want)
			minor := tt.compact(Minor)
			if minor.Snapshot == 0 {
				t.Fatalf("minor compaction of three level-0 runs with trigger 2 did nothing")
			}
			assertRows(t, "after minor compaction", tt.Read(), c.want)
			tt.compact(Full)
			assertRows(t, "after full compaction", tt.Read(), c.want)
			for _, e := range tt.LiveFiles() {
				if e.File.Level != 2 {
					t.Errorf("file %s on level %d after a full compaction, want 2", e.File.FileName, e.File.Level)
				}
			}
			if again := tt.compact(Full); again.Snapshot != 0 {
				t.Errorf("a second full compaction committed %+v, want nothing to do", again)
			}
		})
	}
}

// TestFirstRowCompactionDropsKeysOfKeptLevels: a minor compaction moves a
// first-row table's level-0 file up while the highest level stays in
// place. Reads of the levels above 0 do not merge, so the compaction must
// drop the new record of a key the highest level holds (the first row
// wins) and keep the new key.
func TestFirstRowCompactionDropsKeysOfKeptLevels(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "merge-engine": "first-row", "target-file-size": "8kb"}))
	writeHighestLevel(t, tt)
	before := tt.Read()
	tt.writeCommit(tabletest.Insert(int64(5), "second"), tabletest.Insert(int64(1500), "second"), tabletest.Insert(int64(3000), "new"))
	assertRows(t, "level 0 unread", tt.Read(), before)

	res := tt.compact(Minor)
	if res.FilesRewritten != 1 || res.FilesUpgraded != 0 {
		t.Fatalf("minor compaction %+v, want the level-0 file rewritten", res)
	}
	entries := tt.LiveFiles()
	if levels := levelsOf(entries); levels[0] != 0 || len(levels) != 2 {
		t.Fatalf("levels after the minor compaction: %v, want the new file below the kept one", levels)
	}
	rows := tt.Read()
	if len(rows) != 2001 {
		t.Fatalf("%d rows after the minor compaction, want 2001", len(rows))
	}
	for _, r := range rows {
		if strings.Contains(r, "second") {
			t.Fatalf("a second row of a key is read: %s", r)
		}
	}
	assertNoOrphans(t, tt)
}

// TestDeletionVectorCompactionMarksKeptRecords: a minor compaction of a
// primary-key table with deletion vectors moves level 0 up while the
// highest level stays in place; the levels above 0 are read without
// merging, so the compaction marks each kept record its newer record
// replaces (or its retraction deletes) in the kept file's vector, as
// Java's lookup compaction does. A full compaction then drops the vectors.
func TestDeletionVectorCompactionMarksKeptRecords(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "deletion-vectors.enabled": "true", "target-file-size": "8kb"}))
	writeHighestLevel(t, tt)
	tt.writeCommit(tabletest.Insert(int64(5), "second"), tabletest.Delete(int64(1500), "first"), tabletest.Insert(int64(3000), "new"))

	tt.compact(Minor)
	if levels := levelsOf(tt.LiveFiles()); levels[0] != 0 || len(levels) != 2 {
		t.Fatalf("levels after the minor compaction: %v, want the new file below the kept ones", levels)
	}
	want := map[int64]string{5: "second", 3000: "new"}
	for i := range int64(highestLevelRows) {
		if i != 5 && i != 1500 {
			want[i] = paddedValue(i)
		}
	}
	assertRows(t, "after the minor compaction", tt.Read(), renderRows(want))
	if n := tabletest.RowsDeletedByVectors(t, tt.Open(), tt.Latest()); n != 2 {
		t.Fatalf("deletion vectors mark %d rows, want 2 (keys 5 and 1500)", n)
	}

	tt.compact(Full)
	assertRows(t, "after the full compaction", tt.Read(), renderRows(want))
	if n := tabletest.RowsDeletedByVectors(t, tt.Open(), tt.Latest()); n != 0 {
		t.Fatalf("deletion vectors mark %d rows after a full compaction, want none", n)
	}
	assertNoOrphans(t, tt)
}

// highestLevelRows is how many rows writeHighestLevel writes.
const highestLevelRows = 2000

// writeHighestLevel writes keys 0 … highestLevelRows-1 with paddedValue
// values and compacts them fully: with a small target-file-size the
// highest level then holds several files, which a compaction's walk of a
// kept level skips and opens by their key ranges.
func writeHighestLevel(t *testing.T, tt *testTable) {
	t.Helper()
	var base []tabletest.Record
	for i := range int64(highestLevelRows) {
		base = append(base, tabletest.Insert(i, paddedValue(i)))
	}
	tt.writeCommit(base...)
	tt.compact(Full)
	if levels := levelsOf(tt.LiveFiles()); len(levels) != 1 || levels[0] != 0 || len(tt.LiveFiles()) < 2 {
		t.Fatalf("levels after the full compaction: %v, want several files on the highest", levels)
	}
}

func paddedValue(i int64) string {
	return fmt.Sprintf("first-%04d-padding-to-make-the-base-file-large", i)
}

func renderRows(rows map[int64]string) []string {
	var out []string
	for id, v := range rows {
		out = append(out, fmt.Sprintf("%d|%s", id, v))
	}
	slices.Sort(out)
	return out
}
