package integration

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// The tests of this file are the lost-update incidents: read-modify-write
// statements of several clients on one primary-key table, over the wire,
// must end as InnoDB ends them (or with one side refused with 1213), and
// writers sharing a commit user must never have rows dropped.

const accountsDDL = "CREATE TABLE bank.acct (id BIGINT PRIMARY KEY, bal BIGINT) COMMENT 'paimon:{\"bucket\":\"2\"}'"

// createAccounts creates bank.acct with n accounts of balance bal.
func createAccounts(t testing.TB, db *sql.DB, n int, bal int64) {
	t.Helper()
	servertest.Exec(t, db, "CREATE DATABASE IF NOT EXISTS bank", accountsDDL)
	values := make([]string, n)
	for i := range values {
		values[i] = fmt.Sprintf("(%d, %d)", i+1, bal)
	}
	servertest.Exec(t, db, "INSERT INTO bank.acct VALUES "+strings.Join(values, ", "))
}

func balance(t testing.TB, db *sql.DB, id int) int64 {
	t.Helper()
	var bal int64
	if err := db.QueryRow("SELECT bal FROM bank.acct WHERE id = ?", id).Scan(&bal); err != nil {
		t.Fatal(err)
	}
	return bal
}

// increment runs n autocommit increments of account id on db; the server
// runs each again until it commits, so every one must succeed.
func increment(db *sql.DB, id, n int) error {
	for range n {
		res, err := db.Exec("UPDATE bank.acct SET bal = bal + 1 WHERE id = ?", id)
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil || rows != 1 {
			return fmt.Errorf("an increment affected %d rows (%v), want 1", rows, err)
		}
	}
	return nil
}

