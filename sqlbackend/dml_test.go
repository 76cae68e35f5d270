package sqlbackend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
)

func varchar() spec.DataType {
	return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}
}

// createPayments creates pay.payments through the catalog: the payment
// table of the incident reports, partitioned by day, keyed by (dt, pay_id).
func createPayments(t *testing.T, h *harness, primaryKey bool) {
	t.Helper()
	ctx := context.Background()
	cat := h.backend.Catalog()
	if err := cat.CreateDatabase(ctx, "pay", true); err != nil {
		t.Fatal(err)
	}
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: varchar()},
			{Name: "pay_id", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
			{Name: "amount", Type: spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2, Nullable: true}},
			{Name: "status", Type: varchar()},
		},
		PartitionKeys: []string{"dt"},
		Options:       map[string]string{"bucket": "2"},
	}
	if primaryKey {
		def.PrimaryKeys = []string{"dt", "pay_id"}
	} else {
		def.Options["bucket"] = "-1"
	}
	if err := cat.CreateTable(ctx, "pay", "payments", def, false); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) latestSnapshot(t *testing.T) int64 {
	t.Helper()
	return h.latestSnapshotOf(t, "pay", "payments")
}

func (h *harness) latestSnapshotOf(t *testing.T, db, name string) int64 {
	t.Helper()
	tb, err := h.backend.OpenTable(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := tb.Snapshots().LatestID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (h *harness) latestSnapshotHeader(t *testing.T, db, name string) *spec.Snapshot {
	t.Helper()
	tb, err := h.backend.OpenTable(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tb.Snapshots().Latest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantRows(t *testing.T, c *conn, q string, want ...string) {
	t.Helper()
	got := format(c.mustQuery(q))
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %q\nwant %q", q, got, want)
	}
}

func TestInsertUpdateDeleteOnPrimaryKeyTable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	c.mustExec(`INSERT INTO payments VALUES
		('2026-04-16', 1, 10.50, 'SUCCESS'),
		('2026-04-16', 2, 20.00, 'FAILED'),
		('2026-04-17', 3, 30.25, 'SUCCESS')`)
	if got := h.latestSnapshot(t); got != 1 {
		t.Fatalf("one INSERT statement made snapshot %d, want exactly snapshot 1", got)
	}
	wantRows(t, c, "SELECT COUNT(*), SUM(amount) FROM payments WHERE dt = '2026-04-16' AND status = 'SUCCESS'", "[1 10.50]")

	c.mustExec("UPDATE payments SET status = 'SUCCESS' WHERE pay_id = 2")
	c.mustExec("DELETE FROM payments WHERE pay_id = 3")
	c.mustExec("REPLACE INTO payments VALUES ('2026-04-16', 1, 11.00, 'SUCCESS')")
	wantRows(t, c, "SELECT dt, pay_id, amount, status FROM payments ORDER BY pay_id",
		"[2026-04-16 1 11.00 SUCCESS]", "[2026-04-16 2 20.00 SUCCESS]")
	if got := h.latestSnapshot(t); got != 4 {
		t.Fatalf("four autocommit statements made %d snapshots, want 4", got)
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments AS OF 1", "[3]")
}

func TestExplicitTransactionIsOneCommit(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "BEGIN",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')",
		"INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')",
		"COMMIT")
	if got := h.latestSnapshot(t); got != 1 {
		t.Fatalf("BEGIN; 2 INSERTs; COMMIT made snapshot %d, want 1", got)
	}
	c.mustExec("BEGIN", "INSERT INTO payments VALUES ('2026-04-16', 3, 3.00, 'SUCCESS')", "ROLLBACK")
	if got := h.latestSnapshot(t); got != 1 {
		t.Fatalf("ROLLBACK made snapshot %d", got)
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[2]")
}

func TestFailedStatementInTransactionIsUndoneAlone(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "BEGIN", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
	if _, err := c.query("INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS'), ('2026-04-16', 3, 'not a number', 'X')"); err == nil {
		t.Fatal("inserting a string into a DECIMAL column succeeded")
	}
	c.mustExec("COMMIT")
	wantRows(t, c, "SELECT pay_id FROM payments ORDER BY pay_id", "[1]")
}

func TestTransactionPinsSnapshots(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	reader, writer := h.connect(), h.connect()
	reader.mustExec("USE pay")
	writer.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
	reader.mustExec("START TRANSACTION WITH CONSISTENT SNAPSHOT")
	wantRows(t, reader, "SELECT COUNT(*) FROM payments", "[1]")
	writer.mustExec("INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')")
	wantRows(t, reader, "SELECT COUNT(*) FROM payments", "[1]")
	reader.mustExec("COMMIT")
	wantRows(t, reader, "SELECT COUNT(*) FROM payments", "[2]")
}

func TestCommitIdentityMakesRetriesIdempotent(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "SET lakesql_commit_user = 'correction-job'", "SET lakesql_commit_identifier = 7")
	insert := "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')"
	c.mustExec(insert)
	c.mustExec(insert)
	if got := h.latestSnapshot(t); got != 1 {
		t.Fatalf("re-running (correction-job, 7) made snapshot %d, want it to write nothing", got)
	}
	warnings := c.session.Warnings()
	if len(warnings) == 0 || !strings.Contains(warnings[0].Message, "snapshot 1") {
		t.Fatalf("re-run warnings %v, want one naming snapshot 1", warnings)
	}
}

func TestExplainShowsSnapshotAndPruning(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')",
		"INSERT INTO payments VALUES ('2026-04-17', 2, 2.00, 'SUCCESS')")
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN SELECT * FROM payments WHERE dt = '2026-04-17'")), "\n")
	for _, want := range []string{"snapshot=2", "pushed[dt = '2026-04-17']", "files=1/2", "rows=1"} {
		if !strings.Contains(plan, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, plan)
		}
	}
}

