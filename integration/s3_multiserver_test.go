package integration

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// multiServerDuration bounds how long the SQL writers of
// TestMultiServerOnS3 start new statements.
const multiServerDuration = 20 * time.Second

// Rows of one SQL INSERT, and the writer numbers of the servers' writers
// (w10, w11, w12), apart from the Go API writers' (w1, w2).
const (
	sqlRows        = 3
	firstSQLWriter = 10
)

// TestMultiServerOnS3: three `lakesql serve` processes on one S3
// warehouse, each with a SQL writer and a reconciliation reader, plus two
// writer processes committing through the Go API and a dedicated compactor
// process, all on the payment table at once. One server is killed with
// SIGKILL while its writer's INSERT is in flight and restarted; its writer
// re-runs the statement with the same commit identifier. Afterwards every
// commit is in the table exactly once, snapshot ids are contiguous, and
// every reader result is the model's table at the snapshot it read.
func TestMultiServerOnS3(t *testing.T) {
	warehouse := newS3Warehouse(t)
	location := createTableIn(t, warehouse)
	bin := buildLakesql(t)
	servers := make([]*serveProcess, 3)
	for i := range servers {
		servers[i] = startServeProcess(t, bin, warehouse)
	}
	compactor := startCompactor(t, location, 300*time.Millisecond)
	goJobs := makeJobs(2, 25, 5)
	var goWriters []*process
	for i := range goJobs {
		goJobs[i].writer = i + 1
		goWriters = append(goWriters, startWriter(t, location, goJobs[i]))
	}

	const victim = 0
	var armed atomic.Bool
	inflight := make(chan int64, 1)
	deadline := time.Now().Add(multiServerDuration)
	sqlJobs := make([]writerJob, len(servers))
	readings := make([]readings, len(servers))
	stopReaders := make(chan struct{})
	var writers, readers sync.WaitGroup
	for i, srv := range servers {
		w := &sqlWriter{srv: srv, writer: firstSQLWriter + i, mayLoseServer: i == victim}
		if i == victim {
			w.armed, w.inflight = &armed, inflight
		}
		writers.Go(func() { sqlJobs[i] = writerJob{writer: w.writer, batches: int(w.run(t, deadline)), rows: sqlRows} })
		readers.Go(func() { readings[i] = reconcile(t, srv, i == victim, stopReaders) })
	}
	killAndRestart(t, servers[victim], location, firstSQLWriter+victim, &armed, inflight)
	writers.Wait()
	for _, p := range goWriters {
		p.wait(t)
	}
	close(stopReaders)
	readers.Wait()
	compactions := compactor.stop(t)

	jobs := append(goJobs, sqlJobs...)
	fsys, dir := openWarehouse(t, location)
	h := readHistory(t, fsys, dir, jobs)
	checkEachOnce(t, jobs, h.landed)
	checkReceipts(t, fsys, dir, jobs, h.landed, h.newest)
	checkRows(t, fsys, dir, jobs, h.latest)
	for i, r := range readings {
		r.check(t, fmt.Sprintf("reader of server %d", i), h.totals)
	}
	if h.compactions == 0 {
		t.Errorf("no COMPACT snapshot among %d: the compactor (%d reported) never committed", len(h.totals), compactions)
	}
	t.Logf("%d snapshots (%d COMPACT); SQL statements per server %d/%d/%d; pinned reads %d/%d/%d",
		len(h.totals), h.compactions, sqlJobs[0].batches, sqlJobs[1].batches, sqlJobs[2].batches,
		len(readings[0].pinned), len(readings[1].pinned), len(readings[2].pinned))
}

// killAndRestart waits a third of the run, then kills the server with
// SIGKILL shortly after its writer sends an INSERT, and restarts it.
func killAndRestart(t *testing.T, srv *serveProcess, location string, writer int, armed *atomic.Bool, inflight <-chan int64) {
	t.Helper()
	time.Sleep(multiServerDuration / 3)
	armed.Store(true)
	id := <-inflight
	delay := time.Duration(rand.IntN(30_000)) * time.Microsecond
	time.Sleep(delay)
	srv.kill()
	t.Logf("server killed %s after w%d sent INSERT id=%d, which had landed: %v", delay, writer, id, hasLanded(location, fmt.Sprintf("w%d", writer), id))
	if err := srv.start(); err != nil {
		t.Fatalf("restart: %v", err)
	}
}

