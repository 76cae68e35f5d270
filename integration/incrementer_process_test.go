package integration

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// The parent hands an incrementer process its job through the environment.
const (
	envIncrementTable = "LAKESQL_IT_INCREMENT_TABLE"
	envIncrements     = "LAKESQL_IT_INCREMENTS"
)

// TestIncrementerProcess is the body of a process that increments account
// 1 of bank.acct through the Go API, as a read-modify-write writer in
// another OS process does: read the balance at the latest snapshot, write
// it plus one, commit with a key check against that snapshot, and on a
// write-write conflict read again. Run directly, it skips.
func TestIncrementerProcess(t *testing.T) {
	location, ok := os.LookupEnv(envIncrementTable)
	if !ok {
		t.Skip("helper process of TestIncrementsWithGoAPIWriterProcess")
	}
	n, err := strconv.Atoi(os.Getenv(envIncrements))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fsys, dir, err := openLocation(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	inc := &goIncrementer{fs: fsys, dir: dir, user: fmt.Sprintf("go-api-%d", os.Getpid())}
	for range n {
		if err := inc.increment(ctx); err != nil {
			t.Fatal(err)
		}
	}
	report("done conflicts=%d", inc.conflicts)
}

type goIncrementer struct {
	fs        fileio.FileIO
	dir       string
	user      string
	id        int64
	conflicts int
}

// increment adds one to account 1, reading again after each conflict.
func (g *goIncrementer) increment(ctx context.Context) error {
	for {
		err := g.tryIncrement(ctx)
		if !errors.Is(err, lakeerr.ErrRetryableConflict) {
			return err
		}
		g.conflicts++
	}
}

func (g *goIncrementer) tryIncrement(ctx context.Context) error {
	tbl, err := table.Open(ctx, g.fs, g.dir)
	if err != nil {
		return err
	}
	base, _, err := tbl.Snapshots().LatestID(ctx)
	if err != nil {
		return err
	}
	bal, err := g.balance(ctx, tbl, base)
	if err != nil {
		return err
	}
	w, err := write.Open(ctx, write.Options{FileIO: g.fs, TableDir: g.dir, SpillDir: os.TempDir()})
	if err != nil {
		return err
	}
	if err := w.Write(ctx, []any{int64(1), bal + 1}, spec.RowKindUpdateAfter); err != nil {
		return errors.Join(err, w.Abort(ctx))
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return errors.Join(err, w.Abort(ctx))
	}
	c, err := commit.New(commit.Options{FileIO: g.fs, TableDir: g.dir, Core: w.Schema().CoreOptions()})
	if err != nil {
		return errors.Join(err, w.Abort(ctx))
	}
	g.id++
	_, err = c.Commit(ctx, commit.Request{CommitUser: g.user, Identifier: g.id, Messages: msgs,
		KeyCheck: &commit.KeyCheck{BaseSnapshotID: base}})
	if err != nil {
		return errors.Join(err, w.Abort(ctx))
	}
	return w.Close()
}

// balance reads account 1 at snapshot id.
func (g *goIncrementer) balance(ctx context.Context, tbl *table.Table, id int64) (int64, error) {
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		return 0, err
	}
	key, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, int64(1))
	if err != nil {
		return 0, err
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{At: snapshot.TimeTravel{SnapshotID: id}, Filter: key})
	if err != nil {
		return 0, err
	}
	all, err := table.ReadAll(rows)
	if err != nil || len(all) != 1 {
		return 0, fmt.Errorf("account 1 at snapshot %d: %d rows, %v", id, len(all), err)
	}
	return all[0][1].(int64), nil
}

// startIncrementer runs n Go-API increments of account 1 in a new process.
func startIncrementer(t *testing.T, tableDir string, n int) (done <-chan error) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^TestIncrementerProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envIncrementTable+"="+tableDir, envIncrements+"="+strconv.Itoa(n))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bufferedOutput
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	result := make(chan error, 1)
	go func() {
		var out bufferedOutput
		sc := bufio.NewScanner(io.TeeReader(stdout, &out))
		for sc.Scan() {
			if line, ok := cutReport(sc.Text()); ok {
				t.Logf("incrementer: %s", line)
			}
		}
		if err := cmd.Wait(); err != nil {
			result <- fmt.Errorf("incrementer: %v\n%s%s", err, out.String(), stderr.String())
			return
		}
		result <- nil
	}()
	return result
}

func cutReport(line string) (string, bool) {
	if len(line) > len(linePrefix) && line[:len(linePrefix)] == linePrefix {
		return line[len(linePrefix):], true
	}
	return "", false
}

// bufferedOutput collects a process's output for failure messages.
type bufferedOutput struct {
	mu  sync.Mutex
	buf []byte
}

func (b *bufferedOutput) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *bufferedOutput) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// TestIncrementsWithGoAPIWriterProcess: four SQL clients increment account
// 1 over the wire while a Go-API writer in another OS process increments
// it too. Each side's key check reads the other's commits: no increment is
// lost.
func TestIncrementsWithGoAPIWriterProcess(t *testing.T) {
	warehouse := newWarehouse(t)
	s := startServer(t, serverConfig(warehouse))
	db := s.Connect(t, "root", "")
	createAccounts(t, db, 1, 0)
	const clients, each, goAPI = 4, 25, 40
	// The table's location in the warehouse's own form: a directory, or an
	// s3:// URL.
	done := startIncrementer(t, warehouse+"/bank.db/acct", goAPI)
	if err := runConcurrently(clients, func(int) error { return increment(db, 1, each) }); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := balance(t, db, 1), int64(clients*each+goAPI); got != want {
		t.Fatalf("balance %d after %d SQL and %d Go-API increments, want %d", got, clients*each, goAPI, want)
	}
}
