//go:build duckdb_arrow && cgo

package server_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// slowVectorQuery runs on DuckDB for minutes: a three-way non-equi join
// of 3,000 rows counts 2.7e10 combinations.
const slowVectorQuery = "SELECT COUNT(*) FROM d.t a JOIN d.t b ON a.x <> b.x JOIN d.t c ON b.x <> c.x"

// KILL QUERY and a client that goes away both stop a statement running
// on DuckDB: the killed one fails with 1317, and neither stays in the
// process list.
func TestExecutorStatementsStopWhenKilledOrAbandoned(t *testing.T) {
	s := start(t, testConfig(t))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE d", "CREATE TABLE d.t (x BIGINT)",
		"INSERT INTO d.t WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3000) SELECT x FROM n")
	requireDuckDB(t, s)

	t.Run("kill query", func(t *testing.T) {
		conn, id := connection(t, s)
		done := make(chan error, 1)
		go func() {
			_, err := conn.ExecContext(context.Background(), slowVectorQuery)
			done <- err
		}()
		// A second in, the statement is past its planning, in DuckDB.
		waitForProcess(t, root, func(seconds int64, ok bool) bool { return ok && seconds >= 1 })
		servertest.Exec(t, root, fmt.Sprintf("KILL QUERY %d", id))
		select {
		case err := <-done:
			if servertest.ErrorNumber(err) != 1317 {
				t.Fatalf("the killed statement returned %v, want error 1317", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("the killed statement still runs after a minute")
		}
		waitForProcess(t, root, gone)
	})
	t.Run("client gone", func(t *testing.T) {
		conn, _ := connection(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := conn.ExecContext(ctx, slowVectorQuery)
			done <- err
		}()
		waitForProcess(t, root, running)
		// The driver closes the connection when the context ends mid-query.
		cancel()
		<-done
		waitForProcess(t, root, gone)
	})
}

// /metrics counts each statement once, under the engine its reads ran
// on, with its time: a grouped read on DuckDB, also prepared, the same
// read on GMS when its table is under lakesql_executor_min_rows, and
// nothing for a write.
func TestExecutorMetricsPerEngine(t *testing.T) {
	cfg := testConfig(t)
	cfg.MetricsListen = "127.0.0.1:0"
	s := start(t, cfg)
	root := s.Connect(t, "root", "")
	root.SetMaxOpenConns(1)
	servertest.Exec(t, root, "CREATE DATABASE d", "CREATE TABLE d.t (x BIGINT)", "INSERT INTO d.t VALUES (1), (2), (2)")
	const grouped = "SELECT x, COUNT(*) FROM d.t GROUP BY x"
	servertest.Exec(t, root, grouped, "SET lakesql_executor_min_rows = 0", grouped)
	// A prepared statement (the driver prepares on the server when the
	// query has arguments) runs on DuckDB too.
	var x, count int64
	if err := root.QueryRow("SELECT x, COUNT(*) FROM d.t WHERE x > ? GROUP BY x", 1).Scan(&x, &count); err != nil || x != 2 || count != 2 {
		t.Fatalf("the prepared read returned %d, %d (%v), want 2, 2", x, count, err)
	}
	metrics := metricsText(t, "http://"+s.Server.MetricsAddr().String()+"/metrics")
	for _, want := range []string{
		`lakesql_executor_statements_total{engine="duckdb"} 2`,
		`lakesql_executor_statements_total{engine="gms"} 1`,
	} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("/metrics lacks %s:\n%s", want, metrics)
		}
	}
	for _, engine := range []string{"duckdb", "gms"} {
		if !strings.Contains(metrics, `lakesql_executor_seconds_total{engine="`+engine+`"} `) ||
			strings.Contains(metrics, `lakesql_executor_seconds_total{engine="`+engine+`"} 0\n`) {
			t.Errorf("/metrics has no time for %s:\n%s", engine, metrics)
		}
	}
}

// metricsText is the executor's lines of the /metrics at url.
func metricsText(t *testing.T, url string) string {
	t.Helper()
	var lines []string
	for _, line := range strings.Split(servertest.HTTPGet(t, url), "\n") {
		if strings.HasPrefix(line, "lakesql_executor_") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// requireDuckDB fails unless EXPLAIN says the slow query runs on DuckDB.
func requireDuckDB(t *testing.T, s *servertest.Server) {
	conn, _ := connection(t, s)
	plan := strings.Join(servertest.Column[string](t, conn, "EXPLAIN "+slowVectorQuery), "\n")
	if !strings.Contains(plan, "engine: duckdb") {
		t.Fatalf("the query does not run on DuckDB:\n%s", plan)
	}
}

// connection is a session of its own with every read on DuckDB, and its
// connection id.
func connection(t *testing.T, s *servertest.Server) (*sql.Conn, int64) {
	t.Helper()
	conn, err := s.Connect(t, "root", "").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var id int64
	if err := conn.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "SET lakesql_executor_min_rows = 0"); err != nil {
		t.Fatal(err)
	}
	return conn, id
}

// waitForProcess polls the process list, for up to a minute, until the
// slow query's entry (its seconds, and whether it is listed) satisfies
// done.
func waitForProcess(t *testing.T, root *sql.DB, done func(seconds int64, listed bool) bool) {
	t.Helper()
	for range 600 {
		if done(slowQueryProcess(t, root)) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("after a minute, the slow query's process is still not as awaited")
}

func running(_ int64, listed bool) bool { return listed }

func gone(_ int64, listed bool) bool { return !listed }

// slowQueryProcess is how long the slow query has run, and whether it is
// in the process list.
func slowQueryProcess(t *testing.T, root *sql.DB) (seconds int64, listed bool) {
	t.Helper()
	err := root.QueryRow("SELECT time FROM information_schema.processlist WHERE info = ?", slowVectorQuery).Scan(&seconds)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return seconds, true
}