// sqlWriter inserts batches through one server until a deadline, each
// INSERT with the next commit identifier of its commit user, re-run with
// the same identifier after a conflict (1213) or, on the server that is
// killed, after losing the connection.
type sqlWriter struct {
	srv           *serveProcess
	writer        int
	mayLoseServer bool
	// armed asks the writer to report the identifier of its next INSERT
	// on inflight just before sending it.
	armed    *atomic.Bool
	inflight chan<- int64
}

// run returns the last identifier the server acknowledged.
func (w *sqlWriter) run(t *testing.T, deadline time.Time) int64 {
	var id int64
	for id = 1; time.Now().Before(deadline); id++ {
		if err := w.insert(id); err != nil {
			t.Errorf("w%d: %v", w.writer, err)
			return id - 1
		}
	}
	return id - 1
}

// insert runs batch id until the server acknowledges it.
func (w *sqlWriter) insert(id int64) error {
	const maxAttempts = 200
	var values []string
	for _, r := range batchRows(w.writer, id, sqlRows) {
		values = append(values, fmt.Sprintf("('%s', %d, '%s', %d, %d)", r...))
	}
	stmt := "INSERT INTO db.payments VALUES " + strings.Join(values, ", ")
	var err error
	for range maxAttempts {
		if err = w.exec(id, stmt); err == nil {
			return nil
		}
		switch {
		case servertest.ErrorNumber(err) == 1213:
		case w.mayLoseServer && isConnectionLoss(err):
			time.Sleep(50 * time.Millisecond) // until the restart
		default:
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return fmt.Errorf("id=%d not acknowledged after %d attempts: %w", id, maxAttempts, err)
}

// exec runs the statement on one connection with the writer's commit user
// and identifier id.
func (w *sqlWriter) exec(id int64, stmt string) error {
	ctx := context.Background()
	conn, err := w.srv.current().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SET lakesql_commit_user = 'w%d'", w.writer)); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SET lakesql_commit_identifier = %d", id)); err != nil {
		return err
	}
	if w.armed != nil && w.armed.CompareAndSwap(true, false) {
		w.inflight <- id
	}
	_, err = conn.ExecContext(ctx, stmt)
	return err
}

// readings are what a reconciliation reader saw: reads pinned to a
// snapshot id, and reads of the latest table.
type readings struct {
	pinned   map[int64][]totals
	unpinned []totals
}

// reconcile reads COUNT(*) and SUM(amount) until stopped: at the newest
// snapshot the server lists (FOR VERSION AS OF), and at whatever is
// latest.
func reconcile(t *testing.T, srv *serveProcess, mayLoseServer bool, stop <-chan struct{}) readings {
	r := readings{pinned: map[int64][]totals{}}
	for {
		select {
		case <-stop:
			return r
		default:
		}
		err := r.readOnce(srv.current())
		if mayLoseServer && isConnectionLoss(err) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Errorf("reader: %v", err)
			return r
		}
	}
}

func (r *readings) readOnce(db *sql.DB) error {
	var latest sql.NullInt64
	if err := db.QueryRow("SELECT MAX(snapshot_id) FROM db.`payments$snapshots`").Scan(&latest); err != nil {
		return err
	}
	if latest.Valid {
		got, err := queryTotals(db, fmt.Sprintf("SELECT COUNT(*), SUM(amount) FROM db.payments FOR VERSION AS OF %d", latest.Int64))
		if err != nil {
			return err
		}
		r.pinned[latest.Int64] = append(r.pinned[latest.Int64], got)
	}
	got, err := queryTotals(db, "SELECT COUNT(*), SUM(amount) FROM db.payments")
	if err != nil {
		return err
	}
	r.unpinned = append(r.unpinned, got)
	return nil
}

func queryTotals(db *sql.DB, q string) (totals, error) {
	var count int64
	var sum sql.NullFloat64
	if err := db.QueryRow(q).Scan(&count, &sum); err != nil {
		return totals{}, fmt.Errorf("%s: %w", q, err)
	}
	return totals{count: count, cents: int64(sum.Float64 + 0.5)}, nil
}

