package integration

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/fileio"
)

// Paimon's system tables (`t$snapshots` …) over the wire, on a table whose
// whole history was made with SQL through a server started as
// `lakesql serve` starts one.

// topLevel is the LSM level a full compaction writes to: Paimon's default
// num-levels is num-sorted-run.compaction-trigger (5) + 1.
const topLevel = "5"

// sysTableHistory gives sales.orders six snapshots:
//
//  1. APPEND by session W, watermark 1000: ids 1, 2 (2026-04-16) and 3 (2026-04-17)
//  2. APPEND by W, watermark 2000: UPDATE of id 1 (amount 10 → 11)
//  3. APPEND by W, no watermark asked for: DELETE of id 2
//  4. APPEND by commit user fix-job, identifier 42: id 4 (2026-04-17)
//  5. COMPACT by sys.compact, after tags before-compact (on 4) and first
//     (on 1, kept one day)
//  6. APPEND by W with watermark 1500, lower than the table's: id 5 (2026-04-16)
func sysTableHistory(t *testing.T) (*lakesqlServer, *sql.DB) {
	t.Helper()
	s, root := startOrders(t)
	writer, fixJob := sysTableSession(t, root), sysTableSession(t, root)
	sysTableExec(t, writer,
		"SET lakesql_commit_watermark = 1000",
		"INSERT INTO sales.orders VALUES ('2026-04-16', 1, 10), ('2026-04-16', 2, 20), ('2026-04-17', 3, 30)",
		"SET lakesql_commit_watermark = 2000",
		"UPDATE sales.orders SET amount = 11 WHERE id = 1",
		"SET lakesql_commit_watermark = -1",
		"DELETE FROM sales.orders WHERE id = 2")
	sysTableExec(t, fixJob,
		"SET lakesql_commit_user = 'fix-job', lakesql_commit_identifier = 42",
		"INSERT INTO sales.orders VALUES ('2026-04-17', 4, 40)")
	servertest.Exec(t, root,
		"CALL sys.create_tag('sales.orders', 'before-compact')",
		"CALL sys.create_tag('sales.orders', 'first', 1, '1 d')",
		"CALL sys.compact('sales.orders')")
	sysTableExec(t, writer,
		"SET lakesql_commit_watermark = 1500",
		"INSERT INTO sales.orders VALUES ('2026-04-16', 5, 50)")
	return s, root
}

// sysTableSession is one connection of db, so that session variables set
// on it hold for its later statements.
func sysTableSession(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func sysTableExec(t *testing.T, conn *sql.Conn, statements ...string) {
	t.Helper()
	for _, s := range statements {
		if _, err := conn.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

type sysTableQueryer interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// sysTableRows is every row of a query, each joined with spaces.
func sysTableRows(t *testing.T, db sysTableQueryer, query string) []string {
	t.Helper()
	_, rows := queryStrings(t, db, query)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}

// sysTableValue is the one value a query returns.
func sysTableValue(t *testing.T, db sysTableQueryer, query string) string {
	t.Helper()
	rows := sysTableRows(t, db, query)
	if len(rows) != 1 {
		t.Fatalf("%s: %q, want one value", query, rows)
	}
	return rows[0]
}

func wantSysTableRows(t *testing.T, db sysTableQueryer, query string, want ...string) {
	t.Helper()
	if got := sysTableRows(t, db, query); !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", query, got, want)
	}
}

// columnTypes describes a query's result columns as the client sees
// them: "name TYPE[(fraction digits)] NULL|NOT NULL".
func columnTypes(t *testing.T, db sysTableQueryer, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(types))
	for i, ct := range types {
		name := ct.DatabaseTypeName()
		if _, scale, ok := ct.DecimalSize(); ok && name == "DATETIME" {
			name = fmt.Sprintf("%s(%d)", name, scale)
		}
		nullable := "NOT NULL"
		if n, ok := ct.Nullable(); ok && n {
			nullable = "NULL"
		}
		out[i] = ct.Name() + " " + name + " " + nullable
	}
	return out
}

// statementError runs a statement, reading any rows, and returns its
// error: a SELECT may fail only once its rows are read.
func statementError(db sysTableQueryer, stmt string) error {
	rows, err := db.QueryContext(context.Background(), stmt)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	return rows.Close()
}

// wantWireError runs a statement that must fail with a MySQL error number
// and SQLSTATE, its message mentioning every fragment, and checks that the
// connection it failed on still answers.
func wantWireError(t *testing.T, db sysTableQueryer, stmt string, number uint16, state string, fragments ...string) {
	t.Helper()
	err := statementError(db, stmt)
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Errorf("%s: %v, want MySQL error %d (%s)", stmt, err, number, state)
		return
	}
	if me.Number != number || string(me.SQLState[:]) != state {
		t.Errorf("%s: error %d (%s) %q, want %d (%s)", stmt, me.Number, me.SQLState[:], me.Message, number, state)
	}
	for _, f := range fragments {
		if !strings.Contains(me.Message, f) {
			t.Errorf("%s: %q does not mention %q", stmt, me.Message, f)
		}
	}
	if _, rows := queryStrings(t, db, "SELECT 1"); len(rows) != 1 || rows[0][0] != "1" {
		t.Errorf("after %s the connection answers SELECT 1 with %v", stmt, rows)
	}
}

func TestSystemTableColumnTypesOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	for kind, want := range map[string][]string{
		"snapshots": {
			"snapshot_id BIGINT NOT NULL", "schema_id BIGINT NOT NULL", "commit_user TEXT NOT NULL",
			"commit_identifier BIGINT NOT NULL", "commit_kind TEXT NOT NULL", "commit_time DATETIME(3) NOT NULL",
			"base_manifest_list TEXT NOT NULL", "delta_manifest_list TEXT NOT NULL", "changelog_manifest_list TEXT NULL",
			"total_record_count BIGINT NULL", "delta_record_count BIGINT NULL", "changelog_record_count BIGINT NULL",
			"watermark BIGINT NULL", "next_row_id BIGINT NULL", "operation TEXT NULL", "writer_version TEXT NULL",
		},
		"files": {
			"partition TEXT NULL", "bucket INT NOT NULL", "file_path TEXT NOT NULL", "file_format TEXT NOT NULL",
			"schema_id BIGINT NOT NULL", "level INT NOT NULL", "record_count BIGINT NOT NULL",
			"file_size_in_bytes BIGINT NOT NULL", "min_key TEXT NULL", "max_key TEXT NULL",
			"null_value_counts TEXT NOT NULL", "min_value_stats TEXT NOT NULL", "max_value_stats TEXT NOT NULL",
			"min_sequence_number BIGINT NULL", "max_sequence_number BIGINT NULL", "creation_time DATETIME(3) NULL",
			"deleteRowCount BIGINT NULL", "file_source TEXT NULL", "first_row_id BIGINT NULL", "write_cols JSON NULL",
		},
		"schemas": {
			"schema_id BIGINT NOT NULL", "fields TEXT NOT NULL", "partition_keys TEXT NOT NULL",
			"primary_keys TEXT NOT NULL", "options TEXT NOT NULL", "comment TEXT NULL", "update_time DATETIME(3) NOT NULL",
		},
		"options": {"key TEXT NOT NULL", "value TEXT NOT NULL"},
		"manifests": {
			"file_name TEXT NOT NULL", "file_size BIGINT NOT NULL", "num_added_files BIGINT NOT NULL",
			"num_deleted_files BIGINT NOT NULL", "schema_id BIGINT NOT NULL", "min_partition_stats TEXT NULL",
			"max_partition_stats TEXT NULL", "min_row_id BIGINT NULL", "max_row_id BIGINT NULL",
		},
		"partitions": {
			"partition TEXT NULL", "record_count BIGINT NOT NULL", "file_size_in_bytes BIGINT NOT NULL",
			"file_count BIGINT NOT NULL", "last_update_time DATETIME(3) NULL", "created_at DATETIME(3) NULL",
			"created_by TEXT NULL", "updated_by TEXT NULL", "options TEXT NULL", "total_buckets INT NOT NULL",
			"done TINYINT NOT NULL", "deleted_record_count BIGINT NULL",
		},
		"buckets": {
			"partition TEXT NULL", "bucket INT NOT NULL", "record_count BIGINT NOT NULL",
			"file_size_in_bytes BIGINT NOT NULL", "file_count BIGINT NOT NULL", "last_update_time DATETIME(3) NULL",
		},
		"tags": {
			"tag_name TEXT NOT NULL", "snapshot_id BIGINT NOT NULL", "schema_id BIGINT NOT NULL",
			"commit_time DATETIME(3) NOT NULL", "record_count BIGINT NULL", "create_time DATETIME(3) NULL",
			"time_retained TEXT NULL",
		},
		"consumers": {"consumer_id TEXT NOT NULL", "next_snapshot_id BIGINT NOT NULL"},
		// The row-reading tables have the table's own columns, $audit_log
		// after Java's rowkind.
		"audit_log": {"rowkind TEXT NULL", "dt VARCHAR NOT NULL", "id BIGINT NOT NULL", "amount BIGINT NULL"},
		"ro":        {"dt VARCHAR NOT NULL", "id BIGINT NOT NULL", "amount BIGINT NULL"},
	} {
		query := "SELECT * FROM sales.`orders$" + kind + "`"
		if got := columnTypes(t, root, query); !slices.Equal(got, want) {
			t.Errorf("%s columns:\n got %q\nwant %q", query, got, want)
		}
		// Prepared statements describe their columns the same way.
		if got := columnTypes(t, root, query+" WHERE 1 = ?", 1); !slices.Equal(got, want) {
			t.Errorf("prepared %s columns:\n got %q\nwant %q", query, got, want)
		}
	}
}

