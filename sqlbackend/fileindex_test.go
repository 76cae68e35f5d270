package sqlbackend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
)

// latestOptions are the options of the table's latest schema.
func latestOptions(t *testing.T, h *harness, db, table string) map[string]string {
	t.Helper()
	tb, err := h.backend.OpenTable(context.Background(), db, table)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tb.LatestSchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s.Options
}

func wantOptions(t *testing.T, h *harness, table string, want map[string]string) {
	t.Helper()
	got := latestOptions(t, h, "d", table)
	for key, value := range want {
		if v, ok := got[key]; value == "" && ok || value != "" && v != value {
			t.Errorf("%s: option %s = %q (set %v), want %q", table, key, v, ok, value)
		}
	}
}

const (
	bloomColumns  = "file-index.bloom-filter.columns"
	bitmapColumns = "file-index.bitmap.columns"
)

// Index DDL declares Paimon file indexes: bloom filters by default,
// bitmaps for USING BITMAP (before or after the key parts), with the
// MySQL name kept where it is not the column's; DROP and RENAME edit the
// same options.
func TestIndexDDLDeclaresFileIndexes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, v INT, s VARCHAR(20), b BIGINT)",
		"CREATE INDEX iv ON p (v)",
		"ALTER TABLE p ADD KEY (s) USING HASH, ADD INDEX bb (b) USING BITMAP",
		"CREATE INDEX vb USING BITMAP ON p (v)",
		`ALTER TABLE p COMMENT 'paimon:{"file-index.bloom-filter.v.fpp":"0.01"}'`)
	wantOptions(t, h, "p", map[string]string{
		bloomColumns: "v,s", bitmapColumns: "b,v",
		"lakesql.index-name.bloom-filter.v": "iv", "lakesql.index-name.bloom-filter.s": "",
		"lakesql.index-name.bitmap.b": "bb", "lakesql.index-name.bitmap.v": "vb",
		"file-index.bloom-filter.v.fpp": "0.01",
	})
	wantRows(t, c, "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE, SEQ_IN_INDEX, INDEX_TYPE, INDEX_COMMENT, IS_VISIBLE "+
		"FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'd' AND TABLE_NAME = 'p'",
		"[PRIMARY id 0 1 BTREE  YES]", "[iv v 1 1 BLOOM Paimon file index YES]", "[s s 1 1 BLOOM Paimon file index YES]",
		"[bb b 1 1 BITMAP Paimon file index YES]", "[vb v 1 1 BITMAP Paimon file index YES]")

	c.mustExec("DROP INDEX iv ON p", "ALTER TABLE p DROP INDEX bb, RENAME INDEX s TO by_s")
	wantOptions(t, h, "p", map[string]string{
		bloomColumns: "s", bitmapColumns: "v", "lakesql.index-name.bloom-filter.v": "",
		"file-index.bloom-filter.v.fpp": "", "lakesql.index-name.bloom-filter.s": "by_s",
	})
	c.mustExec("ALTER TABLE p DROP INDEX by_s", "DROP INDEX vb ON p")
	wantOptions(t, h, "p", map[string]string{bloomColumns: "", bitmapColumns: "", "lakesql.index-name.bitmap.v": ""})
	for key := range latestOptions(t, h, "d", "p") {
		if strings.HasPrefix(key, "file-index.") || strings.HasPrefix(key, "lakesql.index-name.") {
			t.Errorf("option %s left after every index was dropped", key)
		}
	}
	wantRows(t, c, "SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_NAME = 'p'", "[PRIMARY]")
}

