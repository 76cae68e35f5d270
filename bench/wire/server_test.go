package wire

import (
	gosql "database/sql"
	"flag"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/storage/spec"
)

var wireRows = flag.Int("wire.rows", 1_000_000, "payment rows per day (3 days) and order_status rows of the wire benchmarks")

// firstDay is the payment table's first day, 2024-01-01, in days since
// the epoch.
const firstDay = 19_723

var (
	channels = []string{"app", "web", "pos", "api"}
	statuses = []string{"SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "PENDING"}
	states   = []string{"PAID", "PAID", "SHIPPED", "REFUNDED", "OPEN", "CLOSED"}
)

// payment is row n of the payment table of perDay rows per day: the one
// generator of both lakesql's rows and MariaDB's, so both hold the same.
type payment struct {
	day                  int // days since firstDay
	payID, userID, cents int64
	channel, status      string
}

func paymentRow(perDay, n int) payment {
	d, i := n/perDay, n%perDay
	return payment{day: d, payID: int64(d*perDay + i), userID: int64(i % (perDay / 20)),
		channel: channels[i%len(channels)], status: statuses[i%len(statuses)], cents: int64(i%10_000 + 1)}
}

// values is the row as the Go writer takes it.
func (p payment) values() []any {
	return []any{spec.DateValue(firstDay + p.day), p.payID, p.userID, p.channel, p.status, spec.NewDecimal(p.cents, 2)}
}

// tsv is the row as a tab-separated line for LOAD DATA.
func (p payment) tsv() string {
	return fmt.Sprintf("%s\t%d\t%d\t%s\t%s\t%s\n", p.dateText(), p.payID, p.userID, p.channel, p.status, p.amountText())
}

// sqlValues is the row as the tuple of an INSERT … VALUES.
func (p payment) sqlValues() string {
	return fmt.Sprintf("('%s',%d,%d,'%s','%s',%s)", p.dateText(), p.payID, p.userID, p.channel, p.status, p.amountText())
}

// dateText is the payment's day as MySQL writes a DATE.
func (p payment) dateText() string {
	return time.Date(2024, 1, 1+p.day, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

// amountText is the payment's amount as MySQL writes a DECIMAL(18,2).
func (p payment) amountText() string { return fmt.Sprintf("%d.%02d", p.cents/100, p.cents%100) }

// payColumns is the payment table's columns and primary key, the same in
// lakesql and MariaDB.
const payColumns = `(dt DATE NOT NULL, pay_id BIGINT NOT NULL, user_id BIGINT, channel VARCHAR(16),
	status VARCHAR(16), amount DECIMAL(18,2), PRIMARY KEY (dt, pay_id))`

// startWireServer writes the two tables through the Go writer (one commit
// each), compacts them fully and returns a connection to the server.
func startWireServer(b *testing.B, warehouse string) *gosql.DB {
	_, db := startWireServerWith(b, warehouse, 0)
	return db
}

// startWireServerWith is startWireServer that also returns the server;
// with payCommits > 0 the payment table is written by that many commits,
// each a slice of every bucket's keys, and is left uncompacted
// (write-only, no compaction call).
func startWireServerWith(b *testing.B, warehouse string, payCommits int) (*servertest.Server, *gosql.DB) {
	cfg := servertest.Config(warehouse)
	s := servertest.Start(b, cfg, server.Options{})
	db := s.Connect(b, "root", "")
	servertest.Exec(b, db, "CREATE DATABASE bench", "USE bench",
		`CREATE TABLE pay `+payColumns+`
			`+payOptions(payCommits)+` PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4`,
		`CREATE TABLE order_status (pay_id BIGINT NOT NULL, state VARCHAR(16), PRIMARY KEY (pay_id))
			PARTITION BY KEY (pay_id) PARTITIONS 4`)
	perDay := *wireRows
	payDir := path.Join(warehouse, "bench.db", "pay")
	if payCommits == 0 {
		writetest.Load(b, payDir, 3*perDay, func(n int) []any { return paymentRow(perDay, n).values() })
	}
	for c := range payCommits {
		writetest.LoadCommit(b, payDir, int64(c+1), 3*perDay/payCommits, func(n int) []any {
			return paymentRow(perDay, n*payCommits+c).values()
		})
	}
	// Every other payment of day 2 has an order (pay_id d*perDay+i).
	writetest.Load(b, path.Join(warehouse, "bench.db", "order_status"), perDay, func(i int) []any {
		return []any{int64(perDay + 2*i), states[i%len(states)]}
	})
	servertest.Exec(b, db, "CALL sys.compact('bench.order_status')")
	if payCommits == 0 {
		servertest.Exec(b, db, "CALL sys.compact('bench.pay')")
	}
	db.SetMaxOpenConns(1)
	servertest.Exec(b, db, "USE bench")
	if got := servertest.Column[int64](b, db, "SELECT COUNT(*) FROM pay"); got[0] != int64(3*perDay) {
		b.Fatalf("pay holds %d rows, want %d", got[0], 3*perDay)
	}
	return s, db
}

var payPageRows = flag.Int("wire.pagerows", 0, "parquet.page.row.count.limit of the payment table; 0 is Java's default, 20,000")

// payOptions keeps an uncompacted payment table uncompacted, and sets
// -wire.pagerows.
func payOptions(commits int) string {
	var options []string
	if commits > 0 {
		options = append(options, `"write-only":"true"`)
	}
	if *payPageRows > 0 {
		options = append(options, fmt.Sprintf(`"parquet.page.row.count.limit":"%d"`, *payPageRows))
	}
	if len(options) == 0 {
		return ""
	}
	return `COMMENT 'paimon:{` + strings.Join(options, ",") + `}'`
}