// TestSnapshotsSystemTableOverTheWire: each snapshot's kind, user,
// identifier, record counts and watermark follow from the statement that
// made it.
func TestSnapshotsSystemTableOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	_, rows := queryStrings(t, root, "SELECT snapshot_id, schema_id, commit_user, commit_identifier, commit_kind, "+
		"total_record_count, delta_record_count, changelog_manifest_list, changelog_record_count, watermark "+
		"FROM sales.`orders$snapshots` ORDER BY snapshot_id")
	if len(rows) != 6 {
		t.Fatalf("$snapshots has %d rows, want 6: %v", len(rows), rows)
	}
	writer, compactor := rows[0][2], rows[4][2]
	if writer == "fix-job" || compactor == writer || compactor == "fix-job" || compactor == "" {
		t.Errorf("commit users: writer %q, compaction %q; want three distinct users", writer, compactor)
	}
	// The APPEND deltas are the records each statement wrote (the DELETE
	// writes one -D record). The full compaction leaves one record for each
	// of the 3 live rows, so its delta is what it added less what it
	// removed, 3 - 6.
	want := [][]string{
		{"1", "0", writer, "1", "APPEND", "3", "3", "NULL", "NULL", "1000"},
		{"2", "0", writer, "2", "APPEND", "4", "1", "NULL", "NULL", "2000"},
		{"3", "0", writer, "3", "APPEND", "5", "1", "NULL", "NULL", "2000"},
		{"4", "0", "fix-job", "42", "APPEND", "6", "1", "NULL", "NULL", "2000"},
		{"5", "0", compactor, rows[4][3], "COMPACT", "3", "-3", "NULL", "NULL", "2000"},
		{"6", "0", writer, "4", "APPEND", "4", "1", "NULL", "NULL", "2000"},
	}
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("snapshot %d:\n got %q\nwant %q", i+1, rows[i], want[i])
		}
	}
	if id, err := strconv.Atoi(rows[4][3]); err != nil || id < 1 {
		t.Errorf("compaction commit identifier %q, want a positive number", rows[4][3])
	}
	// Each snapshot's total is the records of its live files.
	for id := 1; id <= 6; id++ {
		files := scalar(t, root, fmt.Sprintf("SELECT SUM(record_count) FROM sales.`orders$files` AS OF %d", id))
		if files != rows[id-1][5] {
			t.Errorf("snapshot %d: total_record_count %s, its files hold %s records", id, rows[id-1][5], files)
		}
	}
	if live := scalar(t, root, "SELECT COUNT(*) FROM sales.orders AS OF 5"); live != rows[4][5] {
		t.Errorf("after the full compaction total_record_count is %s, the table holds %s rows", rows[4][5], live)
	}
	// Commit times never go back, and each snapshot has base and delta
	// manifest lists of its own.
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$snapshots` a JOIN sales.`orders$snapshots` b "+
		"ON b.snapshot_id = a.snapshot_id + 1 WHERE b.commit_time < a.commit_time", "0")
	wantSysTableRows(t, root, "SELECT COUNT(DISTINCT base_manifest_list), COUNT(DISTINCT delta_manifest_list) "+
		"FROM sales.`orders$snapshots` WHERE base_manifest_list LIKE 'manifest-list-%' AND delta_manifest_list LIKE 'manifest-list-%'", "6 6")
}

// TestFilesSystemTableOverTheWire: $files lists every live file with its
// level, so a full compaction shows as top-level files and a later insert
// as a level-0 one.
func TestFilesSystemTableOverTheWire(t *testing.T) {
	s, root := sysTableHistory(t)
	before := sysTableRows(t, root, "SELECT DISTINCT level FROM sales.`orders$files` AS OF 4")
	if !slices.Equal(before, []string{"0"}) {
		t.Errorf("levels before the compaction: %v, want only level 0", before)
	}
	wantSysTableRows(t, root, "SELECT DISTINCT level, file_format, schema_id FROM sales.`orders$files` AS OF 5",
		topLevel+" parquet 0")
	// The compaction rewrote id 1's insert and update into one file; id 2
	// is gone with its delete. Every file of this table holds one key.
	wantSysTableRows(t, root, "SELECT `partition`, level, record_count, min_key, max_key, null_value_counts, "+
		"min_value_stats, max_value_stats, file_source FROM sales.`orders$files` ORDER BY min_key",
		"{2026-04-16} "+topLevel+" 1 [1] [1] {amount=0, dt=0, id=0} {amount=11, dt=2026-04-16, id=1} {amount=11, dt=2026-04-16, id=1} COMPACT",
		"{2026-04-17} "+topLevel+" 1 [3] [3] {amount=0, dt=0, id=0} {amount=30, dt=2026-04-17, id=3} {amount=30, dt=2026-04-17, id=3} APPEND",
		"{2026-04-17} "+topLevel+" 1 [4] [4] {amount=0, dt=0, id=0} {amount=40, dt=2026-04-17, id=4} {amount=40, dt=2026-04-17, id=4} APPEND",
		"{2026-04-16} 0 1 [5] [5] {amount=0, dt=0, id=0} {amount=50, dt=2026-04-16, id=5} {amount=50, dt=2026-04-16, id=5} APPEND")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$files` WHERE file_size_in_bytes <= 0 OR creation_time IS NULL "+
		"OR min_sequence_number > max_sequence_number OR deleteRowCount <> 0", "0")

	fsys, warehouseRoot := openWarehouse(t, s.Config.Warehouse)
	_, rows := queryStrings(t, root, "SELECT `partition`, bucket, file_path FROM sales.`orders$files`")
	for _, r := range rows {
		dir := fmt.Sprintf("sales.db/orders/dt=%s/bucket-%s/", strings.Trim(r[0], "{}"), r[1])
		if !strings.Contains(r[2], dir) || !strings.HasSuffix(r[2], ".parquet") {
			t.Errorf("file_path %s is not a parquet file under %s", r[2], dir)
		}
		stored := path.Join(warehouseRoot, dir, path.Base(r[2]))
		if ok, err := fileio.Exists(context.Background(), fsys, stored); !ok || err != nil {
			t.Errorf("file_path %s: %s exists %v (%v)", r[2], stored, ok, err)
		}
	}
}

