// Package mariadbtest connects tests to the MariaDB reference server that
// .ci/mariadb starts (it exports LAKESQL_MARIADB_DSN).
package mariadbtest

import (
	"database/sql"
	"os"
	"testing"

	"github.com/go-sql-driver/mysql"
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

// OpenLoader returns a pool of one connection to the MariaDB server of
// dsn, closed when the test ends, that may send any local file to LOAD
// DATA LOCAL INFILE: how benchmarks load their rows into MariaDB. The
// single connection keeps a USE for the statements after it.
func OpenLoader(tb testing.TB, dsn string) *sql.DB {
	tb.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.AllowAllFiles = true
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	db := sql.OpenDB(connector)
	tb.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	return db
}
