package sqlbackend

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// TestFirstRowTableWrites: a first-row table keeps the first row written
// for each key. lakesql inserts new keys, visible at once (the writer's
// compaction moves them off level 0, which reads skip) also inside the
// transaction that wrote them; an existing key fails with 1062 as in
// MySQL (INSERT IGNORE skips it), and every statement that would change
// or remove a row is refused with 1235 rather than dropped by the merge.
func TestFirstRowTableWrites(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)) COMMENT 'paimon:{"merge-engine":"first-row","bucket":"2"}'`,
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	wantRows(t, c, "SELECT * FROM t ORDER BY id", "[1 a]", "[2 b]")
	wantRows(t, c, "SELECT COUNT(*) FROM `t$files` WHERE level = 0", "[0]")

	wantErrno(t, c, "INSERT INTO t VALUES (1, 'z')", mysql.ERDupEntry)
	if n := affected(t, c, "INSERT IGNORE INTO t VALUES (1, 'z'), (3, 'c')"); n != 1 {
		t.Fatalf("INSERT IGNORE inserted %d rows, want 1", n)
	}
	for _, q := range []string{"UPDATE t SET v = 'x' WHERE id = 1", "DELETE FROM t WHERE id = 1",
		"REPLACE INTO t VALUES (1, 'q')", "INSERT INTO t VALUES (1, 'q') ON DUPLICATE KEY UPDATE v = 'w'",
		"INSERT OVERWRITE t VALUES (7, 'o')"} {
		wantErrno(t, c, q, mysql.ERNotSupportedYet)
	}
	c.mustExec("REPLACE INTO t VALUES (4, 'd')")
	wantRows(t, c, "SELECT * FROM t ORDER BY id", "[1 a]", "[2 b]", "[3 c]", "[4 d]")

	c.mustExec("BEGIN", "INSERT INTO t VALUES (5, 'e')")
	wantRows(t, c, "SELECT * FROM t WHERE id >= 4 ORDER BY id", "[4 d]", "[5 e]")
	wantErrno(t, c, "INSERT INTO t VALUES (5, 'f')", mysql.ERDupEntry)
	c.mustExec("ROLLBACK")
	wantRows(t, c, "SELECT * FROM t WHERE id >= 4 ORDER BY id", "[4 d]")
	c.mustExec("TRUNCATE TABLE t", "INSERT INTO t VALUES (9, 'i')")
	wantRows(t, c, "SELECT * FROM t", "[9 i]")
}

func wantErrno(t *testing.T, c *conn, q string, num int) {
	t.Helper()
	_, err := c.query(q)
	if sent := sql.CastSQLError(err); err == nil || sent.Num != num {
		t.Fatalf("%s: got %v, want error %d", q, err, num)
	}
}

// TestFirstRowWriteFailsWhereNotCompactable: reads skip level 0, so a
// write into a first-row table whose bucket lakesql cannot compact (here
// changelog-producer = lookup, whose compaction writes changelog files)
// fails instead of committing rows nobody would see.
func TestFirstRowWriteFailsWhereNotCompactable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)) COMMENT 'paimon:{"merge-engine":"first-row","bucket":"1","changelog-producer":"lookup"}'`)
	wantErrno(t, c, "INSERT INTO t VALUES (1, 'a')", mysql.ERNotSupportedYet)
	wantRows(t, c, "SELECT COUNT(*) FROM `t$snapshots`", "[0]")
}

// TestFirstRowInsertSeesLevelZeroKeys: a key another writer left on level
// 0 (here lakesql itself with write-only = true, as a Flink job writing
// with a separate compaction job does) is invisible to reads but will win
// the compaction, as the first row. An INSERT of that key fails with 1062
// instead of reporting a row that the compaction then drops.
func TestFirstRowInsertSeesLevelZeroKeys(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)) COMMENT 'paimon:{"merge-engine":"first-row","bucket":"1","write-only":"true"}'`,
		"INSERT INTO t VALUES (1, 'first')")
	wantRows(t, c, "SELECT COUNT(*) FROM t", "[0]")
	c.mustExec(`ALTER TABLE t COMMENT 'paimon:{"write-only":"false"}'`)

	wantErrno(t, c, "INSERT INTO t VALUES (1, 'second')", mysql.ERDupEntry)
	if n := affected(t, c, "INSERT IGNORE INTO t VALUES (1, 'second'), (2, 'b')"); n != 1 {
		t.Fatalf("INSERT IGNORE inserted %d rows, want 1", n)
	}
	wantRows(t, c, "SELECT * FROM t ORDER BY id", "[1 first]", "[2 b]")
}
