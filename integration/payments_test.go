package integration

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"slices"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// paymentsDDL is the payment table of the incident reports: one partition
// per day, keyed by (dt, pay_id), four buckets.
const paymentsDDL = `CREATE TABLE payments (
	dt VARCHAR(10) NOT NULL,
	pay_id BIGINT NOT NULL,
	amount DECIMAL(18,2),
	status VARCHAR(16),
	PRIMARY KEY (dt, pay_id)
) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4`

// totals is what a reconciliation query sees: COUNT(*) and SUM(amount) in
// cents.
type totals struct{ count, cents int64 }

// TestPaymentIncident replays the incident: two jobs with their own commit
// users insert into the same partition at once, retrying 1213 conflicts
// with the same commit identifier, while a reconciliation reader runs
// COUNT/SUM in a loop. No row may be lost or duplicated, snapshot ids must be
// contiguous, every snapshot must belong to one of the two jobs, and every
// reader result must be the table at one of its snapshots.
func TestPaymentIncident(t *testing.T) {
	const statements = 200
	warehouse := newWarehouse(t)
	s := startServer(t, serverConfig(warehouse))
	admin := s.Connect(t, "root", "")
	servertest.Exec(t, admin, "CREATE DATABASE pay", "USE pay", paymentsDDL)

	var wg sync.WaitGroup
	jobs := map[string]int64{"job-a": 1, "job-b": 100_001}
	retries := make(chan int, len(jobs))
	for user, firstID := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			retries <- insertPayments(t, s.Connect(t, "root", ""), user, firstID, statements)
		}()
	}
	stopReader := make(chan struct{})
	observed := make(chan []totals, 1)
	go func() { observed <- reconcileLoop(t, s.Connect(t, "root", ""), stopReader) }()
	wg.Wait()
	close(stopReader)
	close(retries)
	seen := <-observed
	totalRetries := 0
	for r := range retries {
		totalRetries += r
	}

	fsys, root := openWarehouse(t, warehouse)
	tb, err := table.Open(context.Background(), fsys, path.Join(root, "pay.db", "payments"))
	if err != nil {
		t.Fatal(err)
	}
	history, appends := snapshotHistory(t, tb, jobs)
	if appends != 2*statements {
		t.Fatalf("%d APPEND snapshots for %d statements", appends, 2*statements)
	}
	final := history[len(history)-1]
	want := totals{count: 2 * statements, cents: expectedCents(statements)}
	if final != want {
		t.Fatalf("final table %+v, want %+v", final, want)
	}
	for _, obs := range seen {
		if !slices.Contains(history, obs) && obs != (totals{}) {
			t.Fatalf("reader saw %+v, which is the table at no snapshot", obs)
		}
	}
	if got := tableTotals(t, tb, int64(len(history))); got != want {
		t.Fatalf("storage reads the final snapshot as %+v, want %+v", got, want)
	}
	checkTimeTravel(t, admin, history)
	t.Logf("%d snapshots, %d reader results, %d conflict retries", len(history), len(seen), totalRetries)
}

// insertPayments runs one job: one INSERT per identifier, re-run with the
// same identifier when the commit conflicts (1213), so that a retry of a
// statement that did land writes nothing.
func insertPayments(t *testing.T, db *sql.DB, user string, firstID int64, n int) (retries int) {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "USE pay"); err != nil {
		t.Error(err)
		return 0
	}
	if _, err := conn.ExecContext(ctx, "SET lakesql_commit_user = ?", user); err != nil {
		t.Error(err)
		return 0
	}
	for i := range int64(n) {
		id := firstID + i
		stmt := fmt.Sprintf("INSERT INTO payments VALUES ('2026-04-16', %d, %d.%02d, 'SUCCESS')", id, id/100, id%100)
		for {
			if _, err := conn.ExecContext(ctx, fmt.Sprintf("SET lakesql_commit_identifier = %d", i+1)); err != nil {
				t.Error(err)
				return retries
			}
			_, err := conn.ExecContext(ctx, stmt)
			if err == nil {
				break
			}
			if servertest.ErrorNumber(err) != 1213 {
				t.Errorf("%s as %s: %v", stmt, user, err)
				return retries
			}
			retries++
		}
	}
	return retries
}

