package integration

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// The sys procedures over the wire, against a server started as
// `lakesql serve` starts one, on tables made with SQL.

// ordersDDL is a partitioned primary-key table with two buckets.
const ordersDDL = `CREATE TABLE sales.orders (
	dt VARCHAR(10) NOT NULL, id BIGINT NOT NULL, amount BIGINT, PRIMARY KEY (dt, id)
) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 2`

func startOrders(t *testing.T) (*lakesqlServer, *sql.DB) {
	t.Helper()
	s := startServer(t, serverConfig(newWarehouse(t)))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE sales", ordersDDL)
	return s, root
}

// queryStrings runs a query and returns its column names and rows, each
// value as text and NULL as "NULL".
func queryStrings(t *testing.T, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string) ([]string, [][]string) {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return cols, out
}

// callRow runs a CALL that returns one row and returns it by column name.
func callRow(t *testing.T, db *sql.DB, call string) map[string]string {
	t.Helper()
	cols, rows := queryStrings(t, db, call)
	if len(rows) != 1 {
		t.Fatalf("%s returned %d rows: %v", call, len(rows), rows)
	}
	named := map[string]string{}
	for i, c := range cols {
		named[c] = rows[0][i]
	}
	return named
}

// contents is every row of the table at a time-travel clause ("" is the
// latest), one string per row, in key order.
func contents(t *testing.T, db *sql.DB, asOf string) []string {
	t.Helper()
	_, rows := queryStrings(t, db, "SELECT dt, id, amount FROM sales.orders "+asOf+" ORDER BY dt, id")
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}

// tryContents is contents for a read that may fail.
func tryContents(db *sql.DB, asOf string) ([]string, error) {
	rows, err := db.Query("SELECT dt, id, amount FROM sales.orders " + asOf + " ORDER BY dt, id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var dt, id, amount string
		if err := rows.Scan(&dt, &id, &amount); err != nil {
			return nil, err
		}
		out = append(out, dt+" "+id+" "+amount)
	}
	return out, rows.Err()
}

func scalar(t *testing.T, db *sql.DB, query string) string {
	t.Helper()
	_, rows := queryStrings(t, db, query)
	if len(rows) != 1 || len(rows[0]) != 1 {
		t.Fatalf("%s: %v, want one value", query, rows)
	}
	return rows[0][0]
}

func latestSnapshot(t *testing.T, db *sql.DB) string {
	t.Helper()
	return scalar(t, db, "SELECT MAX(snapshot_id) FROM sales.`orders$snapshots`")
}

// wantCallError runs a statement that must fail with a MySQL error number
// whose message mentions every fragment.
func wantCallError(t *testing.T, db *sql.DB, stmt string, number uint16, fragments ...string) {
	t.Helper()
	_, err := db.Exec(stmt)
	if got := servertest.ErrorNumber(err); got != number {
		t.Fatalf("%s: %v, want error %d", stmt, err, number)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%s: %q does not mention %q", stmt, err, f)
		}
	}
}

