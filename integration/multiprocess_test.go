package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var flagSeed = flag.Uint64("integration.seed", 0, "seed of the kill points of TestMultiProcessKillAndRestart")

var (
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
)

// paymentTable is the primary-key table of the incident: payments by day,
// two buckets. Retry waits are short and retries many, because five
// processes committing as fast as they can lose races all the time.
func paymentTable() catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: stringType}, {Name: "pay_id", Type: bigintType},
			{Name: "writer", Type: stringType}, {Name: "batch", Type: bigintType}, {Name: "amount", Type: bigintType},
		},
		PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "pay_id"},
		Options: map[string]string{"bucket": "2", "commit.max-retries": "40", "commit.max-retry-wait": "100 ms"},
	}
}

// batchRows are the rows of batch id of a writer: the same on every run,
// with pay ids no other batch uses, so that the expected table is the
// union of all batches and a batch committed twice shows in the record
// count.
func batchRows(writer int, id int64, n int) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		payID := int64(writer)*1_000_000 + id*1_000 + int64(i)
		rows[i] = []any{fmt.Sprintf("d%d", id%2), payID, fmt.Sprintf("w%d", writer), id, payID * 7 % 10_007}
	}
	return rows
}

// createTable creates db.payments in a new warehouse (see newWarehouse)
// and returns the table's location: its directory, or its s3:// URL.
func createTable(t *testing.T) string {
	t.Helper()
	return createTableIn(t, newWarehouse(t))
}

// createTableIn creates db.payments in warehouse and returns its location.
func createTableIn(t testing.TB, warehouse string) string {
	t.Helper()
	ctx := context.Background()
	fsys, root := openWarehouse(t, warehouse)
	cat := catalog.New(fsys, root, nil)
	if err := cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateTable(ctx, "db", "payments", paymentTable(), false); err != nil {
		t.Fatal(err)
	}
	dir, err := cat.TablePath("db", "payments")
	if err != nil {
		t.Fatal(err)
	}
	return warehouse + strings.TrimPrefix(dir, root)
}

// TestMultiProcessCommits: five processes commit 20 batches each into one
// table, re-committing every fourth batch as after a timeout. Every batch
// must land exactly once.
func TestMultiProcessCommits(t *testing.T) {
	dir := createTable(t)
	jobs := makeJobs(5, 20, 4)
	var procs []*process
	for _, j := range jobs {
		procs = append(procs, startWriter(t, dir, j))
	}
	for _, p := range procs {
		p.wait(t)
	}
	verify(t, dir, jobs)
}

// TestMultiProcessKillAndRestart: four processes commit 20 batches each.
// Two are killed with SIGKILL from outside at a point in a commit chosen
// by the seed; a third kills itself right after publishing the snapshot
// of a batch, before its receipt and LATEST hint (the commit that landed
// while the writer timed out). Each is restarted with the same commit
// user and runs every batch from identifier 1 again. Still every batch
// must land exactly once.
func TestMultiProcessKillAndRestart(t *testing.T) {
	seed := *flagSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d picks the kill points (the kill timing itself is not reproducible); rerun: go test ./integration -run '^TestMultiProcessKillAndRestart$' -integration.seed=%d -v", seed, seed)
	r := rand.New(rand.NewPCG(seed, 1))
	dir := createTable(t)
	jobs := makeJobs(4, 20, 5)
	const killed, selfKilled = 2, 2 // jobs[0:2] are killed, jobs[2] kills itself
	jobs[selfKilled].dieAfterPut = 3 + r.IntN(jobs[selfKilled].batches-6)
	var procs []*process
	for _, j := range jobs {
		procs = append(procs, startWriter(t, dir, j))
	}
	// The victims are watched at once: a victim whose lines were read
	// only after another's restart would have finished long before.
	var wg sync.WaitGroup
	for i := range killed {
		killAt := int64(3 + r.IntN(jobs[i].batches-6))
		delay := time.Duration(r.IntN(40_000)) * time.Microsecond
		wg.Go(func() {
			ok := procs[i].killWhenCommitting(killAt, delay)
			// Read before the restart re-commits it: which way the kill
			// left the batch in flight.
			t.Logf("%s: killed=%v %s after it started committing id=%d, which had landed: %v",
				jobs[i].user(), ok, delay, killAt, hasLanded(dir, jobs[i].user(), killAt))
		})
	}
	wg.Go(func() {
		p := procs[selfKilled]
		id := int64(p.job.dieAfterPut)
		exited := p.killWhenCommitting(0, 0)
		landed := hasLanded(dir, p.job.user(), id)
		t.Logf("%s: killed itself=%v after publishing id=%d, which had landed: %v", p.job.user(), exited, id, landed)
		if landed != true {
			t.Errorf("%s died after publishing id=%d, but it is not in the table", p.job.user(), id)
		}
	})
	wg.Wait()
	jobs[selfKilled].dieAfterPut = 0
	var restarted []*process
	for i := range killed + 1 {
		restarted = append(restarted, startWriter(t, dir, jobs[i]))
	}
	for _, p := range append(restarted, procs[killed+1:]...) {
		p.wait(t)
	}
	verify(t, dir, jobs)
}