// runConcurrently runs f(i) for i in [0, n) at once and returns the
// errors.
func runConcurrently(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = f(i) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// TestConcurrentIncrements: 8 clients each increment one row 50 times
// with autocommit UPDATEs. Each lost conflict is run again by the server,
// so no client sees an error and the row grows by exactly 400.
func TestConcurrentIncrements(t *testing.T) {
	cfg := serverConfig(newWarehouse(t))
	cfg.MetricsListen = "127.0.0.1:0"
	s := startServer(t, cfg)
	db := s.Connect(t, "root", "")
	createAccounts(t, db, 1, 0)
	const clients, each = 8, 50
	if err := runConcurrently(clients, func(int) error { return increment(db, 1, each) }); err != nil {
		t.Fatal(err)
	}
	if got := balance(t, db, 1); got != clients*each {
		t.Fatalf("balance %d after %d increments, want %d", got, clients*each, clients*each)
	}
	reruns := scrape(t, s).sum("lakesql_statement_reruns_total", labels{"kind": "UPDATE"})
	t.Logf("%d increments from %d clients: %.0f statement re-runs (%.0f per 1,000 increments)",
		clients*each, clients, reruns, reruns*1000/(clients*each))
}

// BenchmarkConcurrentIncrements runs the increments of
// TestConcurrentIncrements, 8 clients × 50 per iteration, and reports
// increments/s and the statement re-runs per 1,000 increments (the cost of
// first-committer-wins on one hot row).
func BenchmarkConcurrentIncrements(b *testing.B) {
	cfg := serverConfig(newWarehouse(b))
	cfg.MetricsListen = "127.0.0.1:0"
	s := startServer(b, cfg)
	db := s.Connect(b, "root", "")
	createAccounts(b, db, 1, 0)
	const clients, each = 8, 50
	before := scrape(b, s).sum("lakesql_statement_reruns_total", labels{"kind": "UPDATE"})
	b.ResetTimer()
	for range b.N {
		if err := runConcurrently(clients, func(int) error { return increment(db, 1, each) }); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reruns := scrape(b, s).sum("lakesql_statement_reruns_total", labels{"kind": "UPDATE"}) - before
	increments := float64(b.N * clients * each)
	if got := balance(b, db, 1); float64(got) != increments {
		b.Fatalf("balance %d after %.0f increments", got, increments)
	}
	b.ReportMetric(increments/b.Elapsed().Seconds(), "increments/s")
	b.ReportMetric(reruns*1000/increments, "reruns/1000-increments")
}

// TestConcurrentUpsertsReadTheOldRow: INSERT … ON DUPLICATE KEY UPDATE
// reads the row it updates, so two clients' upserts never overwrite each
// other: 2 × 20 upserts of +7 make +280.
func TestConcurrentUpsertsReadTheOldRow(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	db := s.Connect(t, "root", "")
	createAccounts(t, db, 1, 0)
	err := runConcurrently(2, func(int) error {
		for range 20 {
			if _, err := db.Exec("INSERT INTO bank.acct VALUES (1, 0) ON DUPLICATE KEY UPDATE bal = bal + 7"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := balance(t, db, 1); got != 280 {
		t.Fatalf("balance %d after 40 upserts of +7, want 280", got)
	}
}

// transferer moves money between accounts in transactions, retrying a
// transaction that fails with 1213, and checks that every transaction
// reads the total it started with.
type transferer struct {
	db       *sql.DB
	accounts int
	total    int64
	rand     *rand.Rand
	retries  int
}

func (tr *transferer) run(n int) error {
	for range n {
		from, to := tr.rand.IntN(tr.accounts)+1, tr.rand.IntN(tr.accounts)+1
		if from == to {
			continue
		}
		amount := tr.rand.Int64N(50) + 1
		for {
			err := tr.transfer(from, to, amount)
			if err == nil {
				break
			}
			if servertest.ErrorNumber(err) != 1213 {
				return err
			}
			tr.retries++
		}
	}
	return nil
}

// transfer is one transaction: read the total and the source balance,
// then move the amount if the source has it.
func (tr *transferer) transfer(from, to int, amount int64) error {
	ctx := context.Background()
	tx, err := tr.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var total, bal int64
	if err := tx.QueryRow("SELECT SUM(bal) FROM bank.acct").Scan(&total); err != nil {
		return err
	}
	if total != tr.total {
		return fmt.Errorf("a transaction read a total of %d, want %d", total, tr.total)
	}
	if err := tx.QueryRow("SELECT bal FROM bank.acct WHERE id = ?", from).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return tx.Commit()
	}
	if _, err := tx.Exec("UPDATE bank.acct SET bal = bal - ? WHERE id = ?", amount, from); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE bank.acct SET bal = bal + ? WHERE id = ?", amount, to); err != nil {
		return err
	}
	return tx.Commit()
}

// TestBankTransfers: 6 clients move money between 10 accounts in
// transactions, retrying on 1213. Every transaction reads a total of
// 10,000, and so does the end.
func TestBankTransfers(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	db := s.Connect(t, "root", "")
	runBankTransfers(t, []*sql.DB{db})
}

// runBankTransfers runs the transfers of 6 clients spread over dbs.
func runBankTransfers(t *testing.T, dbs []*sql.DB) {
	t.Helper()
	const accounts, clients, each = 10, 6, 25
	createAccounts(t, dbs[0], accounts, 1000)
	transferers := make([]*transferer, clients)
	for i := range transferers {
		transferers[i] = &transferer{db: dbs[i%len(dbs)], accounts: accounts, total: 10_000, rand: rand.New(rand.NewPCG(uint64(i), 7))}
	}
	if err := runConcurrently(clients, func(i int) error { return transferers[i].run(each) }); err != nil {
		t.Fatal(err)
	}
	retries := 0
	for _, tr := range transferers {
		retries += tr.retries
	}
	var total int64
	if err := dbs[0].QueryRow("SELECT SUM(bal) FROM bank.acct").Scan(&total); err != nil {
		t.Fatal(err)
	}
	if total != 10_000 {
		t.Fatalf("total %d after the transfers, want 10000", total)
	}
	t.Logf("%d transfers by %d clients: %d retried after 1213", clients*each, clients, retries)
}

// TestInterleavingsEndAsInnoDB plays the interleavings of the lost-update
// reports with a transaction on one connection and an autocommit
// statement on another. InnoDB would make the autocommit statement wait
// for the transaction's row lock; lakesql takes no locks, so the
// autocommit statement commits first and the transaction's COMMIT is
// refused with 1213, and rolled back: one side refused, nothing lost.
func TestInterleavingsEndAsInnoDB(t *testing.T) {
	cases := []struct {
		name       string
		tx         []string
		autocommit string
		rows       []string
	}{
		{"increment in a transaction against an autocommit increment",
			[]string{"UPDATE bank.acct SET bal = bal + 1 WHERE id = 1"}, "UPDATE bank.acct SET bal = bal + 1 WHERE id = 1",
			[]string{"1 101", "2 100"}},
		{"update in a transaction against a delete of the row",
			[]string{"UPDATE bank.acct SET bal = bal + 5 WHERE id = 2"}, "DELETE FROM bank.acct WHERE id = 2",
			[]string{"1 100"}},
		{"upsert in a transaction against an autocommit upsert",
			[]string{"INSERT INTO bank.acct VALUES (1, 0) ON DUPLICATE KEY UPDATE bal = bal + 7"},
			"INSERT INTO bank.acct VALUES (1, 0) ON DUPLICATE KEY UPDATE bal = bal + 7",
			[]string{"1 107", "2 100"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startServer(t, serverConfig(newWarehouse(t)))
			db := s.Connect(t, "root", "")
			createAccounts(t, db, 2, 100)
			a := sysTableSession(t, db)
			sysTableExec(t, a, "BEGIN")
			sysTableExec(t, a, c.tx...)
			servertest.Exec(t, db, c.autocommit)
			if _, err := a.ExecContext(context.Background(), "COMMIT"); servertest.ErrorNumber(err) != 1213 {
				t.Fatalf("COMMIT: %v, want 1213", err)
			}
			wantSysTableRows(t, a, "SELECT id, bal FROM bank.acct ORDER BY id", c.rows...)
		})
	}
}

// TestIncrementsAcrossServers: two `lakesql serve` processes on one
// warehouse, four clients each, incrementing one row: the servers'
// commits race through put-if-absent, and each one's conflict check
// reads the other's keys.
func TestIncrementsAcrossServers(t *testing.T) {
	bin := buildLakesql(t)
	warehouse := newWarehouse(t)
	servers := []*serveProcess{startServeProcess(t, bin, warehouse), startServeProcess(t, bin, warehouse)}
	createAccounts(t, servers[0].current(), 1, 0)
	const clients, each = 8, 25
	err := runConcurrently(clients, func(i int) error { return increment(servers[i%2].current(), 1, each) })
	if err != nil {
		t.Fatal(err)
	}
	for i, srv := range servers {
		if got := balance(t, srv.current(), 1); got != clients*each {
			t.Fatalf("server %d reads balance %d after %d increments", i, got, clients*each)
		}
	}
}

// TestBankTransfersAcrossServers runs the transfers with the clients
// spread over two server processes.
func TestBankTransfersAcrossServers(t *testing.T) {
	bin := buildLakesql(t)
	warehouse := newWarehouse(t)
	servers := []*serveProcess{startServeProcess(t, bin, warehouse), startServeProcess(t, bin, warehouse)}
	runBankTransfers(t, []*sql.DB{servers[0].current(), servers[1].current()})
}

// sharedUserInserts has each of the connections insert keys of its own
// under one commit user without identifiers, at the same time, and
// returns the keys whose INSERT reported a row and how many statements
// were refused. No other error is allowed.
func sharedUserInserts(t *testing.T, dbs []*sql.DB, sessions, each int) (landed []int, refused int) {
	t.Helper()
	var mu sync.Mutex
	err := runConcurrently(sessions, func(i int) error {
		conn, err := dbs[i%len(dbs)].Conn(context.Background())
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(context.Background(), "SET lakesql_commit_user = 'flink-cdc-pay'"); err != nil {
			return err
		}
		for j := range each {
			id := 1000*(i+1) + j
			res, err := conn.ExecContext(context.Background(), "INSERT INTO bank.acct VALUES (?, 1)", id)
			mu.Lock()
			switch {
			case err == nil:
				if n, _ := res.RowsAffected(); n == 1 {
					landed = append(landed, id)
				}
			case servertest.ErrorNumber(err) == 1180 && strings.Contains(err.Error(), "in use by another live writer"):
				refused++
			default:
				mu.Unlock()
				return fmt.Errorf("insert %d: %w", id, err)
			}
			mu.Unlock()
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return landed, refused
}

// checkSharedUserRows: exactly the keys whose INSERT reported a row are in
// the table, and every INSERT either landed or was refused.
func checkSharedUserRows(t *testing.T, db *sql.DB, landed []int, refused, statements int) {
	t.Helper()
	if len(landed)+refused != statements {
		t.Errorf("%d statements landed and %d were refused, of %d", len(landed), refused, statements)
	}
	got := servertest.Column[int](t, db, "SELECT id FROM bank.acct WHERE id >= 1000 ORDER BY id")
	want := map[int]bool{}
	for _, id := range landed {
		want[id] = true
	}
	if len(got) != len(landed) {
		t.Errorf("%d rows in the table, %d INSERTs reported a row", len(got), len(landed))
	}
	for _, id := range got {
		if !want[id] {
			t.Errorf("row %d is in the table, but its INSERT did not report it", id)
		}
	}
	t.Logf("%d of %d statements landed, %d refused", len(landed), statements, refused)
}

// TestSharedCommitUserSessions: three sessions of one server share a
// commit user without identifiers. The first to write holds the user;
// the others are refused with a clear error. Nothing is skipped.
func TestSharedCommitUserSessions(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	db := s.Connect(t, "root", "")
	createAccounts(t, db, 1, 0)
	const sessions, each = 3, 40
	landed, refused := sharedUserInserts(t, []*sql.DB{db}, sessions, each)
	checkSharedUserRows(t, db, landed, refused, sessions*each)
	if refused == 0 {
		t.Error("no session was refused, though three shared one commit user at once")
	}
}

// TestSharedCommitUserServers: the same with the sessions on two servers.
func TestSharedCommitUserServers(t *testing.T) {
	bin := buildLakesql(t)
	warehouse := newWarehouse(t)
	servers := []*sql.DB{startServeProcess(t, bin, warehouse).current(), startServeProcess(t, bin, warehouse).current()}
	createAccounts(t, servers[0], 1, 0)
	const sessions, each = 4, 30
	landed, refused := sharedUserInserts(t, servers, sessions, each)
	checkSharedUserRows(t, servers[0], landed, refused, sessions*each)
	if refused == 0 {
		t.Error("no session was refused, though four on two servers shared one commit user at once")
	}
}

// TestRetriedCorrectionLandsOnce: a correction re-run under the same
// commit user and identifier after a lost connection lands once, and the
// re-run reports 0 rows with a warning naming the snapshot; a different
// statement under that pair is refused.
func TestRetriedCorrectionLandsOnce(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	db := s.Connect(t, "root", "")
	createAccounts(t, db, 2, 100)
	correction := func() (*sql.Conn, sql.Result, error) {
		conn := sysTableSession(t, db)
		sysTableExec(t, conn, "SET lakesql_commit_user = 'fix-job'", "SET lakesql_commit_identifier = 7")
		res, err := conn.ExecContext(context.Background(), "INSERT INTO bank.acct VALUES (1, 55), (2, 45)")
		return conn, res, err
	}
	first, res, err := correction()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Fatalf("the correction affected %d rows, want 2", n)
	}
	first.Close() // the client lost the connection and retries
	again, res, err := correction()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("the retried correction reports %d rows affected, want 0", n)
	}
	warnings := sysTableRows(t, again, "SHOW WARNINGS")
	if len(warnings) != 1 || !strings.Contains(warnings[0], "already committed in snapshot 2") {
		t.Errorf("warnings %q, want one naming snapshot 2", warnings)
	}
	_, err = again.ExecContext(context.Background(), "INSERT INTO bank.acct VALUES (1, 0)")
	if servertest.ErrorNumber(err) != 1180 || !strings.Contains(err.Error(), "with other rows") {
		t.Fatalf("another statement under the same user and identifier: %v, want 1180", err)
	}
	wantSysTableRows(t, db, "SELECT id, bal FROM bank.acct ORDER BY id", "1 55", "2 45")
	var snapshots int
	if err := db.QueryRow("SELECT COUNT(*) FROM bank.`acct$snapshots`").Scan(&snapshots); err != nil {
		t.Fatal(err)
	}
	if snapshots != 2 {
		t.Errorf("%d snapshots, want 2: the seed and the correction", snapshots)
	}
}

// TestConcurrentAppendTableUpdates: clients increment their own row of
// an append table with autocommit UPDATEs, which remove the old row (by
// deletion vector, or by rewriting its file) and append the new one. The
// removals of concurrent UPDATEs touch the same vectors or files, so all
// but one lose the conflict and the server runs them again: every row
// ends incremented exactly as often, and none is lost or doubled.
func TestConcurrentAppendTableUpdates(t *testing.T) {
	for _, options := range []string{`{"bucket":"-1"}`, `{"bucket":"-1","deletion-vectors.enabled":"true"}`} {
		t.Run(options, func(t *testing.T) {
			s := startServer(t, serverConfig(newWarehouse(t)))
			db := s.Connect(t, "root", "")
			const clients, each = 4, 15
			servertest.Exec(t, db, "CREATE DATABASE ev",
				"CREATE TABLE ev.counts (id BIGINT, n BIGINT) COMMENT 'paimon:"+options+"'",
				"INSERT INTO ev.counts VALUES (0, 0), (1, 0), (2, 0), (3, 0), (99, 0)")
			err := runConcurrently(clients, func(id int) error {
				for range each {
					res, err := db.Exec("UPDATE ev.counts SET n = n + 1 WHERE id = ?", id)
					if err != nil {
						return err
					}
					if rows, err := res.RowsAffected(); err != nil || rows != 1 {
						return fmt.Errorf("an increment of %d affected %d rows (%v), want 1", id, rows, err)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			rows := servertest.Column[string](t, db, "SELECT CONCAT(id, ':', n) FROM ev.counts ORDER BY id")
			if got := fmt.Sprint(rows); got != "[0:15 1:15 2:15 3:15 99:0]" {
				t.Fatalf("rows %s after %d increments of each of %d rows", got, each, clients)
			}
		})
	}
}
