//go:build duckdb_arrow && cgo

package wire

import (
	"bufio"
	"bytes"
	gosql "database/sql"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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
	before := residentBytes(b)
	for b.Loop() {
		peak := watchPeaks(b, spill, func() { checkGroups(b, db, n) })
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

// peaks are the largest resident set, spill directory size and Go heap
// seen: what the resident set holds beyond the Go heap is DuckDB's.
type peaks struct{ rss, spill, goHeap int64 }

// watchPeaks runs f while sampling this process's resident set and the
// size of the spill directory every 20 ms.
func watchPeaks(b *testing.B, spillDir string, f func()) peaks {
	var (
		p    peaks
		mu   sync.Mutex
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		rss, spill, heap := residentBytes(b), dirBytes(spillDir), goHeapBytes()
		mu.Lock()
		p.rss, p.spill, p.goHeap = max(p.rss, rss), max(p.spill, spill), max(p.goHeap, heap)
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	sample()
	return p
}

// residentBytes is VmRSS of this process, from /proc/self/status.
func residentBytes(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status:", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) == 3 && string(fields[0]) == "VmRSS:" {
			kb, err := strconv.ParseInt(string(fields[1]), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// goHeapBytes is the memory the Go heap has mapped and not returned to
// the operating system, live or not.
func goHeapBytes() int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	return int64(sample[0].Value.Uint64() - sample[1].Value.Uint64())
}

// dirBytes is the total size of the files under dir; files removed while
// it walks are skipped.
func dirBytes(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			total += info.Size()
		}
		return nil
	})
	return total
}
