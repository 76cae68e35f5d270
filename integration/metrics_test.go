package integration

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"net/http"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// metricsDDL is a primary-key table with one bucket per day whose SQL
// writes never compact (write-only), so that its level-0 files pile up
// for sys.compact, and whose compaction trigger is three sorted runs.
const metricsDDL = `CREATE TABLE m.orders (
	dt VARCHAR(10) NOT NULL, id BIGINT NOT NULL, amount BIGINT, PRIMARY KEY (dt, id)
) COMMENT 'paimon:{"write-only":"true","num-sorted-run.compaction-trigger":"3"}'
  PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 1`

// TestMetricsOverHTTP drives a server through writes, a conflict, reads
// and every maintenance procedure, then scrapes /metrics as Prometheus
// does and checks each family against what was run: exact values where
// the statements determine them, the procedures' own result rows where
// only they know (bytes, files per kind).
func TestMetricsOverHTTP(t *testing.T) {
	cfg := serverConfig(newWarehouse(t))
	cfg.MetricsListen = "127.0.0.1:0"
	s := startServer(t, cfg)
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE m", metricsDDL)
	// Today's partition outlives expire_partitions; 2020-01-01's does not.
	today := time.Now().UTC().Format("2006-01-02")
	for i := 1; i <= 4; i++ {
		servertest.Exec(t, root, fmt.Sprintf("INSERT INTO m.orders VALUES ('%s', %d, %d)", today, i, i*10))
	}
	overwriteLosesToAnInsert(t, root, today) // snapshot 5: the INSERT that won

	scanned := scalar(t, root, "SELECT COUNT(*) FROM m.orders WHERE amount > 0")
	if scanned != "5" {
		t.Fatalf("SELECT read %s rows, want 5", scanned)
	}
	scrapeBefore := scrape(t, s)
	_, files := queryStrings(t, root, "SELECT COUNT(*), SUM(file_size_in_bytes) FROM m.`orders$files`")

	compacted := callRow(t, root, "CALL sys.compact('m.orders')") // snapshot 6
	nothing := callRow(t, root, "CALL sys.compact('m.orders')")
	if compacted["snapshot_id"] != "6" || compacted["files_rewritten"] != "5" || nothing["snapshot_id"] != "NULL" {
		t.Fatalf("compactions %v then %v: want snapshot 6 rewriting the 5 level-0 files, then nothing", compacted, nothing)
	}
	servertest.Exec(t, root, "CALL sys.create_tag('m.orders', 'month-end', 2)")
	expired := callRow(t, root, "CALL sys.expire_snapshots('m.orders', 1, 1)")
	if expired["snapshots_expired"] != "5" {
		t.Fatalf("expire_snapshots: %v, want snapshots 1-5 expired", expired)
	}
	untagged := callRow(t, root, "CALL sys.delete_tag('m.orders', 'month-end')")
	plantOrphan(t, s, today)
	// Zero age: nothing is running, so no write lease protects anything.
	_, orphanRows := queryStrings(t, root, "CALL sys.remove_orphan_files('m.orders', '0 ms')")
	servertest.Exec(t, root, "INSERT INTO m.orders VALUES ('2020-01-01', 1, 1)") // snapshot 7
	_, partitionRows := queryStrings(t, root, "CALL sys.expire_partitions('m.orders', '7 d', 'yyyy-MM-dd')")
	if len(partitionRows) != 2 || partitionRows[1][2] != "8" {
		t.Fatalf("expire_partitions: %v, want dt=2020-01-01 dropped in snapshot 8", partitionRows)
	}

	got := scrape(t, s)
	table := labels{"db": "m", "table": "orders"}
	want := []struct {
		name   string
		labels labels
		value  float64
	}{
		// Commits: 4 + 1 + 1 INSERTs, the overwrite that lost, and the
		// snapshots of the INSERTs, the compaction and the partition drop.
		{"lakesql_commits_total", table.with("kind", "APPEND", "outcome", "committed"), 6},
		{"lakesql_commits_total", table.with("kind", "OVERWRITE", "outcome", "conflict-retryable"), 1},
		{"lakesql_commit_conflicts_total", table.with("conflict", "overwrite-target-changed"), 1},
		{"lakesql_commit_attempts_total", table, 1},
		{"lakesql_commit_duration_seconds", table.with("outcome", "committed"), 6},
		{"lakesql_commit_duration_seconds", table.with("outcome", "conflict-retryable"), 1},
		{"lakesql_snapshots_created_total", table, 8},
		{"lakesql_latest_snapshot_id", table, 8},
		{"lakesql_rows_written_total", table, 6},
		// Compaction: one that compacted, one with nothing to do.
		{"lakesql_compactions_total", table.with("outcome", "compacted"), 1},
		{"lakesql_compactions_total", table.with("outcome", "nothing-to-compact"), 1},
		{"lakesql_compaction_files_total", table.with("kind", "rewritten"), number(t, compacted["files_rewritten"])},
		{"lakesql_compaction_files_total", table.with("kind", "written"), number(t, compacted["files_written"])},
		{"lakesql_compaction_files_total", table.with("kind", "upgraded"), number(t, compacted["files_upgraded"])},
		{"lakesql_compaction_bytes_total", table.with("direction", "read"), number(t, compacted["bytes_read"])},
		{"lakesql_compaction_bytes_total", table.with("direction", "written"), number(t, compacted["bytes_written"])},
		// The backlog after the compaction: one run in the one bucket,
		// counted from the compaction's snapshot; the partition of
		// 2020-01-01 came and went without a whole-table read.
		{"lakesql_compaction_max_sorted_runs", table, 1},
		{"lakesql_compaction_backlog_buckets", table, 0},
		{"lakesql_compaction_backlog_snapshot_id", table, 6},
		// Maintenance.
		{"lakesql_snapshots_expired_total", table, 5},
		{"lakesql_files_deleted_total", table.with("procedure", "expire_snapshots", "kind", "snapshot"), 5},
		{"lakesql_files_deleted_total", table.with("procedure", "remove_orphan_files", "kind", "orphan"), number(t, orphanRows[len(orphanRows)-1][5])},
		{"lakesql_partitions_expired_total", table, 1},
		// Statements and scans.
		{"lakesql_statements_total", labels{"kind": "CALL", "outcome": "ok"}, 7},
		{"lakesql_statements_total", labels{"kind": "COMMIT", "outcome": "error"}, 1},
	}
	for _, w := range want {
		if v, ok := got.value(w.name, w.labels); !ok || v != w.value {
			t.Errorf("%s%v = %v (present %t), want %v", w.name, w.labels, v, ok, w.value)
		}
	}
	for _, column := range []struct{ kind, column string }{
		{"data", "data_files_deleted"}, {"manifest", "manifests_deleted"}, {"manifest-list", "manifest_lists_deleted"},
	} {
		n := number(t, expired[column.column])
		v, ok := got.value("lakesql_files_deleted_total", table.with("procedure", "expire_snapshots", "kind", column.kind))
		if n > 0 && (!ok || v != n) || n == 0 && ok {
			t.Errorf("files deleted by expire_snapshots, kind %s: %v (present %t), want the call's %s, %v", column.kind, v, ok, column.column, n)
		}
	}
	if n, sum := number(t, untagged["files_deleted"]), got.sum("lakesql_files_deleted_total", table.with("procedure", "delete_tag")); n == 0 || sum != n {
		t.Errorf("files deleted by delete_tag: %v over the kinds, want the call's %v (and some)", sum, n)
	}

	// Before the compaction, the whole-table SELECT had counted the five
	// level-0 files of the one bucket: five runs, at the trigger of three.
	for name, v := range map[string]float64{
		"lakesql_compaction_max_sorted_runs": 5, "lakesql_compaction_backlog_buckets": 1, "lakesql_compaction_backlog_snapshot_id": 5,
	} {
		if got, ok := scrapeBefore.value(name, table); !ok || got != v {
			t.Errorf("before compacting, %s = %v (present %t), want %v", name, got, ok, v)
		}
	}
	// Every scan of the SELECT planned the same five files, all kept.
	scans, _ := scrapeBefore.value("lakesql_scans_total", table)
	if files[0][0] != "5" || scans < 1 {
		t.Fatalf("%s live files, %v scans; want 5 files and the SELECT's scans", files[0][0], scans)
	}
	for _, c := range []struct {
		name  string
		value float64
	}{
		{"lakesql_scan_files_total", scans * 5},
		{"lakesql_scan_bytes_total", scans * number(t, files[0][1])},
	} {
		if v, ok := scrapeBefore.value(c.name, table.with("decision", "kept")); !ok || v != c.value {
			t.Errorf("before compacting, %s{decision=kept} = %v (present %t), want %v", c.name, v, ok, c.value)
		}
	}
	wantHelp(t, got, "lakesql_files_deleted_total", "orphan")
	wantHelp(t, got, "lakesql_compaction_max_sorted_runs", "level-0 file")
}

