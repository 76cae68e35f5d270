package server_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// A statement whose client closes its connection stops instead of
// running to its end: here one that sleeps a second for each of 600 rows
// leaves the process list well within the minute the test waits. Its
// result is one row, for which go-mysql-server never checks the client.
func TestStatementStopsWhenItsClientLeaves(t *testing.T) {
	s := start(t, testConfig(t))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE d", "CREATE TABLE d.t (x BIGINT)",
		"INSERT INTO d.t WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 600) SELECT x FROM n")
	conn, err := s.Connect(t, "root", "").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const sleep = "SELECT COUNT(SLEEP(1)) FROM d.t"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(ctx, sleep)
		done <- err
	}()
	awaitProcess(t, root, sleep, true)
	// The driver closes the connection when the context ends mid-query.
	cancel()
	<-done
	awaitProcess(t, root, sleep, false)
}

// awaitProcess polls the process list, for up to a minute, until a
// statement of the text is listed or not.
func awaitProcess(t *testing.T, root *sql.DB, text string, listed bool) {
	t.Helper()
	for range 600 {
		var id int64
		err := root.QueryRow("SELECT id FROM information_schema.processlist WHERE info = ?", text).Scan(&id)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		if (err == nil) == listed {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("after a minute, %q listed is still %v", text, !listed)
}
