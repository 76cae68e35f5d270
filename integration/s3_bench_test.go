package integration

import (
	"context"
	"path"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/cacheio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/table"
)

// The benchmarks compare a warehouse on S3 (the server LAKESQL_S3_ENDPOINT
// names) with one on local disk, in the same run:
//
//	eval "$(.ci/s3-server start)"
//	go test ./integration/ -run '^$' -bench S3VersusLocal

// benchTargets are the warehouses of a comparison: local disk, S3, and S3
// behind the manifest cache a server puts in front of it.
var benchTargets = []string{"local", "s3", "s3-manifest-cache"}

// benchWriter creates the payment table in a new warehouse of target and
// returns a writer of batches of rows rows into it.
func benchWriter(b *testing.B, target string, rows int) *writerProcess {
	b.Helper()
	warehouse := path.Join(b.TempDir(), "warehouse")
	if target != "local" {
		warehouse = newS3Warehouse(b)
	}
	location := createTableIn(b, warehouse)
	fsys, dir := openWarehouse(b, location)
	if target == "s3-manifest-cache" {
		fsys = cacheio.New(fsys, 64<<20)
	}
	p := &writerProcess{job: writerJob{writer: 1, rows: rows}, tableDir: dir, spillDir: b.TempDir()}
	p.fs.FileIO = fsys
	return p
}

// BenchmarkS3VersusLocalCommit: one writer commits 5-row batches into the
// payment table, each a new data file and a snapshot.
func BenchmarkS3VersusLocalCommit(b *testing.B) {
	for _, target := range benchTargets {
		b.Run(target, func(b *testing.B) {
			p := benchWriter(b, target, 5)
			ctx := context.Background()
			c, err := p.committer(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				req, tw, err := p.prepare(ctx, int64(i+1))
				if err != nil {
					b.Fatal(err)
				}
				res, err := c.Commit(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.settle(ctx, tw, res); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}

// BenchmarkS3VersusLocalReconciliation: COUNT(*) and SUM(amount) of one
// day of a payment table of scanCommits commits of scanRows rows over two
// days, by a reader that opens the table afresh (so only the FileIO's
// cache, if any, holds manifests).
func BenchmarkS3VersusLocalReconciliation(b *testing.B) {
	const scanCommits, scanRows = 40, 500
	for _, target := range benchTargets {
		b.Run(target, func(b *testing.B) {
			p := benchWriter(b, target, scanRows)
			ctx := context.Background()
			c, err := p.committer(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var want totals
			for id := int64(1); id <= scanCommits; id++ {
				req, tw, err := p.prepare(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				res, err := c.Commit(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.settle(ctx, tw, res); err != nil {
					b.Fatal(err)
				}
				for _, r := range batchRows(p.job.writer, id, scanRows) {
					if r[0] == "d1" {
						want.count++
						want.cents += r[4].(int64)
					}
				}
			}
			b.ResetTimer()
			for range b.N {
				if got := oneDayTotals(b, p, "d1"); got != want {
					b.Fatalf("one day reads %+v, want %+v", got, want)
				}
			}
			b.ReportMetric(float64(want.count*int64(b.N))/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// oneDayTotals opens the table and aggregates the partition dt = day.
func oneDayTotals(b *testing.B, p *writerProcess, day string) totals {
	ctx := context.Background()
	tb, err := table.Open(ctx, p.fs.FileIO, p.tableDir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := tb.LatestSchema(ctx)
	if err != nil {
		b.Fatal(err)
	}
	dt, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, day)
	if err != nil {
		b.Fatal(err)
	}
	res, err := tb.Aggregate(ctx, table.ReadOptions{Filter: dt},
		[]table.AggSpec{{Func: table.AggCountStar}, {Func: table.AggSum, Column: "amount"}})
	if err != nil {
		b.Fatal(err)
	}
	// SUM of a BIGINT is a DECIMAL, as in MySQL.
	sum, ok := res[1].Value.(interface{ UnscaledInt64() (int64, bool) })
	if !ok {
		b.Fatalf("SUM(amount) is %T", res[1].Value)
	}
	cents, _ := sum.UnscaledInt64()
	return totals{count: res[0].Value.(int64), cents: cents}
}