// Each refusal carries MySQL's number, and leaves the table as it was.
func TestIndexDDLErrors(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, v INT, s TEXT, ok BOOLEAN, amount DECIMAL(10,2), d DOUBLE)",
		"CREATE INDEX iv ON p (v)")
	before := latestOptions(t, h, "d", "p")
	cases := []struct {
		stmt string
		num  int
		text string
	}{
		{"CREATE INDEX x ON p (nosuch)", mysql.ERKeyColumnDoesNotExist, "Key column 'nosuch' doesn't exist in table"},
		{"CREATE INDEX iv ON p (s(10))", mysql.ERDupKeyName, "Duplicate key name 'iv'"},
		{"CREATE INDEX IV ON p (s(10))", mysql.ERDupKeyName, "Duplicate key name 'IV'"},
		{"ALTER TABLE p ADD INDEX again (v)", mysql.ERDupKeyName, "Duplicate key name 'again': column v already has the BLOOM index iv"},
		{"DROP INDEX nosuch ON p", mysql.ERCantDropFieldOrKey, "Can't DROP 'nosuch'; check that column/key exists"},
		{"ALTER TABLE p RENAME INDEX nosuch TO x", mysql.ERCantDropFieldOrKey, "Can't DROP 'nosuch'"},
		{"ALTER TABLE p DROP INDEX `PRIMARY`", mysql.ERNotSupportedYet, "primary key"},
		{"CREATE UNIQUE INDEX u ON p (v)", mysql.ERNotSupportedYet, "UNIQUE indexes"},
		{"CREATE INDEX m ON p (v, id)", mysql.ERNotSupportedYet, "several columns"},
		{"CREATE FULLTEXT INDEX f ON p (s)", mysql.ERNotSupportedYet, "FULLTEXT"},
		{"CREATE INDEX pre ON p (v(3))", mysql.ERNotSupportedYet, "prefix indexes"},
		{"CREATE INDEX bo ON p (ok)", mysql.ERNotSupportedYet, "cannot hold type BOOLEAN"},
		{"CREATE INDEX am ON p (amount)", mysql.ERNotSupportedYet, "cannot hold type DECIMAL(10, 2)"},
		{"CREATE INDEX dd USING BITMAP ON p (d)", mysql.ERNotSupportedYet, "BITMAP index on column d"},
		{"CREATE INDEX rt USING RTREE ON p (v)", mysql.ERNotSupportedYet, "index type rtree"},
		{"ALTER TABLE p ADD COLUMN w INT, ADD INDEX iw (w)", mysql.ERNotSupportedYet, "cannot be combined"},
		{"ALTER TABLE p ADD INDEX x (d), ADD INDEX y (amount)", mysql.ERNotSupportedYet, "DECIMAL"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT, UNIQUE KEY uv (v))", mysql.ERNotSupportedYet, "UNIQUE indexes"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT UNIQUE)", mysql.ERNotSupportedYet, "UNIQUE indexes"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT, KEY (nosuch))", mysql.ERKeyColumnDoesNotExist, "Key column 'nosuch'"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT, KEY k (v), KEY k (id))", mysql.ERDupKeyName, "Duplicate key name 'k'"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT, KEY (v, id))", mysql.ERNotSupportedYet, "several columns"},
		{"CREATE TABLE a (id INT PRIMARY KEY, v INT, CHECK (v > 0))", mysql.ERNotSupportedYet, "CHECK constraints"},
	}
	for _, tc := range cases {
		_, err := c.query(tc.stmt)
		if err == nil || errorCode(err) != tc.num || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v, want error %d %q", tc.stmt, err, tc.num, tc.text)
		}
	}
	if after := latestOptions(t, h, "d", "p"); len(after) != len(before) {
		t.Errorf("refused statements changed the options: %v, were %v", after, before)
	}
	wantRows(t, c, "SHOW TABLES", "[p]")
	wantRows(t, c, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'p' ORDER BY ORDINAL_POSITION",
		"[id]", "[v]", "[s]", "[ok]", "[amount]", "[d]")
}

