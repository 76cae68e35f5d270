package integration

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// maintenanceRun bounds how long the writers of each table kind of
// TestMultiServerMaintenance start new statements.
const maintenanceRun = 6 * time.Second

// orphanAge is the older_than of the orphan removals: none. The files of
// statements and compactions still running are protected by their write
// leases (package lease), not by their age, which is what this test
// checks.
const orphanAge time.Duration = 0

// Writers per server, and the writer number of the first one (the rows of
// writer n are batchRows(n, …)).
const (
	maintenanceWritersPerServer = 2
	firstMaintenanceWriter      = 20
)

// TestMultiServerMaintenance: two `lakesql serve` processes on one
// warehouse. Writers on both commit batches of payments while both servers
// run sys.expire_snapshots (with different retention) and
// sys.remove_orphan_files in loops, the first also sys.compact and the
// second sys.create_tag / sys.delete_tag on snapshots that are about to
// expire. Readers on both servers check COUNT(*) and SUM(amount) of a
// snapshot against the batches the writers had sent and acknowledged.
//
// Afterwards: no batch lost or duplicated, every file that every remaining
// snapshot and tag references exists and reads back as whole batches,
// snapshot ids are contiguous, every procedure call succeeded or failed
// with a documented retryable error, every failed read was of a snapshot
// that expired, and no server died. It runs on a primary-key table
// (compaction merges and upgrades files) and on an append table (where a
// batch committed twice would show as duplicate rows).
func TestMultiServerMaintenance(t *testing.T) {
	bin := buildLakesql(t)
	for _, kind := range []struct {
		name string
		def  catalog.TableDefinition
	}{{"primary-key", paymentTable()}, {"append", appendPaymentTable()}} {
		t.Run(kind.name, func(t *testing.T) { runMaintenanceRace(t, bin, kind.def) })
	}
}

// appendPaymentTable is paymentTable without a primary key: two buckets
// by pay_id.
func appendPaymentTable() catalog.TableDefinition {
	def := paymentTable()
	def.PrimaryKeys = nil
	def.Options = maps.Clone(def.Options)
	def.Options["bucket-key"] = "pay_id"
	return def
}

func runMaintenanceRace(t *testing.T, bin string, def catalog.TableDefinition) {
	warehouse := newWarehouse(t)
	location := createPaymentsIn(t, warehouse, def)
	planted := plantOrphans(t, location, 6)
	plantedAt := time.Now()
	servers := []*serveProcess{startServeProcess(t, bin, warehouse), startServeProcess(t, bin, warehouse)}

	race := newMaintenanceRace(servers)
	readings := race.run(t, servers)
	race.removeOrphansWhenQuiet(t, servers[0].current(), plantedAt)

	for i, srv := range servers {
		if err := srv.stopChecked(); err != nil {
			t.Errorf("server %d: %v", i, err)
		}
	}
	fsys, dir := openWarehouse(t, location)
	final := checkRemainingHistory(t, fsys, dir, race.writers)
	race.checkOutcomes(t)
	for i, r := range readings {
		checkReadings(t, fmt.Sprintf("reader of server %d", i), r, final.earliest)
	}
	for _, p := range planted {
		if ok, err := fileio.Exists(context.Background(), fsys, p); err != nil || ok {
			t.Errorf("planted orphan %s: exists %v (%v), want removed", p, ok, err)
		}
	}
	t.Logf("snapshots %d..%d, %d tags; batches per writer %v; slowest INSERT %v, slowest compaction %v (orphan age %v); orphan files deleted %d",
		final.earliest, final.latest, final.tags, race.acked(), race.slowestInsert(), time.Duration(race.slowestCompaction.Load()), orphanAge, race.orphansDeleted.Load())
	t.Logf("calls: %s", race.summary())
	t.Logf("reads: %s", readingSummary(readings))
}

func newMaintenanceRace(servers []*serveProcess) *maintenanceRace {
	race := &maintenanceRace{outcomes: map[string]int{}}
	for i, srv := range servers {
		for j := range maintenanceWritersPerServer {
			n := firstMaintenanceWriter + i*maintenanceWritersPerServer + j
			race.writers = append(race.writers, &progressWriter{sqlWriter: sqlWriter{srv: srv, writer: n}})
		}
	}
	return race
}

