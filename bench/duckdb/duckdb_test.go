package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// payments is the 10 M-row payment table of issue 4's goal: 10 days of
// 1 M rows, 4 buckets of 2 non-overlapping files per day.
var payments = scantest.Payments{Days: 10, Buckets: 4, FilesPerBucket: 2, RowsPerFile: 125_000, FirstDay: 20_559}

// BenchmarkOneDayAggregate runs the reconciliation query
// SELECT COUNT(*), SUM(amount) WHERE dt = day AND status = 'SUCCESS'
// with lakesql (planning from the manifests, then Aggregate's columnar
// read) and with DuckDB over the same day's Parquet files (the partition
// directory given, so DuckDB does no planning), checks the answers agree,
// and reports the wall time of each and their ratio. It also reports the
// process CPU time spent in each side (all threads, Go's GC included),
// which a busy VM disturbs less than wall time.
func BenchmarkOneDayAggregate(b *testing.B) {
	ctx := context.Background()
	root := b.TempDir()
	w, err := scantest.WritePayments(ctx, localio.New(), root, payments)
	if err != nil {
		b.Fatal(err)
	}
	tbl, err := table.Open(ctx, localio.New(), w.Dir)
	if err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	day := payments.FirstDay + 3
	files := filepath.Join(w.Dir, fmt.Sprintf("dt=%d", day), "bucket-*", "*.parquet")
	query := fmt.Sprintf(`SELECT COUNT(*), SUM(amount) FROM read_parquet('%s') WHERE status = 'SUCCESS'`, files)
	var lake, duck, lakeCPU, duckCPU time.Duration
	for b.Loop() {
		start, startCPU := time.Now(), processCPU(b)
		n1, s1 := lakesqlAggregate(b, tbl, day)
		lake += time.Since(start)
		lakeCPU += processCPU(b) - startCPU
		start, startCPU = time.Now(), processCPU(b)
		var n2, s2 int64
		if err := db.QueryRow(query).Scan(&n2, &s2); err != nil {
			b.Fatal(err)
		}
		duck += time.Since(start)
		duckCPU += processCPU(b) - startCPU
		if n1 != n2 || s1 != s2 {
			b.Fatalf("lakesql %d rows sum %d, duckdb %d rows sum %d", n1, s1, n2, s2)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(lake.Microseconds())/n/1000, "lakesql-ms")
	b.ReportMetric(float64(duck.Microseconds())/n/1000, "duckdb-ms")
	b.ReportMetric(float64(lake)/float64(duck), "lakesql/duckdb")
	b.ReportMetric(float64(lakeCPU.Microseconds())/n/1000, "lakesql-cpu-ms")
	b.ReportMetric(float64(duckCPU.Microseconds())/n/1000, "duckdb-cpu-ms")
}

// processCPU is the user and system CPU time of the process so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lakesqlAggregate runs the query through table.Aggregate, the columnar
// path the SQL layer calls for aggregates.
func lakesqlAggregate(b *testing.B, tbl *table.Table, day int) (count, sum int64) {
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	filter, err := scantest.OneDayFilter(s, day)
	if err != nil {
		b.Fatal(err)
	}
	results, err := tbl.Aggregate(context.Background(), table.ReadOptions{Filter: filter},
		[]table.AggSpec{{Func: table.AggCountStar}, {Func: table.AggSum, Column: "amount"}})
	if err != nil {
		b.Fatal(err)
	}
	total, ok := results[1].Value.(spec.DecimalValue).UnscaledInt64()
	if !ok {
		b.Fatalf("SUM(amount) = %v overflows int64", results[1].Value)
	}
	return results[0].Value.(int64), total
}
