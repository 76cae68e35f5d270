package differential

import (
	gosql "database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// bulkColumns are the columns of TestBulkInsertMatchesMariaDB's table, one
// of each type the bulk INSERT path converts.
const bulkColumns = `(id INT NOT NULL, b BOOLEAN, ti TINYINT, bi BIGINT, f DOUBLE, d DECIMAL(10,2),
	v VARCHAR(20), c CHAR(5), dt DATE, ts DATETIME(3), PRIMARY KEY (id))`

// Multi-row INSERTs of random literals, which lakesql streams past its SQL
// parser (sqlbackend/bulkvalues.go), store the same rows as MariaDB:
// strings with every escape, quotes, non-ASCII and trailing spaces,
// signed and zero numbers, decimals to the scale, dates, NULLs, and
// statements long enough to keep or to stream their rows.
func TestBulkInsertMatchesMariaDB(t *testing.T) {
	lake, maria, lakeDSN := pairedDatabases(t, "bulkinsert", "CREATE TABLE t "+bulkColumns)
	// The mysql command-line client allows several statements a query;
	// the server then parses through another entry.
	lakeMulti := mariadbtest.OpenLoader(t, lakeDSN+"?multiStatements=true")

	r := rand.New(rand.NewPCG(17, 31))
	id := 0
	for i, rows := range []int{8, 50, 2000, 9, 45_000, 300} {
		var tuples []string
		for range rows {
			id++
			tuples = append(tuples, randomBulkTuple(r, id))
		}
		q := "INSERT INTO t VALUES " + strings.Join(tuples, ", ")
		var affected []int64
		lakesql := lake
		if i%2 == 1 {
			lakesql = lakeMulti
		}
		for _, conn := range []*gosql.DB{lakesql, maria} {
			res, err := conn.Exec(q)
			if err != nil {
				t.Fatalf("%.200s…: %v", q, err)
			}
			n, _ := res.RowsAffected()
			affected = append(affected, n)
		}
		if affected[0] != affected[1] {
			t.Errorf("%d rows: lakesql affected %d, MariaDB %d", rows, affected[0], affected[1])
		}
	}
	// Doubles are compared as the values the driver reads, not as text,
	// which TestFloatTextMatchesMariaDB compares.
	const doubles = `SELECT f FROM t ORDER BY id`
	if got, want := servertest.Column[gosql.NullFloat64](t, lake, doubles), servertest.Column[gosql.NullFloat64](t, maria, doubles); !slices.Equal(got, want) {
		t.Errorf("the DOUBLE column differs:\nlakesql %v\nMariaDB %v", got, want)
	}
	const dump = `SELECT CONCAT_WS('|', id, COALESCE(b, 'N'), COALESCE(ti, 'N'), COALESCE(bi, 'N'),
		COALESCE(d, 'N'), COALESCE(HEX(v), 'N'), COALESCE(HEX(c), 'N'), COALESCE(dt, 'N'), COALESCE(ts, 'N')) FROM t ORDER BY id`
	got, want := servertest.Column[string](t, lake, dump), servertest.Column[string](t, maria, dump)
	if len(got) != id || !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("row %d of %d:\nlakesql %s\nMariaDB %s", i, len(got), got[i], want[i])
			}
		}
		t.Fatalf("lakesql has %d rows, MariaDB %d, of %d inserted", len(got), len(want), id)
	}
}

// bulkStringPieces are the pieces random strings are made of: MySQL's
// escapes (\% and \_ keep their backslash), doubled and escaped quotes,
// and characters of several byte lengths.
var bulkStringPieces = []string{"a", "Z", " ", "\\n", "\\t", "\\\\", "\\'", "''", "\\%", "\\_", "%", "_", "\\0", "\\Z", "\\q", "\\\"", "é", "€", "😀", "\""}

func randomBulkTuple(r *rand.Rand, id int) string {
	null := func(v string) string {
		if r.IntN(8) == 0 {
			return "NULL"
		}
		return v
	}
	body := func(max int) string {
		var b strings.Builder
		for n := r.IntN(max + 1); n > 0; n-- {
			b.WriteString(bulkStringPieces[r.IntN(len(bulkStringPieces))])
		}
		return b.String()
	}
	decimal := fmt.Sprintf("%d.%02d", r.IntN(2_000_000)-1_000_000, r.IntN(100))
	if r.IntN(10) == 0 {
		decimal = []string{"-0.00", "0", "-0", ".5", "7.", "'12.5'"}[r.IntN(6)]
	}
	double := []string{fmt.Sprintf("%d.%d", r.IntN(1000)-500, r.IntN(1000)), "-0.0", "0", fmt.Sprint(r.Int64()), "'2.5'"}[r.IntN(5)]
	values := []string{
		fmt.Sprint(id),
		// A Paimon BOOLEAN holds true or false: MySQL's tinyint(1) would
		// keep 127 (README, Types).
		null([]string{"0", "1", "'1'", "'0'"}[r.IntN(4)]),
		null(fmt.Sprint(r.IntN(256) - 128)),
		null(fmt.Sprint(r.Int64() - r.Int64()/2)),
		null(double),
		null(decimal),
		null("'" + body(6) + "'"),
		null("'" + body(2) + strings.Repeat(" ", r.IntN(2)) + "'"), // at most 5 characters
		null(fmt.Sprintf("'%04d-%02d-%02d'", 1970+r.IntN(100), 1+r.IntN(12), 1+r.IntN(28))),
		null(fmt.Sprintf("'2024-%02d-%02d %02d:%02d:%02d.%03d'", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000))),
	}
	return "(" + strings.Join(values, ", ") + ")"
}

