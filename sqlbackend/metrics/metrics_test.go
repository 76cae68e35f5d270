package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func appendRequest(rows ...int64) commit.Request {
	req := commit.Request{CommitUser: "writer-a", Identifier: 1}
	for _, n := range rows {
		req.Messages = append(req.Messages, commit.Message{NewFiles: []spec.DataFileMeta{{FileName: fmt.Sprintf("data-%d.parquet", n), RowCount: n}}})
	}
	return req
}

func TestRecordCommitClassifiesOutcomes(t *testing.T) {
	m := New()
	conflict := &commit.ConflictError{Kind: commit.DeletedFileNotLive, CommitKind: spec.CommitKindAppend, Attempt: 3}
	exhausted := &commit.RetryExhaustedError{Reason: "commit.max-retries", CommitKind: spec.CommitKindAppend, Attempts: 10}
	if !errors.Is(exhausted, lakeerr.ErrRetryableConflict) || !errors.Is(conflict, lakeerr.ErrRetryableConflict) {
		t.Fatal("fixture errors are not retryable conflicts")
	}
	overwrite := appendRequest(4)
	overwrite.Overwrite = &commit.Overwrite{BaseSnapshotID: 2}
	compaction := commit.Request{Messages: []commit.Message{{
		CompactBefore: []spec.DataFileMeta{{FileName: "a"}}, CompactAfter: []spec.DataFileMeta{{FileName: "b", RowCount: 9}},
	}}}
	events := []CommitEvent{
		{Request: appendRequest(3, 2), Result: commit.Result{Snapshots: []int64{5}}, Duration: 3 * time.Millisecond},
		{Request: appendRequest(1), Result: commit.Result{AlreadyCommittedIn: 5}, Duration: time.Millisecond},
		{Request: appendRequest(1), Err: fmt.Errorf("commit to pay.payments: %w", conflict), Duration: 40 * time.Millisecond},
		{Request: appendRequest(1), Err: exhausted, Duration: 2 * time.Second},
		{Request: appendRequest(1), Err: &commit.SharedUserError{CommitUser: "writer-a"}},
		{Request: appendRequest(1), Err: fmt.Errorf("put snapshot-7: %w", lakeerr.ErrUnknownOutcome)},
		{Request: appendRequest(1), Err: errors.New("disk full")},
		{Request: overwrite, Result: commit.Result{Snapshots: []int64{6, 7}}},
		{Request: compaction, Result: commit.Result{Snapshots: []int64{8}}},
		// A retry whose data part had landed: only its compact part is new.
		{Request: appendRequest(100), Result: commit.Result{Snapshots: []int64{9}, AlreadyCommittedIn: 8}},
	}
	for _, e := range events {
		e.DB, e.Table = "pay", "payments"
		m.RecordCommit(e)
	}
	want := map[[2]string]float64{
		{"APPEND", outcomeCommitted}:         2,
		{"APPEND", outcomeAlreadyCommitted}:  1,
		{"APPEND", outcomeConflictRetryable}: 2,
		{"APPEND", outcomeConflictTerminal}:  1,
		{"APPEND", outcomeUnknown}:           1,
		{"APPEND", outcomeError}:             1,
		{"OVERWRITE", outcomeCommitted}:      1,
		{"COMPACT", outcomeCommitted}:        1,
	}
	for labels, n := range want {
		if got := testutil.ToFloat64(m.commits.WithLabelValues("pay", "payments", labels[0], labels[1])); got != n {
			t.Errorf("commits{kind=%s,outcome=%s} = %v, want %v", labels[0], labels[1], got, n)
		}
	}
	if got := testutil.CollectAndCount(m.commits); got != len(want) {
		t.Errorf("%d commit series, want %d", got, len(want))
	}
	for conflict, n := range map[string]float64{"deleted-file-not-live": 1, "retries-exhausted": 1, "shared-user": 1} {
		if got := testutil.ToFloat64(m.commitConflicts.WithLabelValues("pay", "payments", conflict)); got != n {
			t.Errorf("conflicts{%s} = %v, want %v", conflict, got, n)
		}
	}
	checks := map[string]struct{ got, want float64 }{
		"attempts reported by the two conflicts": {testutil.ToFloat64(m.commitAttempts), 13},
		"snapshots created":                      {testutil.ToFloat64(m.snapshotsCreated), 5},
		"rows written (3+2, then the overwrite)": {testutil.ToFloat64(m.rowsWritten), 9},
		"latest snapshot":                        {testutil.ToFloat64(m.latestSnapshot), 9},
	}
	for what, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", what, c.got, c.want)
		}
	}
	expected := `
# HELP lakesql_commit_duration_seconds Time a commit took, conflict checks and publish retries included, by outcome.
# TYPE lakesql_commit_duration_seconds histogram
`
	if err := testutil.CollectAndCompare(m.commitSeconds, strings.NewReader(expected+histogramLines(t, m))); err != nil {
		t.Error(err)
	}
}

