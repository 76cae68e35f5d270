package sqlbackend

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/spec"
)

// appendLayouts are the ways an append table removes single rows: by
// rewriting files (copy-on-write) or by deletion vectors, in a table of
// unaware buckets (bucket = -1) or fixed ones.
var appendLayouts = []struct {
	name    string
	options string
}{
	{"copy-on-write, unaware buckets", `"bucket":"-1"`},
	{"copy-on-write, two buckets", `"bucket":"2","bucket-key":"pay_id"`},
	{"deletion vectors, unaware buckets", `"bucket":"-1","deletion-vectors.enabled":"true"`},
	{"deletion vectors, two buckets", `"bucket":"2","bucket-key":"pay_id","deletion-vectors.enabled":"true"`},
}

// eachAppendLayout runs test on a pay.payments append table of each
// layout, with the layout's options.
func eachAppendLayout(t *testing.T, test func(t *testing.T, h *harness, c *conn, options string)) {
	for _, layout := range appendLayouts {
		t.Run(layout.name, func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			c := h.connect()
			createAppendPayments(c, layout.options)
			test(t, h, c, layout.options)
		})
	}
}

func createAppendPayments(c *conn, options string) {
	c.mustExec("CREATE DATABASE pay", "USE pay",
		"CREATE TABLE payments (dt VARCHAR(10), pay_id BIGINT, amount DECIMAL(18,2), status VARCHAR(16)) "+
			"COMMENT 'paimon:{"+options+"}' PARTITION BY LIST COLUMNS (dt)")
}

func TestAppendTableRowLevelDeleteAndUpdate(t *testing.T) {
	eachAppendLayout(t, func(t *testing.T, h *harness, c *conn, options string) {
		c.mustExec(`INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'SUCCESS'),
			('2026-04-17', 3, 3.00, 'FAILED')`,
			`INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS'), ('2026-04-16', 4, NULL, NULL), ('2026-04-17', 3, 3.00, 'FAILED')`)
		if n := affected(t, c, "DELETE FROM payments WHERE pay_id = 1"); n != 1 {
			t.Fatalf("deleted %d rows, want 1", n)
		}
		wantRows(t, c, "SELECT pay_id, amount, status FROM payments ORDER BY pay_id",
			"[2 2.00 SUCCESS]", "[2 2.00 SUCCESS]", "[3 3.00 FAILED]", "[3 3.00 FAILED]", "[4 <nil> <nil>]")
		if kind := h.latestSnapshotHeader(t, "pay", "payments").CommitKind; kind != spec.CommitKindOverwrite {
			t.Fatalf("a row-level DELETE committed %s, want OVERWRITE as Java commits it", kind)
		}
		// Of two equal rows, a LIMIT removes one.
		if n := affected(t, c, "DELETE FROM payments WHERE pay_id = 2 LIMIT 1"); n != 1 {
			t.Fatalf("deleted %d rows, want 1", n)
		}
		wantRows(t, c, "SELECT COUNT(*) FROM payments WHERE pay_id = 2", "[1]")
		c.mustExec("UPDATE payments SET status = 'REFUNDED', amount = amount * 2 WHERE pay_id IN (2, 3)",
			"UPDATE payments SET status = 'UNKNOWN' WHERE status IS NULL")
		wantRows(t, c, "SELECT dt, pay_id, amount, status FROM payments ORDER BY pay_id, dt",
			"[2026-04-16 2 4.00 REFUNDED]", "[2026-04-17 3 6.00 REFUNDED]", "[2026-04-17 3 6.00 REFUNDED]", "[2026-04-16 4 <nil> UNKNOWN]")
		// A DELETE naming a partition under a LIMIT removes one row,
		// not the partition.
		c.mustExec("DELETE FROM payments WHERE dt = '2026-04-17' LIMIT 1")
		wantRows(t, c, "SELECT COUNT(*) FROM payments WHERE dt = '2026-04-17'", "[1]")
		c.mustExec("DELETE FROM payments WHERE dt = '2026-04-16'")
		wantRows(t, c, "SELECT dt, pay_id FROM payments", "[2026-04-17 3]")
		// Time travel still sees every earlier state.
		wantRows(t, c, "SELECT COUNT(*) FROM payments AS OF 2", "[6]")
	})
}