func makeJobs(n, batches, recommitEvery int) []writerJob {
	jobs := make([]writerJob, n)
	for i := range jobs {
		jobs[i] = writerJob{writer: i, batches: batches, rows: 5, recommitEvery: recommitEvery}
	}
	return jobs
}

// process is a running writer process, seen from the test.
type process struct {
	job    writerJob
	cmd    *exec.Cmd
	lines  chan string
	output bytes.Buffer
	stderr bytes.Buffer
}

func startWriter(t *testing.T, tableDir string, j writerJob) *process {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^TestWriterProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), j.env(tableDir, t.TempDir())...)
	p := &process{job: j, cmd: cmd, lines: make(chan string, 1024)}
	cmd.Stderr = &p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.scan(bufio.NewScanner(stdout))
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// scan forwards the process's report lines and keeps its whole output for
// failure messages. The output buffer is read only after lines closes.
func (p *process) scan(sc *bufio.Scanner) {
	defer close(p.lines)
	for sc.Scan() {
		line := sc.Text()
		p.output.WriteString(line + "\n")
		if msg, ok := strings.CutPrefix(line, linePrefix); ok {
			p.lines <- msg
		}
	}
}

// wait drains the process's output and requires a clean exit.
func (p *process) wait(t *testing.T) {
	t.Helper()
	for range p.lines {
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", p.job.user(), err, p.output.String(), p.stderr.String())
	}
}

// killWhenCommitting waits until the process starts committing batch id,
// lets it run for delay, and kills it with SIGKILL: no deferred call, no
// buffered write, nothing after the kill reaches the disk. With id 0 it
// only waits for the process to end. It reports whether the process died
// of a signal or an error rather than exiting cleanly. It runs in its own
// goroutine, so it reports rather than fails.
func (p *process) killWhenCommitting(id int64, delay time.Duration) bool {
	want := fmt.Sprintf("committing id=%d", id)
	for line := range p.lines {
		if id != 0 && line == want {
			time.Sleep(delay)
			_ = p.cmd.Process.Signal(syscall.SIGKILL)
			break
		}
	}
	for range p.lines {
	}
	return p.cmd.Wait() != nil
}

