package integration

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/spec"
)

// BenchmarkFilteredJoin joins two 1M-row primary-key tables, payments and
// orders of 10 days, on one day of each: the reconciliation queries "paid
// total of the day's orders" and "the day's payments with no order", over
// the wire. With LAKESQL_MARIADB_DSN set (a go-sql-driver DSN, e.g.
// root@unix(/tmp/mdb/sock)/) the same queries run on MariaDB over the same
// rows in the same run, and both must give the same answers:
//
//	LAKESQL_MARIADB_DSN='root@unix(/tmp/mdb/sock)/' \
//	  go test ./integration/ -run '^$' -bench FilteredJoin -benchtime 5x
func BenchmarkFilteredJoin(b *testing.B) {
	const days, perDay = 10, 100_000
	lakesql := startJoinBenchServer(b, days, perDay)
	peers := map[string]*sql.DB{"lakesql": lakesql}
	if dsn := os.Getenv("LAKESQL_MARIADB_DSN"); dsn != "" {
		peers["mariadb"] = loadMariaDB(b, dsn, days, perDay)
	}
	queries := map[string]string{
		"paid": `SELECT COUNT(*), SUM(p.amount) FROM pay p JOIN orders o ON p.order_id = o.order_id
			WHERE p.dt = 'd05' AND o.dt = 'd05'`,
		"missing": `SELECT COUNT(*) FROM pay p LEFT JOIN orders o ON p.order_id = o.order_id AND o.dt = 'd05'
			WHERE p.dt = 'd05' AND o.order_id IS NULL`,
	}
	want := map[string]string{"paid": joinBenchPaid(perDay), "missing": fmt.Sprint(joinBenchMissing(perDay))}
	for _, name := range []string{"paid", "missing"} {
		for _, peer := range []string{"lakesql", "mariadb"} {
			db := peers[peer]
			if db == nil {
				continue
			}
			b.Run(name+"/"+peer, func(b *testing.B) {
				for range b.N {
					if got := queryLine(b, db, queries[name]); got != want[name] {
						b.Fatalf("%s on %s: %s, want %s", name, peer, got, want[name])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/query")
			})
		}
	}
}

// joinBenchPayment is the payment i of day d, 0-based: every 997th has an
// order id no order has.
func joinBenchPayment(d, i int) (dt string, payID, orderID, cents int64) {
	orderID = int64(d*1_000_000 + i)
	if i%997 == 0 {
		orderID += 500_000
	}
	return fmt.Sprintf("d%02d", d), int64(d*1_000_000 + i), orderID, int64(i%10_000 + 1)
}

func joinBenchMissing(perDay int) int { return (perDay + 996) / 997 }

// joinBenchPaid is COUNT(*), SUM(p.amount) of the paid query.
func joinBenchPaid(perDay int) string {
	var n, cents int64
	for i := range perDay {
		if i%997 != 0 {
			n++
			cents += int64(i%10_000 + 1)
		}
	}
	return fmt.Sprintf("%d %d.%02d", n, cents/100, cents%100)
}

const (
	joinBenchOrdersDDL = `CREATE TABLE orders (dt VARCHAR(10) NOT NULL, order_id BIGINT NOT NULL, amount DECIMAL(18,2),
		PRIMARY KEY (dt, order_id))`
	joinBenchPayDDL = `CREATE TABLE pay (dt VARCHAR(10) NOT NULL, pay_id BIGINT NOT NULL, order_id BIGINT,
		amount DECIMAL(18,2), PRIMARY KEY (dt, pay_id))`
	joinBenchLayout = ` PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (%s) SUBPARTITIONS 4`
)

// startJoinBenchServer serves a new warehouse holding the two tables,
// written through the Go API (one commit per table).
func startJoinBenchServer(b *testing.B, days, perDay int) *sql.DB {
	b.Helper()
	warehouse := path.Join(b.TempDir(), "warehouse")
	s := startServer(b, serverConfig(warehouse))
	db := s.Connect(b, "root", "")
	servertest.Exec(b, db, "CREATE DATABASE bench", "USE bench",
		joinBenchOrdersDDL+fmt.Sprintf(joinBenchLayout, "order_id"),
		joinBenchPayDDL+fmt.Sprintf(joinBenchLayout, "pay_id"))
	writeJoinBenchTable(b, path.Join(warehouse, "bench.db", "orders"), days, perDay, func(d, i int) []any {
		dt, _, _, cents := joinBenchPayment(d, i)
		return []any{dt, int64(d*1_000_000 + i), spec.NewDecimal(cents, 2)}
	})
	writeJoinBenchTable(b, path.Join(warehouse, "bench.db", "pay"), days, perDay, func(d, i int) []any {
		dt, payID, orderID, cents := joinBenchPayment(d, i)
		return []any{dt, payID, orderID, spec.NewDecimal(cents, 2)}
	})
	db.SetMaxOpenConns(1)
	servertest.Exec(b, db, "USE bench")
	return db
}

func writeJoinBenchTable(b *testing.B, dir string, days, perDay int, row func(d, i int) []any) {
	writetest.Load(b, dir, days*perDay, func(n int) []any { return row(n/perDay, n%perDay) })
}

// loadMariaDB creates database lakesql_bench on the MariaDB server of dsn
// and loads the same rows with LOAD DATA LOCAL INFILE.
func loadMariaDB(b *testing.B, dsn string, days, perDay int) *sql.DB {
	b.Helper()
	db := mariadbtest.OpenLoader(b, dsn)
	servertest.Exec(b, db, "DROP DATABASE IF EXISTS lakesql_bench", "CREATE DATABASE lakesql_bench", "USE lakesql_bench",
		joinBenchOrdersDDL, joinBenchPayDDL)
	start := time.Now()
	orders := writeCSV(b, days, perDay, func(d, i int) string {
		dt, _, _, cents := joinBenchPayment(d, i)
		return fmt.Sprintf("%s,%d,%d.%02d", dt, d*1_000_000+i, cents/100, cents%100)
	})
	pay := writeCSV(b, days, perDay, func(d, i int) string {
		dt, payID, orderID, cents := joinBenchPayment(d, i)
		return fmt.Sprintf("%s,%d,%d,%d.%02d", dt, payID, orderID, cents/100, cents%100)
	})
	servertest.Exec(b, db,
		fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE orders FIELDS TERMINATED BY ','", orders),
		fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE pay FIELDS TERMINATED BY ','", pay),
		"ANALYZE TABLE orders, pay")
	b.Logf("MariaDB loaded %d rows per table in %s", days*perDay, time.Since(start).Round(time.Millisecond))
	return db
}

func writeCSV(b *testing.B, days, perDay int, line func(d, i int) string) string {
	b.Helper()
	name := filepath.Join(b.TempDir(), "rows.csv")
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for d := range days {
		for i := range perDay {
			fmt.Fprintln(w, line(d, i))
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// queryLine runs a one-row query and renders its columns space-separated.
func queryLine(b *testing.B, db *sql.DB, q string) string {
	b.Helper()
	rows, err := db.Query(q)
	if err != nil {
		b.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil || !rows.Next() {
		b.Fatalf("%s: no row (%v, %v)", q, err, rows.Err())
	}
	values := make([]sql.RawBytes, len(cols))
	dest := make([]any, len(cols))
	for i := range values {
		dest[i] = &values[i]
	}
	if err := rows.Scan(dest...); err != nil {
		b.Fatal(err)
	}
	line := ""
	for i, v := range values {
		if i > 0 {
			line += " "
		}
		line += string(v)
	}
	return line
}
