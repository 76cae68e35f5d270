package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/catalog/jdbc"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

var (
	compactBigint = spec.DataType{Root: spec.BigInt, Nullable: true}
	compactString = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

// compactWarehouse is a warehouse with a primary-key table db.pk, an
// append table db.logs and an empty table with record-level expiry
// db.expiring, which compaction refuses.
type compactWarehouse struct {
	t     *testing.T
	dir   string
	ident int64
}

func newCompactWarehouse(t *testing.T) *compactWarehouse {
	t.Helper()
	w := &compactWarehouse{t: t, dir: t.TempDir()}
	ctx := context.Background()
	c := catalog.New(localio.New(), w.dir, time.Now)
	if err := c.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	fields := []spec.DataField{{Name: "id", Type: compactBigint}, {Name: "v", Type: compactString}}
	defs := map[string]catalog.TableDefinition{
		"pk":       {Fields: fields, PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}},
		"logs":     {Fields: fields, Options: map[string]string{"bucket": "-1"}},
		"expiring": {Fields: fields, PrimaryKeys: []string{"id"}, Options: map[string]string{"record-level.expire-time": "1 d", "record-level.time-field": "id"}},
	}
	for name, def := range defs {
		if err := c.CreateTable(ctx, "db", name, def, false); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *compactWarehouse) tableDir(name string) string { return w.dir + "/db.db/" + name }

// commitRows writes one batch of rows (id, tag) for ids 0..n-1.
func (w *compactWarehouse) commitRows(name, tag string, n int) {
	w.t.Helper()
	ctx := context.Background()
	fsys := localio.New()
	tw, err := write.Open(ctx, write.Options{FileIO: fsys, TableDir: w.tableDir(name), SpillDir: w.t.TempDir()})
	if err != nil {
		w.t.Fatal(err)
	}
	defer tw.Close()
	for i := range n {
		if err := tw.Write(ctx, []any{int64(i), tag}, spec.RowKindInsert); err != nil {
			w.t.Fatal(err)
		}
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	c, err := commit.New(commit.Options{FileIO: fsys, TableDir: w.tableDir(name), Core: tw.Schema().CoreOptions()})
	if err != nil {
		w.t.Fatal(err)
	}
	w.ident++
	if _, err := c.Commit(ctx, commit.Request{CommitUser: "test-writer", Identifier: w.ident, Messages: msgs}); err != nil {
		w.t.Fatal(err)
	}
}

// rows reads a table, sorted, and its latest snapshot.
func (w *compactWarehouse) rows(name string) ([]string, *spec.Snapshot) {
	w.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, localio.New(), w.tableDir(name))
	if err != nil {
		w.t.Fatal(err)
	}
	rs, err := tbl.Read(ctx, table.ReadOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	all, err := table.ReadAll(rs)
	if err != nil {
		w.t.Fatal(err)
	}
	out := make([]string, len(all))
	for i, r := range all {
		out[i] = fmt.Sprint(r...)
	}
	slices.Sort(out)
	snap, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	return out, snap
}

func TestCompactCommandCompactsEveryTable(t *testing.T) {
	w := newCompactWarehouse(t)
	for c := range 3 {
		w.commitRows("pk", fmt.Sprintf("c%d", c), 10)
		w.commitRows("logs", fmt.Sprintf("c%d", c), 10)
	}
	pkBefore, _ := w.rows("pk")
	logsBefore, _ := w.rows("logs")

	var out bytes.Buffer
	if err := run(context.Background(), []string{"compact", "--warehouse", w.dir, "--full"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"db.pk: compacted: snapshot 4:", "db.logs: compacted: snapshot 4:", "db.expiring: skipped: ", "unsupported: lakesql cannot compact record-level.expire-time: its compaction drops expired records"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for name, before := range map[string][]string{"pk": pkBefore, "logs": logsBefore} {
		after, snap := w.rows(name)
		if !slices.Equal(after, before) || snap.CommitKind != spec.CommitKindCompact {
			t.Errorf("%s: latest snapshot %s; rows %v, want %v", name, snap.CommitKind, after, before)
		}
	}

	// Nothing is left to compact: a second run commits nothing.
	out.Reset()
	if err := run(context.Background(), []string{"compact", "--warehouse", w.dir, "--table", "db.pk", "--full"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "db.pk: nothing to compact" {
		t.Errorf("second run printed %q", got)
	}
}

func TestCompactCommandArguments(t *testing.T) {
	w := newCompactWarehouse(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--warehouse is required"},
		{[]string{"--warehouse", w.dir, "--full", "--watch"}, "cannot be combined"},
		{[]string{"--warehouse", w.dir, "--table", "pk"}, "--table must be DB.TABLE"},
		{[]string{"--warehouse", w.dir, "--partitions", "p=1"}, "--partitions needs --table"},
		{[]string{"--warehouse", w.dir, "--watch", "--interval", "0s"}, "--interval must be positive"},
		{[]string{"--warehouse", w.dir, "--metrics-listen", "127.0.0.1:0"}, "--metrics-listen needs --watch"},
		{[]string{"--warehouse", w.dir, "--watch", "--metrics-listen", "no-port"}, "metrics: "},
		{[]string{"--warehouse", w.dir, "--table", "db.nope"}, "does not exist"},
		{[]string{"--warehouse", w.dir, "--table", "db.pk", "--partitions", "p=1"}, "not a partition key"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"compact"}, c.args...), &out)
		if err == nil || !strings.Contains(err.Error()+out.String(), c.want) {
			t.Errorf("compact %v: error %v, output %q; want %q", c.args, err, out.String(), c.want)
		}
	}
}

// TestCompactWatchStopsOnSIGTERM runs the service as a real process: each
// round compacts what reached the trigger, and SIGTERM ends it cleanly.
func TestCompactWatchStopsOnSIGTERM(t *testing.T) {
	w := newCompactWarehouse(t)
	for c := range 3 {
		w.commitRows("pk", fmt.Sprintf("c%d", c), 10)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	args := []string{"compact", "--warehouse", w.dir, "--table", "db.pk", "--watch", "--interval", "10ms"}
	cmd.Env = append(os.Environ(), "LAKESQL_TEST_ARGS="+strings.Join(args, "\x1f"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	// waitCompacted returns the snapshot of the next compaction the
	// service reports. The minute is a hang guard, not a speed check.
	waitCompacted := func() int64 {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("service ended early: %s", stderr.String())
				}
				var id int64
				if _, err := fmt.Sscanf(line, "db.pk: compacted: snapshot %d:", &id); err == nil {
					return id
				}
			case <-time.After(time.Minute):
				t.Fatal("no compaction reported within a minute")
			}
		}
	}
	if first := waitCompacted(); first != 4 {
		t.Fatalf("first compaction in snapshot %d, want 4 (after the 3 commits)", first)
	}
	// New commits reach the trigger again; rounds may run between them.
	for c := 3; c < 6; c++ {
		w.commitRows("pk", fmt.Sprintf("c%d", c), 10)
	}
	if second := waitCompacted(); second <= 5 {
		t.Fatalf("second compaction in snapshot %d, want one after the new commits", second)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("service exit after SIGTERM: %v, stderr %s", err, stderr.String())
	}
	rows, _ := w.rows("pk")
	if len(rows) != 10 || !strings.HasSuffix(rows[0], "c5") {
		t.Fatalf("after the service: rows %v, want ids 0..9 at c5", rows)
	}
}

// TestCompactThroughJDBCCatalog: with catalog options the compactor
// compacts the tables the JDBC catalog names, and publishes under its
// lock.
func TestCompactThroughJDBCCatalog(t *testing.T) {
	w := newCompactWarehouse(t)
	for c := range 3 {
		w.commitRows("pk", fmt.Sprintf("c%d", c), 10)
		w.commitRows("logs", fmt.Sprintf("c%d", c), 10)
	}
	uri := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "catalog.db")
	options := map[string]string{"metastore": "jdbc", "uri": uri, "lock.enabled": "true"}
	opts, err := jdbc.ParseOptions(options, false)
	if err != nil {
		t.Fatal(err)
	}
	jc, err := jdbc.Open(context.Background(), opts, jdbc.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer jc.Close()
	if err := jc.AddTable(context.Background(), "db", "pk"); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	args := []string{"compact", "--warehouse", w.dir, "--full"}
	for _, k := range slices.Sorted(maps.Keys(options)) {
		args = append(args, "--catalog-option", k+"="+options[k])
	}
	if err := run(context.Background(), args, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := out.String(); !strings.Contains(got, "db.pk: compacted: snapshot 4:") || strings.Contains(got, "db.logs") {
		t.Errorf("output %q: want db.pk compacted and nothing else (the catalog names only db.pk)", got)
	}
}
