//go:build duckdb_arrow && cgo

package wire

import (
	gosql "database/sql"
	"flag"
	"os"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/server"
)

var (
	manyGroups     = flag.Int("wire.groups", 10_000_000, "distinct keys (and rows) of BenchmarkWireManyGroups")
	groupsMemLimit = flag.String("wire.memlimit", "1GB", "the executor's memory_limit in BenchmarkWireManyGroups")
)

// BenchmarkWireManyGroups is the memory case: a GROUP BY of
// -wire.groups distinct keys over the wire, with DuckDB held to
// -wire.memlimit, streamed to a client that checks every group. It
// reports the server process's peak RSS during the query (the server runs
// in this process; the table is loaded and the heap returned to the OS
// before the query starts) and the peak size of the executor's spill
// directory, so a run shows whether the statement stayed within its
// bounds by spilling.
func BenchmarkWireManyGroups(b *testing.B) {
	warehouse := path.Join(b.TempDir(), "warehouse")
	spill := b.TempDir()
	cfg := servertest.Config(warehouse)
	cfg.Executor.MemoryLimit = *groupsMemLimit
	cfg.Executor.TempDir = spill
	s := servertest.Start(b, cfg, server.Options{})
	db := s.Connect(b, "root", "")
	db.SetMaxOpenConns(1)
	servertest.Exec(b, db, "CREATE DATABASE bench", "USE bench", "CREATE TABLE g (k BIGINT NOT NULL, v BIGINT NOT NULL)")
	n := *manyGroups
	// Keys are spread over the key space so that no ordering helps the
	// aggregation; every key occurs once, with v = k mod 1000.
	writetest.Load(b, path.Join(warehouse, "bench.db", "g"), n, func(i int) []any {
		k := int64(i) * 7_919 % int64(n)
		return []any{k, k % 1000}
	})
	requireDuckDB(b, db, groupsQuery)
	runtime.GC()
	debug.FreeOSMemory()
	before := residentBytes(b, os.Getpid())
	for b.Loop() {
		peak := watchPeaks(b, os.Getpid(), spill, func() { checkGroups(b, db, n) })
		b.ReportMetric(float64(before)/(1<<20), "rss-before-MB")
		b.ReportMetric(float64(peak.rss)/(1<<20), "peak-rss-MB")
		b.ReportMetric(float64(peak.spill)/(1<<20), "peak-spill-MB")
		b.ReportMetric(float64(peak.goHeap)/(1<<20), "peak-go-heap-MB")
	}
}

const groupsQuery = "SELECT k, SUM(v), COUNT(*) FROM g GROUP BY k"

// requireDuckDB fails the benchmark unless EXPLAIN says the executor
// runs q: a fallback to go-mysql-server would measure the wrong engine.
func requireDuckDB(b *testing.B, db *gosql.DB, q string) {
	plan := strings.Join(servertest.Column[string](b, db, "EXPLAIN "+q), "\n")
	if !strings.Contains(plan, "engine: duckdb") {
		b.Fatalf("%s does not run on DuckDB:\n%s", q, plan)
	}
}

// checkGroups runs the GROUP BY and requires n groups, each of one row
// whose sum is its key mod 1000.
func checkGroups(b *testing.B, db *gosql.DB, n int) {
	rows, err := db.Query(groupsQuery)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var k, sum, count int64
		if err := rows.Scan(&k, &sum, &count); err != nil {
			b.Fatal(err)
		}
		if sum != k%1000 || count != 1 {
			b.Fatalf("group %d: sum %d count %d, want %d and 1", k, sum, count, k%1000)
		}
		seen++
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	if seen != n {
		b.Fatalf("%d groups, want %d", seen, n)
	}
}
