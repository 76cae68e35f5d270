package integration

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/spec"
	sourcecfg "github.com/lakesql/lakesql/sysprocs/reconcile"
)

var reconcileBenchRows = flag.Int("reconcile.rows", 1_000_000, "rows of BenchmarkReconcile's table (10 days)")

// BenchmarkReconcile compares a payment table in the lake with the same
// rows in MariaDB, less and plus a few planted differences, with CALL
// sys.reconcile, and in the same run the way analysts do it without it:
// export both sides to files, sort them and diff them. It reports each
// side's time and, for reconcile, the server's peak Go heap and the
// process's peak resident set while it runs (the server runs in the
// benchmark's process). Needs LAKESQL_MARIADB_DSN:
//
//	eval "$(.ci/mariadb start)"
//	go test ./integration/ -run '^$' -bench Reconcile -benchtime 1x -reconcile.rows 10000000
func BenchmarkReconcile(b *testing.B) {
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		b.Skipf("%s is not set", mariadbtest.DSNVariable)
	}
	const days = 10
	perDay := *reconcileBenchRows / days
	lake := startReconcileBenchServer(b, dsn, days, perDay)
	source := loadReconcileSource(b, dsn, days, perDay)
	// Plant: 3 rows differ, 2 are missing in the lake, 2 extra in it.
	servertest.Exec(b, source,
		"UPDATE pay SET amount = amount + 1 WHERE dt = 'd03' AND pay_id IN (3000001, 3000002, 3000003)",
		"INSERT INTO pay VALUES ('d04', 90000001, 1, 1.00), ('d09', 90000002, 1, 1.00)",
		"DELETE FROM pay WHERE dt = 'd01' AND pay_id IN (1000010, 1000020)")
	want := map[string]int64{"missing_in_lake": 2, "extra_in_lake": 2, "differs": 3}

	b.Run("reconcile", func(b *testing.B) {
		peak := sampleMemory()
		for range b.N {
			totals := reconcileTotals(b, lake)
			for kind, n := range want {
				if totals[kind] != n {
					b.Fatalf("%s: %d, want %d (totals %v)", kind, totals[kind], n, totals)
				}
			}
		}
		heap, rss := peak()
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
		b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(rss)/(1<<20), "peak-rss-MB")
	})
	b.Run("export-and-diff", func(b *testing.B) {
		for range b.N {
			dir := b.TempDir()
			lakeFile := exportSorted(b, lake, filepath.Join(dir, "lake"))
			sourceFile := exportSorted(b, source, filepath.Join(dir, "source"))
			if n := diffLines(b, lakeFile, sourceFile); n != 2+2+3*2 {
				b.Fatalf("diff found %d differing lines, want 10", n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
	})
}

func startReconcileBenchServer(b *testing.B, dsn string, days, perDay int) *sql.DB {
	b.Helper()
	warehouse := path.Join(b.TempDir(), "warehouse")
	cfg := serverConfig(warehouse)
	cfg.Sources = map[string]sourcecfg.SourceConfig{"bench_src": sourceConfig(b, dsn)}
	s := startServer(b, cfg)
	db := s.Connect(b, "root", "")
	db.SetMaxOpenConns(1)
	servertest.Exec(b, db, "CREATE DATABASE bench", "USE bench", joinBenchPayDDL+fmt.Sprintf(joinBenchLayout, "pay_id"))
	start := time.Now()
	writeJoinBenchTable(b, path.Join(warehouse, "bench.db", "pay"), days, perDay, func(d, i int) []any {
		dt, payID, orderID, cents := joinBenchPayment(d, i)
		return []any{dt, payID, orderID, spec.NewDecimal(cents, 2)}
	})
	b.Logf("lake loaded %d rows in %s", days*perDay, time.Since(start).Round(time.Millisecond))
	return db
}

// loadReconcileSource loads the same rows into lakesql_bench.pay on
// MariaDB, keyed as the lake is.
func loadReconcileSource(b *testing.B, dsn string, days, perDay int) *sql.DB {
	b.Helper()
	db := mariadbtest.OpenLoader(b, dsn)
	servertest.Exec(b, db, "DROP DATABASE IF EXISTS lakesql_bench", "CREATE DATABASE lakesql_bench", "USE lakesql_bench", joinBenchPayDDL)
	start := time.Now()
	pay := writeCSV(b, days, perDay, func(d, i int) string {
		dt, payID, orderID, cents := joinBenchPayment(d, i)
		return fmt.Sprintf("%s,%d,%d,%d.%02d", dt, payID, orderID, cents/100, cents%100)
	})
	servertest.Exec(b, db, fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE pay FIELDS TERMINATED BY ','", pay))
	b.Logf("MariaDB loaded %d rows in %s", days*perDay, time.Since(start).Round(time.Millisecond))
	return db
}

func reconcileTotals(b *testing.B, db *sql.DB) map[string]int64 {
	b.Helper()
	rows, err := db.Query("CALL sys.reconcile('bench.pay', 'bench_src', 'lakesql_bench.pay', NULL, NULL, 'chunk_rows=5000; key_order=source')")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	totals := map[string]int64{}
	for rows.Next() {
		var kind string
		var pk, columns, lakeRow, sourceRow, user sql.NullString
		var count, snapshotID, identifier, watermark sql.NullInt64
		if err := rows.Scan(&kind, &pk, &columns, &lakeRow, &sourceRow, &count, &snapshotID, &user, &identifier, &watermark); err != nil {
			b.Fatal(err)
		}
		if !pk.Valid && count.Valid {
			totals[kind] = count.Int64
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return totals
}

// sampleMemory samples the Go heap in use and the process's resident set
// every 20 ms until the returned function is called, which returns their
// peaks.
func sampleMemory() func() (heap, rss int64) {
	var mu sync.Mutex
	var peakHeap, peakRSS int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			rss, _ := servertest.ResidentBytes(os.Getpid())
			mu.Lock()
			peakHeap, peakRSS = max(peakHeap, int64(ms.HeapInuse)), max(peakRSS, rss)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() (int64, int64) {
		close(stop)
		<-done
		mu.Lock()
		defer mu.Unlock()
		return peakHeap, peakRSS
	}
}

// exportSorted writes every row of pay, as tab-separated text, to a file
// and sorts it with sort(1), bytewise: an export to diff.
func exportSorted(b *testing.B, db *sql.DB, name string) string {
	b.Helper()
	rows, err := db.Query("SELECT dt, pay_id, order_id, amount FROM pay")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var dt, payID, orderID, amount sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&dt, &payID, &orderID, &amount); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", dt, payID, orderID, amount)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	sorted := name + ".sorted"
	cmd := exec.Command("sort", "-o", sorted, name)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("sort: %v: %s", err, out)
	}
	return sorted
}

// diffLines counts the lines in one sorted file and not the other.
func diffLines(b *testing.B, x, y string) int {
	b.Helper()
	fx, err := os.Open(x)
	if err != nil {
		b.Fatal(err)
	}
	defer fx.Close()
	fy, err := os.Open(y)
	if err != nil {
		b.Fatal(err)
	}
	defer fy.Close()
	rx, ry := bufio.NewReader(fx), bufio.NewReader(fy)
	next := func(r *bufio.Reader) (string, bool) {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return "", false
		}
		if err != nil && err != io.EOF {
			b.Fatal(err)
		}
		return strings.TrimSuffix(line, "\n"), true
	}
	n := 0
	lx, okx := next(rx)
	ly, oky := next(ry)
	for okx || oky {
		switch {
		case okx && (!oky || lx < ly):
			n++
			lx, okx = next(rx)
		case oky && (!okx || ly < lx):
			n++
			ly, oky = next(ry)
		default:
			lx, okx = next(rx)
			ly, oky = next(ry)
		}
	}
	return n
}