// check compares the readings with the model's table after each snapshot
// (history[i] is the table at snapshot i+1).
func (r readings) check(t *testing.T, who string, history []totals) {
	t.Helper()
	for id, seen := range r.pinned {
		for _, got := range seen {
			if id < 1 || id > int64(len(history)) || got != history[id-1] {
				t.Errorf("%s read %+v at snapshot %d; the model has %+v", who, got, id, modelAt(history, id))
			}
		}
	}
	for _, got := range r.unpinned {
		if got != (totals{}) && !slices.Contains(history, got) {
			t.Errorf("%s read %+v, which is the table at no snapshot", who, got)
		}
	}
}

func modelAt(history []totals, id int64) any {
	if id < 1 || id > int64(len(history)) {
		return "no such snapshot"
	}
	return history[id-1]
}

// history is the table's snapshots replayed against the model.
type history struct {
	// totals[i] is COUNT(*) and SUM(amount) of the model after snapshot
	// i+1: the rows of every APPEND commit up to it (batchRows of its
	// writer and identifier); a COMPACT snapshot changes nothing.
	totals []totals
	// landed maps each APPEND commit, user/identifier, to its snapshots;
	// newest maps each user/identifier to its newest snapshot of any kind
	// (a statement's inline compaction follows its APPEND under the same
	// identifier, and the user's receipt names the COMPACT).
	landed      map[string][]int64
	newest      map[string]int64
	latest      *spec.Snapshot
	compactions int
}

// readHistory reads every snapshot, which must be numbered 1..n, and
// replays the APPEND snapshots of the jobs' users.
func readHistory(t *testing.T, fsys fileio.FileIO, dir string, jobs []writerJob) history {
	t.Helper()
	ctx := context.Background()
	snaps := snapshot.NewManager(fsys, dir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := history{landed: map[string][]int64{}, newest: map[string]int64{}}
	var model totals
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("snapshot ids %v are not contiguous from 1", ids)
		}
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprintf("%s/%d", s.CommitUser, s.CommitIdentifier)
		h.newest[k] = id
		switch s.CommitKind {
		case spec.CommitKindCompact:
			h.compactions++
		case spec.CommitKindAppend:
			h.landed[k] = append(h.landed[k], id)
			model = model.plus(t, s, jobs)
		default:
			t.Errorf("snapshot %d is %s", id, s.CommitKind)
		}
		h.totals = append(h.totals, model)
		h.latest = s
	}
	return h
}

// plus adds the rows of an APPEND snapshot's batch; the amounts are
// integers, so cents holds SUM(amount) itself.
func (m totals) plus(t *testing.T, s *spec.Snapshot, jobs []writerJob) totals {
	t.Helper()
	i := slices.IndexFunc(jobs, func(j writerJob) bool { return j.user() == s.CommitUser })
	if i < 0 {
		t.Fatalf("snapshot %d was committed by %q", s.ID, s.CommitUser)
	}
	for _, r := range batchRows(jobs[i].writer, s.CommitIdentifier, jobs[i].rows) {
		m.count++
		m.cents += r[4].(int64)
	}
	return m
}

// TestServersSeeEachOthersCommitsOnS3: two servers on one S3 warehouse take
// turns writing; each statement sees every commit the other made before
// it, with nothing cached in between.
func TestServersSeeEachOthersCommitsOnS3(t *testing.T) {
	warehouse := newS3Warehouse(t)
	a := startServer(t, serverConfig(warehouse)).Connect(t, "root", "")
	b := startServer(t, serverConfig(warehouse)).Connect(t, "root", "")
	servertest.Exec(t, a, "CREATE DATABASE pay", "USE pay", paymentsDDL)
	var want totals
	for i, db := range []*sql.DB{b, a, b, b, a, a, b} {
		id := int64(i + 1)
		servertest.Exec(t, db, fmt.Sprintf("INSERT INTO pay.payments VALUES ('2026-04-16', %d, %d.%02d, 'SUCCESS')", id, id/100, id%100))
		want.count++
		want.cents += id
		other := a
		if db == a {
			other = b
		}
		got, err := queryTotals(other, "SELECT COUNT(*), SUM(amount) * 100 FROM pay.payments")
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("after insert %d, the other server reads %+v, want %+v", id, got, want)
		}
	}
}