// hasLanded reports whether a snapshot of user with identifier id exists,
// or the error that kept it from finding out. It runs in goroutines, so it
// does not fail the test.
func hasLanded(location, user string, id int64) any {
	ctx := context.Background()
	fsys, tableDir, err := openLocation(ctx, location)
	if err != nil {
		return err
	}
	snaps := snapshot.NewManager(fsys, tableDir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil {
		return err
	}
	for _, sid := range ids {
		s, err := snaps.Snapshot(ctx, sid)
		if err != nil {
			return err
		}
		if s.CommitUser == user && s.CommitIdentifier == id {
			return true
		}
	}
	return false
}

// verify checks the table the jobs left: snapshots 1..n, exactly one per
// (user, identifier), receipts naming each user's last batch, and rows
// and record count equal to the union of all batches.
func verify(t *testing.T, location string, jobs []writerJob) {
	t.Helper()
	ctx := context.Background()
	fsys, tableDir := openWarehouse(t, location)
	snaps := snapshot.NewManager(fsys, tableDir, "")
	ids, err := snaps.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, j := range jobs {
		want += j.batches
	}
	if len(ids) != want || len(ids) == 0 || ids[0] != 1 || ids[len(ids)-1] != int64(want) {
		t.Errorf("snapshot ids %v; want 1..%d", ids, want)
	}
	landed, newest := map[string][]int64{}, map[string]int64{}
	var latest *spec.Snapshot
	for _, id := range ids {
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprintf("%s/%d", s.CommitUser, s.CommitIdentifier)
		landed[k] = append(landed[k], id)
		newest[k] = id
		if s.CommitKind != spec.CommitKindAppend {
			t.Errorf("snapshot %d is %s", id, s.CommitKind)
		}
		latest = s
	}
	checkEachOnce(t, jobs, landed)
	checkReceipts(t, fsys, tableDir, jobs, landed, newest)
	checkRows(t, fsys, tableDir, jobs, latest)
}

// checkEachOnce: 0 lost and 0 duplicated commits.
func checkEachOnce(t *testing.T, jobs []writerJob, landed map[string][]int64) {
	t.Helper()
	expected := map[string]bool{}
	for _, j := range jobs {
		for id := 1; id <= j.batches; id++ {
			k := fmt.Sprintf("%s/%d", j.user(), id)
			expected[k] = true
			if n := len(landed[k]); n != 1 {
				t.Errorf("commit %s landed %d times, in snapshots %v", k, n, landed[k])
			}
		}
	}
	for k, in := range landed {
		if !expected[k] {
			t.Errorf("snapshots %v belong to no commit (%s)", in, k)
		}
	}
}

// checkReceipts: each user's receipt records its last batch, landed once,
// in the newest snapshot of that batch (its COMPACT snapshot when the
// statement compacted inline).
func checkReceipts(t *testing.T, fsys fileio.FileIO, tableDir string, jobs []writerJob, landed map[string][]int64, newest map[string]int64) {
	t.Helper()
	for _, j := range jobs {
		data, err := fsys.ReadFile(context.Background(), path.Join(tableDir, "commit-user", j.user()))
		if err != nil {
			t.Errorf("receipt of %s: %v", j.user(), err)
			continue
		}
		var rc struct {
			Identifier int64 `json:"identifier"`
			SnapshotID int64 `json:"snapshotId"`
		}
		if err := json.Unmarshal(data, &rc); err != nil {
			t.Errorf("receipt of %s: %v", j.user(), err)
			continue
		}
		last := fmt.Sprintf("%s/%d", j.user(), j.batches)
		if rc.Identifier != int64(j.batches) || len(landed[last]) != 1 || rc.SnapshotID != newest[last] {
			t.Errorf("receipt of %s says identifier %d in snapshot %d; %s landed in %v, its newest snapshot is %d",
				j.user(), rc.Identifier, rc.SnapshotID, last, landed[last], newest[last])
		}
	}
}

// checkRows: the latest snapshot counts exactly the rows of all batches
// (a batch committed twice would count twice, though the key merge would
// hide it from a read), and the table reads back exactly those rows.
func checkRows(t *testing.T, fsys fileio.FileIO, tableDir string, jobs []writerJob, latest *spec.Snapshot) {
	t.Helper()
	ctx := context.Background()
	var want []string
	for _, j := range jobs {
		for id := int64(1); id <= int64(j.batches); id++ {
			for _, row := range batchRows(j.writer, id, j.rows) {
				want = append(want, fmt.Sprint(row...))
			}
		}
	}
	slices.Sort(want)
	if latest == nil || latest.TotalRecordCount == nil || *latest.TotalRecordCount != int64(len(want)) {
		t.Errorf("latest snapshot counts %v records; want %d", recordCount(latest), len(want))
	}
	tbl, err := table.Open(ctx, fsys, tableDir)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(all))
	for i, r := range all {
		got[i] = fmt.Sprint(r...)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("table has %d rows, want %d; first rows got %q want %q", len(got), len(want), head(got), head(want))
	}
}

func recordCount(s *spec.Snapshot) any {
	if s == nil || s.TotalRecordCount == nil {
		return nil
	}
	return *s.TotalRecordCount
}

func head(rows []string) []string { return rows[:min(5, len(rows))] }