func TestAppendTableRowDeletesInTransactions(t *testing.T) {
	eachAppendLayout(t, func(t *testing.T, h *harness, c *conn, options string) {
		c.mustExec(`INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'SUCCESS')`)
		// The transaction reads its own removal, and a rollback
		// leaves the table as it was.
		c.mustExec("START TRANSACTION", "DELETE FROM payments WHERE pay_id = 1")
		wantRows(t, c, "SELECT pay_id FROM payments", "[2]")
		c.mustExec("UPDATE payments SET amount = 5 WHERE pay_id = 2")
		wantRows(t, c, "SELECT pay_id, amount FROM payments", "[2 5.00]")
		c.mustExec("ROLLBACK")
		wantRows(t, c, "SELECT pay_id, amount FROM payments ORDER BY pay_id", "[1 1.00]", "[2 2.00]")
		c.mustExec("START TRANSACTION", "DELETE FROM payments WHERE pay_id = 1", "INSERT INTO payments VALUES ('2026-04-16', 7, 7.00, 'NEW')")
		wantRows(t, c, "SELECT pay_id FROM payments ORDER BY pay_id", "[2]", "[7]")
		c.mustExec("COMMIT")
		wantRows(t, c, "SELECT pay_id FROM payments ORDER BY pay_id", "[2]", "[7]")
	})
}

// A transaction removes rows it inserted itself and rows an earlier
// statement of it rewrote: the files and deletion vectors it had staged
// are replaced before the commit, which names only committed files.
func TestAppendRowDeletesOfOwnWrites(t *testing.T) {
	eachAppendLayout(t, func(t *testing.T, h *harness, c *conn, options string) {
		c.mustExec(`INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'SUCCESS')`)
		c.mustExec("START TRANSACTION",
			"INSERT INTO payments VALUES ('2026-04-16', 3, 3.00, 'NEW'), ('2026-04-16', 4, 4.00, 'NEW')",
			"DELETE FROM payments WHERE pay_id IN (1, 3)",
			"UPDATE payments SET status = 'DONE' WHERE pay_id IN (2, 4)",
			"DELETE FROM payments WHERE status = 'DONE' AND pay_id = 4")
		wantRows(t, c, "SELECT pay_id, status FROM payments", "[2 DONE]")
		c.mustExec("COMMIT")
		wantRows(t, c, "SELECT pay_id, status FROM payments", "[2 DONE]")
		c.mustExec("START TRANSACTION", "INSERT INTO payments VALUES ('2026-04-16', 5, 5.00, 'NEW')", "DELETE FROM payments WHERE dt = '2026-04-16'", "COMMIT")
		wantRows(t, c, "SELECT COUNT(*) FROM payments", "[0]")
	})
}

// Two transactions removing rows of the same file: the second commit
// fails with a retryable conflict instead of hiding the first one's
// removal, and its retry removes both.
func TestConcurrentAppendRowDeletesConflict(t *testing.T) {
	eachAppendLayout(t, func(t *testing.T, h *harness, a *conn, _ string) {
		b := h.connect()
		a.mustExec(`INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'SUCCESS'), ('2026-04-16', 3, 3.00, 'SUCCESS')`)
		b.mustExec("USE pay")
		a.mustExec("START TRANSACTION", "DELETE FROM payments WHERE pay_id = 1")
		b.mustExec("START TRANSACTION", "DELETE FROM payments WHERE pay_id = 2")
		a.mustExec("COMMIT")
		_, err := b.query("COMMIT")
		if sent := sql.CastSQLError(err); err == nil || sent.Num != mysql.ERLockDeadlock {
			t.Fatalf("second COMMIT: %v, want a retryable conflict (%d)", err, mysql.ERLockDeadlock)
		}
		b.mustExec("DELETE FROM payments WHERE pay_id = 2")
		wantRows(t, b, "SELECT pay_id FROM payments", "[3]")
	})
}