func TestTransactionReadsItsOwnWrites(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
	c.mustExec("BEGIN",
		"INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')",
		"UPDATE payments SET amount = 5.00 WHERE pay_id = 1")
	wantRows(t, c, "SELECT pay_id, amount FROM payments ORDER BY pay_id", "[1 5.00]", "[2 2.00]")
	other := h.connect()
	other.mustExec("USE pay")
	wantRows(t, other, "SELECT pay_id, amount FROM payments ORDER BY pay_id", "[1 1.00]")
	c.mustExec("COMMIT")
	wantRows(t, other, "SELECT pay_id, amount FROM payments ORDER BY pay_id", "[1 5.00]", "[2 2.00]")
}

func TestInsertOverwrite(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, false)
	c := h.connect()
	c.mustExec("USE pay", `INSERT INTO payments VALUES
		('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'SUCCESS'), ('2026-04-17', 3, 3.00, 'SUCCESS')`)
	c.mustExec("INSERT OVERWRITE TABLE payments PARTITION (dt = '2026-04-16') VALUES (10, 10.00, 'FIXED')")
	wantRows(t, c, "SELECT dt, pay_id, status FROM payments ORDER BY dt, pay_id",
		"[2026-04-16 10 FIXED]", "[2026-04-17 3 SUCCESS]")
	c.mustExec("INSERT OVERWRITE payments SELECT dt, pay_id + 100, amount, 'DYNAMIC' FROM payments WHERE dt = '2026-04-17'")
	wantRows(t, c, "SELECT dt, pay_id, status FROM payments ORDER BY dt, pay_id",
		"[2026-04-16 10 FIXED]", "[2026-04-17 103 DYNAMIC]")
}

func TestBadInputGetsClearErrors(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
	cases := map[string]string{
		"SELECT * FROM nosuch":                     "table not found",
		"SELECT * FROM payments AS OF 99":          "snapshot",
		"SELECT * FROM payments AS OF 'nosuchtag'": "tag",
		"SELEC 1": "syntax",
		"INSERT INTO payments VALUES ('2026-04-16', NULL, 1.00, 'X')": "null",
		"DELETE FROM payments PARTITION (p1) WHERE pay_id = 1":        "PARTITION",
	}
	for q, want := range cases {
		_, err := c.query(q)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			t.Errorf("%s: %v, want an error mentioning %q", q, err, want)
		}
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[1]")
}

