//go:build duckdb_arrow && cgo

package server_test

import (
	"context"
	"database/sql"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"google.golang.org/protobuf/proto"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// A result DuckDB computes whole is written to the client from DuckDB's
// batches, past go-mysql-server's rows: the column definitions (names,
// sources, types, character sets, lengths, flags, decimals) and every
// value's bytes, NULLs included, are those go-mysql-server sends for the
// same statement, and so are they with character_set_results unset or
// another character set, failures to encode a value in it included. Read with vitess's client, which keeps both as
// they arrive.
func TestStreamedResultsMatchGoMySQLServer(t *testing.T) {
	s := start(t, testConfig(t))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE d",
		`CREATE TABLE d.t (id BIGINT NOT NULL PRIMARY KEY, ti TINYINT, si SMALLINT UNSIGNED, i INT NOT NULL, ub BIGINT UNSIGNED,
			amount DECIMAL(18,2), wide DECIMAL(38,10), whole DECIMAL(20,0), name VARCHAR(16), code CHAR(4), note TEXT,
			day DATE, at DATETIME(6), ts TIMESTAMP, f FLOAT, d DOUBLE, flag BOOLEAN, bin VARBINARY(8))`,
		`INSERT INTO d.t VALUES
			(1, -128, 65535, -2147483648, 18446744073709551615, -9999999999999999.99, -1234567890123456789012345678.0123456789, -99999999999999999999,
				'', 'ab', 'é✓', '1000-01-01', '1000-01-01 00:00:00.000001', '1970-01-01 00:00:01', -1.5, 1e300, true, x'00ff'),
			(2, 127, 0, 2147483647, 0, 0.05, 0.0000000001, 0, 'payé', 'abcd', '', '9999-12-31', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07', 0.1, -0.0, false, x''),
			(3, NULL, NULL, 7, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
			(4, 0, 1, 0, 1, -0.01, 1, 1, 'x', 'x   ', 'long text', '2024-02-29', '2024-02-29 12:00:00', '2024-02-29 12:00:00', 3.25, 2.5, true, x'41')`)
	queries := []string{
		"SELECT * FROM d.t",
		"SELECT id, amount, name, day FROM d.t ORDER BY id DESC",
		"SELECT id AS k, amount * 2 AS doubled, amount + wide AS total, CONCAT(name, '-', code) AS label FROM d.t WHERE id < 4",
		"SELECT flag, COUNT(*), SUM(amount), AVG(i), MIN(day), MAX(at), SUM(whole) FROM d.t GROUP BY flag ORDER BY flag",
		"SELECT DISTINCT code FROM d.t",
		"SELECT id, i DIV 3, i / 7, YEAR(day), LENGTH(note), CHAR_LENGTH(note) FROM d.t ORDER BY id LIMIT 3",
	}
	explain := rawConnection(t, s, "")
	fetch(t, explain, "SET lakesql_executor_min_rows = 0")
	for _, q := range queries {
		if plan := rowsText(fetch(t, explain, "EXPLAIN "+q)); !strings.Contains(plan, "engine: duckdb") {
			t.Fatalf("%s does not run on DuckDB:\n%s", q, plan)
		}
	}
	for _, charset := range []string{"", "utf8mb4", "latin1"} {
		on, off := rawConnection(t, s, charset), rawConnection(t, s, charset)
		fetch(t, on, "SET lakesql_executor_min_rows = 0")
		fetch(t, off, "SET lakesql_executor = 'gms'")
		for _, q := range queries {
			streamed, streamErr := on.ExecuteFetch(q, 1000, true)
			rows, rowsErr := off.ExecuteFetch(q, 1000, true)
			if streamErr != nil || rowsErr != nil {
				if streamErr == nil || rowsErr == nil || streamErr.Error() != rowsErr.Error() {
					t.Fatalf("character set %q, %s: streamed, %v; from go-mysql-server, %v", charset, q, streamErr, rowsErr)
				}
				continue
			}
			if len(streamed.Fields) != len(rows.Fields) {
				t.Fatalf("character set %q, %s: %d columns streamed, %d from go-mysql-server", charset, q, len(streamed.Fields), len(rows.Fields))
			}
			for i := range rows.Fields {
				if !proto.Equal(streamed.Fields[i], rows.Fields[i]) {
					t.Fatalf("character set %q, %s: column %d streamed as\n%v\ngo-mysql-server sends\n%v", charset, q, i, streamed.Fields[i], rows.Fields[i])
				}
			}
			got, want := rowsText(streamed), rowsText(rows)
			if !strings.Contains(q, "ORDER BY") {
				got, want = sortedLines(got), sortedLines(want)
			}
			if got != want {
				t.Fatalf("character set %q, %s: streamed\n%s\ngo-mysql-server sends\n%s", charset, q, got, want)
			}
		}
	}
}