// Rows are matched by their values as SQL sees them, for every type:
// the removal finds each row the statement removed.
func TestAppendRowDeleteOfEveryTypeMatchesStoredRows(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", `CREATE TABLE t (i INT, f FLOAT, d DOUBLE, dc DECIMAL(30,10), s VARCHAR(20), b VARBINARY(8),
		dt DATE, ts DATETIME(6), tz TIMESTAMP(6), tf BOOL, j JSON) COMMENT 'paimon:{"deletion-vectors.enabled":"true"}'`)
	for i := range 3 {
		c.mustExec(fmt.Sprintf(`INSERT INTO t VALUES (%d, 0.1, 1e300, 12345678901234567890.0123456789, 'x', 0x00ff, '2026-01-0%d',
			'2026-01-01 10:00:00.123456', '2026-01-01 10:00:00.654321', true, '{"a": [1, 2]}'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`, i, i+1))
	}
	c.mustExec("DELETE FROM t WHERE i = 1", "DELETE FROM t WHERE i IS NULL LIMIT 2", "UPDATE t SET s = 'y' WHERE f > 0 AND i = 2")
	wantRows(t, c, "SELECT i, s FROM t ORDER BY i", "[<nil> <nil>]", "[0 x]", "[2 y]")
}

// A compaction of an append table rewrites its files without the rows
// their deletion vectors delete, and leaves the vectors of the files it
// did not rewrite; row-level changes go on after it.
func TestCompactionOfAppendTableWithRowDeletes(t *testing.T) {
	eachAppendLayout(t, func(t *testing.T, h *harness, c *conn, options string) {
		for i := range 6 {
			c.mustExec(fmt.Sprintf(`INSERT INTO payments VALUES ('2026-04-16', %d, 1.00, 'SUCCESS'), ('2026-04-16', %d, 2.00, 'SUCCESS'), ('2026-04-17', %d, 3.00, 'SUCCESS')`, 3*i, 3*i+1, 3*i+2))
		}
		c.mustExec("DELETE FROM payments WHERE pay_id % 3 = 0", "UPDATE payments SET status = 'X' WHERE pay_id = 4")
		var want []string
		for id := range 18 {
			switch {
			case id == 4:
				want = append(want, "[4 X]")
			case id%3 != 0:
				want = append(want, fmt.Sprintf("[%d SUCCESS]", id))
			}
		}
		wantRows(t, c, "SELECT pay_id, status FROM payments ORDER BY pay_id", want...)
		vectors := strings.Contains(options, "deletion-vectors")
		if n := liveVectors(t, h); (n > 0) != vectors {
			t.Fatalf("%d data files with deletion vectors; want some exactly when the table has them (%t)", n, vectors)
		}
		compactPaymentsIn(t, h, compact.Minor, map[string]string{"dt": "2026-04-16"})
		wantRows(t, c, "SELECT pay_id, status FROM payments ORDER BY pay_id", want...)
		compactPaymentsIn(t, h, compact.Full, nil)
		wantRows(t, c, "SELECT pay_id, status FROM payments ORDER BY pay_id", want...)
		if n := liveVectors(t, h); n != 0 {
			t.Fatalf("%d deletion vectors after a full compaction, want none: it rewrote every file with one", n)
		}
		c.mustExec("DELETE FROM payments WHERE pay_id IN (1, 17)")
		wantRows(t, c, "SELECT pay_id, status FROM payments ORDER BY pay_id", want[1:len(want)-1]...)
		if kind := h.latestSnapshotHeader(t, "pay", "payments").CommitKind; kind != spec.CommitKindOverwrite {
			t.Fatalf("the DELETE after compaction committed %s, want OVERWRITE", kind)
		}
	})
}

func compactPaymentsIn(t *testing.T, h *harness, mode compact.Mode, partition map[string]string) {
	t.Helper()
	opts := compact.Options{FileIO: h.backend.FileIO(), TableDir: openPayments(t, h).Dir(), Mode: mode, Now: h.backend.opts.Now}
	if partition != nil {
		opts.Partitions = []map[string]string{partition}
	}
	res, err := compact.Table(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if mode == compact.Full && res.FilesRewritten == 0 {
		t.Fatalf("full compaction %v rewrote nothing; the test needs it to", res)
	}
}

// liveVectors counts the data files with a deletion vector in the latest
// snapshot of pay.payments.
func liveVectors(t *testing.T, h *harness) int {
	t.Helper()
	tb := openPayments(t, h)
	index, err := tb.IndexFiles(context.Background(), h.latestSnapshotHeader(t, "pay", "payments"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range index {
		n += len(e.IndexFile.DeletionVectorRanges)
	}
	return n
}

// An UPDATE of an append table may select its rows with EXISTS and IN
// subqueries, which GMS turns into joins: every matching row is updated,
// equal rows too.
func TestAppendTableUpdateWithSubqueries(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", "CREATE TABLE a (id INT, v INT)", "CREATE TABLE b (id INT PRIMARY KEY, w INT)",
		"INSERT INTO a VALUES (1, 1), (1, 1), (2, 2), (3, 3), (NULL, 4)", "INSERT INTO b VALUES (1, 10), (3, 30)")
	c.mustExec("UPDATE a SET v = v + 10 WHERE EXISTS (SELECT 1 FROM b WHERE b.id = a.id)")
	wantRows(t, c, "SELECT id, v FROM a ORDER BY id, v", "[<nil> 4]", "[1 11]", "[1 11]", "[2 2]", "[3 13]")
	c.mustExec("UPDATE a SET v = 0 WHERE id NOT IN (SELECT id FROM b)")
	wantRows(t, c, "SELECT id, v FROM a ORDER BY id, v", "[<nil> 4]", "[1 11]", "[1 11]", "[2 0]", "[3 13]")
	c.mustExec("UPDATE a AS x SET x.v = -1 WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.id = x.id) AND x.id IS NOT NULL")
	wantRows(t, c, "SELECT id, v FROM a ORDER BY id, v", "[<nil> 4]", "[1 11]", "[1 11]", "[2 -1]", "[3 13]")
	c.mustExec("DELETE FROM a WHERE id IN (SELECT id FROM b WHERE w > 20)", "DELETE FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.id = a.id)")
	wantRows(t, c, "SELECT id, v FROM a ORDER BY id, v", "[<nil> 4]", "[2 -1]")
}

// The differential test's seed 103: with a few rows on each side GMS
// joins NOT EXISTS by hashing, the subquery's table under a HashLookup.
func TestAppendTableUpdateWithHashedNotExists(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t3 (amt DECIMAL(12,2), rate DECIMAL(9,3) NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 4`,
		`CREATE TABLE t4 (code CHAR(4), amt DECIMAL(12,2), id BIGINT, rate DECIMAL(9,3)) COMMENT 'paimon:{"deletion-vectors.enabled":"true"}'`,
		`INSERT INTO t4 VALUES ('zz', -6.50, 26, NULL), (NULL, -9.00, 24, NULL), ('a1', 47.00, 29, 0.000), ('zzzz', 58.00, 4, 2.000), ('zzzz', 58.00, 4, 2.000)`,
		`INSERT INTO t3 VALUES (NULL, -5.750, 4), (158.50, 7.125, 8), (NULL, 8.750, 35)`)
	if n := affected(t, c, "UPDATE t4 SET amt = amt + 1, rate = COALESCE(rate, -10.000) WHERE NOT EXISTS (SELECT 1 AS c0 FROM t3 a1 WHERE a1.id = t4.id)"); n != 3 {
		t.Fatalf("updated %d rows, want 3", n)
	}
	wantRows(t, c, "SELECT code, amt, id, rate FROM t4 ORDER BY id, code",
		"[zzzz 58.00 4 2.000]", "[zzzz 58.00 4 2.000]", "[<nil> -8.00 24 -10.000]", "[zz -5.50 26 -10.000]", "[a1 48.00 29 0.000]")
	if n := affected(t, c, "UPDATE t4 SET amt = 0 WHERE EXISTS (SELECT 1 FROM t3 WHERE t3.id = t4.id)"); n != 2 {
		t.Fatalf("updated %d rows, want both equal rows", n)
	}
}

