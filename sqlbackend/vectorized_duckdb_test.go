//go:build duckdb_arrow && cgo

package sqlbackend

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/sqlbackend/duckexec"
)

// newDuckHarness is a harness whose backend runs translated reads on
// DuckDB.
func newDuckHarness(t *testing.T) *harness {
	t.Helper()
	return newDuckHarnessAt(t, t.TempDir())
}

// newDuckHarnessAt is newDuckHarness over the warehouse at dir.
func newDuckHarnessAt(t *testing.T, dir string) *harness {
	t.Helper()
	exec, err := duckexec.New(duckexec.Config{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { exec.Close() })
	h := newHarness(t, dir)
	h.backend.opts.Executor = exec
	h.engine = NewEngine(h.backend, nil)
	return h
}

// connectAll is a session of h that hands every translated read to
// DuckDB, however few rows its tables hold.
func connectAll(h *harness) *conn {
	c := h.connect()
	c.mustExec("SET lakesql_executor_min_rows = 0")
	return c
}

// payTables creates a partitioned PK table written once (one file per
// bucket, which DuckDB reads itself), the same rows in an append table,
// and an order table whose rows were updated and deleted after it was
// written, so that its reads merge and lakesql's reader hands DuckDB the
// rows.
func payTables(c *conn) {
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE pay (dt DATE NOT NULL, pay_id BIGINT NOT NULL, user_id BIGINT, channel VARCHAR(16),
			status VARCHAR(16), amount DECIMAL(18,2), PRIMARY KEY (dt, pay_id))
			PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 2`,
		`INSERT INTO pay VALUES ('2024-01-01',1,10,'app','SUCCESS',10.50), ('2024-01-01',2,11,'web','FAILED',3.25),
			('2024-01-02',3,10,'app','SUCCESS',7.00), ('2024-01-02',4,12,'pos','SUCCESS',NULL),
			('2024-01-02',5,NULL,NULL,'PENDING',-2.10), ('2024-01-03',6,13,'app','SUCCESS',99999.99)`,
		"CREATE TABLE ledger (dt DATE, pay_id BIGINT, amount DECIMAL(18,2))",
		"INSERT INTO ledger SELECT dt, pay_id, amount FROM pay",
		"INSERT INTO ledger VALUES ('2024-01-02', 3, 7.00), (NULL, NULL, NULL)",
		"CREATE TABLE os (pay_id BIGINT NOT NULL, state VARCHAR(16), PRIMARY KEY (pay_id))",
		"INSERT INTO os VALUES (1,'PAID'), (2,'OPEN'), (3,'SHIPPED'), (4,'PAID'), (7,'LOST')",
		"UPDATE os SET state = 'REFUNDED' WHERE pay_id = 4",
		"DELETE FROM os WHERE pay_id = 2")
}

// vectorQueries are read shapes the translator hands to DuckDB.
var vectorQueries = []string{
	"SELECT channel, status, COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' GROUP BY channel, status",
	"SELECT dt, COUNT(DISTINCT user_id), MIN(amount), MAX(amount) FROM pay GROUP BY dt",
	"SELECT user_id, SUM(amount) FROM pay GROUP BY user_id ORDER BY SUM(amount) DESC, user_id LIMIT 3",
	"SELECT o.state, COUNT(*), SUM(p.amount) FROM pay p JOIN os o ON o.pay_id = p.pay_id GROUP BY o.state",
	"SELECT p.pay_id, o.state FROM pay p LEFT JOIN os o ON o.pay_id = p.pay_id WHERE p.amount > 0 ORDER BY p.pay_id",
	"SELECT state, COUNT(*) FROM os GROUP BY state",
	"SELECT dt, COUNT(*), SUM(amount) FROM ledger GROUP BY dt",
	"SELECT DISTINCT channel FROM pay WHERE amount IS NOT NULL",
	"SELECT pay_id, amount * 2 - 1 FROM pay WHERE status IN ('SUCCESS', 'PENDING') ORDER BY amount DESC LIMIT 4",
	"SELECT l.dt, l.pay_id FROM ledger l JOIN pay p ON p.pay_id = l.pay_id AND p.dt = l.dt WHERE p.status = 'SUCCESS' ORDER BY 1, 2",
	"SELECT dt, AVG(amount), AVG(user_id), AVG(pay_id) FROM pay GROUP BY dt",
	"SELECT o.state, AVG(l.amount) FROM ledger l LEFT JOIN os o ON o.pay_id = l.pay_id GROUP BY o.state",
	"SELECT dt, pay_id FROM pay WHERE pay_id NOT IN (SELECT pay_id FROM os WHERE state <> 'LOST')",
	"SELECT dt, pay_id FROM pay p WHERE NOT EXISTS (SELECT 1 FROM os o WHERE o.pay_id = p.pay_id)",
	"SELECT pay_id, ROW_NUMBER() OVER (PARTITION BY dt ORDER BY pay_id), SUM(amount) OVER (PARTITION BY dt ORDER BY pay_id), AVG(amount) OVER (PARTITION BY channel) FROM pay ORDER BY pay_id",
	"SELECT * FROM (SELECT user_id, pay_id, RANK() OVER (PARTITION BY user_id ORDER BY amount DESC) AS r FROM pay) AS x WHERE r = 1 ORDER BY pay_id",
	"SELECT pay_id, COUNT(*) OVER (ORDER BY pay_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), MAX(amount) OVER (ORDER BY dt) FROM ledger ORDER BY pay_id, 2, 3",
	"SELECT pay_id, LAG(amount) OVER (PARTITION BY dt ORDER BY pay_id), LEAD(channel, 2) OVER (ORDER BY pay_id), LAG(dt, 0) OVER (ORDER BY pay_id) FROM pay ORDER BY pay_id",
	"SELECT pay_id, pay_id / 3, user_id / pay_id, pay_id DIV 4, user_id % pay_id, amount % 2, amount % 0.3 FROM pay ORDER BY pay_id",
	// DATE() is left out: GMS's value is a string, DuckDB's a DATE, the
	// same text on the wire (TestSemantics compares that).
	"SELECT pay_id, LENGTH(channel), CHAR_LENGTH(status), UPPER(channel), LOWER(status), CONCAT(channel, '/', status), YEAR(dt), MONTH(dt), DAY(dt) FROM pay ORDER BY pay_id",
	"SELECT u, COUNT(*) FROM (SELECT UPPER(channel) AS u FROM pay WHERE LOWER(status) = 'success') AS x GROUP BY u",
	"SELECT pay_id, SUBSTRING(status, 2, 3), SUBSTRING(channel, -2), TRIM(CONCAT(' ', status, ' ')), DATE_FORMAT(dt, '%d/%m/%Y %H:%i') FROM pay ORDER BY pay_id",
	"SELECT CAST(dt AS DATETIME), CAST(user_id AS SIGNED), COUNT(*) FROM pay GROUP BY dt, user_id",
	"WITH d AS (SELECT dt, SUM(amount) AS total FROM pay GROUP BY dt) SELECT a.dt, a.total, b.total FROM d AS a LEFT JOIN d AS b ON b.dt = a.dt AND b.total > 10",
}

// TestVectorizedSubtreeOfNoColumns: GMS reads a table for its rows only
// under an expression DuckDB does not take (REVERSE, a constant filter);
// the replaced subtree has no columns and DuckDB a placeholder one.
func TestVectorizedSubtreeOfNoColumns(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	for q, want := range map[string]string{
		"SELECT REVERSE('ab') FROM pay GROUP BY pay.dt":                                 "[ba] [ba] [ba]",
		"SELECT DISTINCT REVERSE('ab') FROM os WHERE NOT 51 IS NOT NULL":                "",
		"SELECT COUNT(*), REVERSE('ab') FROM pay p CROSS JOIN os o WHERE 1 IS NOT NULL": "[24 ba]",
	} {
		if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}

// TestVectorizedMatchesGMS runs each query on DuckDB and on
// go-mysql-server and requires the same rows, and EXPLAIN to show that
// DuckDB ran it.
func TestVectorizedMatchesGMS(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	for _, q := range vectorQueries {
		sameBothWays(t, c, q, true)
	}
}

// TestVectorizedNotInOfNullableValue: NOT IN of a nullable value over a
// key: DuckDB runs the anti join, and GMS the condition above it that
// keeps a NULL value only when the subquery has no rows.
func TestVectorizedNotInOfNullableValue(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	for q, want := range map[string]string{
		"SELECT pay_id FROM ledger WHERE pay_id NOT IN (SELECT pay_id FROM os) ORDER BY pay_id":                      "[2] [5] [6]",
		"SELECT pay_id FROM ledger WHERE pay_id NOT IN (SELECT pay_id FROM os WHERE state = 'none') ORDER BY pay_id": "[<nil>] [1] [2] [3] [3] [4] [5] [6]",
	} {
		c.mustExec("SET lakesql_executor = 'duckdb'")
		if plan := explainPlan(c, q); !strings.Contains(plan, "VectorizedExec (engine: duckdb)") {
			t.Errorf("%s: the anti join does not run on DuckDB:\n%s", q, plan)
		}
		duck := strings.Join(format(c.mustQuery(q)), " ")
		c.mustExec("SET lakesql_executor = 'gms'")
		gms := strings.Join(format(c.mustQuery(q)), " ")
		if duck != want || gms != want {
			t.Errorf("%s:\nduckdb %s\ngms    %s\nwant   %s", q, duck, gms, want)
		}
	}
}

// TestVectorizedSeesTransactionWrites: a transaction's own uncommitted
// rows are part of what DuckDB reads.
func TestVectorizedSeesTransactionWrites(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	q := "SELECT state, COUNT(*) FROM os GROUP BY state ORDER BY state"
	c.mustExec("BEGIN", "INSERT INTO os VALUES (8, 'PAID'), (9, 'NEW')", "DELETE FROM os WHERE pay_id = 1")
	got := strings.Join(format(c.mustQuery(q)), " ")
	want := "[LOST 1] [NEW 1] [PAID 1] [REFUNDED 1] [SHIPPED 1]"
	if got != want {
		t.Errorf("in the transaction: %s, want %s", got, want)
	}
	c.mustExec("ROLLBACK")
}

// TestExplainSaysWhyGMSRuns: a read the translator refuses, or one of
// small tables, runs on GMS, and EXPLAIN says why.
func TestExplainSaysWhyGMSRuns(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	plan := explainPlan(c, "SELECT REVERSE(channel), COUNT(*) FROM pay GROUP BY REVERSE(channel)")
	if !strings.HasPrefix(plan, "[engine: gms (") || !strings.Contains(plan, "REVERSE") {
		t.Errorf("EXPLAIN does not say why GMS runs it:\n%s", plan)
	}
	c.mustExec("SET lakesql_executor_min_rows = 7")
	plan = explainPlan(c, "SELECT channel, COUNT(*) FROM pay GROUP BY channel")
	if !strings.HasPrefix(plan, "[engine: gms (its tables hold 6 rows, fewer than lakesql_executor_min_rows (7))") {
		t.Errorf("EXPLAIN of a read of 6 rows with a minimum of 7:\n%s", plan)
	}
	c.mustExec("SET lakesql_executor_min_rows = 6")
	if plan = explainPlan(c, "SELECT channel, COUNT(*) FROM pay GROUP BY channel"); !strings.Contains(plan, "VectorizedExec") {
		t.Errorf("EXPLAIN of a read of 6 rows with a minimum of 6:\n%s", plan)
	}
	c.mustExec("SET lakesql_executor = 'gms'")
	plan = explainPlan(c, "SELECT channel, COUNT(*) FROM pay GROUP BY channel")
	if strings.Contains(plan, "VectorizedExec") {
		t.Errorf("lakesql_executor = 'gms' still runs on DuckDB:\n%s", plan)
	}
}

func sortedUnlessOrdered(q string, rows []string) []string {
	if !strings.Contains(q, "ORDER BY") {
		slices.Sort(rows)
	}
	return rows
}

// TestVectorizedFallsBackOnAFilterDuckDBCannotTake: a pushed filter
// FilterSQL refuses (a string literal holding NUL) sends the read back to
// GMS, with GMS's answer, instead of failing the statement.
func TestVectorizedFallsBackOnAFilterDuckDBCannotTake(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	payTables(c)
	q := "SELECT channel, COUNT(*) FROM pay WHERE status <> 'x\\0y' GROUP BY channel"
	if plan := explainPlan(c, q); !strings.Contains(plan, "VectorizedExec") {
		t.Fatalf("not handed to DuckDB:\n%s", plan)
	}
	got := strings.Join(sortedUnlessOrdered(q, format(c.mustQuery(q))), " ")
	if want := "[<nil> 1] [app 3] [pos 1] [web 1]"; got != want {
		t.Errorf("%s: %s, want %s", q, got, want)
	}
}

// TestVectorizedReadsUncompactedTables: primary-key tables written by
// several statements and never compacted (updates, deletes and upserts
// over earlier files; a sequence.field; a partial-update table, whose
// merged rows lakesql's reader hands over) give DuckDB's answers, and the
// storage-side aggregate's, equal to go-mysql-server's over plain scans.
func TestVectorizedReadsUncompactedTables(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	c.mustExec("CREATE DATABASE d", "USE d")
	tables := map[string]string{
		"dedup":   `{"write-only":"true"}`,
		"seqf":    `{"write-only":"true","sequence.field":"ver"}`,
		"partial": `{"write-only":"true","merge-engine":"partial-update"}`,
	}
	for name, options := range tables {
		c.mustExec(`CREATE TABLE `+name+` (k BIGINT NOT NULL, ver INT, g VARCHAR(8), amount DECIMAL(10,2), PRIMARY KEY (k))
				COMMENT 'paimon:`+options+`' PARTITION BY KEY (k) PARTITIONS 2`,
			"INSERT INTO "+name+" SELECT n, 1, CONCAT('g', n % 5), n * 1.25 FROM (WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 300) SELECT n FROM s) x",
			"INSERT INTO "+name+" VALUES (7, 2, 'g9', 1.00), (8, 0, 'g9', 2.00), (301, 1, 'g1', 3.50)",
			"UPDATE "+name+" SET amount = amount + 100, ver = ver + 1 WHERE k % 7 = 0",
			"INSERT INTO "+name+" VALUES (14, 1, 'g8', -4.00)")
		if name != "partial" {
			c.mustExec("DELETE FROM " + name + " WHERE k % 11 = 0 OR k = 301")
		}
	}
	for name := range tables {
		for _, q := range []string{
			"SELECT g, COUNT(*), SUM(amount), MIN(ver), MAX(k) FROM " + name + " GROUP BY g",
			"SELECT k, ver, g, amount FROM " + name + " WHERE amount > 50 ORDER BY k",
			"SELECT COUNT(*), SUM(amount) FROM " + name + " WHERE g = 'g9'",
		} {
			c.mustExec("SET lakesql_executor = 'duckdb'", "SET lakesql_planner_rewrites = ON")
			if plan := explainPlan(c, q); !strings.Contains(plan, "VectorizedExec (engine: duckdb)") && !strings.HasPrefix(q, "SELECT COUNT(*), SUM") {
				t.Errorf("%s: not run on DuckDB:\n%s", q, plan)
			}
			duck := sortedUnlessOrdered(q, format(c.mustQuery(q)))
			c.mustExec("SET lakesql_executor = 'gms'", "SET lakesql_planner_rewrites = OFF")
			gms := sortedUnlessOrdered(q, format(c.mustQuery(q)))
			if !slices.Equal(duck, gms) || len(gms) == 0 {
				t.Errorf("%s:\nduckdb %v\ngms    %v", q, duck, gms)
			}
		}
	}
}

// sameBothWays runs q with the executor on and off and requires the same
// rows, and, when onDuck, EXPLAIN to show that DuckDB ran it.
func sameBothWays(t *testing.T, c *conn, q string, onDuck bool) {
	t.Helper()
	c.mustExec("SET lakesql_executor = 'duckdb'")
	if plan := explainPlan(c, q); strings.Contains(plan, "VectorizedExec (engine: duckdb)") != onDuck {
		t.Errorf("%s: on DuckDB %v, want %v:\n%s", q, !onDuck, onDuck, plan)
	}
	duck := sortedUnlessOrdered(q, format(c.mustQuery(q)))
	c.mustExec("SET lakesql_executor = 'gms'")
	gms := sortedUnlessOrdered(q, format(c.mustQuery(q)))
	if !slices.Equal(duck, gms) || len(gms) == 0 {
		t.Errorf("%s:\nduckdb %v\ngms    %v", q, duck, gms)
	}
}

// TestVectorizedJavaTimestamps reads Java's TIMESTAMP(p) and
// TIMESTAMP(p) WITH LOCAL TIME ZONE columns (millis to precision 3,
// micros to 6, INT96 beyond) at the snapshot that wrote them (DuckDB reads
// the file) and in the table's current schema, which casts INT columns to
// timestamps (lakesql's reader hands DuckDB the rows). Nanosecond columns
// stay on GMS.
func TestVectorizedJavaTimestamps(t *testing.T) {
	h := newDuckHarnessAt(t, filepath.Join(fixtures.Root(), "paimon-java"))
	c := connectAll(h)
	c.mustExec("USE append_with_cast_timestamp", "SET time_zone = '+05:30'")
	const tbl = "append_with_cast_timestamp"
	const old = tbl + " AS OF 1"
	for _, q := range []string{
		"SELECT ts_sec, ts_milli, ts_micro, ts_tz_sec, ts_tz_milli, ts_tz_micro FROM " + old,
		"SELECT ts_sec, MIN(ts_milli), MAX(ts_micro), MIN(ts_tz_micro), MAX(ts_tz_sec), COUNT(ts_tz_milli) FROM " + old + " GROUP BY ts_sec",
		"SELECT ts_sec FROM " + old + " WHERE ts_tz_micro >= '1970-01-01 00:00:00.000002' AND ts_milli < '1970-01-01 00:00:00.005'",
		"SELECT CAST(ts_tz_sec AS DATE), YEAR(ts_micro), COUNT(*) FROM " + old + " GROUP BY ts_tz_sec, ts_micro",
		"SELECT ts_tz_milli, ts_sec FROM " + old + " ORDER BY ts_tz_milli DESC, ts_sec",
		"SELECT int_ts_sec, int_ts_tz_micro, ts_tz_micro FROM " + tbl,
		"SELECT MAX(int_ts_sec), MIN(int_ts_tz_micro) FROM " + tbl + " WHERE int_ts_tz_micro > '1970-01-01'",
	} {
		sameBothWays(t, c, q, true)
	}
	c.mustExec("SET lakesql_executor = 'duckdb'")
	for q, scan := range map[string]string{
		"SELECT ts_tz_micro FROM " + old:     "READ_PARQUET",
		"SELECT int_ts_tz_micro FROM " + tbl: "SEQ_SCAN",
	} {
		if plan := explainPlan(c, q); !strings.Contains(plan, scan) {
			t.Errorf("%s: DuckDB's plan has no %s:\n%s", q, scan, plan)
		}
	}
	sameBothWays(t, c, "SELECT ts_nano, ts_sec FROM "+old, false)
	sameBothWays(t, c, "SELECT ts_tz_nano FROM "+old+" WHERE ts_tz_nano IS NOT NULL", false)
}

// TestVectorizedTimestampsAndChars: DATETIME(p) (Paimon's TIMESTAMP),
// TIMESTAMP(p) (TIMESTAMP_LTZ, shown in UTC whatever the session's
// time_zone) and CHAR columns at their edges, from an append table DuckDB
// reads itself and a primary-key table whose merged rows lakesql's reader
// hands over, answer as on GMS. DATE() is left out as in vectorQueries.
func TestVectorizedTimestampsAndChars(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	c.mustExec("CREATE DATABASE d", "USE d", "SET time_zone = '-03:00'")
	rows := `(1, '0001-01-01 00:00:00', '1970-01-01 00:00:01.000001', 'a', '0001-01-01 00:00:00.001'),
		(2, '9999-12-31 23:59:59', '2038-01-19 03:14:07.999999', 'a  ', '9999-12-31 23:59:59.999'),
		(3, '1969-12-31 23:59:59', '1970-01-01 00:00:01', '', '1969-12-31 23:59:59.999'),
		(4, '2024-03-10 02:30:00', '2024-03-31 02:30:00.5', ' é', '2024-03-10 02:30:00.5'),
		(5, NULL, NULL, NULL, NULL)`
	for _, ddl := range []string{
		"CREATE TABLE ap (id INT, t0 DATETIME, lt TIMESTAMP(6), c CHAR(4), t3 DATETIME(3))",
		"CREATE TABLE pk (id INT NOT NULL, t0 DATETIME, lt TIMESTAMP(6), c CHAR(4), t3 DATETIME(3), PRIMARY KEY (id))",
	} {
		c.mustExec(ddl)
	}
	c.mustExec("INSERT INTO ap VALUES "+rows, "INSERT INTO pk VALUES "+rows,
		"UPDATE pk SET t3 = '1000-01-01 00:00:00.001', c = 'b ' WHERE id = 3")
	for _, name := range []string{"ap", "pk"} {
		for _, q := range []string{
			"SELECT id, t0, lt, c, t3, CONCAT('<', c, '>') FROM " + name,
			"SELECT c, COUNT(*), MIN(t0), MAX(lt), MIN(t3) FROM " + name + " GROUP BY c",
			"SELECT id FROM " + name + " WHERE c = 'a' OR t0 < '0001-01-01 00:00:01' OR lt = '1970-01-01 00:00:01'",
			"SELECT id, t3 FROM " + name + " WHERE t3 >= '1969-12-31 23:59:59.999' ORDER BY t3 DESC, id",
			"SELECT id, CAST(lt AS DATE), YEAR(t0), MONTH(t3), DAY(lt) FROM " + name + " WHERE lt > '1970-01-01'",
			"SELECT lt, COUNT(*) FROM " + name + " GROUP BY lt ORDER BY lt",
		} {
			sameBothWays(t, c, q, true)
		}
	}
}

// A table with a column named as one a read of files with deleted rows
// adds (DuckDB's file_row_number) is answered, read or not: such reads
// go back to go-mysql-server instead of failing in DuckDB.
func TestVectorizedTableWithAnAddedColumnName(t *testing.T) {
	h := newDuckHarness(t)
	c := connectAll(h)
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE clash (k BIGINT NOT NULL, file_row_number BIGINT, v BIGINT, PRIMARY KEY (k))
			COMMENT 'paimon:{"write-only":"true"}'`,
		"INSERT INTO clash VALUES (1, 10, 100), (2, 20, 200), (3, 30, 300)",
		"UPDATE clash SET v = v + 1 WHERE k = 2")
	for _, q := range []string{
		"SELECT k, SUM(v) FROM clash GROUP BY k",
		"SELECT k, file_row_number FROM clash WHERE v > 150 ORDER BY k",
	} {
		sameBothWays(t, c, q, true)
	}
}

