package servertest

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Execer runs statements: a connection pool, a connection or a
// transaction.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Exec runs statements in order and fails the test at the first that
// fails.
func Exec(t testing.TB, db Execer, statements ...string) {
	t.Helper()
	for _, s := range statements {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Grants returns the rows of SHOW GRANTS FOR account ('user'@'host').
func Grants(t testing.TB, db *sql.DB, account string) []string {
	t.Helper()
	return Column[string](t, db, "SHOW GRANTS FOR "+account)
}

// Querier runs queries: a connection pool, a connection or a
// transaction.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Column runs query, whose rows have one column, and returns its values.
func Column[T any](t testing.TB, db Querier, query string) []T {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// HTTPGet returns the body of a GET of url, such as a server's /metrics.
func HTTPGet(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// ErrorNumber is the MySQL error number of err, or 0 if it is not a MySQL
// error.
func ErrorNumber(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}