// run lets the writers write for maintenanceRun while readers and
// procedure loops run on both servers (compaction on the first, tags on
// the second), stops everything, and returns each server's readings.
func (r *maintenanceRace) run(t *testing.T, servers []*serveProcess) [][]snapshotReading {
	deadline := time.Now().Add(maintenanceRun)
	stop := make(chan struct{})
	var writers, others sync.WaitGroup
	for _, w := range r.writers {
		writers.Go(func() {
			if err := w.run(deadline); err != nil {
				t.Errorf("w%d: %v", w.writer, err)
			}
		})
	}
	readings := make([][]snapshotReading, len(servers))
	for i, srv := range servers {
		db := srv.current()
		others.Go(func() { readings[i] = r.read(db, stop) })
		retainMax := 4 + 2*i
		others.Go(func() {
			r.loop(i, "expire_snapshots", stop, 10*time.Millisecond, func() error {
				_, err := callProcedure(db, fmt.Sprintf("CALL sys.expire_snapshots('db.payments', %d, 1)", retainMax))
				return err
			})
		})
		others.Go(func() {
			r.loop(i, "remove_orphan_files", stop, 20*time.Millisecond, func() error { return r.removeOrphans(db) })
		})
	}
	others.Go(func() { r.compactLoop(servers[0].current(), stop) })
	others.Go(func() { r.tagLoop(servers[1].current(), stop) })
	writers.Wait()
	close(stop)
	others.Wait()
	return readings
}