// TestRowSystemTablesOverTheWire: $audit_log shows each row with the kind
// of its last change, deletes included until a full compaction drops
// them; $ro reads only top-level files.
func TestRowSystemTablesOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	const auditLog = "SELECT rowkind, dt, id, amount FROM sales.`orders$audit_log` %s ORDER BY id"
	wantSysTableRows(t, root, fmt.Sprintf(auditLog, "AS OF 1"),
		"+I 2026-04-16 1 10", "+I 2026-04-16 2 20", "+I 2026-04-17 3 30")
	// lakesql's UPDATE writes the new row as +U (no -U before it), and a
	// DELETE the whole old row as -D.
	wantSysTableRows(t, root, fmt.Sprintf(auditLog, "AS OF 'before-compact'"),
		"+U 2026-04-16 1 11", "-D 2026-04-16 2 20", "+I 2026-04-17 3 30", "+I 2026-04-17 4 40")
	wantSysTableRows(t, root, fmt.Sprintf(auditLog, ""),
		"+U 2026-04-16 1 11", "+I 2026-04-17 3 30", "+I 2026-04-17 4 40", "+I 2026-04-16 5 50")
	wantSysTableRows(t, root, "SELECT rowkind, COUNT(*) FROM sales.`orders$audit_log` AS OF 4 GROUP BY rowkind ORDER BY rowkind",
		"+I 2", "+U 1", "-D 1")

	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$ro` AS OF 4", "0")
	compacted := sysTableRows(t, root, "SELECT dt, id, amount FROM sales.orders AS OF 5 ORDER BY id")
	wantSysTableRows(t, root, "SELECT dt, id, amount FROM sales.`orders$ro` ORDER BY id", compacted...)
	wantSysTableRows(t, root, "SELECT CONCAT('[', id, ']') FROM sales.`orders$ro` ORDER BY id",
		sysTableRows(t, root, "SELECT min_key FROM sales.`orders$files` WHERE level = "+topLevel+" ORDER BY min_key")...)
	if all := scalar(t, root, "SELECT COUNT(*) FROM sales.orders"); all != "4" {
		t.Errorf("the table holds %s rows, want 4 (the level-0 insert of id 5 included)", all)
	}
}

// TestFileGroupSystemTablesOverTheWire: $partitions and $buckets sum the
// live files $files lists, at the latest snapshot and under AS OF, and
// $manifests add up to them.
func TestFileGroupSystemTablesOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	for _, asOf := range []string{"", "AS OF 1", "AS OF 4", "FOR VERSION AS OF 5"} {
		files := "sales.`orders$files` " + asOf
		wantSysTableRows(t, root, "SELECT `partition`, record_count, file_size_in_bytes, file_count, last_update_time, "+
			"total_buckets, done, deleted_record_count, created_at, created_by, updated_by, options FROM sales.`orders$partitions` "+asOf,
			sysTableRows(t, root, "SELECT CONCAT('dt=', SUBSTRING(`partition`, 2, 10)) AS p, SUM(record_count), SUM(file_size_in_bytes), "+
				"COUNT(*), MAX(creation_time), 2, 0, 0, NULL, NULL, NULL, NULL FROM "+files+" GROUP BY p ORDER BY p")...)
		wantSysTableRows(t, root, "SELECT `partition`, bucket, record_count, file_size_in_bytes, file_count, last_update_time "+
			"FROM sales.`orders$buckets` "+asOf,
			sysTableRows(t, root, "SELECT `partition`, bucket, SUM(record_count), SUM(file_size_in_bytes), COUNT(*), MAX(creation_time) "+
				"FROM "+files+" GROUP BY `partition`, bucket ORDER BY `partition`, bucket")...)
		// A snapshot's manifests add every live file once more than they
		// delete it.
		wantSysTableRows(t, root, "SELECT SUM(num_added_files) - SUM(num_deleted_files) FROM sales.`orders$manifests` "+asOf,
			scalar(t, root, "SELECT COUNT(*) FROM "+files))
	}
	wantSysTableRows(t, root, "SELECT num_added_files, num_deleted_files, schema_id, min_partition_stats, max_partition_stats, "+
		"min_row_id, max_row_id FROM sales.`orders$manifests` AS OF 1",
		scalar(t, root, "SELECT COUNT(*) FROM sales.`orders$files` AS OF 1")+" 0 0 {2026-04-16} {2026-04-17} NULL NULL")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$manifests` WHERE file_name NOT LIKE 'manifest-%' OR file_size <= 0", "0")
}

