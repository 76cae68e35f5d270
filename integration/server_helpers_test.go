package integration

import (
	"database/sql"
	"errors"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// lakesqlServer is a lakesql server serving a warehouse in this process.
type lakesqlServer = servertest.Server

// serverConfig serves warehouse, a directory or an s3:// URL (see
// newWarehouse), on a free loopback port.
func serverConfig(warehouse string) server.Config {
	cfg := servertest.Config(warehouse)
	cfg.S3 = testS3Config()
	return cfg
}

func startServer(t testing.TB, cfg server.Config) *lakesqlServer {
	t.Helper()
	return servertest.Start(t, cfg, server.Options{})
}

func mustExec(t testing.TB, db *sql.DB, statements ...string) {
	t.Helper()
	for _, s := range statements {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func mysqlErrorNumber(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}