func TestSysCompact(t *testing.T) {
	_, root := startOrders(t)
	for i := 1; i <= 4; i++ {
		servertest.Exec(t, root, fmt.Sprintf("INSERT INTO sales.orders VALUES ('2026-04-16', %d, %d), ('2026-04-16', 100, %d)", i, i*10, i))
	}
	servertest.Exec(t, root, "INSERT INTO sales.orders VALUES ('2026-04-17', 1, 7)")
	before := contents(t, root, "")
	filesBefore, _ := strconv.Atoi(scalar(t, root, "SELECT COUNT(*) FROM sales.`orders$files`"))

	minor := callRow(t, root, "CALL sys.compact('sales.orders', 'dt=2026-04-17', 'minor')")
	if minor["snapshot_id"] != "NULL" {
		t.Errorf("minor compaction of a partition with one file per bucket: %v", minor)
	}
	res := callRow(t, root, "CALL sys.compact('`sales`.`orders`')")
	cols, _ := queryStrings(t, root, "CALL sys.compact('sales.orders')")
	if want := []string{"table", "snapshot_id", "files_rewritten", "files_upgraded", "files_written", "bytes_read", "bytes_written", "attempts"}; !slices.Equal(cols, want) {
		t.Errorf("compact columns %v, want %v", cols, want)
	}
	filesAfter, _ := strconv.Atoi(scalar(t, root, "SELECT COUNT(*) FROM sales.`orders$files`"))
	if res["table"] != "sales.orders" || res["snapshot_id"] != latestSnapshot(t, root) || res["attempts"] != "1" {
		t.Errorf("compact: %v, want sales.orders, the latest snapshot, 1 attempt", res)
	}
	rewritten, _ := strconv.Atoi(res["files_rewritten"])
	written, _ := strconv.Atoi(res["files_written"])
	if filesAfter >= filesBefore || filesAfter != filesBefore-rewritten+written {
		t.Errorf("files %d -> %d, compaction rewrote %d into %d", filesBefore, filesAfter, rewritten, written)
	}
	if kind := scalar(t, root, "SELECT commit_kind FROM sales.`orders$snapshots` ORDER BY snapshot_id DESC LIMIT 1"); kind != "COMPACT" {
		t.Errorf("latest commit kind %s, want COMPACT", kind)
	}
	if after := contents(t, root, ""); !slices.Equal(after, before) {
		t.Errorf("rows after compaction:\n%v\nbefore:\n%v", after, before)
	}

	servertest.Exec(t, root, "USE sales")
	if again := callRow(t, root, "CALL sys.compact('orders', NULL, 'full')"); again["snapshot_id"] != "NULL" {
		t.Errorf("compacting a compacted table: %v", again)
	}
	wantCallError(t, root, "CALL sys.compact('sales.nosuch')", 1146, "sales.nosuch")
	wantCallError(t, root, "CALL sys.compact('nosuch.orders')", 1049, "nosuch")
	wantCallError(t, root, "CALL sys.compact('sales.orders', 'region=eu')", 1210, "region is not a partition key")
	wantCallError(t, root, "CALL sys.compact('sales.orders', '', 'major')", 1210, "'full' or 'minor'")
}

// TestSysExpireSnapshotsAndTags: expiry keeps every retained snapshot and
// tag readable exactly, and a read of an expired snapshot names the
// earliest one left.
func TestSysExpireSnapshotsAndTags(t *testing.T) {
	_, root := startOrders(t)
	// Snapshot ids below are statements: write-only keeps inline
	// compaction from adding COMPACT snapshots between them.
	servertest.Exec(t, root, `ALTER TABLE sales.orders COMMENT 'paimon:{"write-only":"true"}'`)
	for i := 1; i <= 5; i++ {
		servertest.Exec(t, root, fmt.Sprintf("INSERT INTO sales.orders VALUES ('2026-04-16', %d, %d)", i, i))
	}
	servertest.Exec(t, root, "UPDATE sales.orders SET amount = 0 WHERE id = 1")
	at := map[int][]string{}
	for id := 1; id <= 6; id++ {
		at[id] = contents(t, root, fmt.Sprintf("FOR VERSION AS OF %d", id))
	}

	tag := callRow(t, root, "CALL sys.create_tag('sales.orders', 'month-end', 2)")
	if tag["tag"] != "month-end" || tag["snapshot_id"] != "2" {
		t.Errorf("create_tag: %v", tag)
	}
	servertest.Exec(t, root, "CALL sys.create_tag('sales.orders', 'latest', NULL, '1 d')")
	wantCallError(t, root, "CALL sys.create_tag('sales.orders', 'month-end')", 1062, "month-end")

	// NULLs leave the table's retention (ten snapshots at least) in force.
	if res := callRow(t, root, "CALL sys.expire_snapshots('sales.orders', NULL, NULL, NULL, NULL)"); res["snapshots_expired"] != "0" {
		t.Errorf("expiry with the defaults: %v", res)
	}
	wantCallError(t, root, "CALL sys.expire_snapshots('sales.orders', 2, -1)", 1210, "retain_min -1")
	res := callRow(t, root, "CALL sys.expire_snapshots('sales.orders', 2, 1)")
	if res["snapshots_expired"] != "4" || res["manifest_lists_deleted"] == "0" {
		t.Errorf("expire keeping 2: %v, want 4 snapshots and their manifest lists", res)
	}
	for _, id := range []int{5, 6} {
		if got := contents(t, root, fmt.Sprintf("FOR VERSION AS OF %d", id)); !slices.Equal(got, at[id]) {
			t.Errorf("retained snapshot %d reads %v, want %v", id, got, at[id])
		}
	}
	if got, err := tryContents(root, "FOR VERSION AS OF 'month-end'"); err != nil || !slices.Equal(got, at[2]) {
		t.Errorf("tag month-end of expired snapshot 2 reads %v, %v; want %v", got, err, at[2])
	}
	_, err := root.Query("SELECT * FROM sales.orders FOR VERSION AS OF 3")
	if err == nil || !strings.Contains(err.Error(), "earliest 5") {
		t.Errorf("AS OF expired snapshot 3: %v, want an error naming the earliest snapshot, 5", err)
	}

	del := callRow(t, root, "CALL sys.delete_tag('sales.orders', 'month-end')")
	if del["snapshot_id"] != "2" || del["files_deleted"] == "0" {
		t.Errorf("delete_tag of an expired snapshot's tag: %v, want the files only it held deleted", del)
	}
	if _, err := root.Query("SELECT * FROM sales.orders FOR VERSION AS OF 'month-end'"); err == nil {
		t.Error("deleted tag still readable")
	}
	wantCallError(t, root, "CALL sys.delete_tag('sales.orders', 'month-end')", 1210, "month-end")
	if got := contents(t, root, ""); !slices.Equal(got, at[6]) {
		t.Errorf("latest after tag deletion reads %v, want %v", got, at[6])
	}
	if _, rows := queryStrings(t, root, "CALL sys.expire_tags('sales.orders')"); len(rows) != 1 || rows[0][1] != "NULL" {
		t.Errorf("expire_tags before the tag's day is up: %v, want only the summary", rows)
	}
}

