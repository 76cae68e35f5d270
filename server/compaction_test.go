package server_test

import (
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// A server configured with compaction = background commits its
// statements' rows alone and compacts afterwards, as its own commit user;
// shutting it down stops the service.
func TestBackgroundCompactionServer(t *testing.T) {
	cfg := testConfig(t)
	cfg.Compaction = server.CompactionBackground
	s := start(t, cfg)
	db := s.Connect(t, "root", "")
	servertest.Exec(t, db, "CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(8)) COMMENT 'paimon:{"bucket":"1","num-sorted-run.compaction-trigger":"2"}'`,
		"INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES (2, 'b')", "INSERT INTO t VALUES (3, 'c')")
	const compactions = "SELECT COUNT(*) FROM `t$snapshots` WHERE commit_kind = 'COMPACT' AND commit_user LIKE 'lakesql-compact-%'"
	deadline := time.Now().Add(time.Minute)
	for servertest.Column[int64](t, db, compactions)[0] == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no background COMPACT snapshot after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := servertest.Column[int64](t, db, "SELECT COUNT(*) FROM `t$snapshots` WHERE commit_kind = 'COMPACT' AND commit_user NOT LIKE 'lakesql-compact-%'")[0]; n != 0 {
		t.Fatalf("%d COMPACT snapshots by the statements' commit user, want none", n)
	}
	if got := servertest.Column[string](t, db, "SELECT v FROM t ORDER BY id"); len(got) != 3 || got[0] != "a" || got[2] != "c" {
		t.Fatalf("rows %q", got)
	}
}
