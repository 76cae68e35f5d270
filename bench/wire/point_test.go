package wire

import (
	gosql "database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/storage/spec"
)

var pointSelects = flag.Int("wire.points", 50, "selects per server, client and round of BenchmarkWirePointSelect, BenchmarkWireRangeSelect and BenchmarkWirePointSelectClients")

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
func BenchmarkWirePointSelect(b *testing.B) { benchSelects(b, 1, pointQuery, 1) }

// rangeQuery is issue 17's short range select: 100 consecutive keys.
const rangeQuery = "SELECT * FROM pay WHERE dt = ? AND pay_id BETWEEN ? AND ? ORDER BY pay_id"

// BenchmarkWireRangeSelect is BenchmarkWirePointSelect for rangeQuery:
// each select returns the 100 payments from a random existing key on.
func BenchmarkWireRangeSelect(b *testing.B) { benchSelects(b, 2, rangeQuery, 100) }

// benchSelects runs rounds of -wire.points selects q of random keys (from
// seed), each returning wantRows rows, on one connection to each server
// alternately, and reports both rates.
func benchSelects(b *testing.B, seed uint64, q string, wantRows int) {
	lakeDB, mariaDB := pointServers(b)
	keys := rand.New(rand.NewPCG(17, seed))
	var lakeTime, mariaTime time.Duration
	for b.Loop() {
		round := randomKeys(keys, *pointSelects)
		lakeTime += timeSelects(b, lakeDB, q, round, wantRows)
		mariaTime += timeSelects(b, mariaDB, q, round, wantRows)
	}
	reportRates(b, float64(b.N)*float64(*pointSelects), "selects/s", lakeTime, mariaTime)
}

var pointClients = flag.Int("wire.clients", 16, "concurrent clients of BenchmarkWirePointSelectClients")

// BenchmarkWirePointSelectClients is BenchmarkWirePointSelect with
// -wire.clients clients at once, each on its own connection running
// -wire.points selects a round: the aggregate rate of a round is its
// selects over its wall time.
func BenchmarkWirePointSelectClients(b *testing.B) {
	lake, maria := pointConfigs(b)
	lakeDBs, mariaDBs := make([]*gosql.DB, *pointClients), make([]*gosql.DB, *pointClients)
	for i := range lakeDBs {
		lakeDBs[i], mariaDBs[i] = openOneConn(b, lake), openOneConn(b, maria)
	}
	keys := rand.New(rand.NewPCG(17, 3))
	var lakeTime, mariaTime time.Duration
	for b.Loop() {
		rounds := make([][]paymentKey, *pointClients)
		for i := range rounds {
			rounds[i] = randomKeys(keys, *pointSelects)
		}
		lakeTime += timeClients(b, lakeDBs, rounds)
		mariaTime += timeClients(b, mariaDBs, rounds)
	}
	reportRates(b, float64(b.N)*float64(*pointSelects)*float64(*pointClients), "selects/s", lakeTime, mariaTime)
}

// timeClients runs each client's round of point selects at once and
// returns the wall time until the last finished.
func timeClients(b *testing.B, dbs []*gosql.DB, rounds [][]paymentKey) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Go(func() { timeSelects(b, db, pointQuery, rounds[i], 1) })
	}
	wg.Wait()
	return time.Since(start)
}

// pointServers starts both servers over the payment table, checks that
// they answer a sample of point and range selects alike and returns one
// connection to each.
func pointServers(b *testing.B) (lake, maria *gosql.DB) {
	lakeConfig, mariaConfig := pointConfigs(b)
	lake, maria = openOneConn(b, lakeConfig), openOneConn(b, mariaConfig)
	keys := rand.New(rand.NewPCG(17, 0))
	for _, k := range randomKeys(keys, 20) {
		for _, q := range []string{pointQuery, rangeQuery} {
			lakeRows, mariaRows := selectRows(b, lake, q, k), selectRows(b, maria, q, k)
			if !slices.Equal(lakeRows, mariaRows) || len(lakeRows) == 0 {
				b.Fatalf("%s (%s, %d): lakesql %q, MariaDB %q", q, k.dt, k.payID, lakeRows, mariaRows)
			}
		}
	}
	return lake, maria
}