func TestInsertOnDuplicateKeyUpdate(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'PENDING')")
	c.mustExec(`INSERT INTO payments VALUES ('2026-04-16', 1, 9.00, 'SUCCESS'), ('2026-04-16', 2, 2.00, 'PENDING'),
		('2026-04-16', 2, 3.00, 'SUCCESS')
		ON DUPLICATE KEY UPDATE status = VALUES(status), amount = payments.amount + VALUES(amount)`)
	wantRows(t, c, "SELECT pay_id, amount, status FROM payments ORDER BY pay_id",
		"[1 10.00 SUCCESS]", "[2 5.00 SUCCESS]")
	// A plain INSERT of an existing key is Paimon's upsert, not an error.
	c.mustExec("INSERT INTO payments VALUES ('2026-04-16', 1, 7.00, 'REFUNDED')")
	wantRows(t, c, "SELECT pay_id, amount, status FROM payments ORDER BY pay_id",
		"[1 7.00 REFUNDED]", "[2 5.00 SUCCESS]")
}

// TestAggregatesPushedToStorage checks that whole-table aggregates run in
// the storage layer and give exactly what GMS's row-at-a-time aggregation
// gives; `pay_id + 0 >= 0` keeps the same rows but is not pushed down, so
// it forces GMS's own path.
func TestAggregatesPushedToStorage(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 10.50, 'SUCCESS'), ('2026-04-16', 2, 20.00, 'FAILED'), ('2026-04-17', 3, 30.25, 'SUCCESS')",
		"INSERT INTO payments VALUES ('2026-04-16', 4, NULL, 'SUCCESS'), ('2026-04-16', 1, 11.00, 'SUCCESS')",
		"DELETE FROM payments WHERE pay_id = 2")
	for _, where := range []string{"", "WHERE dt = '2026-04-16'", "WHERE dt = '2026-04-16' AND status = 'SUCCESS'", "WHERE dt = 'none'"} {
		agg := "SELECT COUNT(*), COUNT(amount), SUM(amount), SUM(pay_id), MIN(amount), MAX(status) FROM payments "
		pushed := agg + where
		plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+pushed)), "\n")
		if !strings.Contains(plan, "LakesqlAggregate") {
			t.Errorf("%s not pushed:\n%s", pushed, plan)
		}
		guard := "WHERE pay_id + 0 >= 0"
		if where != "" {
			guard = where + " AND pay_id + 0 >= 0"
		}
		want := format(c.mustQuery(agg + guard))
		if got := format(c.mustQuery(pushed)); !slices.Equal(got, want) {
			t.Errorf("%s: pushed %v, GMS %v", pushed, got, want)
		}
	}
}

func TestTimeTravelSpellings(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')",
		"INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')")
	tb, err := h.backend.OpenTable(context.Background(), "pay", "payments")
	if err != nil {
		t.Fatal(err)
	}
	first, err := tb.Snapshots().Snapshot(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	ts := time.UnixMilli(first.TimeMillis).UTC().Format("2006-01-02 15:04:05.000")
	for _, q := range []string{
		"SELECT COUNT(*) FROM payments FOR VERSION AS OF 1",
		"SELECT COUNT(*) FROM payments AS OF 1",
		"SELECT COUNT(*) FROM payments FOR SYSTEM_TIME AS OF '" + ts + "'",
		"SELECT COUNT(*) FROM payments FOR TIMESTAMP AS OF '" + ts + "'",
		"SELECT COUNT(*) FROM payments FOR TIME AS OF '" + ts + "'",
		"SELECT COUNT(*) FROM payments AS OF '" + ts + "'",
	} {
		wantRows(t, c, q, "[1]")
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[2]")
	if _, err := c.query("SELECT COUNT(*) FROM payments FOR SYSTEM_TIME AS OF '2000-01-01 00:00:00'"); err == nil {
		t.Error("time travel before the first snapshot succeeded")
	}
}

// A failed autocommit statement leaves no data files behind: its writer is
// aborted when the empty transaction ends.
func TestFailedStatementLeavesNoFiles(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	if _, err := c.query("INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'OK'), ('2026-04-16', 2, 'x', 'BAD')"); err == nil {
		t.Fatal("bad row accepted")
	}
	if data := dataFiles(t, warehouse); len(data) != 0 {
		t.Fatalf("failed statement left data files: %v", data)
	}
}

// SUM over a DECIMAL column is a DECIMAL, as in MySQL, whether the storage
// layer or GMS computes it: money totals must not become floating point.
func TestSumOfDecimalIsDecimal(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1234567.89, 'SUCCESS'), ('2026-04-16', 2, 10.95, 'SUCCESS')")
	for _, q := range []string{
		"SELECT SUM(amount) FROM payments",
		"SELECT SUM(amount) FROM payments WHERE pay_id + 0 > 0",
		"SELECT status, SUM(amount) FROM payments GROUP BY status",
	} {
		ctx := c.context().WithQuery(q)
		schema, iter, _, err := h.engine.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := sql.RowIterToRows(ctx, iter)
		if err != nil {
			t.Fatal(err)
		}
		last := len(schema) - 1
		if got := schema[last].Type.String(); got != "decimal(40,2)" {
			t.Errorf("%s: result type %s, want decimal(40,2)", q, got)
		}
		if got := fmt.Sprint(rows[0][last]); got != "1234578.84" {
			t.Errorf("%s: %s, want 1234578.84", q, got)
		}
	}
}