func TestSysRollbackTo(t *testing.T) {
	_, root := startOrders(t)
	for i := 1; i <= 3; i++ {
		servertest.Exec(t, root, fmt.Sprintf("INSERT INTO sales.orders VALUES ('2026-04-16', %d, %d)", i, i))
	}
	at2 := contents(t, root, "FOR VERSION AS OF 2")
	servertest.Exec(t, root, "CALL sys.create_tag('sales.orders', 'v3', 3)")

	res := callRow(t, root, "CALL sys.rollback_to('sales.orders', 2)")
	if res["snapshot_id"] != "2" || res["snapshots_deleted"] != "1" || res["tags_deleted"] != "v3" || res["restored"] != "0" {
		t.Errorf("rollback_to 2: %v", res)
	}
	if got := contents(t, root, ""); !slices.Equal(got, at2) {
		t.Errorf("after rollback to 2: %v, want %v", got, at2)
	}
	servertest.Exec(t, root, "CALL sys.create_tag('sales.orders', 'good')",
		"INSERT INTO sales.orders VALUES ('2026-04-16', 9, 9)")
	if latestSnapshot(t, root) != "3" {
		t.Errorf("the next commit after rollback is snapshot %s, want 3", latestSnapshot(t, root))
	}
	if res := callRow(t, root, "CALL sys.rollback_to('sales.orders', 'good')"); res["snapshot_id"] != "2" {
		t.Errorf("rollback_to tag good: %v", res)
	}
	if got := contents(t, root, ""); !slices.Equal(got, at2) {
		t.Errorf("after rollback to tag good: %v, want %v", got, at2)
	}
	wantCallError(t, root, "CALL sys.rollback_to('sales.orders', 'nosuch')", 1210, "nosuch")
	wantCallError(t, root, "CALL sys.rollback_to('sales.orders', 0)", 1210, "snapshot ids start at 1")
}

