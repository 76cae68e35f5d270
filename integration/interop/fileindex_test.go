//go:build interop

package interop

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	lakesqltable "github.com/lakesql/lakesql/storage/table"
)

// fileIndexFiles and fileIndexRows lay out the tables: file f (one INSERT)
// holds ids f, f+8, f+16, …, so that every file's statistics span nearly
// every value and only the indexes tell the files apart.
const fileIndexFiles, fileIndexRows = 8, 50

// fileIndexTables are tables lakesql writes with bloom filters declared by
// CREATE INDEX on columns of several types: embedded in the manifest
// (Java's default threshold), as .index files, and on a primary-key table;
// and with bitmaps (CREATE INDEX … USING BITMAP).
var fileIndexTables = []struct{ name, create string }{
	{"embedded", `CREATE TABLE fi.embedded (id BIGINT, order_no VARCHAR(20), d DATE, ts DATETIME(6), k TINYINT)
  COMMENT 'paimon:{"write-only":"true"}'`},
	{"sidecar", `CREATE TABLE fi.sidecar (id BIGINT, order_no VARCHAR(20), d DATE, ts DATETIME(6), k TINYINT)
  COMMENT 'paimon:{"write-only":"true","file-index.in-manifest-threshold":"1 b"}'`},
	{"keyed", `CREATE TABLE fi.keyed (id BIGINT NOT NULL PRIMARY KEY, order_no VARCHAR(20), d DATE, ts DATETIME(6), k TINYINT)
  COMMENT 'paimon:{"write-only":"true","bucket":"1"}'`},
	{"bitmaps", `CREATE TABLE fi.bitmaps (id BIGINT, order_no VARCHAR(20), d DATE, ts DATETIME(6), k TINYINT)
  COMMENT 'paimon:{"write-only":"true","file-index.in-manifest-threshold":"1 b"}'`},
}

// fileIndexColumns are the indexed columns, the filter value each test
// reads (in the interop encoding) and that value as lakesql holds it.
var fileIndexFilters = []struct {
	column string
	value  any
	held   any
}{
	{"id", 123, int64(123)},
	{"id", 100003, int64(100003)},
	{"order_no", "o00205", "o00205"},
	{"order_no", "o99999", "o99999"},
	{"d", "2026-03-05", spec.DateValue(time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC).Unix() / 86400)},
	{"ts", "2026-01-01 00:02:31.851841", spec.TimestampFromTime(time.Date(2026, 1, 1, 0, 2, 31, 851841000, time.UTC))},
	{"k", 3, int8(3)},
}

// TestJavaUsesFileIndexes: Java Paimon 1.4.2 and 1.3.1 evaluate the bloom
// filters and bitmaps lakesql wrote with their own FileIndexPredicate, and
// for every data file and filter they reach lakesql's verdict: the same
// hashes and bits, the same values in the order Java searches them. Files holding a match are kept; files the index refutes are
// skipped, by Java's scan too where the index is embedded; and Java's
// filtered reads return lakesql's rows.
func TestJavaUsesFileIndexes(t *testing.T) {
	rs := javaReaders(allReaders(t))
	wh := warehouseDir(t)
	srv := servertest.Start(t, servertest.Config(wh), server.Options{})
	db := connect(t, srv)
	ctx := context.Background()
	mustExec(t, db, "CREATE DATABASE fi")
	for _, tb := range fileIndexTables {
		mustExec(t, db, tb.create)
		using := ""
		if tb.name == "bitmaps" {
			using = "USING BITMAP"
		}
		for _, col := range []string{"id", "order_no", "d", "ts", "k"} {
			mustExec(t, db, fmt.Sprintf("CREATE INDEX i_%s %s ON fi.%s (%s)", col, using, tb.name, col))
		}
		for f := range fileIndexFiles {
			mustExec(t, db, fileIndexInsert(tb.name, f))
		}
	}
	for _, tb := range fileIndexTables {
		t.Run(tb.name, func(t *testing.T) {
			tbl, err := lakesqltable.Open(ctx, localio.New(), filepath.Join(wh, "fi.db", tb.name))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fileIndexFilters {
				t.Run(fmt.Sprintf("%s=%v", f.column, f.value), func(t *testing.T) {
					lakesql := lakesqlVerdicts(t, tbl, f.column, f.held)
					matching := matchingFiles(t, db, tb.name, f.column, f.value)
					for _, r := range rs {
						checkJavaVerdicts(t, r, wh, tb.name, f.column, f.value, lakesql, matching)
						checkJavaFilteredRead(t, r, db, wh, tb.name, f.column, f.value)
					}
				})
			}
		})
	}
}