// A missing or corrupt data file is a clear error for the statement that
// needs it; the session keeps working and other tables stay readable.
func TestMissingAndCorruptDataFiles(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')",
		"INSERT INTO payments VALUES ('2026-04-17', 2, 2.00, 'SUCCESS')")
	var data []string
	_ = filepath.WalkDir(warehouse, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "data-") {
			data = append(data, path)
		}
		return nil
	})
	slices.Sort(data)
	if len(data) != 2 {
		t.Fatalf("want 2 data files, got %v", data)
	}
	if err := os.WriteFile(data[0], []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(data[1]); err != nil {
		t.Fatal(err)
	}
	for _, dt := range []string{"2026-04-16", "2026-04-17"} {
		_, err := c.query("SELECT * FROM payments WHERE dt = '" + dt + "'")
		if err == nil || !strings.Contains(err.Error(), "data-") {
			t.Errorf("reading %s over a damaged file: %v, want an error naming the file", dt, err)
		}
	}
	wantRows(t, c, "SELECT 1", "[1]")
}

// A COMMIT that fails with a conflict ends the transaction as MySQL's
// rollback on deadlock does: the next statements autocommit and read the
// latest snapshot, not the failed transaction's pin.
func TestFailedCommitEndsTheTransaction(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	a, b := h.connect(), h.connect()
	a.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
	b.mustExec("USE pay")
	a.mustExec("BEGIN", "INSERT OVERWRITE payments PARTITION (dt = '2026-04-16') VALUES (9, 90.00, 'FIXED')")
	b.mustExec("INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')")
	_, err := a.query("COMMIT")
	var sqlErr *mysql.SQLError
	if !errors.As(err, &sqlErr) || sqlErr.Num != mysql.ERLockDeadlock {
		t.Fatalf("COMMIT of an overwrite of a partition changed since: %v, want error 1213", err)
	}
	wantRows(t, a, "SELECT COUNT(*) FROM payments", "[2]")
	a.mustExec("INSERT INTO payments VALUES ('2026-04-16', 3, 3.00, 'SUCCESS')")
	wantRows(t, b, "SELECT COUNT(*) FROM payments", "[3]")
	wantRows(t, a, "SELECT pay_id FROM payments ORDER BY pay_id", "[1]", "[2]", "[3]")
}

// Whatever way a COMMIT fails, an unknown outcome or a panic (which the
// server recovers as the statement's error), the transaction is over: the
// connection reads what every other connection reads, and its next INSERT
// commits on its own.
func TestEveryCommitFailureEndsTheTransaction(t *testing.T) {
	for _, tc := range []struct {
		name     string
		panics   bool
		wantCode int
	}{
		{name: "unknown outcome", wantCode: mysqlerr.ErrorDuringCommit},
		{name: "panic", panics: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			warehouse := t.TempDir()
			faults := &snapshotFaults{FileIO: localio.New(), panics: tc.panics}
			h := newHarnessOver(t, warehouse, faults)
			createPayments(t, h, true)
			a, b := h.connect(), newHarness(t, warehouse).connect()
			a.mustExec("USE pay", "BEGIN", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, 'SUCCESS')")
			b.mustExec("USE pay")
			wantRows(t, a, "SELECT COUNT(*) FROM payments", "[1]")

			faults.armed.Store(true)
			err := queryRecovering(a, "COMMIT")
			faults.armed.Store(false)
			var sqlErr *mysql.SQLError
			if tc.panics && (err == nil || !strings.Contains(err.Error(), "injected panic")) {
				t.Fatalf("COMMIT: %v, want the injected panic", err)
			}
			if !tc.panics && (!errors.As(err, &sqlErr) || sqlErr.Num != tc.wantCode) {
				t.Fatalf("COMMIT: %v, want error %d", err, tc.wantCode)
			}

			b.mustExec("INSERT INTO payments VALUES ('2026-04-16', 2, 2.00, 'SUCCESS')")
			wantRows(t, a, "SELECT pay_id FROM payments ORDER BY pay_id", "[2]")
			a.mustExec("INSERT INTO payments VALUES ('2026-04-16', 3, 3.00, 'SUCCESS')")
			wantRows(t, b, "SELECT pay_id FROM payments ORDER BY pay_id", "[2]", "[3]")
		})
	}
}