// TestMetadataSystemTablesOverTheWire: $tags, $schemas, $options and
// $consumers list what the table has now.
func TestMetadataSystemTablesOverTheWire(t *testing.T) {
	s, root := sysTableHistory(t)
	// A tag is its snapshot: same commit time and record count; only a
	// tag kept for a while records when it was made.
	wantSysTableRows(t, root, "SELECT g.tag_name, g.snapshot_id, g.schema_id, g.commit_time = s.commit_time, "+
		"g.record_count = s.total_record_count, g.create_time IS NOT NULL, g.time_retained "+
		"FROM sales.`orders$tags` g JOIN sales.`orders$snapshots` s ON s.snapshot_id = g.snapshot_id ORDER BY g.tag_name",
		"before-compact 4 0 1 1 0 NULL", "first 1 0 1 1 1 PT24H")

	wantSysTableRows(t, root, "SELECT schema_id, partition_keys, primary_keys, comment FROM sales.`orders$schemas`",
		`0 ["dt"] ["dt","id"] NULL`)
	fields := scalar(t, root, "SELECT fields FROM sales.`orders$schemas`")
	for _, f := range []string{`"name":"dt","type":"VARCHAR(10) NOT NULL"`, `"name":"id","type":"BIGINT NOT NULL"`, `"name":"amount","type":"BIGINT"`} {
		if !strings.Contains(fields, f) {
			t.Errorf("schema 0 fields %s lack %s", fields, f)
		}
	}
	wantSysTableRows(t, root, "SELECT `key`, value FROM sales.`orders$options` WHERE `key` LIKE 'bucket%' ORDER BY `key`",
		"bucket 2", "bucket-key id")
	servertest.Exec(t, root, `ALTER TABLE sales.orders COMMENT 'paimon:{"snapshot.num-retained.min":"3"} orders'`)
	wantSysTableRows(t, root, "SELECT schema_id, comment FROM sales.`orders$schemas` ORDER BY schema_id", "0 NULL", "1 orders")
	wantSysTableRows(t, root, "SELECT value FROM sales.`orders$options` WHERE `key` = 'snapshot.num-retained.min'", "3")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$schemas` a JOIN sales.`orders$schemas` b "+
		"ON b.schema_id = a.schema_id + 1 WHERE b.update_time < a.update_time", "0")

	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$consumers`", "0")
	// A streaming reader (Flink) records its progress as a consumer file;
	// lakesql only lists them.
	fsys, warehouseRoot := openWarehouse(t, s.Config.Warehouse)
	consumer := path.Join(warehouseRoot, "sales.db", "orders", "consumer", "consumer-reconciler")
	if err := fsys.PutIfAbsent(context.Background(), consumer, []byte(`{"nextSnapshot":5}`)); err != nil {
		t.Fatal(err)
	}
	wantSysTableRows(t, root, "SELECT consumer_id, next_snapshot_id FROM sales.`orders$consumers`", "reconciler 5")
}