// A value a column cannot hold fails an INSERT with MariaDB's error
// number, on the bulk path and on go-mysql-server's.
func TestDataErrorsMatchMariaDB(t *testing.T) {
	lake, maria, _ := pairedDatabases(t, "dataerrors", "CREATE TABLE t "+bulkColumns)
	var exact string
	for id := range 9 {
		exact += fmt.Sprintf("(%d, 1, 1, 1, 1, 1, 'a', 'b', '2024-01-01', NULL), ", 100+id)
	}
	for _, bad := range []string{
		"(1, 1, 1, 1, 1, 1, 'abcdefghijklmnopqrstuvwxyz', 'b', '2024-01-01', NULL)",
		"(1, 1, 1, 1, 1, 1, 'a', 'abcdef', '2024-01-01', NULL)",
		"(1, 1, 300, 1, 1, 1, 'a', 'b', '2024-01-01', NULL)",
		"(1, 1, 1, 1, 1, 123456789.5, 'a', 'b', '2024-01-01', NULL)",
		"(1, 1, 1, 1, 1, 1, 'a', 'b', '2024-13-01', NULL)",
	} {
		for _, q := range []string{"INSERT INTO t VALUES " + bad, "INSERT INTO t VALUES " + exact + bad} {
			var codes []string
			for _, conn := range []*gosql.DB{lake, maria} {
				_, err := conn.Exec(q)
				codes = append(codes, errorNumber(err))
			}
			if codes[0] != codes[1] {
				t.Errorf("%.150s: lakesql %s, MariaDB %s", q, codes[0], codes[1])
			}
		}
	}
}

// errorNumber is the MySQL error number of err, or "ok".
func errorNumber(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return fmt.Sprint(me.Number)
	}
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// DOUBLE values reach the client as the text MariaDB (and MySQL) sends:
// 1234567 and 1e15, not Go's 1.234567e+06 and 1e+15; CONCAT and CAST AS
// CHAR write the same text. (A FLOAT is laid out alike but keeps all its
// digits, where MySQL shows 6: see planner/sqltypes.FloatText.)
func TestFloatTextMatchesMariaDB(t *testing.T) {
	lake, maria, _ := pairedDatabases(t, "floattext", "CREATE TABLE t (id INT NOT NULL, f DOUBLE, g FLOAT, PRIMARY KEY (id))")
	values := []string{"1e14", "1e15", "1234567", "12345678.25", "123456.7", "0.1", "0.000015", "1e-15", "1.5e-16",
		"3.4e38", "-2.5e-20", "123456789012345680", "0.30000000000000004", "1e300", "0", "-1", "999999.5", "0.000001234567"}
	var tuples []string
	for i, v := range values {
		g := v
		if v == "1e300" {
			g = "NULL"
		}
		tuples = append(tuples, fmt.Sprintf("(%d, %s, %s)", i, v, g))
	}
	for _, conn := range []*gosql.DB{lake, maria} {
		servertest.Exec(t, conn, "INSERT INTO t VALUES "+strings.Join(tuples, ", "))
	}
	for _, query := range []string{"SELECT f FROM t ORDER BY id", "SELECT f * 2 FROM t ORDER BY id",
		"SELECT CONCAT(f, '|', id) FROM t ORDER BY id", "SELECT CAST(f AS CHAR) FROM t ORDER BY id", "SELECT CONCAT_WS(',', id, f / 3) FROM t ORDER BY id",
		"SELECT g FROM t WHERE g IN (1e15, 0.1, 0, -1, 100) ORDER BY id",
		"SELECT id FROM t WHERE id IN (SELECT id FROM t WHERE CONCAT(f) = '1e15')"} {
		got, want := servertest.Column[gosql.NullString](t, lake, query), servertest.Column[gosql.NullString](t, maria, query)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\nlakesql %v\nMariaDB %v", query, got, want)
		}
	}
}