// queryRecovering runs a statement, turning a panic into its error as the
// server's handler does.
func queryRecovering(c *conn, q string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", q, r)
		}
	}()
	_, err = c.query(q)
	return err
}

// snapshotFaults fails, or panics, every put of a snapshot file while armed,
// and reads of the snapshots whose put failed, so that a commit cannot tell
// whether its snapshot landed.
type snapshotFaults struct {
	fileio.FileIO
	panics bool
	armed  atomic.Bool

	mu     sync.Mutex
	failed map[string]bool
}

func (f *snapshotFaults) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if !f.armed.Load() || !strings.HasPrefix(path.Base(p), "snapshot-") {
		return f.FileIO.PutIfAbsent(ctx, p, data)
	}
	if f.panics {
		panic("injected panic putting " + p)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed == nil {
		f.failed = map[string]bool{}
	}
	f.failed[p] = true
	return fmt.Errorf("put %s: %w", p, fileio.ErrInjected)
}

func (f *snapshotFaults) ReadFile(ctx context.Context, p string) ([]byte, error) {
	f.mu.Lock()
	failed := f.failed[p]
	f.mu.Unlock()
	if failed && f.armed.Load() {
		return nil, fmt.Errorf("read %s: %w", p, fileio.ErrInjected)
	}
	return f.FileIO.ReadFile(ctx, p)
}

// DELETE without WHERE of a qualified table empties it whatever the
// current database is: none, or one without that table. GMS turns such a
// DELETE into TRUNCATE by looking the table up in the current database,
// which failed with "database not found" when there was none and left an
// append table's DELETE to the row path, which refuses it.
func TestQualifiedDeleteOfEveryRow(t *testing.T) {
	for _, primaryKey := range []bool{true, false} {
		for _, current := range []string{"", "other"} {
			t.Run(fmt.Sprintf("primary key %t, current database %q", primaryKey, current), func(t *testing.T) {
				h := newHarness(t, t.TempDir())
				createPayments(t, h, primaryKey)
				c := h.connect()
				c.mustExec("CREATE DATABASE other", `INSERT INTO pay.payments VALUES
					('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-17', 2, 2.00, 'SUCCESS')`)
				if current != "" {
					c.mustExec("USE " + current)
				}
				c.mustExec("DELETE FROM pay.payments")
				wantRows(t, c, "SELECT COUNT(*) FROM pay.payments", "[0]")
				wantRows(t, c, "SELECT COUNT(*) FROM pay.payments AS OF 1", "[2]")
				// A system table refuses it as read-only.
				_, err := c.query("DELETE FROM pay.`payments$snapshots`")
				if sent := sql.CastSQLError(err); err == nil || sent.Num != mysqlerr.OpenAsReadOnly {
					t.Errorf("DELETE of a system table: %v, want error %d", err, mysqlerr.OpenAsReadOnly)
				}
			})
		}
	}
}

// affected is the rows-affected count of a write statement.
func affected(t *testing.T, c *conn, q string) uint64 {
	t.Helper()
	rows := c.mustQuery(q)
	if len(rows) != 1 || len(rows[0]) != 1 {
		t.Fatalf("%s: no OK result: %v", q, rows)
	}
	ok, isOK := rows[0][0].(types.OkResult)
	if !isOK {
		t.Fatalf("%s: %T is no OK result", q, rows[0][0])
	}
	return ok.RowsAffected
}