// pointConfigs starts a lakesql server over the compacted payment table
// of 3 days × -wire.rows rows and loads MariaDB with the same rows and
// primary key, and returns how to reach each over TCP. It needs the
// MariaDB of .ci/mariadb.
func pointConfigs(b *testing.B) (lake, maria *mysql.Config) {
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		b.Skipf("%s is not set: run eval \"$(.ci/mariadb start)\" first", mariadbtest.DSNVariable)
	}
	server, _ := startWireServerWith(b, path.Join(b.TempDir(), "warehouse"), 0)
	lake = mysql.NewConfig()
	lake.Net, lake.Addr, lake.User, lake.DBName = "tcp", server.Addr, "root", "bench"
	maria, _ = loadPaymentsMariaDB(b, dsn)
	return lake, maria
}

// reportRates reports lakesql's and MariaDB's rates of n operations in
// the times they took, and their ratio.
func reportRates(b *testing.B, n float64, unit string, lakeTime, mariaTime time.Duration) {
	b.ReportMetric(n/lakeTime.Seconds(), "lakesql-"+unit)
	b.ReportMetric(n/mariaTime.Seconds(), "mariadb-"+unit)
	b.ReportMetric(mariaTime.Seconds()/lakeTime.Seconds(), "lakesql/mariadb")
}

var preparedSelects = flag.Bool("wire.prepared", false, "send the selects of BenchmarkWirePointSelect, BenchmarkWireRangeSelect and BenchmarkWirePointSelectClients as server-side prepared statements (prepare, execute and close each, as database/sql does for a query with arguments without interpolation) instead of interpolated text")

// openOneConn opens cfg as a pool of one connection that interpolates
// parameters into the text protocol, as most application drivers do, or
// with -wire.prepared prepares each select on the server.
func openOneConn(b *testing.B, cfg *mysql.Config) *gosql.DB {
	cfg = cfg.Clone()
	cfg.InterpolateParams = !*preparedSelects
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		b.Fatal(err)
	}
	db := gosql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	return db
}

// randomKeys are n keys of random payments of paymentRow's table; a
// range from each stays within its day.
func randomKeys(r *rand.Rand, n int) []paymentKey {
	keys := make([]paymentKey, n)
	for i := range keys {
		day := r.IntN(3)
		keys[i] = paymentKey{
			dt:    spec.DateValue(firstDay + day).String(),
			payID: int64(day*(*wireRows) + r.IntN(*wireRows-100)),
		}
	}
	return keys
}

type paymentKey struct {
	dt    string
	payID int64
}

// selectRows runs q, pointQuery or rangeQuery, for a key and returns its
// rows' values as text, in order.
func selectRows(b *testing.B, db *gosql.DB, q string, k paymentKey) []string {
	args := []any{k.dt, k.payID}
	if q == rangeQuery {
		args = append(args, k.payID+99)
	}
	rows, err := db.Query(q, args...)
	if err != nil {
		b.Error(err)
		return nil
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		b.Error(err)
		return nil
	}
	var out []string
	for rows.Next() {
		values := make([]gosql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Error(err)
			return nil
		}
		for _, v := range values {
			out = append(out, fmt.Sprint(v))
		}
	}
	if err := rows.Err(); err != nil {
		b.Error(err)
	}
	return out
}

// timeSelects runs q for each key and returns how long that took; each
// must return wantRows rows.
func timeSelects(b *testing.B, db *gosql.DB, q string, keys []paymentKey, wantRows int) time.Duration {
	start := time.Now()
	for _, k := range keys {
		if n := len(selectRows(b, db, q, k)) / 6; n != wantRows {
			b.Errorf("%s (%s, %d): %d rows, want %d", q, k.dt, k.payID, n, wantRows)
			break
		}
	}
	return time.Since(start)
}