// expectedCents is the SUM(amount) in cents of both jobs' rows: each row's
// amount is its pay_id in cents.
func expectedCents(n int64) int64 {
	var sum int64
	for _, first := range []int64{1, 100_001} {
		for i := range n {
			sum += first + i
		}
	}
	return sum
}

// reconcileLoop runs the reconciliation query until stopped.
func reconcileLoop(t *testing.T, db *sql.DB, stop <-chan struct{}) []totals {
	var seen []totals
	for {
		select {
		case <-stop:
			return seen
		default:
		}
		var count int64
		var sum sql.NullFloat64
		if err := db.QueryRow("SELECT COUNT(*), SUM(amount) FROM pay.payments WHERE dt = '2026-04-16'").Scan(&count, &sum); err != nil {
			t.Error(err)
			return seen
		}
		seen = append(seen, totals{count: count, cents: int64(sum.Float64*100 + 0.5)})
	}
}

// snapshotHistory replays the snapshots in order against the model: each
// APPEND snapshot must be one job's commit of one statement, which inserted
// the row whose pay_id its commit identifier names; a COMPACT snapshot is
// the inline compaction of a statement whose APPEND landed before it, and
// changes no rows. It returns the model's totals after each snapshot and the
// number of APPENDs, checking that ids are contiguous from 1 and that no
// (user, identifier, kind) landed twice.
func snapshotHistory(t *testing.T, tb *table.Table, jobs map[string]int64) (history []totals, appends int) {
	t.Helper()
	ctx := context.Background()
	ids, err := tb.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	landed := map[string]bool{}
	var model totals
	history = make([]totals, len(ids))
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("snapshot ids %v are not contiguous from 1", ids)
		}
		snap, err := tb.Snapshots().Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		first, ok := jobs[snap.CommitUser]
		if !ok {
			t.Fatalf("snapshot %d was committed by %q", id, snap.CommitUser)
		}
		statement := fmt.Sprintf("%s/%d", snap.CommitUser, snap.CommitIdentifier)
		key := statement + "/" + string(snap.CommitKind)
		if landed[key] {
			t.Fatalf("snapshot %d: %s landed twice", id, key)
		}
		landed[key] = true
		switch snap.CommitKind {
		case spec.CommitKindAppend:
			appends++
			model.count++
			model.cents += first + snap.CommitIdentifier - 1
		case spec.CommitKindCompact:
			if !landed[statement+"/"+string(spec.CommitKindAppend)] {
				t.Fatalf("snapshot %d compacts for %s, whose APPEND is not before it", id, statement)
			}
		default:
			t.Fatalf("snapshot %d of %s is a %s", id, statement, snap.CommitKind)
		}
		history[i] = model
	}
	return history, appends
}

func atSnapshot(id int64) snapshot.TimeTravel { return snapshot.TimeTravel{SnapshotID: id} }

func tableTotals(t *testing.T, tb *table.Table, id int64) totals {
	t.Helper()
	res, err := tb.Aggregate(context.Background(), table.ReadOptions{At: atSnapshot(id)},
		[]table.AggSpec{{Func: table.AggCountStar}, {Func: table.AggSum, Column: "amount"}})
	if err != nil {
		t.Fatal(err)
	}
	out := totals{count: res[0].Value.(int64)}
	if d, ok := res[1].Value.(interface{ UnscaledInt64() (int64, bool) }); ok {
		out.cents, _ = d.UnscaledInt64()
	}
	return out
}

// checkTimeTravel reads the table over SQL at every 20th snapshot and the
// last one, and compares with the model.
func checkTimeTravel(t *testing.T, db *sql.DB, history []totals) {
	t.Helper()
	for i, want := range history {
		if (i+1)%20 != 0 && i != len(history)-1 {
			continue
		}
		var count int64
		var sum sql.NullFloat64
		q := fmt.Sprintf("SELECT COUNT(*), SUM(amount) FROM pay.payments FOR VERSION AS OF %d", i+1)
		if err := db.QueryRow(q).Scan(&count, &sum); err != nil {
			t.Fatal(err)
		}
		if got := (totals{count: count, cents: int64(sum.Float64*100 + 0.5)}); got != want {
			t.Fatalf("%s: %+v, want %+v", q, got, want)
		}
	}
}
