package sqlbackend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/table"
)

// TestDeletionVectorTableWrites: reads of a primary-key table with
// deletion vectors skip level 0 and do not merge the levels above it, so
// each statement's compaction moves its rows up and marks the rows they
// replace in deletion vectors. INSERT, UPDATE, DELETE and REPLACE work as
// on any primary-key table, in autocommit and in transactions, which read
// their own writes; a rollback leaves the table and no vector behind.
func TestDeletionVectorTableWrites(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (dt VARCHAR(10) NOT NULL, id INT NOT NULL, v VARCHAR(60), PRIMARY KEY (dt, id))
		 COMMENT 'paimon:{"deletion-vectors.enabled":"true","bucket":"2","target-file-size":"8kb"}' PARTITION BY LIST COLUMNS (dt)`)
	var values string
	for i := range 2000 {
		if i > 0 {
			values += ", "
		}
		values += fmt.Sprintf("('2026-04-16', %d, 'row-%04d-padded-to-make-the-base-files-large')", i, i)
	}
	c.mustExec("INSERT INTO t VALUES " + values)
	wantRows(t, c, "SELECT COUNT(*) FROM t", "[2000]")

	c.mustExec("UPDATE t SET v = 'updated' WHERE id IN (5, 6)", "DELETE FROM t WHERE id = 7",
		"INSERT INTO t VALUES ('2026-04-16', 3000, 'new'), ('2026-04-16', 8, 'upserted')",
		"REPLACE INTO t VALUES ('2026-04-16', 9, 'replaced')")
	wantRows(t, c, "SELECT COUNT(*) FROM t", "[2000]")
	wantRows(t, c, "SELECT id, v FROM t WHERE id < 10 AND id > 4 OR id = 3000 ORDER BY id",
		"[5 updated]", "[6 updated]", "[8 upserted]", "[9 replaced]", "[3000 new]")
	wantRows(t, c, "SELECT COUNT(*) FROM `t$files` WHERE level = 0", "[0]")
	if n := tabletest.RowsDeletedByVectors(t, openTable(t, h, "d", "t"), h.latestSnapshotHeader(t, "d", "t")); n != 5 {
		t.Fatalf("deletion vectors mark %d rows, want the 5 rows replaced or deleted", n)
	}

	tableDir := filepath.Join(warehouse, "d.db", "t")
	indexBefore := indexFilesOnDisk(t, tableDir)
	c.mustExec("BEGIN", "UPDATE t SET v = 'tx' WHERE id = 5", "DELETE FROM t WHERE id = 6")
	wantRows(t, c, "SELECT id, v FROM t WHERE id IN (5, 6)", "[5 tx]")
	c.mustExec("UPDATE t SET v = 'tx2' WHERE id = 5")
	wantRows(t, c, "SELECT id, v FROM t WHERE id IN (5, 6)", "[5 tx2]")
	c.mustExec("ROLLBACK")
	wantRows(t, c, "SELECT id, v FROM t WHERE id IN (5, 6) ORDER BY id", "[5 updated]", "[6 updated]")
	// The index files the rolled-back statements' compactions wrote are
	// gone.
	if after := indexFilesOnDisk(t, tableDir); !slices.Equal(after, indexBefore) {
		t.Fatalf("index files %v after the rollback, want those before it: %v", after, indexBefore)
	}

	c.mustExec("BEGIN", "UPDATE t SET v = 'tx' WHERE id = 5", "DELETE FROM t WHERE id = 6", "INSERT INTO t VALUES ('2026-04-16', 3001, 'tx')", "COMMIT")
	wantRows(t, c, "SELECT id, v FROM t WHERE id IN (5, 6, 3001) ORDER BY id", "[5 tx]", "[3001 tx]")
	wantRows(t, c, "SELECT COUNT(*) FROM t", "[2000]")
	wantErrno(t, c, "INSERT OVERWRITE t VALUES ('2026-04-16', 1, 'o')", mysql.ERNotSupportedYet)
}

// TestDeletionVectorWriteAfterLostCompaction: two transactions write the
// same bucket of a deletion-vector table; the second commit's rows land,
// but its compaction loses to the first one's. Reads skip level 0, so the
// commit compacts again from the latest snapshot: every row is read, and
// no key twice.
func TestDeletionVectorWriteAfterLostCompaction(t *testing.T) {
	h := newHarness(t, t.TempDir())
	a, b := h.connect(), h.connect()
	a.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) COMMENT 'paimon:{"deletion-vectors.enabled":"true","bucket":"1"}'`,
		"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	b.mustExec("USE d")
	a.mustExec("BEGIN", "INSERT INTO t VALUES (1, 'a2'), (4, 'd')")
	b.mustExec("BEGIN", "INSERT INTO t VALUES (2, 'b2'), (5, 'e')")
	a.mustExec("COMMIT")
	b.mustExec("COMMIT")
	wantRows(t, a, "SELECT * FROM t ORDER BY id", "[1 a2]", "[2 b2]", "[3 c]", "[4 d]", "[5 e]")
	wantRows(t, a, "SELECT COUNT(*) FROM `t$files` WHERE level = 0", "[0]")
}

