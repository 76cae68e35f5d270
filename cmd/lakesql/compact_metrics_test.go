package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/table"
)

// TestCompactWatchServesMetrics: with --metrics-listen the service serves
// what its rounds did: the compaction, its files and bytes, and the one
// sorted run it left.
func TestCompactWatchServesMetrics(t *testing.T) {
	w := newCompactWarehouse(t)
	for c := range 3 {
		w.commitRows("pk", fmt.Sprintf("c%d", c), 10)
	}
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		// One round: the next one is an hour away, and the test ends the
		// service before that.
		done <- run(ctx, []string{"compact", "--warehouse", w.dir, "--table", "db.pk", "--watch", "--interval", "1h",
			"--metrics-listen", "127.0.0.1:0"}, outW)
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		scanner := bufio.NewScanner(outR)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	var addr, compacted string
	for compacted == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("service ended early: %v", <-done)
			}
			if a, found := strings.CutPrefix(line, "metrics: serving "); found {
				addr = a
			}
			if strings.HasPrefix(line, "db.pk: compacted: ") {
				compacted = line
			}
		case <-time.After(time.Minute): // a hang guard, not a speed check
			t.Fatal("no compaction reported within a minute")
		}
	}
	if addr == "" {
		t.Fatal("the service did not say where it serves metrics before compacting")
	}
	var snapshot, buckets, rewritten, written, read, wrote, upgraded int64
	if _, err := fmt.Sscanf(strings.TrimPrefix(compacted, "db.pk: compacted: "),
		"snapshot %d: %d buckets, %d files rewritten into %d (%d bytes read, %d written), %d upgraded",
		&snapshot, &buckets, &rewritten, &written, &read, &wrote, &upgraded); err != nil {
		t.Fatalf("compaction line %q: %v", compacted, err)
	}
	tbl, err := table.Open(ctx, localio.New(), w.tableDir("pk"))
	if err != nil {
		t.Fatal(err)
	}
	backlog, err := tbl.LatestBacklog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if backlog.SnapshotID != snapshot || snapshot != 4 {
		t.Fatalf("compacted in snapshot %d, latest backlog of snapshot %d; want both 4, after the 3 commits", snapshot, backlog.SnapshotID)
	}
	body := servertest.HTTPGet(t, addr)
	for _, want := range []string{
		`lakesql_compactions_total{db="db",outcome="compacted",table="pk"} 1`,
		fmt.Sprintf(`lakesql_compaction_files_total{db="db",kind="rewritten",table="pk"} %d`, rewritten),
		fmt.Sprintf(`lakesql_compaction_files_total{db="db",kind="written",table="pk"} %d`, written),
		fmt.Sprintf(`lakesql_compaction_files_total{db="db",kind="upgraded",table="pk"} %d`, upgraded),
		fmt.Sprintf(`lakesql_compaction_bytes_total{db="db",direction="read",table="pk"} %d`, read),
		fmt.Sprintf(`lakesql_compaction_bytes_total{db="db",direction="written",table="pk"} %d`, wrote),
		fmt.Sprintf(`lakesql_compaction_max_sorted_runs{db="db",table="pk"} %d`, backlog.MaxSortedRuns),
		fmt.Sprintf(`lakesql_compaction_backlog_buckets{db="db",table="pk"} %d`, backlog.BucketsAtTrigger),
		`lakesql_compaction_backlog_snapshot_id{db="db",table="pk"} 4`,
		`lakesql_snapshots_created_total{db="db",table="pk"} 1`,
		`lakesql_latest_snapshot_id{db="db",table="pk"} 4`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	cancel()
	for range lines {
	}
	if err := <-done; err != nil {
		t.Fatalf("service after its context ended: %v", err)
	}
}
