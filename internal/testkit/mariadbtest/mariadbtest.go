// Package mariadbtest connects tests to the MariaDB reference server that
// .ci/mariadb starts (it exports LAKESQL_MARIADB_DSN).
package mariadbtest

import (
	"database/sql"
	"os"
	"testing"

	// The driver the DSN is written for.
	_ "github.com/go-sql-driver/mysql"
)

// DSNVariable names the environment variable holding the server's DSN.
const DSNVariable = "LAKESQL_MARIADB_DSN"

// Open returns a pool for the MariaDB server LAKESQL_MARIADB_DSN names,
// closed when the test ends, or nil when the variable is not set. A set
// variable whose server does not answer fails the test: a reference that
// silently went missing would turn a differential test into a no-op.
func Open(t *testing.T) *sql.DB {
	t.Helper()
	dsn := os.Getenv(DSNVariable)
	if dsn == "" {
		return nil
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.PingContext(t.Context()); err != nil {
		t.Fatalf("%s is set but MariaDB does not answer: %v", DSNVariable, err)
	}
	return db
}
