package compact

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// TestJavaFixturesCompact copies every Java-written fixture table that
// lakesql reads, compacts the copy fully, and checks that it reads the same
// rows afterwards, with every bucket of a primary-key table in one run on
// the highest level. Tables lakesql does not compact (deletion vectors,
// row tracking)
// must be refused as unsupported, and left as they were.
func TestJavaFixturesCompact(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	exempt := exemptFixtures(t)
	for _, ft := range tables {
		if exempt[ft.Name] {
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			dbDir := fixtures.Copy(t, filepath.Dir(ft.Dir))
			dir := filepath.Join(dbDir, filepath.Base(ft.Dir))
			ctx := context.Background()
			fsys := fixtures.RemapExternal(localio.New(), dbDir)
			tbl := openTable(t, fsys, dir)
			before := readTable(t, tbl, table.ReadOptions{})
			if rows, ok := levelZeroAfterCompaction[ft.Name]; ok {
				before = rows
			}
			latestBefore, _, err := tbl.Snapshots().LatestID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Table(ctx, Options{FileIO: fsys, TableDir: dir, Mode: Full})
			if errors.Is(err, lakeerr.ErrUnsupported) {
				s, serr := tbl.LatestSchema(ctx)
				if serr != nil {
					t.Fatal(serr)
				}
				dv, _ := s.CoreOptions().DeletionVectorsEnabled()
				rowIDs, _ := s.CoreOptions().RowTrackingEnabled()
				if !dv && !rowIDs {
					t.Fatalf("refused: %v", err)
				}
				if id, _, _ := tbl.Snapshots().LatestID(ctx); id != latestBefore {
					t.Fatalf("a refused compaction published snapshot %d", id)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			after := openTable(t, fsys, dir)
			assertRows(t, "after full compaction", readTable(t, after, table.ReadOptions{}), before)
			if res.Snapshot != 0 {
				checkCompacted(t, after, res)
			} else if mustCompact[ft.Name] {
				t.Fatal("nothing was compacted")
			}
		})
	}
}

// mustCompact are fixtures with several sorted runs (primary-key tables)
// or at least two small files per partition (append tables), which a full
// compaction must merge.
var mustCompact = map[string]bool{
	"paimon-java/pk_table_scan_and_read_mor":       true,
	"paimon-java/pk_table_with_mor":                true,
	"paimon-java/pk_table_scan_and_read_first_row": true,
	"paimon-java/append_table_with_alter_table":    true,
	"paimon-java/append_with_bitmap_alter_table":   true,
}

func checkCompacted(t *testing.T, tbl *table.Table, res Result) {
	t.Helper()
	ctx := context.Background()
	snap, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.ID != res.Snapshot || snap.CommitKind != spec.CommitKindCompact {
		t.Fatalf("latest snapshot %d is %s, want the COMPACT snapshot %d", snap.ID, snap.CommitKind, res.Snapshot)
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.PrimaryKeys) == 0 {
		return
	}
	cfg, err := newTableConfig(s, testNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range liveFilesOf(t, tbl) {
		if int(e.File.Level) < cfg.universal.NumLevels-1 {
			t.Errorf("%s on level %d after a full compaction", e.File.FileName, e.File.Level)
		}
	}
}

// levelZeroAfterCompaction holds the rows of fixtures whose batch reads
// skip level 0 (CoreOptions.batchScanSkipLevel0) after a full compaction:
// the rows of the snapshots still on level 0 become visible, as they do
// after Java's own compaction. Rows from the fixtures' READMEs.
//   - first-row: snapshots 4 and 5; the first version of each key wins
//     and deletes are ignored (ignore-delete).
//   - deletion vectors: snapshots 5 and 6; Skye, Marco and their
//     namesakes added, Alex updated and then deleted.
var levelZeroAfterCompaction = map[string][]string{
	"paimon-java/pk_table_scan_and_read_first_row": {
		"Alex|10|0|16.1", "Alice|10|1|11.1", "Bob|10|0|12.1", "David|10|0|17.1", "Emily|10|0|13.1",
		"Lucy|20|1|14.1", "Marco2|10|0|31.1", "Marco|10|0|21.1", "Paul|20|1|18.1", "Skye2|10|0|31",
		"Skye|10|0|21", "Tony|10|0|14.1",
		"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.|10|1|11",
	},
	"paimon-java/pk_table_scan_and_read_dv": {
		"Alice|10|1|19.1", "Bob|10|0|12.1", "David|10|0|17.1", "Emily|10|0|13.1", "Lucy|20|1|14.1",
		"Marco2|10|0|31.1", "Marco|10|0|21.1", "Paul|20|1|18.1", "Skye2|10|0|31", "Skye|10|0|21",
		"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.|10|1|11",
	},
}

// exemptFixtures are the fixtures lakesql refuses to read at all.
func exemptFixtures(t *testing.T) map[string]bool {
	out := map[string]bool{}
	for name, tbl := range fixtures.LoadExpected(t).Tables {
		out[name] = tbl.Exempt != nil
	}
	return out
}