// histogramLines renders the expected commit-latency series: only the
// committed-outcome series, whose one observation was 3ms, is checked
// bucket by bucket; the others by count.
func histogramLines(t *testing.T, m *Metrics) string {
	t.Helper()
	if n := testutil.CollectAndCount(m.commitSeconds); n != 6 {
		t.Errorf("%d latency series, want one per outcome (6)", n)
	}
	var b strings.Builder
	for _, outcome := range []string{outcomeAlreadyCommitted, outcomeCommitted, outcomeConflictRetryable, outcomeConflictTerminal, outcomeError, outcomeUnknown} {
		observations := map[string][]float64{
			outcomeCommitted: {0.003, 0, 0, 0}, outcomeAlreadyCommitted: {0.001}, outcomeConflictRetryable: {0.04, 2},
			outcomeConflictTerminal: {0}, outcomeUnknown: {0}, outcomeError: {0},
		}[outcome]
		var sum float64
		for _, le := range commitSecondsBuckets {
			n := 0
			for _, o := range observations {
				if o <= le {
					n++
				}
			}
			fmt.Fprintf(&b, "lakesql_commit_duration_seconds_bucket{db=\"pay\",outcome=%q,table=\"payments\",le=\"%v\"} %d\n", outcome, le, n)
		}
		for _, o := range observations {
			sum += o
		}
		fmt.Fprintf(&b, "lakesql_commit_duration_seconds_bucket{db=\"pay\",outcome=%q,table=\"payments\",le=\"+Inf\"} %d\n", outcome, len(observations))
		fmt.Fprintf(&b, "lakesql_commit_duration_seconds_sum{db=\"pay\",outcome=%q,table=\"payments\"} %v\n", outcome, sum)
		fmt.Fprintf(&b, "lakesql_commit_duration_seconds_count{db=\"pay\",outcome=%q,table=\"payments\"} %d\n", outcome, len(observations))
	}
	return b.String()
}