// CREATE TABLE declares its indexes in the table's first schema, and
// SHOW CREATE TABLE prints them back as KEY clauses that recreate them.
func TestCreateTableIndexesRoundTrip(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", `CREATE TABLE o (
		id BIGINT NOT NULL, dt DATE, code VARCHAR(8), note TEXT, flag BOOLEAN,
		PRIMARY KEY (id), KEY by_code (code), INDEX (dt) USING BITMAP, KEY (note(100)), KEY bf (flag) USING BITMAP
	) COMMENT 'paimon:{"file-index.bloom-filter.code.items":"500"} orders'`)
	tb, err := h.backend.OpenTable(context.Background(), "d", "o")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tb.LatestSchema(context.Background()); err != nil || s.ID != 0 {
		t.Fatalf("table created through schema %v (%v), want the indexes in schema 0", s, err)
	}
	wantOptions(t, h, "o", map[string]string{
		bloomColumns: "code,note", bitmapColumns: "dt,flag",
		"lakesql.index-name.bloom-filter.code": "by_code", "lakesql.index-name.bitmap.flag": "bf",
		"lakesql.index-name.bitmap.dt": "", "file-index.bloom-filter.code.items": "500",
	})
	show := c.mustQuery("SHOW CREATE TABLE o")[0][1].(string)
	for _, want := range []string{"KEY `by_code` (`code`),", "KEY `note` (`note`(255)),", "KEY `dt` (`dt`) USING BITMAP,",
		"KEY `bf` (`flag`) USING BITMAP\n", `"file-index.bloom-filter.code.items":"500"`} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, show)
		}
	}
	if strings.Contains(show, "file-index.bitmap.columns") || strings.Contains(show, "lakesql.index-name") {
		t.Errorf("SHOW CREATE TABLE repeats index options in the comment:\n%s", show)
	}
	c.mustExec("CREATE DATABASE d2", "USE d2", show)
	if again := c.mustQuery("SHOW CREATE TABLE o")[0][1].(string); again != show {
		t.Errorf("recreated table shows\n%s\nwant\n%s", again, show)
	}
	if got, want := latestOptions(t, h, "d2", "o"), latestOptions(t, h, "d", "o"); len(got) != len(want) {
		t.Errorf("recreated options %v, want %v", got, want)
	}
}

// Indexes Java declares (options only, no names) show by their column, a
// bitmap beside a bloom filter of the same column as <column>_bitmap;
// lakesql drops and renames them like its own.
func TestJavaDeclaredIndexesShow(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE j (id INT PRIMARY KEY, v INT, s VARCHAR(10)) COMMENT 'paimon:{"file-index.bloom-filter.columns":"v, s","file-index.bitmap.columns":"v"}'`,
		`ALTER TABLE j COMMENT 'paimon:{"file-index.bloom-filter.s.fpp":"0.05"}'`)
	wantRows(t, c, "SHOW INDEX FROM j",
		"[j 0 PRIMARY 1 id <nil> 0 <nil> <nil>  BTREE   YES <nil>]",
		"[j 1 v 1 v <nil> 0 <nil> <nil> YES BLOOM Paimon file index  YES <nil>]",
		"[j 1 s 1 s <nil> 0 <nil> <nil> YES BLOOM Paimon file index  YES <nil>]",
		"[j 1 v_bitmap 1 v <nil> 0 <nil> <nil> YES BITMAP Paimon file index  YES <nil>]")
	if keys, index := format(c.mustQuery("SHOW KEYS FROM j")), format(c.mustQuery("SHOW INDEX FROM j")); !slices.Equal(keys, index) {
		t.Errorf("SHOW KEYS %v, SHOW INDEX %v", keys, index)
	}
	// Dropping the bloom filter v renames no other index.
	c.mustExec("DROP INDEX v ON j", "DROP INDEX s ON j")
	wantRows(t, c, "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_NAME = 'j'",
		"[PRIMARY id]", "[v_bitmap v]")
	wantOptions(t, h, "j", map[string]string{bloomColumns: "", "file-index.bloom-filter.s.fpp": "",
		bitmapColumns: "v", "lakesql.index-name.bitmap.v": "v_bitmap"})
}

// File indexes never reach GMS's planner: WHERE and joins on an indexed
// column answer as without the index, with the rewrites on and off, and
// SHOW INDEX lists the indexes in both modes.
func TestFileIndexesAreNotPlannerIndexes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE f (id INT PRIMARY KEY, v INT, s VARCHAR(10), KEY (v), KEY (s) USING BITMAP)",
		"CREATE TABLE g (gid INT PRIMARY KEY, v INT)",
		"INSERT INTO f VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 10, NULL), (4, NULL, 'a')",
		"INSERT INTO g VALUES (1, 10), (2, 30), (3, NULL), (4, 20)")
	wantRowsInBothModes(t, c, map[string]string{
		"SELECT id FROM f WHERE v = 10":                                   "[1] [3]",
		"SELECT id FROM f WHERE v > 10 OR v IS NULL":                      "[2] [4]",
		"SELECT id FROM f WHERE s = 'a' ORDER BY v":                       "[1] [4]",
		"SELECT f.id, g.gid FROM f JOIN g ON f.v = g.v":                   "[1 1] [2 4] [3 1]",
		"SELECT g.gid, f.id FROM g LEFT JOIN f ON g.v = f.v":              "[1 1] [1 3] [2 <nil>] [3 <nil>] [4 2]",
		"SELECT /*+ LOOKUP_JOIN(g, f) */ f.id FROM g JOIN f ON f.v = g.v": "[1] [2] [3]",
		"SELECT v FROM f ORDER BY v DESC LIMIT 2":                         "[10] [20]",
	})
	ctx := c.context()
	for _, mode := range []string{"ON", "OFF"} {
		c.mustExec("SET lakesql_planner_rewrites = " + mode)
		tbl, _, err := h.engine.Analyzer.Catalog.Table(ctx, "d", "f")
		if err != nil {
			t.Fatal(err)
		}
		planned, err := tbl.(sql.IndexAddressable).GetIndexes(ctx)
		if err != nil || len(planned) > 1 || len(planned) == 1 && planned[0].ID() != "PRIMARY" {
			t.Errorf("rewrites %s: GMS plans with indexes %v (%v), want PRIMARY at most", mode, planned, err)
		}
		wantRows(t, c, "SELECT INDEX_NAME, INDEX_TYPE FROM information_schema.STATISTICS WHERE TABLE_NAME = 'f'",
			"[PRIMARY BTREE]", "[v BLOOM]", "[s BITMAP]")
		if got := len(c.mustQuery("SHOW INDEX FROM f")); got != 3 {
			t.Errorf("rewrites %s: SHOW INDEX lists %d indexes, want 3", mode, got)
		}
		c.mustExec("ALTER TABLE f ADD INDEX extra (id)", "DROP INDEX extra ON f")
	}
}

