package write

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/schema"
)

// TestRoutingMatchesJava routes every row of Java-written fixture tables
// and checks that it lands in the partition directory and bucket directory
// Java wrote it to.
func TestRoutingMatchesJava(t *testing.T) {
	for _, name := range []string{"paimon-java/pk_table_scan_and_read_mor", "paimon-java/append_09", "paimon-java/append_10"} {
		t.Run(name, func(t *testing.T) {
			dir := fixtures.TableDir(name)
			s, err := schema.NewManager(localio.New(), dir, "").Latest(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ts, err := parseSettings(s)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, file := range dataFilesUnder(t, dir) {
				checked += checkFileRouting(t, ts, dir, file)
			}
			if checked == 0 {
				t.Fatal("no rows checked")
			}
		})
	}
}

// checkFileRouting routes the rows of one Java data file; it returns how
// many rows it checked.
func checkFileRouting(t *testing.T, ts *tableSettings, tableDir, file string) int {
	t.Helper()
	rel, _ := filepath.Rel(tableDir, file)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	wantPartition := strings.Join(parts[:len(parts)-2], "/")
	wantBucket, err := strconv.Atoi(strings.TrimPrefix(parts[len(parts)-2], "bucket-"))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := router{settings: ts}
	w := &TableWriter{settings: ts, env: &writerEnv{}}
	rows := readRows(t, mustOpenParquet(t, data, rel), ts.schema.Fields)
	for _, row := range rows {
		bucket, err := r.bucket(row)
		if err != nil {
			t.Fatal(err)
		}
		partition, err := r.partition(row)
		if err != nil {
			t.Fatal(err)
		}
		gotPartition, err := w.partitionDir(partition)
		if err != nil {
			t.Fatal(err)
		}
		if bucket != wantBucket || gotPartition != wantPartition {
			t.Errorf("%s: row %v routed to %s/bucket-%d", rel, row, gotPartition, bucket)
		}
	}
	return len(rows)
}

func dataFilesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") && strings.Contains(p, "bucket-") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