func indexFilesOnDisk(t *testing.T, tableDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(tableDir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func openTable(t *testing.T, h *harness, db, name string) *table.Table {
	t.Helper()
	tb, err := h.backend.OpenTable(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestDeletionVectorMergingEnginesMatchMergeOnRead: partial-update and
// aggregation tables with deletion vectors read the levels above 0
// without merging, so each statement's lookup compaction merges a key's
// new records with the row a kept level holds and marks that row
// deleted. The same statements on the same table without deletion
// vectors, which merges on read, give the same rows after each step.
func TestDeletionVectorMergingEnginesMatchMergeOnRead(t *testing.T) {
	engines := map[string]string{
		"partial-update": `"merge-engine":"partial-update"`,
		"aggregation":    `"merge-engine":"aggregation","fields.n.aggregate-function":"sum","fields.s.aggregate-function":"listagg","fields.m.aggregate-function":"max"`,
	}
	for name, options := range engines {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			c := h.connect()
			c.mustExec("CREATE DATABASE d", "USE d")
			for table, dv := range map[string]string{"dv": `,"deletion-vectors.enabled":"true"`, "mor": ""} {
				c.mustExec(fmt.Sprintf(`CREATE TABLE %s (id INT NOT NULL PRIMARY KEY, n BIGINT, s TEXT, m INT)
					COMMENT 'paimon:{"bucket":"2",%s%s}'`, table, options, dv))
			}
			var values string
			for i := range 500 {
				values += fmt.Sprintf(", (%d, %d, 's%d', %d)", i, i, i%7, i%11)
			}
			steps := []string{
				"INSERT INTO %s VALUES " + values[2:],
				"INSERT INTO %s VALUES (1, 5, NULL, 3), (2, NULL, 'two', NULL), (600, 6, 'new', 6)",
				"INSERT INTO %s VALUES (1, 7, 'again', 20), (3, NULL, NULL, NULL)",
				"UPDATE %s SET s = 'upd' WHERE id IN (4, 5)",
				"INSERT INTO %s (id, m) VALUES (4, 99)",
			}
			query := "SELECT id, n, s, m FROM %s WHERE id < 8 OR id >= 500 ORDER BY id"
			for _, step := range steps {
				c.mustExec(fmt.Sprintf(step, "dv"), fmt.Sprintf(step, "mor"))
				want := c.mustQuery(fmt.Sprintf(query, "mor"))
				var rows []string
				for _, r := range want {
					rows = append(rows, fmt.Sprint(r))
				}
				wantRows(t, c, fmt.Sprintf(query, "dv"), rows...)
				wantRows(t, c, "SELECT COUNT(*) FROM dv", fmt.Sprint(c.mustQuery("SELECT COUNT(*) FROM mor")[0]))
			}
			wantRows(t, c, "SELECT COUNT(*) FROM `dv$files` WHERE level = 0", "[0]")
			if n := tabletest.RowsDeletedByVectors(t, openTable(t, h, "d", "dv"), h.latestSnapshotHeader(t, "d", "dv")); n == 0 {
				t.Fatal("no row is marked deleted: the kept rows were not merged by lookup")
			}
		})
	}
}

// TestDeletionVectorWritesReadLevelZero: another writer's rows still on
// level 0 (here written with write-only = true, as a Flink job leaving
// compaction to its own job does) are hidden from SELECT, as in Java's
// batch reads, but UPDATE, DELETE and ON DUPLICATE KEY UPDATE start from
// them: a statement computed from the row below would overwrite that
// committed change.
func TestDeletionVectorWritesReadLevelZero(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	hide := func(q string) {
		c.mustExec(`ALTER TABLE t COMMENT 'paimon:{"write-only":"true"}'`, q, `ALTER TABLE t COMMENT 'paimon:{"write-only":"false"}'`)
	}
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT NOT NULL PRIMARY KEY, n INT) COMMENT 'paimon:{"deletion-vectors.enabled":"true","bucket":"1"}'`,
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)")
	hide("INSERT INTO t VALUES (1, 100), (2, 200), (3, 300), (5, 500)")
	wantRows(t, c, "SELECT * FROM t ORDER BY id", "[1 10]", "[2 20]", "[3 30]", "[4 40]")

	c.mustExec("UPDATE t SET n = n + 1 WHERE id = 1", "UPDATE t SET n = n + 1 WHERE n BETWEEN 200 AND 299",
		"DELETE FROM t WHERE n = 300", "INSERT INTO t VALUES (5, 0) ON DUPLICATE KEY UPDATE n = n + 5")
	wantRows(t, c, "SELECT * FROM t ORDER BY id", "[1 101]", "[2 201]", "[4 40]", "[5 505]")
}