// rawConnection is a vitess client connection to s, with
// character_set_results set to charset unless it is "".
func rawConnection(t *testing.T, s *servertest.Server, charset string) *mysql.Conn {
	t.Helper()
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	portNumber, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: host, Port: portNumber, Uname: "root"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	if charset != "" {
		fetch(t, conn, "SET character_set_results = "+charset)
	}
	return conn
}

func fetch(t *testing.T, conn *mysql.Conn, query string) *sqltypes.Result {
	t.Helper()
	r, err := conn.ExecuteFetch(query, 1000, true)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return r
}

// sortedLines is text's lines in sorted order: the rows of a statement
// without ORDER BY.
func sortedLines(text string) string {
	lines := strings.Split(text, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// rowsText renders a result's rows byte for byte, NULL as \N.
func rowsText(r *sqltypes.Result) string {
	var out strings.Builder
	for _, row := range r.Rows {
		for i, v := range row {
			if i > 0 {
				out.WriteByte('|')
			}
			if v.IsNull() {
				out.WriteString(`\N`)
			} else {
				out.Write(v.Raw())
			}
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// Prepared statements (the binary protocol, which vitess makes of the
// rows' text) stream from DuckDB too, with the values go-mysql-server's
// rows give them: each statement with a bound parameter, executor on and
// off, through go-sql-driver, which prepares a statement with arguments.
func TestStreamedPreparedResultsMatchGoMySQLServer(t *testing.T) {
	s := start(t, testConfig(t))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE d",
		"CREATE TABLE d.t (id BIGINT NOT NULL PRIMARY KEY, amount DECIMAL(18,2), name VARCHAR(16), day DATE, at DATETIME(6), f DOUBLE, u INT UNSIGNED)",
		`INSERT INTO d.t VALUES (1, -0.05, 'payé', '1000-01-01', '2024-02-29 12:00:00.000001', 1e300, 4294967295),
			(2, 12345678.90, '', '9999-12-31', NULL, -0.5, 0), (3, NULL, NULL, NULL, '1970-01-01 00:00:01', NULL, NULL)`)
	on, _ := connection(t, s)
	off, _ := connection(t, s)
	if _, err := off.ExecContext(context.Background(), "SET lakesql_executor = 'gms'"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT * FROM d.t WHERE id >= ? ORDER BY id",
		"SELECT day, COUNT(*), SUM(amount), MAX(at) FROM d.t WHERE id <> ? GROUP BY day ORDER BY day",
	} {
		if got, want := preparedRows(t, on, q), preparedRows(t, off, q); got != want {
			t.Fatalf("%s: streamed\n%s\ngo-mysql-server sends\n%s", q, got, want)
		}
	}
}

// preparedRows runs q with the argument 0 as a prepared statement and
// renders its rows.
func preparedRows(t *testing.T, conn *sql.Conn, q string) string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q, 0)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	values := make([]sql.RawBytes, len(columns))
	pointers := make([]any, len(columns))
	for i := range values {
		pointers[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(pointers...); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if v == nil {
				out.WriteString(`\N|`)
				continue
			}
			out.Write(v)
			out.WriteByte('|')
		}
		out.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