// A commit whose rows landed and whose inline compaction was lost is a
// committed write, under its data kind, plus a dropped compaction: the
// statement succeeded, so it is no failed commit.
func TestRecordCommitOfDroppedCompaction(t *testing.T) {
	m := New()
	withCompaction := func(req commit.Request) commit.Request {
		req.Messages = append(req.Messages, commit.Message{
			CompactBefore: []spec.DataFileMeta{{FileName: "a"}}, CompactAfter: []spec.DataFileMeta{{FileName: "b", RowCount: 9}},
		})
		return req
	}
	lost := &commit.ConflictError{Kind: commit.DeletedFileNotLive, CommitKind: spec.CommitKindCompact, Attempt: 1}
	overwrite := withCompaction(appendRequest(4))
	overwrite.Overwrite = &commit.Overwrite{BaseSnapshotID: 2}
	for _, e := range []CommitEvent{
		{Request: withCompaction(appendRequest(3)), Result: commit.Result{Snapshots: []int64{5}},
			Err: fmt.Errorf("commit to pay.payments: %w", &commit.CompactPartError{Err: lost})},
		{Request: overwrite, Result: commit.Result{Snapshots: []int64{7}},
			Err: &commit.CompactPartError{Err: fmt.Errorf("put snapshot-8: %w", lakeerr.ErrUnknownOutcome)}},
		// A retry that found its data part landed before, and lost the
		// compaction again.
		{Request: withCompaction(appendRequest(3)), Result: commit.Result{AlreadyCommittedIn: 5},
			Err: &commit.CompactPartError{Err: lost}},
	} {
		e.DB, e.Table = "pay", "payments"
		m.RecordCommit(e)
	}
	want := map[[2]string]float64{
		{"APPEND", outcomeCommitted}:          1,
		{"APPEND", outcomeAlreadyCommitted}:   1,
		{"OVERWRITE", outcomeCommitted}:       1,
		{"COMPACT", outcomeCompactionDropped}: 3,
	}
	for labels, n := range want {
		if got := testutil.ToFloat64(m.commits.WithLabelValues("pay", "payments", labels[0], labels[1])); got != n {
			t.Errorf("commits{kind=%s,outcome=%s} = %v, want %v", labels[0], labels[1], got, n)
		}
	}
	if got := testutil.CollectAndCount(m.commits); got != len(want) {
		t.Errorf("%d commit series, want %d", got, len(want))
	}
	checks := map[string]struct{ got, want float64 }{
		"latency series (committed, already-committed)": {float64(testutil.CollectAndCount(m.commitSeconds)), 2},
		"lost compactions' conflicts":                   {testutil.ToFloat64(m.commitConflicts.WithLabelValues("pay", "payments", "deleted-file-not-live")), 2},
		"snapshots created":                             {testutil.ToFloat64(m.snapshotsCreated), 2},
		"rows written (3, then 4)":                      {testutil.ToFloat64(m.rowsWritten), 7},
		"latest snapshot":                               {testutil.ToFloat64(m.latestSnapshot), 7},
	}
	for what, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", what, c.got, c.want)
		}
	}
}

func TestLatestSnapshotGaugeNeverGoesBack(t *testing.T) {
	m := New()
	for _, id := range []int64{3, 7, 5, 0, -1} {
		m.ObserveSnapshot("pay", "payments", id)
	}
	m.ObserveSnapshot("pay", "refunds", 2)
	if got := testutil.ToFloat64(m.latestSnapshot.WithLabelValues("pay", "payments")); got != 7 {
		t.Errorf("payments latest = %v, want 7", got)
	}
	if got := testutil.ToFloat64(m.latestSnapshot.WithLabelValues("pay", "refunds")); got != 2 {
		t.Errorf("refunds latest = %v, want 2", got)
	}
}

// TestRecordScanCountsPruning plans a real scan with a partition filter
// and checks the counters against the plan's own explanation.
func TestRecordScanCountsPruning(t *testing.T) {
	tb := paymentsTable(t)
	ctx := context.Background()
	s, err := tb.LatestSchema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dt, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, "2026-04-17")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := tb.PlanScan(ctx, snapshot.TimeTravel{}, dt)
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	m.RecordScan("pay", "payments", plan)
	m.RecordScan("pay", "payments", nil)
	var kept, pruned, keptBytes float64
	for _, f := range plan.Scan.Explain.Files {
		if f.Reason == scan.Kept {
			kept++
			keptBytes += float64(f.FileSize)
		} else {
			pruned++
		}
	}
	if kept == 0 || pruned == 0 {
		t.Fatalf("fixture plan kept %v and pruned %v files; the test needs both", kept, pruned)
	}
	checks := map[string]struct{ got, want float64 }{
		"scans":         {testutil.ToFloat64(m.scans), 1},
		"splits":        {testutil.ToFloat64(m.scanSplits), float64(len(plan.Splits))},
		"kept files":    {testutil.ToFloat64(m.scanFiles.WithLabelValues("pay", "payments", "kept")), kept},
		"pruned files":  {testutil.ToFloat64(m.scanFiles.WithLabelValues("pay", "payments", "pruned-partition")), pruned},
		"kept bytes":    {testutil.ToFloat64(m.scanBytes.WithLabelValues("pay", "payments", "kept")), keptBytes},
		"manifests":     {sumCounter(m, "lakesql_scan_manifests_total"), float64(len(plan.Scan.Explain.Manifests))},
		"latest pinned": {testutil.ToFloat64(m.latestSnapshot), float64(plan.Snapshot.ID)},
	}
	for what, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", what, c.got, c.want)
		}
	}
}