// fileIndexInsert is the INSERT of file f: ids f, f+8, …; order_no and ts
// derived from the id, d and k repeating.
func fileIndexInsert(name string, f int) string {
	var rows []string
	for i := range fileIndexRows {
		id := f + fileIndexFiles*i
		rows = append(rows, fmt.Sprintf("(%d, 'o%05d', DATE_ADD('2026-01-01', INTERVAL %d DAY), TIMESTAMPADD(MICROSECOND, %d, '2026-01-01 00:00:00'), %d)",
			id, id, id%97, int64(id)*739_231, id%100))
	}
	return fmt.Sprintf("INSERT INTO fi.%s VALUES %s", name, strings.Join(rows, ", "))
}

// lakesqlVerdicts evaluates every data file's index with lakesql's own
// evaluator: file name → whether the index refutes column = held.
func lakesqlVerdicts(t *testing.T, tbl *lakesqltable.Table, column string, held any) map[string]bool {
	ctx := context.Background()
	plan, err := tbl.PlanTimeTravel(ctx, snapshot.TimeTravel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := plan.Schema.FieldIndex(column)
	p, err := predicate.Leaf(predicate.ColumnOf(at, plan.Schema.Fields[at]), predicate.OpEq, held)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, b := range plan.Buckets {
		for i := range b.Files {
			f := &b.Files[i]
			data := f.EmbeddedIndex
			if data == nil {
				if data, err = localio.New().ReadFile(ctx, path.Join(b.Dir, scan.IndexFileName(f))); err != nil {
					t.Fatalf("index of %s: %v", f.FileName, err)
				}
			}
			c, err := fileindex.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if out[f.FileName], err = fileindex.NewEvaluator(c, plan.Schema.Fields).Cannot(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(out) != fileIndexFiles {
		t.Fatalf("%d files, want %d", len(out), fileIndexFiles)
	}
	return out
}

// matchingFiles counts the files holding a row lakesql returns for
// column = value (one INSERT per file).
func matchingFiles(t *testing.T, db *sql.DB, name, column string, value any) int {
	var files int
	q := fmt.Sprintf("SELECT COUNT(DISTINCT MOD(id, %d)) FROM fi.%s WHERE %s = ?", fileIndexFiles, name, column)
	if err := db.QueryRow(q, fmt.Sprint(value)).Scan(&files); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return files
}

// checkJavaFilteredRead: Java's read with the filter pushed down, which
// skips files by their index, returns as many rows as lakesql's (the
// values are unique per row but for d and k, whose rows come from many
// files).
func checkJavaFilteredRead(t *testing.T, r *reader, db *sql.DB, wh, name, column string, value any) {
	var want int
	q := fmt.Sprintf("SELECT COUNT(*) FROM fi.%s WHERE %s = ?", name, column)
	if err := db.QueryRow(q, fmt.Sprint(value)).Scan(&want); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	filter, _ := json.Marshal([]map[string]any{{"column": column, "op": "=", "value": value}})
	out, err := r.call("dump", "--warehouse", wh, "--table", "fi."+name, "--filter", string(filter))
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	if got := strings.Count(out, "\n"); got != want {
		t.Errorf("%s: Java's filtered read returns %d rows, lakesql %d:\n%s", r.name, got, want, out)
	}
}

func checkJavaVerdicts(t *testing.T, r *reader, wh, name, column string, value any, lakesql map[string]bool, matching int) {
	filter, _ := json.Marshal([]map[string]any{{"column": column, "op": "=", "value": value}})
	out, err := r.call("file-index", "--warehouse", wh, "--table", "fi."+name, "--filter", string(filter))
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	lines, err := jsonLines(out)
	if err != nil || len(lines) != len(lakesql)+1 {
		t.Fatalf("%s: %d lines, %v:\n%s", r.name, len(lines), err, out)
	}
	skipped := 0
	for _, l := range lines[:len(lakesql)] {
		file, remain := l["file"].(string), l["remain"]
		if remain == nil {
			t.Errorf("%s: %s has no index Java reads (%v)", r.name, file, l["index"])
			continue
		}
		if cannot, ok := lakesql[file]; !ok || cannot != !remain.(bool) {
			t.Errorf("%s: Java's index verdict on %s is remain=%v, lakesql's refutes=%v", r.name, file, remain, cannot)
		}
		if !remain.(bool) {
			skipped++
		}
	}
	if kept := len(lakesql) - skipped; kept < matching {
		t.Errorf("%s: Java keeps %d files by their index, but %d hold a match", r.name, kept, matching)
	}
	if matching < len(lakesql)/2 && skipped == 0 {
		t.Errorf("%s: Java skips no file by its index for %s = %v", r.name, column, value)
	}
	planned, err := lines[len(lakesql)]["plannedFiles"].(json.Number).Int64()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d of %d files skipped by their index (%d hold a match), %d planned", r.name, skipped, len(lakesql), matching, planned)
	if name == "embedded" && int(planned) > len(lakesql)-skipped {
		t.Errorf("%s: Java's scan plans %d files, though the embedded indexes refute %d of %d", r.name, planned, skipped, len(lakesql))
	}
}
