package differential

import (
	gosql "database/sql"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/lakesql/lakesql/internal/randsql"
	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

var flagWarehouse = flag.String("diff.warehouse", "/dev/shm", "make the warehouse in this directory, or in the test's temporary directory when it cannot (or with -diff.warehouse ''); the default is Linux's tmpfs, since the suite checks answers, not durability, and fsync on a busy disk takes three quarters of its time")

// startEngines starts a lakesql server over a fresh warehouse in this
// process and, when LAKESQL_MARIADB_DSN is set (.ci/mariadb start sets
// it), connects to the MariaDB reference.
func startEngines(t *testing.T) *randsql.Engines {
	t.Helper()
	srv := servertest.Start(t, servertest.Config(warehouseDir(t)), server.Options{})
	e := &randsql.Engines{LakeSQL: srv.Connect(t, "root", "")}
	e.MariaDB = mariadbtest.Open(t)
	if e.MariaDB == nil {
		t.Log("LAKESQL_MARIADB_DSN is not set: comparing lakesql's planner rewrites on and off only")
	}
	return e
}

// warehouseDir is a new empty directory for the warehouse, removed when
// the test ends.
func warehouseDir(t *testing.T) string {
	if *flagWarehouse != "" {
		dir, err := os.MkdirTemp(*flagWarehouse, "lakesql-differential-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
		t.Logf("no warehouse in %s (%v): using the test's temporary directory", *flagWarehouse, err)
	}
	return t.TempDir()
}

// databaseName is the database a run uses on every engine. The rq_
// prefix keeps it apart from other users of a shared MariaDB, and the
// process id from another run of this test at the same time.
func databaseName(what string) string {
	return fmt.Sprintf("rq_%d_%s", os.Getpid(), what)
}

// pairedDatabases starts a lakesql server and returns a connection to it
// and one to the MariaDB of .ci/mariadb (skipping without it), both in a
// new database named for what, where setup has run, and the DSN of that
// database on lakesql; the MariaDB database is dropped when the test
// ends. Both connections may send local files.
func pairedDatabases(t *testing.T, what string, setup ...string) (lake, maria *gosql.DB, lakeDSN string) {
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		t.Skipf("%s is not set: run eval \"$(.ci/mariadb start)\" first", mariadbtest.DSNVariable)
	}
	srv := servertest.Start(t, servertest.Config(warehouseDir(t)), server.Options{})
	lake = mariadbtest.OpenLoader(t, "root@tcp("+srv.Addr+")/")
	maria = mariadbtest.OpenLoader(t, dsn)
	db := databaseName(what)
	for _, conn := range []*gosql.DB{lake, maria} {
		servertest.Exec(t, conn, append([]string{"DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db, "USE " + db}, setup...)...)
	}
	t.Cleanup(func() { maria.Exec("DROP DATABASE IF EXISTS " + db) })
	return lake, maria, "root@tcp(" + srv.Addr + ")/" + db
}