// paymentsTable is a table partitioned by dt, in two buckets, with files
// in two partitions; the second of its three commits writes both, so that
// a filter on dt prunes files of a manifest it reads, not only manifests.
func paymentsTable(t *testing.T) *table.Table {
	t.Helper()
	varchar := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}
	tt := tabletest.New(t, catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: varchar},
			{Name: "pay_id", Type: spec.DataType{Root: spec.BigInt}},
			{Name: "status", Type: varchar},
		},
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"dt", "pay_id"},
		Options:       map[string]string{"bucket": "2"},
	})
	writetest.Commit(tt, "writer", tabletest.Insert("2026-04-16", int64(1), "SUCCESS"))
	writetest.Commit(tt, "writer", tabletest.Insert("2026-04-16", int64(4), "PENDING"), tabletest.Insert("2026-04-17", int64(2), "FAILED"))
	writetest.Commit(tt, "writer", tabletest.Insert("2026-04-17", int64(5), "SUCCESS"))
	return tt.Open()
}

func sumCounter(m *Metrics, name string) float64 {
	families, _ := m.registry.Gather()
	var sum float64
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, metric := range f.GetMetric() {
			sum += metric.GetCounter().GetValue()
		}
	}
	return sum
}

func TestStatementKinds(t *testing.T) {
	kinds := map[string]string{
		"SELECT 1":          "SELECT",
		"  select * from t": "SELECT",
		"/* app=billing */ INSERT INTO t VALUES 1": "INSERT",
		"-- note\nUPDATE t SET x = 1":              "UPDATE",
		"# note\ndelete from t":                    "DELETE",
		"(SELECT 1) UNION (SELECT 2)":              "SELECT",
		"WITH x AS (SELECT 1) SELECT * FROM x":     "SELECT",
		"START TRANSACTION":                        "BEGIN",
		"desc t":                                   "DESCRIBE",
		"CALL sys.compact('pay.payments')":         "CALL",
		"OPTIMIZE TABLE t":                         "OTHER",
		"":                                         "OTHER",
		"/* unterminated":                          "OTHER",
		"SELECT`x`FROM t":                          "SELECT",
	}
	for q, want := range kinds {
		if got := statementKind(q); got != want {
			t.Errorf("statementKind(%q) = %q, want %q", q, got, want)
		}
	}
	m := New()
	m.RecordStatement("SELECT 1", nil)
	m.RecordStatement("select 2", nil)
	m.RecordStatement("SELEC 1", errors.New("syntax"))
	if got := testutil.ToFloat64(m.statements.WithLabelValues("SELECT", "ok")); got != 2 {
		t.Errorf("SELECT ok = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.statements.WithLabelValues("OTHER", "error")); got != 1 {
		t.Errorf("OTHER error = %v, want 1", got)
	}
}

func TestNilMetricsRecordNothing(t *testing.T) {
	var m *Metrics
	m.RecordCommit(CommitEvent{Request: appendRequest(1), Result: commit.Result{Snapshots: []int64{1}}})
	m.RecordScan("pay", "payments", nil)
	m.RecordStatement("SELECT 1", nil)
	m.ObserveSnapshot("pay", "payments", 1)
}

func TestMetricsHandlerServesRegistry(t *testing.T) {
	m := New()
	m.RecordCommit(CommitEvent{DB: "pay", Table: "payments", Request: appendRequest(2), Result: commit.Result{Snapshots: []int64{1}}})
	m.RecordStatement("INSERT INTO payments VALUES (1)", nil)
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`lakesql_commits_total{db="pay",kind="APPEND",outcome="committed",table="payments"} 1`,
		`lakesql_rows_written_total{db="pay",table="payments"} 2`,
		`lakesql_latest_snapshot_id{db="pay",table="payments"} 1`,
		`lakesql_statements_total{kind="INSERT",outcome="ok"} 1`,
		"go_goroutines",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