// TestSystemTableTimeTravelOverTheWire: the snapshot-scoped and row
// system tables take every AS OF spelling lakesql reads, by id, tag and
// commit time, and keep reading a tag after its snapshot expired; the
// tables of current metadata refuse AS OF.
func TestSystemTableTimeTravelOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	const files = "SELECT file_path FROM sales.`orders$files` %s ORDER BY file_path"
	at4 := sysTableRows(t, root, fmt.Sprintf(files, "AS OF 4"))
	if latest := sysTableRows(t, root, fmt.Sprintf(files, "")); slices.Equal(at4, latest) || len(at4) == 0 {
		t.Fatalf("$files AS OF 4 %v, latest %v: want two different non-empty lists", at4, latest)
	}
	for _, asOf := range []string{"FOR VERSION AS OF 4", "VERSION AS OF 4", "AS OF '4'", "AS OF 'before-compact'", "FOR VERSION AS OF 'before-compact'"} {
		wantSysTableRows(t, root, fmt.Sprintf(files, asOf), at4...)
	}
	// A commit time, in the session's zone as $snapshots shows it, selects
	// the last snapshot committed at or before it.
	for _, zone := range []string{"+00:00", "+05:30"} {
		session := sysTableSession(t, root)
		sysTableExec(t, session, "SET time_zone = '"+zone+"'")
		stamp := sysTableValue(t, session, "SELECT commit_time FROM sales.`orders$snapshots` WHERE snapshot_id = 4")
		selected := sysTableValue(t, session, "SELECT MAX(snapshot_id) FROM sales.`orders$snapshots` WHERE commit_time <= '"+stamp+"'")
		for _, spelling := range []string{"FOR SYSTEM_TIME AS OF", "FOR TIMESTAMP AS OF", "AS OF"} {
			wantSysTableRows(t, session, fmt.Sprintf(files, spelling+" '"+stamp+"'"),
				sysTableRows(t, session, fmt.Sprintf(files, "AS OF "+selected))...)
		}
	}
	for _, kind := range []string{"snapshots", "schemas", "options", "tags", "consumers"} {
		wantWireError(t, root, "SELECT * FROM sales.`orders$"+kind+"` AS OF 1", 1235, "42000",
			"orders$"+kind+" lists the table's current metadata and has no AS OF",
			"$audit_log, $buckets, $file_indexes, $files, $manifests, $partitions, $ro, $row_tracking")
	}
	wantWireError(t, root, "SELECT * FROM sales.`orders$files` AS OF 99", 1210, "42000", "snapshot 99", "1..6")
	wantWireError(t, root, "SELECT * FROM sales.`orders$partitions` AS OF 'nosuch'", 1210, "42000", `tag "nosuch"`, "before-compact, first")
	wantWireError(t, root, "SELECT * FROM sales.`orders$files` FOR SYSTEM_VERSION AS OF 1", 1064, "42000", "SYSTEM_VERSION")
	wantWireError(t, root, "SELECT * FROM sales.`orders$files` FOR TIMESTAMP AS OF 4", 1210, "42000")

	auditAt4 := sysTableRows(t, root, "SELECT * FROM sales.`orders$audit_log` AS OF 4 ORDER BY id")
	res := callRow(t, root, "CALL sys.expire_snapshots('sales.orders', 2, 1)")
	if res["snapshots_expired"] != "4" {
		t.Fatalf("expire_snapshots keeping 2: %v, want snapshots 1-4 expired", res)
	}
	wantSysTableRows(t, root, "SELECT snapshot_id FROM sales.`orders$snapshots` ORDER BY snapshot_id", "5", "6")
	wantSysTableRows(t, root, "SELECT tag_name, snapshot_id FROM sales.`orders$tags` ORDER BY tag_name", "before-compact 4", "first 1")
	wantSysTableRows(t, root, fmt.Sprintf(files, "AS OF 'before-compact'"), at4...)
	wantSysTableRows(t, root, "SELECT * FROM sales.`orders$audit_log` AS OF 'before-compact' ORDER BY id", auditAt4...)
	wantWireError(t, root, "SELECT * FROM sales.`orders$files` AS OF 2", 1210, "42000", "snapshot 2", "earliest 5")
	wantWireError(t, root, "SELECT * FROM sales.`orders$audit_log` AS OF 4", 1210, "42000", "snapshot 4", "earliest 5")
}