// REPLACE counts as MySQL does: 1 for a new key, 2 for a key it replaces
// (a deletion and an insertion), 1 for a row it replaces with an
// identical one (in place), and a key repeated in the statement replaces
// the statement's own earlier row.
func TestReplaceCountsReplacedRows(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", "CREATE TABLE kv (k INT PRIMARY KEY, v INT)",
		"INSERT INTO kv VALUES (1, 10)")
	for _, step := range []struct {
		q    string
		want uint64
	}{
		{"REPLACE INTO kv VALUES (2, 20)", 1},
		{"REPLACE INTO kv VALUES (1, 11)", 2},
		{"REPLACE INTO kv VALUES (3, 30), (3, 31)", 3},
		{"REPLACE INTO kv VALUES (1, 12), (4, 40)", 3},
		{"REPLACE INTO kv VALUES (4, 40)", 1},
		{"REPLACE INTO kv VALUES (4, 40), (4, 41), (4, 41)", 4},
	} {
		if got := affected(t, c, step.q); got != step.want {
			t.Errorf("%s: %d rows affected, want %d", step.q, got, step.want)
		}
	}
	wantRows(t, c, "SELECT k, v FROM kv ORDER BY k", "[1 12]", "[2 20]", "[3 31]", "[4 41]")
}

// INSERT … ON DUPLICATE KEY UPDATE applies its rows in order: a key
// repeated in the statement updates the row as the earlier rows left it.
func TestOnDuplicateKeyUpdateAppliesRepeatedKeysInOrder(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", "CREATE TABLE kv (k INT PRIMARY KEY, n BIGINT)",
		"INSERT INTO kv VALUES (7, 4)")
	q := "INSERT INTO kv VALUES (7, 25), (7, 28), (8, 1), (8, 2) ON DUPLICATE KEY UPDATE n = n + VALUES(n)"
	if got := affected(t, c, q); got != 2+2+1+2 {
		t.Errorf("%s: %d rows affected, want 7", q, got)
	}
	wantRows(t, c, "SELECT k, n FROM kv ORDER BY k", "[7 57]", "[8 3]")
}

// A REPLACE of many rows looks their keys up in one statement-wide read of
// the table, not in a scan per row.
func TestReplaceLooksKeysUpOnce(t *testing.T) {
	m := metrics.New()
	h := newMetricsHarness(t, m)
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", "CREATE TABLE kv (k INT PRIMARY KEY, v INT) PARTITION BY KEY (k) PARTITIONS 4")
	var rows []string
	for k := range 200 {
		rows = append(rows, fmt.Sprintf("(%d, %d)", k, k))
	}
	c.mustExec("INSERT INTO kv VALUES " + strings.Join(rows, ", "))
	// New values: a row replaced by an identical one counts once.
	for k := range rows {
		rows[k] = fmt.Sprintf("(%d, %d)", k, k+1)
	}
	before := tableMetric(t, m, "lakesql_scans_total", "d", "kv")
	if got := affected(t, c, "REPLACE INTO kv VALUES "+strings.Join(rows, ", ")); got != 400 {
		t.Errorf("replacing 200 rows: %d rows affected, want 400", got)
	}
	if got := tableMetric(t, m, "lakesql_scans_total", "d", "kv") - before; got != 1 {
		t.Errorf("replacing 200 rows planned %v reads of the table, want 1", got)
	}
}

// A table lakesql refuses to write (here changelog-producer = input,
// settable once it has rows) refuses every DML statement with error 1235,
// also an UPDATE or DELETE matching rows, whose editor has no writer (a
// nil dereference reached clients as error 1105 before).
func TestRefusedTableRefusesEveryStatementWithRows(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a')",
		`ALTER TABLE t COMMENT 'paimon:{"changelog-producer":"input"}'`)
	for _, q := range []string{"INSERT INTO t VALUES (2, 'b')", "UPDATE t SET v = 'x' WHERE id = 1",
		"DELETE FROM t WHERE id = 1", "REPLACE INTO t VALUES (1, 'c')"} {
		_, err := c.query(q)
		if sent := sql.CastSQLError(err); err == nil || sent.Num != mysql.ERNotSupportedYet ||
			!strings.Contains(err.Error(), "changelog-producer = input") {
			t.Errorf("%s: got %v, want error 1235 naming changelog-producer = input", q, err)
		}
	}
	wantRows(t, c, "SELECT * FROM t", "[1 a]")
}
