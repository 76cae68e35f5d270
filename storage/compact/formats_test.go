package compact

import (
	"context"
	"path"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/table"
)

// avroFixtures holds tables Java Paimon wrote with file.format = avro
// (see its NOTICE), shared with the Avro reader's tests.
const avroFixtures = "../avroio/testdata/warehouse/avro.db"

// TestJavaAvroTablesCompact compacts copies of Java-written avro tables
// (primary keys with updates and deletes, deletion vectors, thin mode,
// schema evolution, every type, codecs) fully: every file is read with
// the reader of its format and rewritten as Parquet, which Java reads by
// its extension (interop cases javawrites_format_avro and _orc), and the
// table reads the same rows afterwards.
func TestJavaAvroTablesCompact(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(avroFixtures, "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no avro fixture tables: %v", err)
	}
	for _, src := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			ctx := context.Background()
			dir := fixtures.Copy(t, src)
			fsys := localio.New()
			tbl := openTable(t, fsys, dir)
			before := readTable(t, tbl, table.ReadOptions{})
			_, alone := avroFiles(t, tbl)
			res, err := Table(ctx, Options{FileIO: fsys, TableDir: dir, Mode: Full})
			if err != nil {
				t.Fatal(err)
			}
			after := openTable(t, fsys, dir)
			assertRows(t, "after full compaction", readTable(t, after, table.ReadOptions{}), before)
			if res.Snapshot != 0 {
				checkCompacted(t, after, res)
			}
			// A full compaction merges every bucket of several files and
			// upgrades a lone file in place.
			if got, _ := avroFiles(t, after); got != alone {
				t.Errorf("%d avro files live after a full compaction, want the %d that were alone in their bucket", got, alone)
			}
		})
	}
}

// avroFiles counts the live avro files of tbl, and those that are their
// bucket's only file.
func avroFiles(t *testing.T, tbl *table.Table) (all, alone int) {
	type bucketOf struct {
		partition string
		bucket    int32
	}
	files := map[bucketOf][]string{}
	for _, e := range liveFilesOf(t, tbl) {
		b := bucketOf{string(e.Partition), e.Bucket}
		files[b] = append(files[b], e.File.FileName)
	}
	for _, names := range files {
		for _, name := range names {
			if path.Ext(name) != ".avro" {
				continue
			}
			all++
			if len(names) == 1 {
				alone++
			}
		}
	}
	return all, alone
}
