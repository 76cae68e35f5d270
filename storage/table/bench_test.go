package table

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// benchPayments is the generated payment table the benchmarks share:
// 10 days of 200,000 payments, 4 buckets of 2 files per day.
var benchPayments = scantest.Payments{Days: 10, Buckets: 4, FilesPerBucket: 2, RowsPerFile: 25_000, FirstDay: 20_559}

var (
	paymentsOnce sync.Once
	paymentsRoot string
	paymentsDir  string
	paymentsErr  error
)

// TestMain removes the benchmarks' payment table after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if paymentsRoot != "" {
		os.RemoveAll(paymentsRoot)
	}
	os.Exit(code)
}

// payments writes the table once per benchmark run, to local disk.
func payments(b *testing.B) (*countingIO, string) {
	paymentsOnce.Do(func() {
		paymentsRoot, paymentsErr = os.MkdirTemp("", "lakesql-payments-")
		if paymentsErr != nil {
			return
		}
		w, err := scantest.WritePayments(context.Background(), localio.New(), paymentsRoot, benchPayments)
		if err != nil {
			paymentsErr = err
			return
		}
		paymentsDir = w.Dir
	})
	if paymentsErr != nil {
		b.Fatal(paymentsErr)
	}
	return &countingIO{FileIO: localio.New()}, paymentsDir
}

// BenchmarkPointLookup looks up one pay_id, with and without its day:
// bucket selection and key statistics leave one file to open.
func BenchmarkPointLookup(b *testing.B) {
	fs, dir := payments(b)
	tbl, err := Open(context.Background(), fs, dir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	day := benchPayments.FirstDay + 3
	for _, withDay := range []bool{true, false} {
		b.Run(fmt.Sprintf("with-day=%v", withDay), func(b *testing.B) {
			fs.opened.Store(0)
			i := 0
			for b.Loop() {
				id := benchPayments.PaymentID(day, i*7919%100_000)
				i++
				p := paymentFilter(b, s, withDay, day, id)
				rows := mustReadB(b, tbl, ReadOptions{Filter: p})
				if len(rows) != 1 {
					b.Fatalf("pay_id %d: %d rows", id, len(rows))
				}
			}
			b.ReportMetric(float64(fs.opened.Load())/float64(b.N), "files/lookup")
		})
	}
}

func paymentFilter(b *testing.B, s *spec.TableSchema, withDay bool, day int, id int64) predicate.Predicate {
	idCol := predicate.ColumnOf(1, s.Fields[1])
	p, err := predicate.Leaf(idCol, predicate.OpEq, id)
	if err != nil {
		b.Fatal(err)
	}
	if !withDay {
		return p
	}
	dt, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, spec.DateValue(day))
	if err != nil {
		b.Fatal(err)
	}
	return predicate.And(dt, p)
}

func mustReadB(b *testing.B, tbl *Table, opts ReadOptions) [][]any {
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	all, err := ReadAll(rows)
	if err != nil {
		b.Fatal(err)
	}
	return all
}

// BenchmarkOneDayAggregate is the reconciliation query
// SELECT COUNT(*), SUM(amount) WHERE dt = day AND status = 'SUCCESS':
// one partition of eight files, amount and status read from Parquet,
// through Aggregate's columnar path and, for comparison, through Read's
// rows. bench/duckdb runs DuckDB on the same files.
func BenchmarkOneDayAggregate(b *testing.B) {
	fs, dir := payments(b)
	tbl, err := Open(context.Background(), fs, dir)
	if err != nil {
		b.Fatal(err)
	}
	paths := []struct {
		name string
		run  func(*testing.B, *Table, int, int) (int64, int64)
	}{{"vectors", OneDayAggregate}, {"rows", oneDayAggregateRows}}
	for _, path := range paths {
		for _, parallelism := range []int{1, 0} {
			b.Run(fmt.Sprintf("path=%s/parallelism=%d", path.name, parallelism), func(b *testing.B) {
				var count int64
				for b.Loop() {
					count, _ = path.run(b, tbl, benchPayments.FirstDay+3, parallelism)
				}
				b.ReportMetric(float64(count), "rows")
			})
		}
	}
}

// OneDayAggregate runs the reconciliation query through Aggregate.
func OneDayAggregate(b *testing.B, tbl *Table, day, parallelism int) (count, sum int64) {
	filter := oneDayFilter(b, tbl, day)
	results, err := tbl.Aggregate(context.Background(), ReadOptions{Filter: filter, Parallelism: parallelism},
		[]AggSpec{{Func: AggCountStar}, {Func: AggSum, Column: "amount"}})
	if err != nil {
		b.Fatal(err)
	}
	total, ok := results[1].Value.(spec.DecimalValue).UnscaledInt64()
	if !ok {
		b.Fatalf("SUM(amount) = %v overflows int64", results[1].Value)
	}
	return results[0].Value.(int64), total
}

func oneDayFilter(b *testing.B, tbl *Table, day int) predicate.Predicate {
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	filter, err := scantest.OneDayFilter(s, day)
	if err != nil {
		b.Fatal(err)
	}
	return filter
}

// oneDayAggregateRows runs the reconciliation query through Read.
func oneDayAggregateRows(b *testing.B, tbl *Table, day, parallelism int) (count, sum int64) {
	rows, err := tbl.Read(context.Background(), ReadOptions{Filter: oneDayFilter(b, tbl, day),
		Columns: []string{"amount"}, Parallelism: parallelism, Unordered: true})
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for {
		row, err := rows.Next()
		if err == io.EOF {
			return count, sum
		}
		if err != nil {
			b.Fatal(err)
		}
		count++
		sum += row[0].(int64)
	}
}