// overwriteLosesToAnInsert makes an INSERT OVERWRITE of a transaction
// conflict: another session inserts into its partition between its read
// and its COMMIT, which fails with 1213.
func overwriteLosesToAnInsert(t *testing.T, db *sql.DB, day string) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	for _, q := range []string{"BEGIN", "INSERT OVERWRITE m.orders PARTITION (dt='" + day + "') VALUES (9, 90)"} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	servertest.Exec(t, db, "INSERT INTO m.orders VALUES ('"+day+"', 5, 50)")
	if _, err := tx.ExecContext(ctx, "COMMIT"); servertest.ErrorNumber(err) != 1213 {
		t.Fatalf("COMMIT of an overwrite whose partition changed: %v, want error 1213", err)
	}
	// The connection goes back to the pool: end the transaction there,
	// as a client retrying after 1213 does, so later statements on it see
	// the latest snapshot.
	if _, err := tx.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}

// labels is a series' label set.
type labels map[string]string

// with returns a copy of l with more name, value pairs.
func (l labels) with(pairs ...string) labels {
	out := maps.Clone(l)
	for i := 0; i+1 < len(pairs); i += 2 {
		out[pairs[i]] = pairs[i+1]
	}
	return out
}

// scraped is one scrape of /metrics, parsed as Prometheus parses it.
type scraped map[string]*dto.MetricFamily

