package wire

import (
	gosql "database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/storage/spec"
)

var pointSelects = flag.Int("wire.points", 50, "point selects per server and round of BenchmarkWirePointSelect")

// pointQuery is issue 17's point select: one payment by its whole
// primary key.
const pointQuery = "SELECT * FROM pay WHERE dt = ? AND pay_id = ?"

// BenchmarkWirePointSelect measures issue 17's point-select rate: one
// client runs pointQuery for random existing keys, one at a time, over
// the text protocol (the driver interpolates the keys), against a
// lakesql server over the compacted payment table of 3 days × -wire.rows
// rows and against MariaDB holding the same rows in InnoDB with the same
// primary key, both over TCP, alternately in rounds of -wire.points
// selects. Both first answer the same sample of keys identically. It
// needs the MariaDB of .ci/mariadb:
//
//	eval "$(.ci/mariadb start)"
//	go test -run '^$' -bench WirePointSelect ./bench/wire [-wire.rows N] [-wire.points N]
func BenchmarkWirePointSelect(b *testing.B) {
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		b.Skipf("%s is not set: run eval \"$(.ci/mariadb start)\" first", mariadbtest.DSNVariable)
	}
	lake, _ := startWireServerWith(b, path.Join(b.TempDir(), "warehouse"), 0)
	lakeConfig := mysql.NewConfig()
	lakeConfig.Net, lakeConfig.Addr, lakeConfig.User, lakeConfig.DBName = "tcp", lake.Addr, "root", "bench"
	lakeDB := openOneConn(b, lakeConfig)
	mariaConfig, _ := loadPaymentsMariaDB(b, dsn)
	mariaDB := openOneConn(b, mariaConfig)

	keys := rand.New(rand.NewPCG(17, 1))
	for range 20 {
		dt, id := randomPaymentKey(keys)
		lakeRow, mariaRow := pointRow(b, lakeDB, dt, id), pointRow(b, mariaDB, dt, id)
		if !slices.Equal(lakeRow, mariaRow) || len(lakeRow) == 0 {
			b.Fatalf("payment (%s, %d): lakesql %q, MariaDB %q", dt, id, lakeRow, mariaRow)
		}
	}
	var lakeTime, mariaTime time.Duration
	for b.Loop() {
		round := make([]paymentKey, *pointSelects)
		for i := range round {
			round[i].dt, round[i].payID = randomPaymentKey(keys)
		}
		lakeTime += timePointSelects(b, lakeDB, round)
		mariaTime += timePointSelects(b, mariaDB, round)
	}
	selects := float64(b.N * *pointSelects)
	b.ReportMetric(selects/lakeTime.Seconds(), "lakesql-selects/s")
	b.ReportMetric(selects/mariaTime.Seconds(), "mariadb-selects/s")
	b.ReportMetric(mariaTime.Seconds()/lakeTime.Seconds(), "lakesql/mariadb")
}

// openOneConn opens cfg as a pool of one connection that interpolates
// parameters into the text protocol, as most application drivers do.
func openOneConn(b *testing.B, cfg *mysql.Config) *gosql.DB {
	cfg = cfg.Clone()
	cfg.InterpolateParams = true
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		b.Fatal(err)
	}
	db := gosql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	return db
}

// randomPaymentKey is the key of a random payment of paymentRow's table.
func randomPaymentKey(r *rand.Rand) (dt string, payID int64) {
	n := r.IntN(3 * *wireRows)
	day := spec.DateValue(firstDay + n / *wireRows)
	return day.String(), int64(n)
}

// pointRow is the payment of a key as text, nil when there is none.
func pointRow(b *testing.B, db *gosql.DB, dt string, payID int64) []string {
	rows, err := db.Query(pointQuery, dt, payID)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for rows.Next() {
		values := make([]gosql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		for _, v := range values {
			out = append(out, fmt.Sprint(v))
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}

type paymentKey struct {
	dt    string
	payID int64
}

// timePointSelects selects the payment of each key and returns how long
// that took; each must be found.
func timePointSelects(b *testing.B, db *gosql.DB, keys []paymentKey) time.Duration {
	start := time.Now()
	for _, k := range keys {
		if len(pointRow(b, db, k.dt, k.payID)) == 0 {
			b.Fatalf("no payment (%s, %d)", k.dt, k.payID)
		}
	}
	return time.Since(start)
}
