package compact

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestForcedFullCompactionBackfillsIndexes: files written before an index
// was declared get it from a full compaction with
// compaction.force-rewrite-all-files, on a primary-key table (the one
// top-level file is rewritten, not left as is) and on bucketed and
// bucket-unaware append tables; compactions write the declared indexes
// into what they write.
func TestForcedFullCompactionBackfillsIndexes(t *testing.T) {
	fields := []spec.DataField{field("id", bigintType), field("v", stringType)}
	for name, def := range map[string]catalog.TableDefinition{
		"primary key":     {Fields: fields, PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}},
		"bucketed append": {Fields: fields, Options: map[string]string{"bucket": "1", "bucket-key": "id"}},
		"unaware append":  {Fields: fields},
	} {
		tt := newMemTable(t, def)
		tt.writeCommit(tabletest.Insert(int64(1), "a"), tabletest.Insert(int64(2), "b"))
		tt.writeCommit(tabletest.Insert(int64(3), "c"))
		tt.compact(Full)
		if n := unindexedFiles(t, tt); n == 0 {
			t.Fatalf("%s: every file has an index before one was declared", name)
		}
		c := catalog.New(tt.FS, "wh", tt.Now)
		if _, err := c.AlterTable(context.Background(), "db", "t",
			catalog.SetOption{Key: spec.FileIndexColumnsOption(spec.FileIndexBloomFilter), Value: "v"},
			catalog.SetOption{Key: optionForceRewriteAllFiles, Value: "true"}); err != nil {
			t.Fatal(err)
		}
		tt.compact(Full)
		if n := unindexedFiles(t, tt); n != 0 {
			t.Errorf("%s: %d files without an index after a forced full compaction", name, n)
		}
	}
}

func unindexedFiles(t *testing.T, tt *testTable) int {
	n := 0
	for _, e := range liveFilesOf(t, tt.Open()) {
		if !scan.HasFileIndex(&e.File) {
			n++
		}
	}
	if len(liveFilesOf(t, tt.Open())) == 0 {
		t.Fatal("no live files")
	}
	return n
}