// An index created on a table with data serves the files written after
// it: a point select on the column skips the other new files by their
// bloom filter (EXPLAIN says how many) and returns what a scan without
// the index returns; files written before it have no index and are read.
func TestCreatedIndexSkipsFiles(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE pay (id BIGINT PRIMARY KEY, order_no VARCHAR(20), amount INT) COMMENT 'paimon:{\"bucket\":\"1\",\"write-only\":\"true\"}'",
		"INSERT INTO pay VALUES (1, 'o-1', 10), (2, 'o-2', 20)",
		"CREATE INDEX by_order ON pay (order_no)")
	for batch := 1; batch <= 6; batch++ {
		c.mustExec(fmt.Sprintf("INSERT INTO pay VALUES (%d, 'o-%d', %d), (%d, 'o-%d', %d)",
			10*batch, 10*batch, batch, 10*batch+1, 10*batch+1, batch))
	}
	c.mustExec("UPDATE pay SET order_no = 'o-moved' WHERE id = 30")
	for _, q := range []string{
		"SELECT id, amount FROM pay WHERE order_no = 'o-41'",
		"SELECT id, amount FROM pay WHERE order_no = 'o-30'",
		"SELECT id, amount FROM pay WHERE order_no IN ('o-2', 'o-moved', 'o-61')",
		"SELECT id, amount FROM pay WHERE id = 51",
	} {
		on := format(c.mustQuery(q))
		c.mustExec("SET lakesql_planner_rewrites = OFF")
		off := format(c.mustQuery(q))
		c.mustExec("SET lakesql_planner_rewrites = ON")
		if !slices.Equal(on, off) {
			t.Errorf("%s: %v, without pushdown %v", q, on, off)
		}
	}
	wantRows(t, c, "SELECT id, amount FROM pay WHERE order_no = 'o-41'", "[41 4]")
	wantRows(t, c, "SELECT id FROM pay WHERE order_no = 'o-30'")

	// In an append table every file's rows are result rows, so a filter
	// on any indexed column skips files. Each file spans 'a-<n>' to
	// 'z-<n>', so statistics keep files 4 to 6 for 'z-4'.
	c.mustExec("CREATE TABLE ev (id BIGINT, order_no VARCHAR(20)) COMMENT 'paimon:{\"write-only\":\"true\"}'",
		"CREATE INDEX by_order ON ev (order_no)")
	for batch := 1; batch <= 6; batch++ {
		c.mustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, 'a-%d'), (%d, 'z-%d')", batch, batch, -batch, batch))
	}
	wantRows(t, c, "SELECT id FROM ev WHERE order_no = 'z-4'", "[-4]")
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN SELECT id FROM ev WHERE order_no = 'z-4'")), "\n")
	if !strings.Contains(plan, "files=1/6 index-skipped=2 ") {
		t.Errorf("EXPLAIN does not say the two files statistics kept were skipped by their index:\n%s", plan)
	}
}

// Renaming an indexed column renames it in its index, as MySQL does, and
// dropping it drops the index: Java refuses schemas whose index options
// name a missing column, and the writer could no longer write the table.
func TestIndexedColumnRenameAndDrop(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, s VARCHAR(10))",
		"CREATE INDEX by_v ON t (v)", "CREATE INDEX by_s USING BITMAP ON t (s)",
		"ALTER TABLE t RENAME COLUMN v TO w")
	wantRows(t, c, "SELECT INDEX_NAME, COLUMN_NAME, INDEX_TYPE FROM information_schema.STATISTICS WHERE TABLE_NAME = 't' ORDER BY 1",
		"[by_s s BITMAP]", "[by_v w BLOOM]", "[PRIMARY id BTREE]")
	c.mustExec("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')", "ALTER TABLE t DROP COLUMN s",
		"INSERT INTO t VALUES (3, 30)")
	wantRows(t, c, "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_NAME = 't' ORDER BY 1",
		"[by_v w]", "[PRIMARY id]")
	wantRows(t, c, "SELECT id FROM t WHERE w = 30", "[3]")
	wantOptions(t, h, "t", map[string]string{bitmapColumns: "", "lakesql.index-name.bitmap.s": "", bloomColumns: "w",
		"lakesql.index-name.bloom-filter.w": "by_v"})
}