// TestSystemTableQueriesOverTheWire: system tables filter, sort, group and
// join like any table, through prepared statements too; in a transaction
// $files stays at the transaction's snapshot while $snapshots lists the
// table's current ones.
func TestSystemTableQueriesOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	snapshots := "sales.`orders$snapshots`"
	wantSysTableRows(t, root, "SELECT snapshot_id FROM "+snapshots+" WHERE commit_kind = 'COMPACT'", "5")
	wantSysTableRows(t, root, "SELECT snapshot_id FROM "+snapshots+" ORDER BY snapshot_id DESC LIMIT 2", "6", "5")
	wantSysTableRows(t, root, "SELECT commit_kind, COUNT(*), MAX(watermark) FROM "+snapshots+" GROUP BY commit_kind ORDER BY commit_kind",
		"APPEND 5 2000", "COMPACT 1 2000")
	wantSysTableRows(t, root, "SELECT snapshot_id FROM "+snapshots+" WHERE watermark IS NOT NULL AND delta_record_count < 0", "5")
	wantSysTableRows(t, root, "SELECT level, COUNT(*) FROM sales.`orders$files` GROUP BY level ORDER BY level DESC",
		topLevel+" 3", "0 1")
	wantSysTableRows(t, root, "SELECT t.tag_name FROM sales.`orders$tags` t WHERE t.snapshot_id IN "+
		"(SELECT snapshot_id FROM "+snapshots+" WHERE commit_user = 'fix-job')", "before-compact")
	wantSysTableRows(t, root, "SELECT o.id, a.rowkind FROM sales.orders o JOIN sales.`orders$audit_log` a ON a.id = o.id "+
		"WHERE a.rowkind <> '+I' ORDER BY o.id", "1 +U")

	// Prepared (binary protocol) reads give the text protocol's values.
	var id, identifier int64
	var commitTime string
	if err := root.QueryRow("SELECT snapshot_id, commit_identifier, commit_time FROM "+snapshots+" WHERE commit_user = ?", "fix-job").
		Scan(&id, &identifier, &commitTime); err != nil {
		t.Fatal(err)
	}
	if text := scalar(t, root, "SELECT commit_time FROM "+snapshots+" WHERE snapshot_id = 4"); id != 4 || identifier != 42 || commitTime != text {
		t.Errorf("prepared read: snapshot %d, identifier %d, commit time %s; want 4, 42, %s", id, identifier, commitTime, text)
	}
	var level string
	if err := root.QueryRow("SELECT level FROM sales.`orders$files` AS OF 5 WHERE min_key = ?", "[1]").Scan(&level); err != nil || level != topLevel {
		t.Errorf("prepared $files AS OF 5: level %s, %v; want %s", level, err, topLevel)
	}

	tx := sysTableSession(t, root)
	sysTableExec(t, tx, "START TRANSACTION WITH CONSISTENT SNAPSHOT")
	files := sysTableValue(t, tx, "SELECT COUNT(*) FROM sales.`orders$files`")
	servertest.Exec(t, root, "INSERT INTO sales.orders VALUES ('2026-04-18', 6, 60)")
	wantSysTableRows(t, tx, "SELECT COUNT(*) FROM sales.`orders$files`", files)
	wantSysTableRows(t, tx, "SELECT COUNT(*) FROM sales.`orders$audit_log`", "4")
	wantSysTableRows(t, tx, "SELECT MAX(snapshot_id) FROM "+snapshots, "7")
	sysTableExec(t, tx, "COMMIT")
	wantSysTableRows(t, tx, "SELECT COUNT(*) FROM sales.`orders$audit_log`", "5")
}

// TestSystemTableListingOverTheWire: system tables are not listed among a
// database's tables, yet DESCRIBE shows their columns.
func TestSystemTableListingOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	wantSysTableRows(t, root, "SHOW TABLES FROM sales", "orders")
	wantSysTableRows(t, root, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'sales'", "orders")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'sales' AND table_name LIKE 'orders$%'", "0")
	wantSysTableRows(t, root, "SELECT column_name FROM information_schema.columns WHERE table_schema = 'sales' AND table_name = 'orders' ORDER BY ordinal_position",
		"dt", "id", "amount")
	_, described := queryStrings(t, root, "DESCRIBE sales.`orders$snapshots`")
	var got []string
	for _, r := range described {
		got = append(got, r[0]+" "+r[1]+" "+r[2])
	}
	want := []string{"snapshot_id bigint NO", "schema_id bigint NO", "commit_user longtext NO", "commit_identifier bigint NO",
		"commit_kind longtext NO", "commit_time datetime(3) NO"}
	if len(got) != 16 || !slices.Equal(got[:len(want)], want) {
		t.Errorf("DESCRIBE orders$snapshots: %q, want 16 columns starting %q", got, want)
	}
	servertest.Exec(t, root, "USE sales")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM `ORDERS$SNAPSHOTS`", "6")
}

