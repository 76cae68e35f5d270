package server_test

import (
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// keyServer serves a warehouse with a payments table whose key is a
// DATE and a BIGINT, an orders table keyed by an unsigned BIGINT and a
// string, and a table keyed by a small INT, and returns a pool of one
// connection to it in that database.
func keyServer(t *testing.T) (*servertest.Server, *sql.DB) {
	t.Helper()
	cfg := testConfig(t)
	cfg.MetricsListen = "127.0.0.1:0"
	srv := start(t, cfg)
	db := srv.Connect(t, "root", "", func(c *mysql.Config) { c.DBName = "" })
	db.SetMaxOpenConns(1)
	servertest.Exec(t, db,
		"CREATE DATABASE shop", "USE shop",
		"CREATE TABLE pay (dt DATE NOT NULL, pay_id BIGINT NOT NULL, amount DECIMAL(12,2), status VARCHAR(16), PRIMARY KEY (dt, pay_id)) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4",
		"INSERT INTO pay VALUES ('2024-01-01', 1, 1.50, 'paid'), ('2024-01-01', 2, 2.50, 'new'), ('2024-01-02', 1, 3.25, NULL), ('2024-01-02', -7, 0.00, 'void')",
		"CREATE TABLE orders (order_id BIGINT UNSIGNED NOT NULL, region VARCHAR(8) NOT NULL, note TEXT, PRIMARY KEY (order_id, region))",
		"INSERT INTO orders VALUES (18446744073709551615, 'eu', 'max'), (1, 'eu', 'one'), (1, 'EU', 'upper'), (2, 'eu ', 'trailing')",
		"CREATE TABLE small (k INT NOT NULL PRIMARY KEY, v VARCHAR(4))",
		"INSERT INTO small VALUES (1, 'a'), (2147483647, 'max'), (-2147483648, 'min')",
	)
	return srv, db
}

// planCount is how many key selects the server ran with outcome
// (cached, learned, stale), from its metrics.
func planCount(t *testing.T, srv *servertest.Server, outcome string) int {
	t.Helper()
	body := servertest.HTTPGet(t, "http://"+srv.Server.MetricsAddr().String()+"/metrics")
	m := regexp.MustCompile(`lakesql_key_select_plans_total\{outcome="` + outcome + `"\} (\d+)`).FindStringSubmatch(body)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// answer is a statement's result as a client sees it: column metadata,
// rows as text, or the error.
func answer(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		return "error: " + err.Error()
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range types {
		length, _ := c.Length()
		precision, scale, _ := c.DecimalSize()
		nullable, _ := c.Nullable()
		fmt.Fprintf(&b, "%s %s len=%d dec=%d,%d null=%v|", c.Name(), c.DatabaseTypeName(), length, precision, scale, nullable)
	}
	for rows.Next() {
		values := make([]sql.NullString, len(types))
		ptrs := make([]any, len(values))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
		for _, v := range values {
			if v.Valid {
				b.WriteString(strconv.Quote(v.String) + " ")
			} else {
				b.WriteString("NULL ")
			}
		}
	}
	if err := rows.Err(); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// analyzed is query's answer from go-mysql-server's analysis alone: with
// planner rewrites off, no statement runs from a cached plan.
func analyzed(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	servertest.Exec(t, db, "SET lakesql_planner_rewrites = OFF")
	defer servertest.Exec(t, db, "SET lakesql_planner_rewrites = ON")
	return answer(t, db, query, args...)
}

// Key selects of a shape seen before run from its cached plan and
// answer as analysis does, column metadata included, for keys that match
// and keys that do not, with literals at the edges of their types.
func TestCachedKeySelectPlansAnswerAsAnalysis(t *testing.T) {
	srv, db := keyServer(t)
	shapes := []struct {
		shape string
		keys  [][]any
	}{
		{"SELECT * FROM pay WHERE dt = %s AND pay_id = %s", [][]any{{"'2024-01-01'", "1"}, {"'2024-01-01'", "2"}, {"'2024-01-02'", "-7"}, {"'2024-01-02'", "1"}, {"'2024-01-03'", "1"}, {"'2024-02-30'", "1"}, {"'2024-01-01 00:00:00'", "1"}, {"'2024-1-1'", "1"}, {"'2024-01-01'", "9223372036854775808"}}},
		{"SELECT pay_id, amount AS amt, p.status FROM shop.pay AS p WHERE p.pay_id = %s AND p.dt = %s", [][]any{{"2", "'2024-01-01'"}, {"1", "'2024-01-02'"}, {"-7", "'2024-01-02'"}, {"3", "'2024-01-01'"}}},
		{"SELECT note FROM orders WHERE order_id = %s AND region = %s LIMIT 1", [][]any{{"18446744073709551615", "'eu'"}, {"1", "'eu'"}, {"1", "'EU'"}, {"2", "'eu'"}, {"2", "'eu '"}, {"-1", "'eu'"}, {"1", "'\u00e9u'"}}},
		{"SELECT k, v FROM small WHERE k = %s", [][]any{{"1"}, {"2147483647"}, {"-2147483648"}, {"2147483648"}, {"-2147483649"}, {"'1'"}, {"1"}}},
		{"SELECT * FROM pay WHERE dt = %s AND pay_id BETWEEN %s AND %s ORDER BY pay_id", [][]any{{"'2024-01-01'", "1", "2"}, {"'2024-01-02'", "-10", "10"}, {"'2024-01-01'", "5", "1"}, {"'2024-01-02'", "1", "1"}}},
		{"SELECT pay_id AS id FROM pay WHERE pay_id >= %s AND dt = %s ORDER BY pay_id DESC LIMIT 2", [][]any{{"-7", "'2024-01-02'"}, {"2", "'2024-01-01'"}, {"1", "'2024-01-01'"}}},
		{"SELECT k, v FROM small WHERE %s < k ORDER BY k LIMIT 2", [][]any{{"0"}, {"-2147483649"}, {"1"}}},
	}
	for _, s := range shapes {
		for _, key := range s.keys {
			q := fmt.Sprintf(s.shape, key...)
			want := analyzed(t, db, q)
			if got := answer(t, db, q); got != want {
				t.Errorf("%s:\n got %s\nwant %s", q, got, want)
			}
		}
	}
	if n := planCount(t, srv, "cached"); n < 20 {
		t.Errorf("%d selects ran from cached plans, want at least 20", n)
	}
}

// Prepared point selects (go-sql-driver prepares a statement with
// arguments on the server) run from cached plans too, with the values
// bound to their parameters, and answer as analysis does in the binary
// protocol.
func TestCachedKeySelectPlansOfPreparedStatements(t *testing.T) {
	srv, db := keyServer(t)
	statements := []struct {
		query string
		args  [][]any
	}{
		{"SELECT * FROM pay WHERE dt = ? AND pay_id = ?", [][]any{{"2024-01-01", 1}, {"2024-01-01", 2}, {"2024-01-02", int64(-7)}, {"2024-01-03", 1}, {"2024-02-30", 1}, {"2024-01-01", uint64(1 << 63)}, {"2024-01-01", "1"}, {"2024-01-01", 1.0}, {"2024-01-01", nil}}},
		{"SELECT note FROM orders WHERE order_id = ? AND region = ?", [][]any{{uint64(18446744073709551615), "eu"}, {1, "EU"}, {2, "eu "}, {1, []byte("eu")}}},
		{"SELECT v FROM small WHERE k = ?", [][]any{{1}, {2147483647}, {int64(2147483648)}, {2}}},
	}
	for _, st := range statements {
		for _, args := range st.args {
			want := analyzed(t, db, st.query, args...)
			if got := answer(t, db, st.query, args...); got != want {
				t.Errorf("%s %v:\n got %s\nwant %s", st.query, args, got, want)
			}
		}
	}
	if n := planCount(t, srv, "cached"); n < 8 {
		t.Errorf("%d prepared point selects ran from cached plans, want at least 8", n)
	}
}

// A cached plan reads the snapshot of its statement: rows committed after
// the plan was cached are seen, and a table whose columns changed, or was
// re-created, is analyzed again.
func TestCachedKeySelectPlansFollowTheTable(t *testing.T) {
	srv, db := keyServer(t)
	const q = "SELECT * FROM small WHERE k = %d"
	answer(t, db, fmt.Sprintf(q, 1))
	if got := answer(t, db, fmt.Sprintf(q, 5)); strings.Contains(got, "\n") {
		t.Fatalf("k = 5 before its insert: %s", got)
	}
	servertest.Exec(t, db, "INSERT INTO small VALUES (5, 'five')")
	if got := answer(t, db, fmt.Sprintf(q, 5)); !strings.Contains(got, `"five"`) {
		t.Errorf("k = 5 after its insert: %s", got)
	}
	servertest.Exec(t, db, "ALTER TABLE small ADD COLUMN w INT", "UPDATE small SET w = 7 WHERE k = 5")
	if got, want := answer(t, db, fmt.Sprintf(q, 5)), analyzed(t, db, fmt.Sprintf(q, 5)); got != want || !strings.Contains(got, `"7"`) {
		t.Errorf("after ADD COLUMN: got %s, want %s with w = 7", got, want)
	}
	servertest.Exec(t, db, "DROP TABLE small", "CREATE TABLE small (k INT NOT NULL PRIMARY KEY, label TEXT)", "INSERT INTO small VALUES (5, 'new')")
	if got, want := answer(t, db, fmt.Sprintf(q, 5)), analyzed(t, db, fmt.Sprintf(q, 5)); got != want || !strings.Contains(got, "label") {
		t.Errorf("after re-creating the table: got %s, want %s", got, want)
	}
	servertest.Exec(t, db, "DROP TABLE small")
	if got := answer(t, db, fmt.Sprintf(q, 5)); !strings.Contains(got, "Error 1146") {
		t.Errorf("after DROP TABLE: %s, want error 1146", got)
	}
	if planCount(t, srv, "stale") < 2 {
		t.Errorf("stale plans: %d, want at least 2", planCount(t, srv, "stale"))
	}
}

// A cached plan checks the privilege of each statement's user, and
// refuses as analysis does.
func TestCachedKeySelectPlansCheckPrivileges(t *testing.T) {
	srv, root := keyServer(t)
	servertest.Exec(t, root, "CREATE USER clerk IDENTIFIED BY 'pw'", "GRANT SELECT ON shop.small TO clerk")
	const q = "SELECT * FROM shop.pay WHERE dt = '2024-01-01' AND pay_id = %d"
	answer(t, root, fmt.Sprintf(q, 1))
	answer(t, root, fmt.Sprintf(q, 2))
	clerk := srv.Connect(t, "clerk", "pw")
	clerk.SetMaxOpenConns(1)
	// A connection's session is made by its first statement.
	servertest.Exec(t, clerk, "SELECT 1")
	cached := answer(t, clerk, fmt.Sprintf(q, 1))
	if want := analyzed(t, clerk, fmt.Sprintf(q, 1)); cached != want || !strings.Contains(cached, "Error 1142") {
		t.Errorf("clerk's point select: %s, want %s (error 1142)", cached, want)
	}
	if n := planCount(t, srv, "cached"); n != 2 {
		t.Errorf("%d point selects ran from cached plans, want 2 (root's second, clerk's refused)", n)
	}
	if got := answer(t, clerk, "SELECT v FROM shop.small WHERE k = 1"); !strings.Contains(got, `"a"`) {
		t.Errorf("clerk's granted point select: %s", got)
	}
}

// A cached plan leaves the session as analysis would: the previous
// statement's warnings are cleared, and a transaction's own writes and a
// client writing another character set than UTF-8 are served by
// analysis, not from the cache.
func TestCachedKeySelectPlansKeepSessionState(t *testing.T) {
	srv, db := keyServer(t)
	const q = "SELECT v FROM small WHERE k = %d"
	answer(t, db, fmt.Sprintf(q, 1))
	servertest.Exec(t, db, "SELECT CAST('1x' AS SIGNED)")
	answer(t, db, fmt.Sprintf(q, 2147483647))
	if got := answer(t, db, "SHOW WARNINGS"); strings.Contains(got, "\n") {
		t.Errorf("warnings after a cached point select: %s", got)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"BEGIN", "INSERT INTO small VALUES (9, 'mine')"} {
		if _, err := conn.ExecContext(t.Context(), s); err != nil {
			t.Fatal(s, err)
		}
	}
	var v string
	if err := conn.QueryRowContext(t.Context(), fmt.Sprintf(q, 9)).Scan(&v); err != nil || v != "mine" {
		t.Errorf("own uncommitted row: %q, %v", v, err)
	}
	if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if got := answer(t, db, fmt.Sprintf(q, 9)); strings.Contains(got, "\n") {
		t.Errorf("rolled-back row: %s", got)
	}
	servertest.Exec(t, db, "SET character_set_client = latin1")
	cached := planCount(t, srv, "cached")
	if got := answer(t, db, fmt.Sprintf(q, 1)); !strings.Contains(got, `"a"`) {
		t.Errorf("latin1 client's point select: %s", got)
	}
	if n := planCount(t, srv, "cached"); n != cached {
		t.Errorf("a latin1 client's point select ran from a cached plan")
	}
}

// Sessions share cached plans: many connections running one shape at
// once each get their own key's row.
func TestCachedKeySelectPlansConcurrently(t *testing.T) {
	srv, db := keyServer(t)
	servertest.Exec(t, db, "INSERT INTO small VALUES (10, 'k10'), (11, 'k11'), (12, 'k12'), (13, 'k13')")
	var wg sync.WaitGroup
	for c := range 6 {
		conn := srv.Connect(t, "root", "")
		conn.SetMaxOpenConns(1)
		servertest.Exec(t, conn, "USE shop")
		wg.Go(func() {
			for i := range 40 {
				k := 10 + (c+i)%4
				var v string
				if err := conn.QueryRow(fmt.Sprintf("SELECT v FROM small WHERE k = %d", k)).Scan(&v); err != nil || v != fmt.Sprintf("k%d", k) {
					t.Errorf("k = %d: %q, %v", k, v, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := planCount(t, srv, "cached"); n < 200 {
		t.Errorf("%d selects ran from cached plans, want at least 200", n)
	}
}