// Rows digest by value and type: equal rows alike, rows that differ in
// any column, or only in a value's kind, apart.
func TestSQLRowDigest(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)
	base := sql.Row{int64(1), "a", []byte("a"), decimal.RequireFromString("1.50"), ts, types.JSONDocument{Val: map[string]any{"b": []any{1.0, nil}, "a": "x"}}, nil, float32(0.1)}
	digest := func(row sql.Row) commit.Digest {
		d, err := sqlRowDigest(row)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	same := slices.Clone(base)
	same[5] = types.JSONDocument{Val: map[string]any{"a": "x", "b": []any{1.0, nil}}}
	if digest(base) != digest(same) {
		t.Fatal("equal rows digest apart")
	}
	for i, v := range []any{int64(2), "b", []byte("b"), decimal.RequireFromString("1.51"), ts.Add(time.Microsecond), types.JSONDocument{Val: []any{}}, int64(0), float32(0.2)} {
		other := slices.Clone(base)
		other[i] = v
		if digest(base) == digest(other) {
			t.Errorf("column %d changed to %v digests alike", i, v)
		}
	}
	swapped := slices.Clone(base)
	swapped[1], swapped[2] = "a", "a"
	if digest(base) == digest(swapped) {
		t.Error("a string and the same bytes digest alike")
	}
	if _, err := sqlRowDigest(sql.Row{struct{}{}}); err == nil {
		t.Error("an unknown value kind digested")
	}
}