func TestSysRemoveOrphanFiles(t *testing.T) {
	if os.Getenv(warehouseEnv) == "s3" {
		t.Skip("plants orphans with backdated modification times, which S3 objects cannot have; storage/maintenance covers orphan removal on any FileIO")
	}
	s, root := startOrders(t)
	servertest.Exec(t, root, "INSERT INTO sales.orders VALUES ('2026-04-16', 1, 1), ('2026-04-16', 2, 2)")
	want := contents(t, root, "")
	_, files := queryStrings(t, root, "SELECT file_path FROM sales.`orders$files` LIMIT 1")
	// A data file a crashed writer left three days ago, next to live ones.
	orphan := filepath.Join(filepath.Dir(files[0][0]), "data-0a1b2c3d-orphan-0.parquet")
	if !filepath.IsAbs(orphan) {
		orphan = filepath.Join(s.Config.Warehouse, "sales.db", "orders", orphan)
	}
	if err := os.WriteFile(orphan, []byte("partial parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-72 * time.Hour)
	if err := os.Chtimes(orphan, old, old); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(filepath.Dir(orphan), "data-fresh-orphan-0.parquet")
	if err := os.WriteFile(fresh, []byte("being written"), 0o644); err != nil {
		t.Fatal(err)
	}

	cols, rows := queryStrings(t, root, "CALL sys.remove_orphan_files('sales.orders', NULL, true)")
	if want := []string{"table", "file_path", "last_modified", "files", "bytes", "deleted"}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	if len(rows) != 2 || !strings.HasSuffix(rows[0][1], "data-0a1b2c3d-orphan-0.parquet") || rows[0][4] != "15" || rows[0][5] != "0" ||
		rows[1][1] != "NULL" || rows[1][3] != "1" || rows[1][5] != "0" {
		t.Errorf("dry run: %v, want the old orphan (not the fresh one), not deleted, then the summary", rows)
	}
	if _, err := os.Stat(orphan); err != nil {
		t.Fatalf("dry run removed the orphan: %v", err)
	}
	_, rows = queryStrings(t, root, "CALL sys.remove_orphan_files('sales.orders')")
	if len(rows) != 2 || rows[0][5] != "1" || rows[1][5] != "1" {
		t.Errorf("removal: %v, want the old orphan deleted", rows)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("old orphan still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh file removed: %v", err)
	}
	if got := contents(t, root, ""); !slices.Equal(got, want) {
		t.Errorf("table after orphan removal reads %v, want %v", got, want)
	}
	wantCallError(t, root, "CALL sys.remove_orphan_files('sales.orders', 'whenever')", 1210, "older_than")
}

func TestSysExpirePartitions(t *testing.T) {
	_, root := startOrders(t)
	today := time.Now().UTC().Format("2006-01-02")
	servertest.Exec(t, root, "INSERT INTO sales.orders VALUES ('2020-01-01', 1, 1), ('2020-01-02', 2, 2), ('"+today+"', 3, 3)")
	cols, rows := queryStrings(t, root, "CALL sys.expire_partitions('sales.orders', '7 d', 'yyyy-MM-dd')")
	if want := []string{"table", "partition", "snapshot_id", "files_deleted"}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	latest := latestSnapshot(t, root)
	want := [][]string{
		{"sales.orders", "dt=2020-01-01", latest, "NULL"},
		{"sales.orders", "dt=2020-01-02", latest, "NULL"},
		{"sales.orders", "NULL", latest, "2"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("expire_partitions: %v, want %v", rows, want)
	}
	if got := contents(t, root, ""); !slices.Equal(got, []string{today + " 3 3"}) {
		t.Errorf("rows after partition expiry: %v", got)
	}
	wantCallError(t, root, "CALL sys.expire_partitions('sales.orders', 'a week', 'yyyy-MM-dd')", 1210, "expiration_time")
}

// TestSysWaitWatermark: the gate returns once a concurrent writer's commit
// carries the watermark, times out with a clear error, and stops on KILL
// QUERY.
func TestSysWaitWatermark(t *testing.T) {
	s, root := startOrders(t)
	servertest.Exec(t, root, "SET lakesql_commit_watermark = 1000", "INSERT INTO sales.orders VALUES ('2026-04-16', 1, 1)")
	if res := callRow(t, root, "CALL sys.wait_watermark('sales.orders', 1000)"); res["snapshot_id"] != "1" {
		t.Errorf("wait for a reached watermark: %v", res)
	}

	reader := s.Connect(t, "root", "")
	type result struct {
		snapshot string
		err      error
	}
	done := make(chan result, 1)
	go func() {
		var id string
		err := reader.QueryRow("CALL sys.wait_watermark('sales.orders', '5000', 60000)").Scan(new(string), &id)
		done <- result{id, err}
	}()
	waitUntilRunning(t, root, "wait_watermark('sales.orders', '5000'")
	select {
	case r := <-done:
		t.Fatalf("wait returned before any commit reached the watermark: %+v", r)
	default:
	}
	writer := s.Connect(t, "root", "")
	conn, err := writer.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, stmt := range []string{
		"SET lakesql_commit_watermark = 4000", "INSERT INTO sales.orders VALUES ('2026-04-16', 2, 2)",
		"SET lakesql_commit_watermark = 6000", "INSERT INTO sales.orders VALUES ('2026-04-16', 3, 3)",
	} {
		if _, err := conn.ExecContext(context.Background(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	r := <-done
	if r.err != nil || r.snapshot != "3" {
		t.Errorf("wait for 5000: %+v, want snapshot 3, the commit with watermark 6000", r)
	}

	wantCallError(t, root, "CALL sys.wait_watermark('sales.orders', 99999999999999, 300)", 3024,
		"99999999999999", "latest snapshot 3", "watermark 6000")
	servertest.Exec(t, root, "SET time_zone = '+00:00'")
	if res := callRow(t, root, "CALL sys.wait_watermark('sales.orders', '1970-01-01 00:00:06')"); res["snapshot_id"] != "3" {
		t.Errorf("wait for a datetime: %v", res)
	}

	killed, err := reader.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer killed.Close()
	var id int64
	if err := killed.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, err := killed.ExecContext(context.Background(), "CALL sys.wait_watermark('sales.orders', 7000, 600000)")
		done <- result{err: err}
	}()
	waitUntilRunning(t, root, "wait_watermark('sales.orders', 7000")
	servertest.Exec(t, root, fmt.Sprintf("KILL QUERY %d", id))
	if r := <-done; servertest.ErrorNumber(r.err) != 1317 {
		t.Errorf("killed wait: %v, want error 1317", r.err)
	}
}

// waitUntilRunning polls the process list until a statement containing
// text runs.
func waitUntilRunning(t *testing.T, db *sql.DB, text string) {
	t.Helper()
	for range 500 {
		_, rows := queryStrings(t, db, "SHOW FULL PROCESSLIST")
		for _, r := range rows {
			if slices.ContainsFunc(r, func(v string) bool { return strings.Contains(v, text) }) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no running statement contains %q", text)
}

// TestSysProceduresRefuseReaders: a SELECT-only analyst cannot run a
// writing procedure, even once allowed to EXECUTE in sys, and may use the
// watermark gate; a user with write privileges on the table may compact.
func TestSysProceduresRefuseReaders(t *testing.T) {
	s, root := startOrders(t)
	servertest.Exec(t, root,
		"INSERT INTO sales.orders VALUES ('2026-04-16', 1, 1)",
		"INSERT INTO sales.orders VALUES ('2026-04-16', 2, 2)",
		"CREATE USER 'analyst'@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON sales.* TO 'analyst'@'%'",
		"CREATE USER 'etl'@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT, INSERT, DELETE ON sales.* TO 'etl'@'%'",
		"GRANT EXECUTE ON sys.* TO 'etl'@'%'")
	analyst := s.Connect(t, "analyst", "pw")
	snapshots := latestSnapshot(t, root)

	// go-mysql-server refuses the CALL itself: no EXECUTE in sys.
	for _, call := range []string{
		"CALL sys.compact('sales.orders')",
		"CALL sys.wait_watermark('sales.orders', 1)",
	} {
		if _, err := analyst.Exec(call); err == nil || !strings.Contains(err.Error(), "Access denied for user 'analyst'") {
			t.Errorf("analyst %s: %v, want access denied", call, err)
		}
	}
	// With EXECUTE, the procedures check the table.
	servertest.Exec(t, root, "GRANT EXECUTE ON sys.* TO 'analyst'@'%'", "GRANT EXECUTE ON sales.* TO 'analyst'@'%'")
	for _, call := range []string{
		"CALL sys.compact('sales.orders')",
		"CALL sys.expire_snapshots('sales.orders', 1, 1)",
		"CALL sys.create_tag('sales.orders', 'mine')",
		"CALL sys.rollback_to('sales.orders', 1)",
		"CALL sys.remove_orphan_files('sales.orders', NULL, true)",
		"CALL sys.expire_partitions('sales.orders', '1 d', 'yyyy-MM-dd')",
	} {
		wantCallError(t, analyst, call, 1142, "INSERT, DELETE command denied", "'analyst'", "sales.orders")
	}
	// An unqualified CALL passes go-mysql-server's check on the current
	// database, and is refused the same way.
	servertest.Exec(t, analyst, "USE sales")
	wantCallError(t, analyst, "CALL compact('orders')", 1142, "INSERT, DELETE command denied")
	if got := latestSnapshot(t, root); got != snapshots {
		t.Errorf("refused calls changed the table: latest snapshot %s, was %s", got, snapshots)
	}
	if res := callRow(t, analyst, "CALL sys.wait_watermark('sales.orders', 1)"); res["snapshot_id"] != snapshots {
		t.Errorf("analyst wait_watermark: %v", res)
	}

	etl := s.Connect(t, "etl", "pw")
	if res := callRow(t, etl, "CALL sys.compact('sales.orders')"); res["snapshot_id"] == "NULL" {
		t.Errorf("etl compact: %v, want a compaction", res)
	}
}
