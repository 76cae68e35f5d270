package integration

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
	sourcecfg "github.com/lakesql/lakesql/sysprocs/reconcile"
)

// sourceConfig is the reconcile source of the MariaDB server of dsn.
func sourceConfig(t testing.TB, dsn string) sourcecfg.SourceConfig {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	src := sourcecfg.SourceConfig{User: cfg.User, Password: cfg.Passwd}
	if cfg.Net == "unix" {
		src.Socket = cfg.Addr
		return src
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	src.Host = host
	src.Port, _ = strconv.Atoi(port)
	return src
}

// reconcileFixture is a payment table in the lake and its source table in
// MariaDB, loaded with the same rows; the source names the status column
// state, as CDC sources often name columns differently.
type reconcileFixture struct {
	lake, source *sql.DB
	lakeAddr     string
	srcTable     string
}

func newReconcileFixture(t *testing.T) *reconcileFixture {
	maria := mariadbtest.Open(t)
	if maria == nil {
		t.Skipf("%s is not set; .ci/differential starts MariaDB and runs this test", mariadbtest.DSNVariable)
	}
	db := fmt.Sprintf("recon_%d", os.Getpid())
	servertest.Exec(t, maria, "DROP DATABASE IF EXISTS "+db, "CREATE DATABASE "+db,
		"CREATE TABLE "+db+".payments (dt DATE NOT NULL, pay_id BIGINT NOT NULL, amount DECIMAL(18,2), state VARCHAR(16), "+
			"PRIMARY KEY (dt, pay_id))")
	t.Cleanup(func() { maria.Exec("DROP DATABASE " + db) })

	cfg := servertest.Config(t.TempDir())
	cfg.Sources = map[string]sourcecfg.SourceConfig{"pay_mysql": sourceConfig(t, os.Getenv(mariadbtest.DSNVariable))}
	srv := servertest.Start(t, cfg, server.Options{})
	lake := srv.Connect(t, "root", "", func(c *mysql.Config) { c.DBName = "" })
	lake.SetMaxOpenConns(1)
	servertest.Exec(t, lake, "CREATE DATABASE pay", "USE pay",
		"CREATE TABLE payments (dt DATE NOT NULL, pay_id BIGINT NOT NULL, amount DECIMAL(18,2), status VARCHAR(16), "+
			"PRIMARY KEY (dt, pay_id)) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4")
	var values []string
	for i := 1; i <= 300; i++ {
		status := "'PAID'"
		if i%10 == 0 {
			status = "NULL"
		}
		values = append(values, fmt.Sprintf("('2026-04-%02d', %d, %d.%02d, %s)", 16+i%3, i, i, i%100, status))
	}
	rows := strings.Join(values, ", ")
	servertest.Exec(t, maria, "INSERT INTO "+db+".payments VALUES "+rows)
	servertest.Exec(t, lake, "SET lakesql_commit_user = 'cdc'", "INSERT INTO payments VALUES "+rows)
	return &reconcileFixture{lake: lake, source: maria, lakeAddr: srv.Addr, srcTable: db + ".payments"}
}

// pairedTable creates table name on both sides (in the source's database,
// and in the lake's pay), with the same rows, and returns the fixture
// reconciling it.
func (f *reconcileFixture) pairedTable(t *testing.T, name, sourceColumns, lakeColumns, rows string) *reconcileFixture {
	t.Helper()
	db := strings.TrimSuffix(f.srcTable, ".payments")
	servertest.Exec(t, f.source, "CREATE TABLE "+db+"."+name+" "+sourceColumns, "INSERT INTO "+db+"."+name+" VALUES "+rows)
	servertest.Exec(t, f.lake, "CREATE TABLE "+name+" "+lakeColumns, "INSERT INTO "+name+" VALUES "+rows)
	paired := *f
	paired.srcTable = db + "." + name
	return &paired
}

// reconcile calls sys.reconcile and returns its totals by kind (and each
// writer's last snapshot, as "writer <user>") and its differences as "kind
// pk columns".
func (f *reconcileFixture) reconcile(t *testing.T, at, partitions, options string) (map[string]int64, []string) {
	t.Helper()
	return f.call(t, fmt.Sprintf("CALL sys.reconcile('pay.payments', 'pay_mysql', '%s', %s, %s, '%s')", f.srcTable, at, partitions, options))
}

// reconcileTable is reconcile of another lake table, at its latest
// snapshot.
func (f *reconcileFixture) reconcileTable(t *testing.T, lakeTable, options string) (map[string]int64, []string) {
	t.Helper()
	return f.call(t, fmt.Sprintf("CALL sys.reconcile('%s', 'pay_mysql', '%s', NULL, NULL, '%s')", lakeTable, f.srcTable, options))
}

func (f *reconcileFixture) call(t *testing.T, q string) (map[string]int64, []string) {
	t.Helper()
	rows, err := f.lake.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	totals := map[string]int64{}
	var diffs []string
	for rows.Next() {
		var kind string
		var pk, columns, lakeRow, sourceRow, user sql.NullString
		var count, snapshotID, identifier, watermark sql.NullInt64
		if err := rows.Scan(&kind, &pk, &columns, &lakeRow, &sourceRow, &count, &snapshotID, &user, &identifier, &watermark); err != nil {
			t.Fatal(err)
		}
		switch {
		case kind == "writer":
			totals["writer "+user.String] = snapshotID.Int64
		case !pk.Valid:
			totals[kind] = count.Int64
		default:
			diffs = append(diffs, strings.TrimSpace(fmt.Sprintf("%s %s %s", kind, pk.String, columns.String)))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(diffs)
	return totals, diffs
}

// TestReconcileFindsThePlantedDifferences is issue 20's acceptance: identical
// sides, a CDC gap, a correction applied twice, a wrong delete and a late
// commit after the pinned snapshot, each reported exactly, with key history
// naming the commit behind each.
func TestReconcileFindsThePlantedDifferences(t *testing.T) {
	f := newReconcileFixture(t)
	const mapping = "map.status=state; chunk_rows=16"
	totals, diffs := f.reconcile(t, "NULL", "NULL", mapping)
	if len(diffs) != 0 || totals["lake_rows"] != 300 || totals["source_rows"] != 300 || totals["missing_in_lake"] != 0 {
		t.Fatalf("identical sides: totals %v, differences %q", totals, diffs)
	}
	// MariaDB's chunk checksums equal the lake's: no chunk of identical
	// rows (dates, decimals, strings, NULLs) is fetched row by row.
	if totals["chunks"] != 19 || totals["chunks_compared_by_row"] != 0 {
		t.Fatalf("identical sides: %d chunks, %d compared by row; want 19 and 0", totals["chunks"], totals["chunks_compared_by_row"])
	}

	src := f.srcTable
	servertest.Exec(t, f.source,
		// A CDC gap: two payments never reached the lake.
		"INSERT INTO "+src+" VALUES ('2026-04-17', 1001, 10.00, 'PAID'), ('2026-04-18', 1002, 20.00, 'PAID')",
		// A correction the source applied once.
		"UPDATE "+src+" SET amount = amount + 1 WHERE pay_id = 50",
		// A payment the lake will receive late.
		"INSERT INTO "+src+" VALUES ('2026-04-16', 3000, 30.00, 'PAID')")
	servertest.Exec(t, f.lake,
		"SET lakesql_commit_user = 'correction-job'",
		"UPDATE payments SET amount = amount + 1 WHERE pay_id = 50",
		"UPDATE payments SET amount = amount + 1 WHERE pay_id = 50",
		"SET lakesql_commit_user = 'cleanup-job'",
		"DELETE FROM payments WHERE pay_id = 70")
	pinned := servertest.Column[int64](t, f.lake, "SELECT MAX(snapshot_id) FROM `payments$snapshots`")[0]
	servertest.Exec(t, f.lake, "SET lakesql_commit_user = 'cdc'", "INSERT INTO payments VALUES ('2026-04-16', 3000, 30.00, 'PAID')")

	planted := []string{`differs ["2026-04-18","50"] amount`, `missing_in_lake ["2026-04-17","1001"]`,
		`missing_in_lake ["2026-04-17","70"]`, `missing_in_lake ["2026-04-18","1002"]`}
	totals, diffs = f.reconcile(t, "NULL", "NULL", mapping)
	if !slices.Equal(diffs, planted) || totals["missing_in_lake"] != 3 || totals["differs"] != 1 || totals["extra_in_lake"] != 0 {
		t.Errorf("latest: totals %v, differences %q; want %q", totals, diffs, planted)
	}
	atPin := append(slices.Clone(planted), `missing_in_lake ["2026-04-16","3000"]`)
	slices.Sort(atPin)
	totals, diffs = f.reconcile(t, fmt.Sprintf("'%d'", pinned), "NULL", mapping)
	if !slices.Equal(diffs, atPin) || totals["lake_rows"] != 299 || totals["source_rows"] != 303 {
		t.Errorf("at snapshot %d: totals %v, differences %q; want %q", pinned, totals, diffs, atPin)
	}
	// Each writer's last snapshot up to the pinned one: the late commit of
	// cdc came after it.
	if w := totals; w["writer cleanup-job"] != pinned || w["writer correction-job"] >= pinned || w["writer cdc"] >= w["writer correction-job"] {
		t.Errorf("writers at snapshot %d: %v; want cleanup-job's at the pin, correction-job's and cdc's before", pinned, totals)
	}

	// One partition, and a source condition, narrow both sides alike.
	totals, diffs = f.reconcile(t, "NULL", "'dt=2026-04-18'", mapping+"; where=pay_id < 1000")
	if want := []string{`differs ["2026-04-18","50"] amount`}; !slices.Equal(diffs, want) || totals["lake_rows"] != 100 {
		t.Errorf("partition 2026-04-18: totals %v, differences %q; want %q", totals, diffs, want)
	}

	// Key history names the commit behind each difference.
	history := func(payID int) []string {
		return servertest.Column[string](t, f.lake, fmt.Sprintf(
			"SELECT CONCAT(commit_user, ' ', rowkind, ' ', IFNULL(amount, 'NULL')) FROM `payments$key_history` WHERE pay_id = %d ORDER BY snapshot_id", payID))
	}
	for payID, want := range map[int][]string{
		50:   {"cdc +I 50.50", "correction-job +U 51.50", "correction-job +U 52.50"},
		70:   {"cdc +I 70.70", "cleanup-job -D 70.70"},
		3000: {"cdc +I 30.00"},
		1001: nil,
	} {
		if got := history(payID); !slices.Equal(got, want) {
			t.Errorf("key history of %d = %q, want %q", payID, got, want)
		}
	}
}

func TestReconcileErrors(t *testing.T) {
	f := newReconcileFixture(t)
	for q, want := range map[string]uint16{
		"CALL sys.reconcile('pay.payments', 'nowhere', '" + f.srcTable + "')":                      1210,
		"CALL sys.reconcile('pay.payments', 'pay_mysql', '" + f.srcTable + "', '999')":             1210,
		"CALL sys.reconcile('pay.payments', 'pay_mysql', '" + f.srcTable + "', NULL, NULL, 'x=1')": 1210,
		"CALL sys.reconcile('pay.payments', 'pay_mysql', 'no_such_db.t')":                          1105,
	} {
		_, err := f.lake.Exec(q)
		if got := servertest.ErrorNumber(err); got != want {
			t.Errorf("%s: error %v (%d), want %d", q, err, got, want)
		}
	}
}

// sys.reconcile reads the source with the server's credentials, so it
// needs EXECUTE granted on the procedure itself: EXECUTE on the sys
// database, which the other procedures take, is not enough.
func TestReconcileNeedsItsOwnGrant(t *testing.T) {
	f := newReconcileFixture(t)
	servertest.Exec(t, f.lake, "CREATE USER analyst IDENTIFIED BY 'pw'", "GRANT SELECT ON pay.* TO analyst",
		"GRANT EXECUTE ON sys.* TO analyst")
	analyst := servertest.Open(t, f.lakeAddr, "analyst", "pw")
	call := "CALL sys.reconcile('pay.payments', 'pay_mysql', '" + f.srcTable + "', NULL, NULL, 'map.status=state')"
	if _, err := analyst.Exec(call); servertest.ErrorNumber(err) != 1370 {
		t.Fatalf("without the grant: %v, want error 1370", err)
	}
	servertest.Exec(t, f.lake, "GRANT EXECUTE ON PROCEDURE sys.reconcile TO analyst")
	if _, err := analyst.Exec(call); err != nil {
		t.Fatalf("with EXECUTE ON PROCEDURE sys.reconcile: %v", err)
	}
}

// KILL QUERY stops a comparison at once, with error 1317, however much of
// it is left: here each source row takes 50 ms to check.
func TestReconcileStopsOnKillQuery(t *testing.T) {
	f := newReconcileFixture(t)
	conn, err := f.lake.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var id int64
	if err := conn.QueryRowContext(t.Context(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	killer := servertest.Open(t, f.lakeAddr, "root", "")
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(t.Context(), "CALL sys.reconcile('pay.payments', 'pay_mysql', '"+f.srcTable+
			"', NULL, NULL, 'map.status=state; where=SLEEP(0.05) = 0')")
		done <- err
	}()
	waitUntilRunning(t, killer, "sys.reconcile")
	servertest.Exec(t, killer, fmt.Sprintf("KILL QUERY %d", id))
	if err := <-done; servertest.ErrorNumber(err) != 1317 {
		t.Errorf("killed reconcile: %v, want error 1317", err)
	}
}

// String keys are compared byte by byte on the source, as the lake orders
// them, so a case-insensitive collation that orders them otherwise
// changes nothing; key_order=source uses the collation's order, in which
// the lake's chunk bounds are not ordered, so a key may be compared in a
// chunk the lake did not put it in: reported missing or extra though both
// sides hold it, a false difference, never a missed one.
func TestReconcileStringKeysInAnotherCollation(t *testing.T) {
	// Bytewise B1 < C2 < a1 < b3 < c4; case-insensitively a1 < B1 < b3 < C2 < c4.
	const rows = "('a1', 1), ('B1', 2), ('b3', 3), ('C2', 4), ('c4', 5)"
	codes := newReconcileFixture(t).pairedTable(t, "codes",
		"(code VARCHAR(20) COLLATE utf8mb4_general_ci PRIMARY KEY, v INT)", "(code VARCHAR(20) PRIMARY KEY, v INT)", rows)
	totals, diffs := codes.reconcileTable(t, "pay.codes", "chunk_rows=2")
	if len(diffs) != 0 || totals["chunks_compared_by_row"] != 0 || totals["lake_rows"] != 5 {
		t.Errorf("binary order: totals %v, differences %q; want none", totals, diffs)
	}
	_, diffs = codes.reconcileTable(t, "pay.codes", "chunk_rows=2; key_order=source")
	if len(diffs) == 0 {
		t.Error("key_order=source found no difference; the test's keys no longer straddle chunks differently")
	}
	for _, d := range diffs {
		kind, key, _ := strings.Cut(d, " ")
		if kind != "missing_in_lake" && kind != "extra_in_lake" || !strings.Contains(rows, strings.Trim(key, `[]"`)) {
			t.Errorf("key_order=source reported %q: want only keys both sides hold, as missing or extra", d)
		}
	}
}

// FLOAT and DOUBLE columns compare exactly: a DOUBLE by the text MySQL
// prints (shortest digits, exponent past 15 digits either side), a FLOAT
// as the DOUBLE of its value, since MariaDB prints a FLOAT rounded to 6
// digits. Identical sides checksum equal, chunk for chunk, and a change in
// the last digit of either is found.
func TestReconcileFloatingPointColumns(t *testing.T) {
	const columns = "(id INT PRIMARY KEY, d DOUBLE, r FLOAT)"
	rates := newReconcileFixture(t).pairedTable(t, "rates", columns, columns,
		"(1, 0.1, 0.1), (2, 1e20, 1e20), (3, 0.30000000000000004, 123.456), (4, 1.2345678901234568e17, 16777217), "+
			"(5, -1.5e-7, -1.5e-7), (6, 5e-324, 3.4e38), (7, 1.7976931348623157e308, 1.4e-45), (8, 123456789012345, 1234567.8), "+
			"(9, 0.0000000000000015, NULL), (10, NULL, 0)")
	totals, diffs := rates.reconcileTable(t, "pay.rates", "chunk_rows=3")
	if len(diffs) != 0 || totals["chunks_compared_by_row"] != 0 || totals["lake_rows"] != 10 {
		t.Fatalf("identical sides: totals %v, differences %q; want no chunk compared by row", totals, diffs)
	}
	servertest.Exec(t, rates.source, "UPDATE "+rates.srcTable+" SET d = 0.1000000000000001 WHERE id = 1",
		"UPDATE "+rates.srcTable+" SET r = 16777218 WHERE id = 4")
	_, diffs = rates.reconcileTable(t, "pay.rates", "chunk_rows=3")
	if want := []string{`differs ["1"] d`, `differs ["4"] r`}; !slices.Equal(diffs, want) {
		t.Errorf("after changing a last digit: differences %q, want %q", diffs, want)
	}
}
