package sqlbackend

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/table"
)

// newMetricsHarness is a harness whose backend records into m.
func newMetricsHarness(t *testing.T, m *metrics.Metrics) *harness {
	t.Helper()
	b := New(Options{
		FileIO: localio.New(), Warehouse: t.TempDir(), SpillDir: t.TempDir(), Metrics: m,
		Now: clocktest.New(time.UnixMilli(1_767_225_600_000)).Tick(time.Millisecond),
	})
	return &harness{t: t, backend: b, engine: NewEngine(b, nil)}
}

// TestScansSetTheBacklog: SELECTs that plan every file of a new snapshot
// set the backlog gauges to what the snapshot's manifests say; a
// partition-filtered SELECT that leaves manifests unread, and a read of a
// transaction's own writes, leave them.
func TestScansSetTheBacklog(t *testing.T) {
	m := metrics.New()
	h := newMetricsHarness(t, m)
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	for i := 1; i <= 3; i++ {
		c.mustExec(fmt.Sprintf("INSERT INTO payments VALUES ('2026-04-16', 1, %d.00, 'SUCCESS')", i))
	}
	tb := openPayments(t, h)
	backlogAt := func() table.Backlog {
		t.Helper()
		b, err := tb.LatestBacklog(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gauges := func() table.Backlog {
		return table.Backlog{
			SnapshotID:       int64(tableMetric(t, m, "lakesql_compaction_backlog_snapshot_id", "pay", "payments")),
			MaxSortedRuns:    int(tableMetric(t, m, "lakesql_compaction_max_sorted_runs", "pay", "payments")),
			BucketsAtTrigger: int(tableMetric(t, m, "lakesql_compaction_backlog_buckets", "pay", "payments")),
		}
	}
	withoutTrigger := func(b table.Backlog) table.Backlog { b.Trigger = 0; return b }

	c.mustQuery("SELECT * FROM payments")
	first := backlogAt()
	if first.SnapshotID != 3 || first.MaxSortedRuns != 3 {
		t.Fatalf("fixture backlog %+v: want snapshot 3 with one bucket of 3 level-0 files", first)
	}
	if got := gauges(); got != withoutTrigger(first) {
		t.Errorf("after a whole-table SELECT: gauges %+v, want %+v", got, withoutTrigger(first))
	}

	c.mustExec("INSERT INTO payments VALUES ('2026-04-17', 9, 9.00, 'SUCCESS')")
	c.mustQuery("SELECT * FROM payments WHERE dt = '2026-04-17'")
	if got := gauges(); got.SnapshotID != 3 {
		t.Errorf("a SELECT that pruned manifests moved the gauges to %+v", got)
	}

	c.mustExec("BEGIN", "INSERT INTO payments VALUES ('2026-04-16', 1, 3.00, 'SUCCESS')")
	c.mustQuery("SELECT * FROM payments")
	if got := gauges(); got.SnapshotID != 3 {
		t.Errorf("a read of staged writes moved the gauges to %+v", got)
	}
	c.mustExec("ROLLBACK")

	c.mustQuery("SELECT COUNT(*) FROM payments")
	latest := backlogAt()
	if latest.SnapshotID != 4 {
		t.Fatalf("latest backlog at snapshot %d, want 4", latest.SnapshotID)
	}
	if got := gauges(); got != withoutTrigger(latest) {
		t.Errorf("after an aggregate over the whole table: gauges %+v, want %+v", got, withoutTrigger(latest))
	}
}

// tableMetric is the value of a per-table counter or gauge of m, read
// from its registry as /metrics serves it; 0 for a table it has no series
// of.
func tableMetric(t *testing.T, m *metrics.Metrics, name, db, tableName string) float64 {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"db": db, "table": tableName}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, series := range f.GetMetric() {
			got := map[string]string{}
			for _, l := range series.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			if maps.Equal(got, want) {
				return series.GetCounter().GetValue() + series.GetGauge().GetValue()
			}
		}
	}
	return 0
}
