package sqllogictest

import (
	"context"
	"database/sql"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/sqllogictest"
	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// engineName is what the corpus's skipif/onlyif modifiers call both
// lakesql and MariaDB.
const engineName = "mysql"

// recordTimeout abandons a runaway record (it fails) so that a few slow
// queries cannot use up the run's time budget. Twice the 10 s limit: an
// abandoned record is always also a slow one, so this adds no failure the
// 10 s rule would not report anyway.
const recordTimeout = 2 * sqllogictest.SlowRecord

// target is a server the scripts run against, each in a fresh database
// that is dropped afterwards.
type target struct {
	name     string
	db       *sql.DB
	refusals []sqllogictest.Refusal
}

// outcome is one script's results on one target.
type outcome struct {
	summary sqllogictest.Summary
	results []sqllogictest.Result
	// elapsed is the script's wall time, database set-up included.
	elapsed time.Duration
}

func lakesqlTarget(t *testing.T) *target {
	srv := servertest.Start(t, servertest.Config(t.TempDir()), server.Options{})
	// The corpus expects thousands of statements to fail; the server's
	// warning for each would bury the test's own output.
	if err := server.ConfigureLogging(server.LogConfig{Level: "error", Format: "text"}, os.Stderr); err != nil {
		t.Fatal(err)
	}
	if *executorMinRows < 0 {
		return &target{name: "lakesql", db: srv.Connect(t, "root", ""), refusals: sqllogictest.LakesqlRefusals}
	}
	db := srv.Connect(t, "root", "", func(c *mysql.Config) {
		c.Params = map[string]string{"lakesql_executor_min_rows": strconv.Itoa(*executorMinRows)}
	})
	requireExecutor(t, db)
	return &target{name: "lakesql", db: db, refusals: sqllogictest.LakesqlRefusals}
}

// requireExecutor fails unless a grouped read of a one-row table runs on
// the vectorized executor: a run that asks for the executor must not
// test go-mysql-server alone unnoticed.
func requireExecutor(t *testing.T, db *sql.DB) {
	const probe = "slt_executor_probe"
	for _, stmt := range []string{"CREATE DATABASE " + probe, "CREATE TABLE " + probe + ".t (a INT)", "INSERT INTO " + probe + ".t VALUES (1)"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	defer db.Exec("DROP DATABASE " + probe)
	plan := strings.Join(servertest.Column[string](t, db, "EXPLAIN SELECT a, COUNT(*) FROM "+probe+".t GROUP BY a"), "\n")
	if !strings.Contains(plan, "engine: duckdb") {
		t.Fatalf("-slt.executor-min-rows is set, but reads do not run on the vectorized executor:\n%s", plan)
	}
}

// mariadbTarget is nil unless LAKESQL_MARIADB_DSN names a server
// (.ci/mariadb start sets it).
func mariadbTarget(t *testing.T) *target {
	db := mariadbtest.Open(t)
	if db == nil {
		return nil
	}
	return &target{name: "MariaDB", db: db}
}

// run executes a script in a fresh database named after the file. When
// ctx ends first, the outcome is that of the records run so far.
func (tg *target) run(t *testing.T, ctx context.Context, file string, records []sqllogictest.Record) outcome {
	start := time.Now()
	name := databaseName(file)
	tg.exec(t, "DROP DATABASE IF EXISTS "+name)
	tg.exec(t, "CREATE DATABASE "+name)
	defer tg.exec(t, "DROP DATABASE "+name)
	engine := sqllogictest.Engine{
		Name:          engineName,
		Refusals:      tg.refusals,
		RecordTimeout: recordTimeout,
		Dial:          func(ctx context.Context) (*sql.Conn, error) { return tg.dial(ctx, name) },
	}
	results, err := sqllogictest.Run(ctx, engine, records)
	switch {
	case err != nil && ctx.Err() != nil:
		t.Errorf("%s: out of time (go test -timeout) after %d records", tg.name, len(results))
	case err != nil:
		t.Fatalf("%s: %v", tg.name, err)
	}
	o := outcome{summary: sqllogictest.Summarize(results), results: results, elapsed: time.Since(start)}
	s := o.summary
	t.Logf("%s: %d executed, %d passed, %d failed, %d skipped, %d slow, %d disconnects, in %s",
		tg.name, s.Executed, s.Passed, s.Failed, s.Skipped, s.Slow, s.Disconnects, o.elapsed.Round(100*time.Millisecond))
	return o
}

func (tg *target) dial(ctx context.Context, database string) (*sql.Conn, error) {
	conn, err := tg.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, "USE "+database); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

func (tg *target) exec(t *testing.T, stmt string) {
	if _, err := tg.db.ExecContext(context.Background(), stmt); err != nil {
		t.Fatalf("%s: %s: %v", tg.name, stmt, err)
	}
}

var nonIdentifier = regexp.MustCompile(`[^a-z0-9]+`)

// databaseName derives the script's database from its path; the slt_
// prefix keeps it apart from other users of a shared MariaDB.
func databaseName(file string) string {
	return "slt_" + strings.Trim(nonIdentifier.ReplaceAllString(strings.ToLower(strings.TrimSuffix(file, ".test")), "_"), "_")
}