// createPaymentsIn creates db.payments with def in warehouse and returns
// its location.
func createPaymentsIn(t *testing.T, warehouse string, def catalog.TableDefinition) string {
	t.Helper()
	ctx := context.Background()
	fsys, root := openWarehouse(t, warehouse)
	cat := catalog.New(fsys, root, nil)
	if err := cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateTable(ctx, "db", "payments", def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := cat.TablePath("db", "payments")
	if err != nil {
		t.Fatal(err)
	}
	return warehouse + strings.TrimPrefix(dir, root)
}

// plantOrphans writes n data files and a manifest that nothing will ever
// reference, as a crashed writer leaves them, and returns their paths.
func plantOrphans(t *testing.T, location string, n int) []string {
	t.Helper()
	fsys, dir := openWarehouse(t, location)
	paths := []string{path.Join(dir, "manifest", "manifest-"+rand.Text()+"-0")}
	for i := range n {
		paths = append(paths, path.Join(dir, fmt.Sprintf("dt=d%d", i%2), fmt.Sprintf("bucket-%d", i%2), "data-"+rand.Text()+"-0.parquet"))
	}
	for _, p := range paths {
		if err := fsys.PutIfAbsent(context.Background(), p, []byte("left by a crashed writer")); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// maintenanceRace is the shared state of the writers, readers and
// procedure loops of one run.
type maintenanceRace struct {
	writers []*progressWriter

	mu sync.Mutex
	// outcomes counts procedure calls by "server procedure outcome", the
	// outcome being ok or the MySQL error number.
	outcomes map[string]int
	// unexpected are the calls that failed otherwise than documented.
	unexpected []string

	orphansDeleted    atomic.Int64
	slowestCompaction atomic.Int64
}

// progressWriter commits batches 1, 2, … through one server, each with its
// commit identifier, and publishes how far it got: sent is the batch in
// flight (or last sent), acked the last one the server acknowledged.
type progressWriter struct {
	sqlWriter
	sent, acked atomic.Int64
	slowest     atomic.Int64
}

func (w *progressWriter) run(deadline time.Time) error {
	for id := int64(1); time.Now().Before(deadline); id++ {
		w.sent.Store(id)
		start := time.Now()
		if err := w.insert(id); err != nil {
			return err
		}
		if took := int64(time.Since(start)); took > w.slowest.Load() {
			w.slowest.Store(took)
		}
		w.acked.Store(id)
	}
	return nil
}

func (w *progressWriter) user() string { return fmt.Sprintf("w%d", w.writer) }

// documentedErrors are the MySQL errors each procedure may fail with while
// other servers write and maintain the same table (sysprocs' package doc):
// 1213 is a conflict a retry resolves; create_tag answers 1210 when the
// snapshot it tags expired first.
var documentedErrors = map[string][]uint16{
	"expire_snapshots":    {1213},
	"remove_orphan_files": {1213},
	"compact":             {1213},
	"create_tag":          {1213, 1210},
	"delete_tag":          {1213},
}

// record counts the outcome of one call and reports whether it succeeded.
func (r *maintenanceRace) record(server int, proc string, err error) bool {
	outcome := "ok"
	if err != nil {
		outcome = strconv.Itoa(int(servertest.ErrorNumber(err)))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outcomes[fmt.Sprintf("s%d %s %s", server, proc, outcome)]++
	if err != nil && !slices.Contains(documentedErrors[proc], servertest.ErrorNumber(err)) {
		r.unexpected = append(r.unexpected, fmt.Sprintf("server %d %s: %v", server, proc, err))
	}
	return err == nil
}

// note reports a failure to the test once the run is over.
func (r *maintenanceRace) note(failure string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unexpected = append(r.unexpected, failure)
}

// loop calls a procedure through a server until stop, pausing between
// calls.
func (r *maintenanceRace) loop(server int, proc string, stop <-chan struct{}, pause time.Duration, call func() error) {
	for !stopped(stop) {
		r.record(server, proc, call())
		time.Sleep(pause)
	}
}

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// removeOrphans runs one orphan removal and notes what it deleted.
func (r *maintenanceRace) removeOrphans(db *sql.DB) error {
	rows, err := callProcedure(db, fmt.Sprintf("CALL sys.remove_orphan_files('db.payments', '%d ms', false)", orphanAge.Milliseconds()))
	if err != nil {
		return err
	}
	summary := rows[len(rows)-1]
	deleted, err := strconv.ParseInt(summary[5], 10, 64)
	if err != nil {
		return fmt.Errorf("summary row %v: %w", summary, err)
	}
	r.orphansDeleted.Add(deleted)
	return nil
}

// compactLoop compacts through server 0, alternating full and minor
// compactions.
func (r *maintenanceRace) compactLoop(db *sql.DB, stop <-chan struct{}) {
	for i := 0; !stopped(stop); i++ {
		mode := []string{"full", "minor"}[i%2]
		start := time.Now()
		_, err := callProcedure(db, fmt.Sprintf("CALL sys.compact('db.payments', NULL, '%s')", mode))
		if took := int64(time.Since(start)); err == nil && took > r.slowestCompaction.Load() {
			r.slowestCompaction.Store(took)
		}
		r.record(0, "compact", err)
		time.Sleep(100 * time.Millisecond)
	}
}

// tagLoop tags, through server 1, the snapshot three before the latest
// (which the first server's expiry is about to remove) and deletes all but
// the newest three of its tags. A delete_tag that failed with 1213 is run
// again, and must then find the tag still there.
func (r *maintenanceRace) tagLoop(db *sql.DB, stop <-chan struct{}) {
	var tags []string
	var deleteRetried bool
	for i := 0; !stopped(stop); i++ {
		time.Sleep(50 * time.Millisecond)
		var latest sql.NullInt64
		if err := db.QueryRow("SELECT MAX(snapshot_id) FROM db.`payments$snapshots`").Scan(&latest); err != nil {
			r.record(1, "snapshots listing", err)
			continue
		}
		if !latest.Valid || latest.Int64 < 4 {
			continue
		}
		name := fmt.Sprintf("m%d", i)
		_, err := callProcedure(db, fmt.Sprintf("CALL sys.create_tag('db.payments', '%s', %d)", name, latest.Int64-3))
		if r.record(1, "create_tag", err) {
			tags = append(tags, name)
		}
		if len(tags) > 3 {
			_, err := callProcedure(db, fmt.Sprintf("CALL sys.delete_tag('db.payments', '%s')", tags[0]))
			if deleteRetried && servertest.ErrorNumber(err) == 1210 {
				r.note(fmt.Sprintf("delete_tag of %s failed with 1213, yet had deleted the tag: run again, it fails with %v", tags[0], err))
			}
			deleteRetried = servertest.ErrorNumber(err) == 1213
			// A tag that is not found (1210, which record reports) is
			// not tried again.
			if r.record(1, "delete_tag", err) || servertest.ErrorNumber(err) == 1210 {
				tags = tags[1:]
			}
		}
	}
}

// callProcedure runs a CALL and returns its rows as text.
func callProcedure(db *sql.DB, call string) ([][]string, error) {
	rows, err := db.Query(call)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// snapshotReading is one reconciliation read: the snapshot it pinned, the
// batches each writer had acknowledged before it and had sent after it,
// and what it read or the error it failed with.
type snapshotReading struct {
	snapshot   int64
	acked      map[string]int64
	sent       map[string]int64
	total      totals
	byWriter   map[string]writerTotals
	err        error
	listingErr bool
}

// writerTotals are the rows of one writer at a snapshot.
type writerTotals struct {
	rows, amount, minBatch, maxBatch, batches int64
}

// read reconciles until stop: the newest snapshot the server lists is read
// twice at that snapshot (FOR VERSION AS OF), as whole-table COUNT(*) and
// SUM(amount) and grouped by writer.
func (r *maintenanceRace) read(db *sql.DB, stop <-chan struct{}) []snapshotReading {
	var out []snapshotReading
	for !stopped(stop) {
		if reading := r.readOnce(db); reading.snapshot != 0 || reading.err != nil {
			out = append(out, reading)
		}
	}
	return out
}

func (r *maintenanceRace) readOnce(db *sql.DB) snapshotReading {
	reading := snapshotReading{acked: r.progress(func(w *progressWriter) int64 { return w.acked.Load() })}
	var latest sql.NullInt64
	if err := db.QueryRow("SELECT MAX(snapshot_id) FROM db.`payments$snapshots`").Scan(&latest); err != nil {
		reading.err, reading.listingErr = err, true
		return reading
	}
	if !latest.Valid {
		return reading // before the first commit: nothing to pin
	}
	reading.snapshot = latest.Int64
	asOf := fmt.Sprintf(" FOR VERSION AS OF %d", latest.Int64)
	total, err := queryTotals(db, "SELECT COUNT(*), SUM(amount) FROM db.payments"+asOf)
	if err != nil {
		reading.err = err
		return reading
	}
	// queryTotals rounds SUM(amount) to whole units, which is what the
	// integer amounts are.
	reading.total = total
	reading.byWriter, reading.err = queryWriterTotals(db, "SELECT writer, COUNT(*), SUM(amount), MIN(batch), MAX(batch), COUNT(DISTINCT batch) FROM db.payments"+asOf+" GROUP BY writer")
	reading.sent = r.progress(func(w *progressWriter) int64 { return w.sent.Load() })
	return reading
}

func queryWriterTotals(db *sql.DB, q string) (map[string]writerTotals, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	out := map[string]writerTotals{}
	for rows.Next() {
		var writer string
		var wt writerTotals
		var amount float64
		if err := rows.Scan(&writer, &wt.rows, &amount, &wt.minBatch, &wt.maxBatch, &wt.batches); err != nil {
			return nil, err
		}
		wt.amount = int64(amount + 0.5)
		out[writer] = wt
	}
	return out, rows.Err()
}

func (r *maintenanceRace) progress(of func(*progressWriter) int64) map[string]int64 {
	out := map[string]int64{}
	for _, w := range r.writers {
		out[w.user()] = of(w)
	}
	return out
}

func (r *maintenanceRace) acked() []int64 {
	var out []int64
	for _, w := range r.writers {
		out = append(out, w.acked.Load())
	}
	return out
}

func (r *maintenanceRace) slowestInsert() time.Duration {
	var slowest int64
	for _, w := range r.writers {
		slowest = max(slowest, w.slowest.Load())
	}
	return time.Duration(slowest)
}

// checkReadings: every successful read is whole batches of each writer,
// 1..k with no batch twice, k between what the writer had acknowledged
// before the read and sent after it, and the whole-table totals agree
// with the grouped ones. A failed read must be of a snapshot that has
// expired since (earliest is the earliest snapshot left), and say so.
func checkReadings(t *testing.T, who string, readings []snapshotReading, earliest int64) {
	t.Helper()
	for _, r := range readings {
		if r.err != nil {
			checkFailedRead(t, who, r, earliest)
			continue
		}
		var sum writerTotals
		for writer, wt := range r.byWriter {
			sum.rows += wt.rows
			sum.amount += wt.amount
			if err := checkWriterPrefix(writer, wt, r.acked[writer], r.sent[writer]); err != nil {
				t.Errorf("%s at snapshot %d: %v", who, r.snapshot, err)
			}
		}
		for writer, acked := range r.acked {
			if _, ok := r.byWriter[writer]; !ok && acked > 0 {
				t.Errorf("%s at snapshot %d: no rows of %s, which had %d batches acknowledged", who, r.snapshot, writer, acked)
			}
		}
		if r.total != (totals{count: sum.rows, cents: sum.amount}) {
			t.Errorf("%s at snapshot %d: COUNT(*), SUM(amount) = %+v, but grouped by writer %d rows, %d", who, r.snapshot, r.total, sum.rows, sum.amount)
		}
	}
}

// checkFailedRead accepts a read that failed because the snapshot it
// pinned expired under it: its snapshot is gone by the end, and the error
// names the expiry or the missing file.
func checkFailedRead(t *testing.T, who string, r snapshotReading, earliest int64) {
	t.Helper()
	msg := r.err.Error()
	if r.listingErr {
		t.Errorf("%s: listing the snapshots: %v", who, r.err)
		return
	}
	expired := strings.Contains(msg, "earliest") || strings.Contains(msg, "not exist") || strings.Contains(msg, "no such file")
	if !expired || r.snapshot >= earliest {
		t.Errorf("%s at snapshot %d (the earliest left is %d): %v", who, r.snapshot, earliest, r.err)
	}
}

// checkWriterPrefix: a writer's rows at a snapshot are its batches 1..k,
// each whole and once, with acked <= k <= sent.
func checkWriterPrefix(writer string, wt writerTotals, acked, sent int64) error {
	n, err := strconv.Atoi(strings.TrimPrefix(writer, "w"))
	if err != nil {
		return fmt.Errorf("rows of unknown writer %q", writer)
	}
	k := wt.maxBatch
	want := writerTotals{rows: k * sqlRows, amount: batchAmounts(n, k), minBatch: 1, maxBatch: k, batches: k}
	if wt != want {
		return fmt.Errorf("%s has %+v, want its batches 1..%d once each: %+v", writer, wt, k, want)
	}
	if k < acked || k > sent {
		return fmt.Errorf("%s has batches 1..%d, but %d were acknowledged before the read and %d sent after it", writer, k, acked, sent)
	}
	return nil
}

// batchAmounts is SUM(amount) of batches 1..k of writer n.
func batchAmounts(n int, k int64) int64 {
	var sum int64
	for id := int64(1); id <= k; id++ {
		for _, row := range batchRows(n, id, sqlRows) {
			sum += row[4].(int64)
		}
	}
	return sum
}

// checkOutcomes: every procedure call succeeded or failed with a
// documented error, and each procedure succeeded at least once, so the
// run did race maintenance against the writers.
func (r *maintenanceRace) checkOutcomes(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range r.unexpected {
		t.Errorf("undocumented failure: %s", u)
	}
	for proc := range documentedErrors {
		ok := 0
		for key, n := range r.outcomes {
			if strings.HasSuffix(key, " "+proc+" ok") {
				ok += n
			}
		}
		if ok == 0 {
			t.Errorf("no call of %s succeeded: %s", proc, r.summaryLocked())
		}
	}
}

// removeOrphansWhenQuiet runs orphan removal once more after the writers
// and the other procedures stopped, once the planted orphans are old
// enough: with nothing changing the table it must succeed (a 1213 would
// be a commit still landing, so it is retried a few times).
func (r *maintenanceRace) removeOrphansWhenQuiet(t *testing.T, db *sql.DB, plantedAt time.Time) {
	t.Helper()
	time.Sleep(time.Until(plantedAt.Add(orphanAge + time.Second)))
	var err error
	for range 5 {
		if err = r.removeOrphans(db); servertest.ErrorNumber(err) != 1213 {
			break
		}
	}
	if err != nil {
		t.Errorf("orphan removal on the quiet table: %v", err)
	}
}

func (r *maintenanceRace) summary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.summaryLocked()
}

func (r *maintenanceRace) summaryLocked() string {
	var parts []string
	for _, key := range slices.Sorted(maps.Keys(r.outcomes)) {
		parts = append(parts, fmt.Sprintf("%s=%d", key, r.outcomes[key]))
	}
	return strings.Join(parts, ", ")
}

func readingSummary(readings [][]snapshotReading) string {
	var parts []string
	for i, rs := range readings {
		failed := map[string]int{}
		ok := 0
		for _, r := range rs {
			if r.err == nil {
				ok++
				continue
			}
			failed[strconv.Itoa(int(servertest.ErrorNumber(r.err)))]++
		}
		parts = append(parts, fmt.Sprintf("server %d: %d ok, failed by error %v", i, ok, failed))
	}
	return strings.Join(parts, "; ")
}

// stopChecked ends a server that must still be running with SIGTERM and
// requires a clean exit.
func (p *serveProcess) stopChecked() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd.ProcessState != nil {
		return fmt.Errorf("exited during the run: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("died during the run: %v\n%s", err, p.stderr)
	}
	err := p.cmd.Wait()
	p.db.Close()
	if err != nil {
		return fmt.Errorf("exit: %v\n%s", err, p.stderr)
	}
	if strings.Contains(p.stderr.String(), "panic") {
		return fmt.Errorf("logged a panic:\n%s", p.stderr)
	}
	return nil
}

// remainingHistory is what the run left.
type remainingHistory struct {
	earliest, latest int64
	tags             int
}

// checkRemainingHistory walks what the run left, read-only: snapshot ids
// contiguous; every file every snapshot and tag references exists; every
// snapshot and tag reads back as whole batches 1..k of each writer, once
// each; and the latest holds exactly the acknowledged batches.
func checkRemainingHistory(t *testing.T, fsys fileio.FileIO, dir string, writers []*progressWriter) remainingHistory {
	t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps := snapshot.NewManager(fsys, dir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil || len(ids) == 0 {
		t.Fatalf("snapshot ids %v: %v", ids, err)
	}
	for i, id := range ids {
		if id != ids[0]+int64(i) {
			t.Fatalf("snapshot ids %v are not contiguous", ids)
		}
	}
	tagNames, err := snaps.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type pinned struct {
		name string
		s    *spec.Snapshot
		at   snapshot.TimeTravel
	}
	var all []pinned
	for _, id := range ids {
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pinned{fmt.Sprintf("snapshot %d", id), s, snapshot.TimeTravel{SnapshotID: id}})
	}
	for _, name := range tagNames {
		tag, err := snaps.Tag(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pinned{fmt.Sprintf("tag %s (snapshot %d)", name, tag.ID), &tag.Snapshot, snapshot.TimeTravel{Tag: name}})
	}
	final := map[string]int64{}
	for _, w := range writers {
		final[w.user()] = w.acked.Load()
	}
	files := map[string]string{}
	for _, p := range all {
		for _, f := range referencedFiles(t, tbl, p.s) {
			files[f] = p.name
		}
		rows := readAt(t, tbl, p.at, p.name)
		for writer, wt := range rows {
			if err := checkWriterPrefix(writer, wt, 0, final[writer]); err != nil {
				t.Errorf("%s: %v", p.name, err)
			}
		}
		if p.s.ID == ids[len(ids)-1] {
			checkLatest(t, p.s, rows, final)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if ok, err := fileio.Exists(ctx, fsys, f); err != nil || !ok {
			t.Errorf("%s references %s, which exists: %v (%v)", files[f], f, ok, err)
		}
	}
	return remainingHistory{earliest: ids[0], latest: ids[len(ids)-1], tags: len(tagNames)}
}

// checkLatest: the latest snapshot holds every acknowledged batch once:
// no batch lost, none duplicated, and its record count (which counts a
// primary-key row committed twice until a compaction merges it) agrees.
func checkLatest(t *testing.T, s *spec.Snapshot, rows map[string]writerTotals, final map[string]int64) {
	t.Helper()
	var records int64
	for writer, acked := range final {
		if got := rows[writer].maxBatch; got != acked {
			t.Errorf("latest snapshot %d has batches 1..%d of %s; %d were acknowledged", s.ID, got, writer, acked)
		}
		records += acked * sqlRows
	}
	if s.TotalRecordCount == nil || *s.TotalRecordCount != records {
		t.Errorf("latest snapshot %d counts %v records; want %d", s.ID, recordCount(s), records)
	}
}

// readAt reads a snapshot or tag with the storage reader and totals its
// rows by writer.
func readAt(t *testing.T, tbl *table.Table, at snapshot.TimeTravel, name string) map[string]writerTotals {
	t.Helper()
	rs, err := tbl.Read(context.Background(), table.ReadOptions{At: at, Columns: []string{"writer", "batch", "amount"}})
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	rows, err := table.ReadAll(rs)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	batches := map[string]map[int64]bool{}
	out := map[string]writerTotals{}
	for _, r := range rows {
		writer, batch, amount := r[0].(string), r[1].(int64), r[2].(int64)
		wt, ok := out[writer]
		if !ok {
			wt.minBatch = batch
			batches[writer] = map[int64]bool{}
		}
		wt.rows++
		wt.amount += amount
		wt.minBatch, wt.maxBatch = min(wt.minBatch, batch), max(wt.maxBatch, batch)
		batches[writer][batch] = true
		wt.batches = int64(len(batches[writer]))
		out[writer] = wt
	}
	return out
}

// referencedFiles lists the files snapshot s needs: its manifest lists,
// their manifests, and its live data files with their extra files. These
// tables write no index manifests or statistics, which the walk does not
// cover.
func referencedFiles(t *testing.T, tbl *table.Table, s *spec.Snapshot) []string {
	t.Helper()
	ctx := context.Background()
	if s.IndexManifest != nil || s.Statistics != nil {
		t.Fatalf("snapshot %d has an index manifest or statistics, which this walk does not cover", s.ID)
	}
	manifests := tbl.Manifests()
	lists := []string{s.BaseManifestList, s.DeltaManifestList}
	if s.ChangelogManifestList != nil {
		lists = append(lists, *s.ChangelogManifestList)
	}
	var out []string
	for _, list := range lists {
		out = append(out, manifests.Path(list))
		metas, err := manifests.ManifestList(ctx, list)
		if err != nil {
			t.Errorf("snapshot %d: manifest list %s: %v", s.ID, list, err)
			continue
		}
		for _, m := range metas {
			out = append(out, manifests.Path(m.FileName))
		}
	}
	live, err := tbl.LiveFiles(ctx, s)
	if err != nil {
		t.Errorf("snapshot %d: live files: %v", s.ID, err)
		return out
	}
	schema, err := tbl.LatestSchema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range live {
		bucketDir := path.Join(tbl.Dir(), partitionDir(t, schema, e.Partition), fmt.Sprintf("bucket-%d", e.Bucket))
		out = append(out, path.Join(bucketDir, e.File.FileName))
		for _, extra := range e.File.ExtraFiles {
			out = append(out, path.Join(bucketDir, extra))
		}
	}
	return out
}

// partitionDir is the directory of a serialized partition row, with
// Paimon's default partition naming.
func partitionDir(t *testing.T, s *spec.TableSchema, partition []byte) string {
	t.Helper()
	types := make([]spec.DataType, len(s.PartitionKeys))
	for i, key := range s.PartitionKeys {
		types[i] = s.Fields[s.FieldIndex(key)].Type
	}
	values, err := spec.DeserializeBinaryRow(types, partition)
	if err == nil {
		var dir string
		dir, err = spec.PartitionPath(s.PartitionKeys, types, values, "__DEFAULT_PARTITION__", true)
		if err == nil {
			return dir
		}
	}
	t.Fatalf("partition %x: %v", partition, err)
	return ""
}