// TestSystemTableErrorsOverTheWire: unknown system tables, system tables of
// unknown tables, and every write to a system table get errors naming the
// problem, and leave the table and the connection as they were.
func TestSystemTableErrorsOverTheWire(t *testing.T) {
	_, root := sysTableHistory(t)
	conn := sysTableSession(t, root)
	kinds := "$audit_log, $buckets, $consumers, $file_indexes, $files, $manifests, $options, $partitions, $ro, $row_tracking, $schemas, $snapshots, $tags"
	wantWireError(t, conn, "SELECT * FROM sales.`orders$nope`", 1146, "42S02", "sales.orders$nope", `"nope" is not a system table`, kinds)
	wantWireError(t, conn, "SELECT * FROM sales.`orders$`", 1146, "42S02", "sales.orders$", kinds)
	wantWireError(t, conn, "SELECT * FROM sales.`orders$snapshots$files`", 1146, "42S02", `"snapshots$files" is not a system table`)
	wantWireError(t, conn, "SELECT * FROM sales.`orders$branch_b1`", 1146, "42S02", `orders has no branch "b1"`)
	wantWireError(t, conn, "SELECT * FROM sales.`orders$binlog`", 1235, "42000", "sales.orders$binlog is not supported", kinds)
	wantWireError(t, conn, "SELECT * FROM sales.`nosuch$files`", 1146, "42S02", "nosuch$files")
	wantWireError(t, conn, "SELECT * FROM nosuch.`orders$files`", 1049, "42000", "nosuch")

	latest, err := strconv.Atoi(latestSnapshot(t, root))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ stmt, statement, table string }{
		{"INSERT INTO sales.`orders$options` VALUES ('bucket', '3')", "INSERT", "options"},
		{"INSERT INTO sales.`orders$ro` SELECT * FROM sales.orders", "INSERT", "ro"},
		// INSERT … SELECT of nothing is refused too.
		{"INSERT INTO sales.`orders$audit_log` SELECT '+I', dt, id, amount FROM sales.orders WHERE id < 0", "INSERT", "audit_log"},
		{"INSERT IGNORE INTO sales.`orders$tags` VALUES ('t', 1, 0, NOW(), 1, NULL, NULL)", "INSERT", "tags"},
		{"REPLACE INTO sales.`orders$ro` VALUES ('2026-04-16', 9, 9)", "REPLACE", "ro"},
		{"UPDATE sales.`orders$snapshots` SET commit_user = 'me'", "UPDATE", "snapshots"},
		{"UPDATE sales.`orders$ro` SET amount = 0 WHERE id = 1", "UPDATE", "ro"},
		{"DELETE FROM sales.`orders$files` WHERE level = 0", "DELETE", "files"},
		{"DELETE FROM sales.`orders$audit_log` WHERE rowkind = '+U'", "DELETE", "audit_log"},
		{"TRUNCATE TABLE sales.`orders$manifests`", "TRUNCATE", "manifests"},
	} {
		wantWireError(t, conn, w.stmt, 1036, "HY000", "Table 'sales.orders$"+w.table+"' is read only",
			w.statement+" cannot change a system table", "write to sales.orders")
	}
	// A write to a system table inside a transaction fails alone: the
	// transaction's own write still commits.
	sysTableExec(t, conn, "USE sales", "BEGIN", "INSERT INTO orders VALUES ('2026-04-18', 7, 70)")
	wantWireError(t, conn, "DELETE FROM `orders$snapshots`", 1036, "HY000", "Table 'sales.orders$snapshots' is read only")
	sysTableExec(t, conn, "COMMIT")
	wantSysTableRows(t, root, "SELECT snapshot_id, commit_kind, delta_record_count FROM sales.`orders$snapshots` WHERE snapshot_id > "+strconv.Itoa(latest),
		fmt.Sprintf("%d APPEND 1", latest+1))

	wantWireError(t, conn, "ALTER TABLE sales.`orders$files` ADD COLUMN note INT", 1105, "HY000", "orders$files cannot be altered")
	wantWireError(t, conn, "DROP TABLE sales.`orders$files`", 1146, "42S02", "orders$files")
	wantWireError(t, conn, "CREATE TABLE sales.`notes$files` (a INT)", 1103, "42000", `"notes$files" contains '$'`)
	wantSysTableRows(t, root, "SHOW TABLES FROM sales", "orders")
}