func scrape(t testing.TB, s *lakesqlServer) scraped {
	t.Helper()
	resp, err := http.Get("http://" + s.Server.MetricsAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// value is the value of the series of family name with exactly the given
// labels.
func (s scraped) value(name string, want labels) (float64, bool) {
	for _, m := range s.series(name) {
		if got := labelsOf(m); maps.Equal(got, want) {
			return valueOf(m), true
		}
	}
	return 0, false
}

// sum adds the values of the series of family name that carry every
// given label.
func (s scraped) sum(name string, want labels) float64 {
	var total float64
	for _, m := range s.series(name) {
		got := labelsOf(m)
		if matchesAll(got, want) {
			total += valueOf(m)
		}
	}
	return total
}

func (s scraped) series(name string) []*dto.Metric {
	if f, ok := s[name]; ok {
		return f.GetMetric()
	}
	return nil
}

func matchesAll(got, want labels) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func labelsOf(m *dto.Metric) labels {
	out := labels{}
	for _, p := range m.GetLabel() {
		out[p.GetName()] = p.GetValue()
	}
	return out
}

// valueOf is a counter's or gauge's value, or a histogram's count of
// observations.
func valueOf(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Histogram != nil:
		return float64(m.GetHistogram().GetSampleCount())
	}
	return 0
}

func wantHelp(t *testing.T, s scraped, name, fragment string) {
	t.Helper()
	if f, ok := s[name]; !ok || !strings.Contains(f.GetHelp(), fragment) {
		t.Errorf("%s: help %q, want it to mention %q", name, s[name].GetHelp(), fragment)
	}
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// plantOrphan leaves a data file of a crashed writer next to the live
// files of the table's partition dt=day, through the warehouse's FileIO
// (local disk or S3).
func plantOrphan(t *testing.T, s *lakesqlServer, day string) {
	t.Helper()
	fsys, root := openWarehouse(t, s.Config.Warehouse)
	orphan := path.Join(root, "m.db", "orders", "dt="+day, "bucket-0", "data-0a1b2c3d-orphan-0.parquet")
	if err := fsys.PutIfAbsent(context.Background(), orphan, []byte("partial parquet")); err != nil {
		t.Fatal(err)
	}
}