// t$file_indexes lists every index of every live file as Java's
// FileIndexesTable does: embedded in the manifest, or in a .index file
// whose path and size it gives.
func TestFileIndexesSystemTable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE e (id INT, s VARCHAR(10), KEY (id), KEY (s) USING BITMAP)",
		`CREATE TABLE f (id INT, s VARCHAR(10), KEY (id)) COMMENT 'paimon:{"file-index.in-manifest-threshold":"1 b","write-only":"true"}'`,
		"INSERT INTO e VALUES (1, 'a'), (2, NULL)", "INSERT INTO f VALUES (1, 'a')", "INSERT INTO f VALUES (2, 'b')")
	wantRows(t, c, "SELECT bucket, column_name, index_type, storage_type, index_file_path IS NULL, index_size_in_bytes > 0, "+
		"index_container_size_in_bytes > index_size_in_bytes, is_empty, record_count FROM `e$file_indexes` ORDER BY column_name",
		"[0 id bloom-filter EMBEDDED true true true 0 2]", "[0 s bitmap EMBEDDED true true true 0 2]")
	rows := c.mustQuery("SELECT file_path, index_file_path, index_container_size_in_bytes FROM `f$file_indexes` ORDER BY file_path")
	if len(rows) != 2 {
		t.Fatalf("f$file_indexes: %v", rows)
	}
	for _, r := range rows {
		file, index, size := fmt.Sprint(r[0]), fmt.Sprint(r[1]), r[2]
		info, err := os.Stat(index)
		if index != file+".index" || err != nil || fmt.Sprint(info.Size()) != fmt.Sprint(size) {
			t.Errorf("f$file_indexes: data file %s, index %s of %v bytes (%v)", file, index, size, err)
		}
	}
}

// Java's index files list as Java's metadata reader lists them: the bsi,
// bitmap and bloom-filter indexes of one .index file, and bitmaps of
// version 1 embedded in the manifest.
func TestJavaFileIndexesSystemTable(t *testing.T) {
	h := newHarness(t, filepath.Join(fixtures.Root(), "paimon-java"))
	c := h.connect()
	wantRows(t, c, "SELECT index_type, COUNT(*), MIN(storage_type), SUM(is_empty) "+
		"FROM append_with_bsi_bitmap_bloomfilter.`append_with_bsi_bitmap_bloomfilter$file_indexes` GROUP BY index_type ORDER BY index_type",
		"[bitmap 4 FILE 0]", "[bloom-filter 5 FILE 0]", "[bsi 3 FILE 0]")
	wantRows(t, c, "SELECT column_name, storage_type FROM append_with_bitmap_v1.`append_with_bitmap_v1$file_indexes` ORDER BY column_name",
		"[f0 EMBEDDED]", "[f1 EMBEDDED]", "[f2 EMBEDDED]")
}

// Java's btree global indexes (testdata/globalindex) let a read skip the
// row-id groups they refute, and EXPLAIN counts them with the files data-
// file indexes skip.
func TestGlobalIndexesSkipGroups(t *testing.T) {
	h := newHarness(t, filepath.Join("..", "testdata", "globalindex"))
	c := h.connect()
	c.mustExec("USE gi")
	wantRows(t, c, "SELECT COUNT(*) FROM btree_zstd WHERE k = 'zzz'", "[0]")
	wantRows(t, c, "SELECT id FROM btree_zstd WHERE n = 39 ORDER BY id", "[7]", "[57]", "[107]", "[157]")
	wantRows(t, c, "SELECT id FROM btree_zstd WHERE s > 3 AND id < 10 ORDER BY id", "[4]", "[9]")
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN SELECT id FROM btree_zstd WHERE k = 'zzz'")), "\n")
	if !strings.Contains(plan, "index-skipped=2") {
		t.Errorf("EXPLAIN does not say the global index skipped both row-id groups:\n%s", plan)
	}
}