// BenchmarkAppendRowDelete times a DELETE and an UPDATE of one row of a
// 100,000-row append table in 10 files, by deletion vector and by
// rewriting the row's file: go test ./sqlbackend -run '^$' -bench AppendRowDelete.
func BenchmarkAppendRowDelete(b *testing.B) {
	for _, layout := range []struct{ name, options string }{
		{"rewrite", `"bucket":"-1"`},
		{"vectors", `"bucket":"-1","deletion-vectors.enabled":"true"`},
	} {
		b.Run(layout.name, func(b *testing.B) {
			h := newHarness(b, b.TempDir())
			c := h.connect()
			c.mustExec("CREATE DATABASE d", "USE d",
				"CREATE TABLE t (id BIGINT, grp INT, v VARCHAR(20)) COMMENT 'paimon:{"+layout.options+"}'")
			for f := range 10 {
				c.mustExec(fmt.Sprintf(`INSERT INTO t SELECT a.i * 100 + b.i + %d, b.i %% 7, CONCAT('v', b.i) FROM
					(WITH RECURSIVE k (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 99) SELECT i FROM k) a,
					(WITH RECURSIVE k (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 99) SELECT i FROM k) b`, f*10_000))
			}
			b.ResetTimer()
			for i := range b.N {
				c.mustExec(fmt.Sprintf("DELETE FROM t WHERE id = %d", 2*i), fmt.Sprintf("UPDATE t SET v = 'x' WHERE id = %d", 2*i+1))
			}
		})
	}
}
