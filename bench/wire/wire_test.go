//go:build duckdb_arrow && cgo

package wire

import (
	"context"
	gosql "database/sql"
	"fmt"
	"math/big"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/table"
)

// wireQueries are issue 16's Q1-Q5, the reconciliation shapes. Q4 breaks
// ties on user_id so that both engines must return the same ten rows.
var wireQueries = []struct{ name, sql string }{
	{"Q1", "SELECT COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' AND status = 'SUCCESS'"},
	{"Q2", "SELECT channel, status, COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' GROUP BY channel, status"},
	{"Q3", "SELECT dt, COUNT(DISTINCT user_id) FROM pay GROUP BY dt"},
	{"Q4", "SELECT user_id, SUM(amount) FROM pay WHERE dt = '2024-01-02' GROUP BY user_id ORDER BY SUM(amount) DESC, user_id LIMIT 10"},
	{"Q5", "SELECT o.state, COUNT(*), SUM(p.amount) FROM pay p JOIN order_status o ON o.pay_id = p.pay_id WHERE p.dt = '2024-01-02' GROUP BY o.state"},
}

// BenchmarkWire runs Q1-Q5 over the MySQL protocol against a lakesql
// server with its vectorized executor, on a compacted payment table of 3
// days × -wire.rows rows and an order_status table of -wire.rows rows,
// and the same SQL in DuckDB in-process over exactly the Parquet files of
// the tables' latest snapshots. Every answer is compared; the metrics are
// each side's milliseconds per query and their ratio.
func BenchmarkWire(b *testing.B) {
	warehouse := path.Join(b.TempDir(), "warehouse")
	lake := startWireServer(b, warehouse)
	duck := openDuckDBOver(b, map[string]string{
		"pay":          path.Join(warehouse, "bench.db", "pay"),
		"order_status": path.Join(warehouse, "bench.db", "order_status"),
	})
	runWireQueries(b, lake, duck)
}

// runWireQueries runs each query on both sides, requires the same answers
// and reports each side's milliseconds per query and their ratio.
func runWireQueries(b *testing.B, lake, duck *gosql.DB) {
	for _, q := range wireQueries {
		b.Run(q.name, func(b *testing.B) {
			var lakeTime, duckTime time.Duration
			for b.Loop() {
				start := time.Now()
				got := queryRows(b, lake, q.sql)
				lakeTime += time.Since(start)
				start = time.Now()
				want := queryRows(b, duck, q.sql)
				duckTime += time.Since(start)
				if !slices.Equal(got, want) {
					b.Fatalf("%s: lakesql %v, duckdb %v", q.name, got, want)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(lakeTime.Microseconds())/n/1000, "lakesql-ms")
			b.ReportMetric(float64(duckTime.Microseconds())/n/1000, "duckdb-ms")
			b.ReportMetric(float64(lakeTime)/float64(duckTime), "lakesql/duckdb")
		})
	}
}

// BenchmarkWireUncompacted is BenchmarkWire over a payment table written
// by 20 commits and never compacted: every bucket holds 20 overlapping
// sorted runs, so lakesql merges them in its reader and hands DuckDB the
// merged rows. DuckDB reads the same raw files and deduplicates them in
// SQL, newest sequence number per key, as Paimon's deduplicate engine.
func BenchmarkWireUncompacted(b *testing.B) {
	warehouse := path.Join(b.TempDir(), "warehouse")
	_, lake := startWireServerWith(b, warehouse, 20)
	duck := openDuckDBOver(b, map[string]string{
		"pay_raw":      path.Join(warehouse, "bench.db", "pay"),
		"order_status": path.Join(warehouse, "bench.db", "order_status"),
	})
	dedup := `CREATE VIEW pay AS SELECT * FROM pay_raw QUALIFY row_number() OVER
		(PARTITION BY dt, pay_id ORDER BY _SEQUENCE_NUMBER DESC) = 1 AND _VALUE_KIND IN (0, 2)`
	if _, err := duck.Exec(dedup); err != nil {
		b.Fatal(err)
	}
	runWireQueries(b, lake, duck)
}

// openDuckDBOver opens an in-process DuckDB with one view per table over
// the Parquet files of the table's latest snapshot.
func openDuckDBOver(b *testing.B, tables map[string]string) *gosql.DB {
	db, err := gosql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	for name, dir := range tables {
		files := liveFiles(b, dir)
		quoted := make([]string, len(files))
		for i, f := range files {
			quoted[i] = "'" + f + "'"
		}
		view := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet([%s], hive_partitioning = false)", name, strings.Join(quoted, ", "))
		if _, err := db.Exec(view); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

func liveFiles(b *testing.B, dir string) []string {
	ctx := context.Background()
	tbl, err := table.Open(ctx, localio.New(), dir)
	if err != nil {
		b.Fatal(err)
	}
	plan, err := tbl.PlanRead(ctx, snapshot.TimeTravel{})
	if err != nil {
		b.Fatal(err)
	}
	var files []string
	for i := range plan.Buckets {
		bp := &plan.Buckets[i]
		for j := range bp.Files {
			files = append(files, bp.DataFilePath(&bp.Files[j]))
		}
	}
	return files
}

// queryRows runs q and returns its rows as text, sorted unless q orders
// them, with DuckDB's values printed as the MySQL protocol prints them.
func queryRows(b *testing.B, db *gosql.DB, q string) []string {
	b.Helper()
	rows, err := db.Query(q)
	if err != nil {
		b.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		parts := make([]string, len(values))
		for i, v := range values {
			parts[i] = wireText(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	if !strings.Contains(q, "ORDER BY") {
		slices.Sort(out)
	}
	return out
}

func wireText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	case duckdb.Decimal:
		return decimalText(x.Value, int(x.Scale))
	case *big.Int:
		return x.String()
	case time.Time:
		return x.Format(time.DateOnly)
	}
	return fmt.Sprint(v)
}

func decimalText(unscaled *big.Int, scale int) string {
	s := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		s = strings.Repeat("0", max(0, scale+1-len(s))) + s
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}