// CHAR values stored with their padding, as Flink writes CHARs (lakesql's
// own writes strip it), answer as MySQL's CHARs on both engines: without
// trailing spaces, compared, grouped and looked up by key without them,
// from the files DuckDB reads itself (the append table) and from merged
// rows lakesql's reader hands over (the primary-key table, written twice).
func TestCharsStoredWithPadding(t *testing.T) {
	warehouse := t.TempDir()
	h := newDuckHarnessAt(t, warehouse)
	c := connectAll(h)
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE ap (id INT, c CHAR(4))",
		"CREATE TABLE pk (k CHAR(4) NOT NULL, id INT, c CHAR(4), PRIMARY KEY (k))",
		"CREATE TABLE pk2 (k CHAR(4) NOT NULL, n INT NOT NULL, PRIMARY KEY (k, n))")
	padded := []string{"ab  ", "x   ", " y  ", "    "}
	writetest.Load(t, filepath.Join(warehouse, "d.db", "ap"), len(padded), func(i int) []any {
		return []any{int32(i + 1), padded[i]}
	})
	for commit := int64(1); commit <= 2; commit++ {
		writetest.LoadCommit(t, filepath.Join(warehouse, "d.db", "pk"), commit, len(padded), func(i int) []any {
			return []any{padded[i], int32(i + 1), padded[(i+int(commit))%len(padded)]}
		})
	}
	writetest.Load(t, filepath.Join(warehouse, "d.db", "pk2"), 2*len(padded), func(i int) []any {
		return []any{padded[i%len(padded)], int32(i + 1)}
	})
	answers := map[string][]string{
		"SELECT a.id, q.n FROM ap a JOIN pk2 q ON a.c = q.k AND a.id + 4 = q.n ORDER BY a.id": {"[1 5]", "[2 6]", "[3 7]", "[4 8]"},
		"SELECT id, CONCAT('[', c, ']'), LENGTH(c) FROM ap ORDER BY id":                       {"[1 [ab] 2]", "[2 [x] 1]", "[3 [ y] 2]", "[4 [] 0]"},
		"SELECT id FROM ap WHERE c = 'x' OR c = ''":                                           {"[2]", "[4]"},
		"SELECT c, COUNT(*) FROM ap WHERE c > 'a' GROUP BY c ORDER BY c":                      {"[ab 1]", "[x 1]"},
		"SELECT CONCAT('[', k, ']'), c FROM pk WHERE k = 'x'":                                 {"[[x] ]"},
		"SELECT id FROM pk WHERE k IN ('ab', ' y') ORDER BY id":                               {"[1]", "[3]"},
		"SELECT a.id, p.id FROM ap a JOIN pk p ON a.c = p.k ORDER BY a.id":                    {"[1 1]", "[2 2]", "[3 3]", "[4 4]"},
		"SELECT CONCAT('[', c, ']'), COUNT(*) FROM pk GROUP BY c ORDER BY c":                  {"[[] 1]", "[[ y] 1]", "[[ab] 1]", "[[x] 1]"},
	}
	for q, want := range answers {
		sameBothWays(t, c, q, true)
		if got := format(c.mustQuery(q)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
}

// engineCase is a statement and whether DuckDB runs it.
type engineCase struct {
	sql    string
	onDuck bool
}

// payConn is a connection to a DuckDB harness holding payTables, every
// translated read on DuckDB however few rows.
func payConn(t *testing.T) *conn {
	c := connectAll(newDuckHarness(t))
	payTables(c)
	return c
}

// TestAggregatesThatReadRowsGoToDuckDB: an aggregate without GROUP BY
// that file metadata cannot answer (a SUM, or a filter on other columns
// than the partition's) runs on DuckDB when the executor is on, and on
// the storage-side scan when it is off; one metadata may answer stays on
// the storage side either way. The answers are the same.
func TestAggregatesThatReadRowsGoToDuckDB(t *testing.T) {
	c := payConn(t)
	for _, q := range []engineCase{
		{"SELECT COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' AND status = 'SUCCESS'", true},
		{"SELECT SUM(amount), MIN(pay_id) FROM pay", true},
		{"SELECT COUNT(*) FROM pay WHERE status = 'SUCCESS'", true},
		{"SELECT COUNT(*), MIN(pay_id), MAX(amount) FROM pay WHERE dt = '2024-01-02'", false},
		{"SELECT MIN(pay_id), MAX(dt) FROM pay", false},
	} {
		sameBothWays(t, c, q.sql, q.onDuck)
		c.mustExec("SET lakesql_executor = 'gms'")
		if plan := explainPlan(c, q.sql); !strings.Contains(plan, "LakesqlAggregate") {
			t.Errorf("%s: with the executor off, not the storage-side aggregate:\n%s", q.sql, plan)
		}
		c.mustExec("SET lakesql_executor = 'duckdb'")
		if plan := explainPlan(c, q.sql); strings.Contains(plan, "LakesqlAggregate") == q.onDuck {
			t.Errorf("%s: with the executor on, storage-side aggregate %v, want %v:\n%s", q.sql, q.onDuck, !q.onDuck, plan)
		}
	}
}

// TestPointLookupsStayOnGMS: a read whose filter pins whole primary keys
// (a few of them) stays on go-mysql-server, whose reader decodes only the
// pages that can hold them; pinning part of a key, or too many keys, goes
// to DuckDB. The answers are the same.
func TestPointLookupsStayOnGMS(t *testing.T) {
	c := payConn(t)
	for _, q := range []engineCase{
		{"SELECT * FROM pay WHERE dt = '2024-01-02' AND pay_id = 3", false},
		{"SELECT amount FROM pay WHERE dt IN ('2024-01-01', '2024-01-02') AND pay_id IN (1, 3, 4) AND status = 'SUCCESS'", false},
		{"SELECT state FROM os WHERE pay_id = 4", false},
		{"SELECT * FROM pay WHERE pay_id = 3", true},
		{"SELECT state FROM os WHERE pay_id >= 3", true},
		{"SELECT state FROM os WHERE pay_id IN (" + numberList(1, 65) + ")", true},
	} {
		sameBothWays(t, c, q.sql, q.onDuck)
		c.mustExec("SET lakesql_executor = 'duckdb'")
		if plan := explainPlan(c, q.sql); !q.onDuck && !strings.Contains(plan, "pins whole primary keys") {
			t.Errorf("%s: EXPLAIN does not say why it stays on go-mysql-server:\n%s", q.sql, plan)
		}
	}
}

// numberList is "from, …, to".
func numberList(from, to int) string {
	parts := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, ", ")
}
