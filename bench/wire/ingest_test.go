package wire

import (
	"bufio"
	gosql "database/sql"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

var (
	ingestRows       = flag.Int("wire.ingest", 200_000, "payment rows per round of BenchmarkWireInsert and BenchmarkWireLoadData")
	insertBatch      = flag.Int("wire.batch", 5000, "rows per INSERT statement of BenchmarkWireInsert")
	ingestCompaction = flag.String("wire.compaction", "inline", "compaction setting of the lakesql server of BenchmarkWireInsert and BenchmarkWireLoadData: inline or background")
)

// BenchmarkWireInsert measures issue 17's ingest over INSERT: each round
// loads -wire.ingest new payments (one day of them) into an empty-at-start
// primary-key table of lakesql and of MariaDB (InnoDB), as multi-row
// INSERT … VALUES statements of -wire.batch literal rows, in autocommit,
// one client each, alternately. Both tables must then hold the same rows.
// With -wire.compaction background it also reports lakesql's rate
// counting the time, after each round's statements, until the server's
// compaction left no bucket above the compaction trigger.
//
//	eval "$(.ci/mariadb start)"
//	go test ./bench/wire -run '^$' -bench WireInsert -benchtime 3x [-wire.ingest N] [-wire.batch N] [-wire.compaction background]
func BenchmarkWireInsert(b *testing.B) {
	lake, maria := ingestServers(b, startLake(b))
	var lakeTime, settleTime, mariaTime time.Duration
	round := 0
	for b.Loop() {
		stmts := insertStatements(round, *ingestRows, *insertBatch)
		lakeTime += timeExec(b, lake, stmts)
		settleTime += timeCompacted(b, lake)
		mariaTime += timeExec(b, maria, stmts)
		round++
	}
	reportRates(b, float64(round**ingestRows), "rows/s", lakeTime, mariaTime)
	reportCompacted(b, float64(round**ingestRows), lakeTime+settleTime)
	checkSameIngest(b, lake, maria, round**ingestRows)
}

// reportCompacted reports, when the server compacts in the background,
// lakesql's rate counting the waits for its compaction too.
func reportCompacted(b *testing.B, rows float64, d time.Duration) {
	if *ingestCompaction == server.CompactionBackground {
		b.ReportMetric(rows/d.Seconds(), "lakesql-compacted-rows/s")
	}
}

// timeCompacted waits, when the server compacts in the background, until
// no bucket of pay has more sorted runs than the default
// num-sorted-run.compaction-trigger (5), past which Paimon's universal
// strategy compacts, and returns how long that took.
func timeCompacted(b *testing.B, lake *gosql.DB) time.Duration {
	if *ingestCompaction != server.CompactionBackground {
		return 0
	}
	start := time.Now()
	for maxSortedRuns(b, lake) > 5 {
		if time.Since(start) > 10*time.Minute {
			b.Fatal("background compaction did not catch up within 10 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// maxSortedRuns is the most sorted runs a bucket of pay has: its level-0
// files and its other levels holding files.
func maxSortedRuns(b *testing.B, lake *gosql.DB) int {
	rows, err := lake.Query("SELECT `partition`, bucket, level FROM `pay$files`")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	runs := map[string]int{}
	levels := map[string]bool{}
	for rows.Next() {
		var partition string
		var bucket, level int
		if err := rows.Scan(&partition, &bucket, &level); err != nil {
			b.Fatal(err)
		}
		key := fmt.Sprintf("%s/%d", partition, bucket)
		levelKey := fmt.Sprintf("%s/%d", key, level)
		if level == 0 || !levels[levelKey] {
			runs[key]++
		}
		levels[levelKey] = true
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	most := 0
	for _, n := range runs {
		most = max(most, n)
	}
	return most
}

// BenchmarkWireLoadData is BenchmarkWireInsert loading each round's
// payments from a tab-separated file with LOAD DATA LOCAL INFILE, with
// the same -wire.compaction.
//
//	eval "$(.ci/mariadb start)"
//	go test ./bench/wire -run '^$' -bench WireLoadData -benchtime 3x [-wire.ingest N]
func BenchmarkWireLoadData(b *testing.B) {
	lake, maria := ingestServers(b, startLake(b))
	servertest.Exec(b, lake, "SET GLOBAL local_infile = 1")
	var lakeTime, settleTime, mariaTime time.Duration
	round := 0
	for b.Loop() {
		b.StopTimer()
		file := ingestTSV(b, round, *ingestRows)
		b.StartTimer()
		load := []string{"LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE pay"}
		lakeTime += timeExec(b, lake, load)
		settleTime += timeCompacted(b, lake)
		mariaTime += timeExec(b, maria, load)
		os.Remove(file)
		round++
	}
	reportRates(b, float64(round**ingestRows), "rows/s", lakeTime, mariaTime)
	reportCompacted(b, float64(round**ingestRows), lakeTime+settleTime)
	checkSameIngest(b, lake, maria, round**ingestRows)
}

// ingestConfig is the configuration of the lakesql server the ingest
// benchmarks load into: a new warehouse, -wire.compaction.
func ingestConfig(b *testing.B) server.Config {
	requireMariaDB(b)
	cfg := servertest.Config(path.Join(b.TempDir(), "warehouse"))
	cfg.Compaction = *ingestCompaction
	return cfg
}

// startLake serves ingestConfig in this process and returns its address.
func startLake(b *testing.B) string {
	return servertest.Start(b, ingestConfig(b), server.Options{}).Addr
}

// requireMariaDB skips the benchmark when no MariaDB was started for it.
func requireMariaDB(b *testing.B) string {
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		b.Skipf("%s is not set: run eval \"$(.ci/mariadb start)\" first", mariadbtest.DSNVariable)
	}
	return dsn
}

// ingestServers returns one connection to an empty payment table on the
// lakesql server at lakeAddr and one to MariaDB's, both allowed to send
// local files.
func ingestServers(b *testing.B, lakeAddr string) (lake, maria *gosql.DB) {
	dsn := requireMariaDB(b)
	root := servertest.Open(b, lakeAddr, "root", "")
	servertest.Exec(b, root, "CREATE DATABASE bench", "USE bench",
		`CREATE TABLE pay `+payColumns+` PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4`)
	lakeConfig := mysql.NewConfig()
	lakeConfig.Net, lakeConfig.Addr, lakeConfig.User, lakeConfig.DBName = "tcp", lakeAddr, "root", "bench"

	mariaConfig, err := mysql.ParseDSN(dsn)
	if err != nil {
		b.Fatal(err)
	}
	setup := mariadbtest.OpenLoader(b, dsn)
	const database = "lakesql_wire_ingest"
	servertest.Exec(b, setup, "DROP DATABASE IF EXISTS "+database, "CREATE DATABASE "+database, "USE "+database,
		"CREATE TABLE pay "+payColumns+" ENGINE=InnoDB",
		// BenchmarkWireLargeInsert's statement; connections opened after
		// this take it.
		"SET GLOBAL max_allowed_packet = 1073741824")
	b.Cleanup(func() { setup.Exec("DROP DATABASE IF EXISTS " + database) })
	mariaConfig.DBName = database
	mariaConfig = overTCP(b, setup, mariaConfig)
	return openLoaderConn(b, lakeConfig), openLoaderConn(b, mariaConfig)
}

// openLoaderConn is openOneConn to cfg allowed to send any local file
// and statements of up to 1 GB.
func openLoaderConn(b *testing.B, cfg *mysql.Config) *gosql.DB {
	cfg = cfg.Clone()
	cfg.AllowAllFiles = true
	cfg.MaxAllowedPacket = 1 << 30
	return openOneConn(b, cfg)
}

// ingestPayment is payment n of round's day: rows of one round never
// share a key with another round's.
func ingestPayment(round, rows, n int) payment {
	return paymentRow(rows, round*rows+n)
}

// insertStatements are round's rows as INSERT statements of batch rows.
func insertStatements(round, rows, batch int) []string {
	var stmts []string
	var sb strings.Builder
	for start := 0; start < rows; start += batch {
		sb.Reset()
		sb.WriteString("INSERT INTO pay VALUES ")
		for n := start; n < min(start+batch, rows); n++ {
			if n > start {
				sb.WriteByte(',')
			}
			sb.WriteString(ingestPayment(round, rows, n).sqlValues())
		}
		stmts = append(stmts, sb.String())
	}
	return stmts
}

// ingestTSV writes round's rows as a LOAD DATA file.
func ingestTSV(b *testing.B, round, rows int) string {
	name := filepath.Join(b.TempDir(), fmt.Sprintf("pay-%d.tsv", round))
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for n := range rows {
		w.WriteString(ingestPayment(round, rows, n).tsv())
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// timeExec runs stmts on db and returns the time they took.
func timeExec(b *testing.B, db *gosql.DB, stmts []string) time.Duration {
	start := time.Now()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			b.Fatalf("%.80s: %v", s, err)
		}
	}
	return time.Since(start)
}

// ingestSummary is what both servers must agree on after loading.
const ingestSummary = "SELECT COUNT(*), COUNT(DISTINCT dt), SUM(amount), SUM(user_id), SUM(pay_id), " +
	"SUM(LENGTH(channel) + LENGTH(status)) FROM pay"

// checkSameIngest fails unless both tables hold wantRows rows and agree
// on ingestSummary.
func checkSameIngest(b *testing.B, lake, maria *gosql.DB, wantRows int) {
	lakeSummary, mariaSummary := summary(b, lake), summary(b, maria)
	if lakeSummary != mariaSummary || !strings.HasPrefix(lakeSummary, fmt.Sprint(wantRows, "|")) {
		b.Fatalf("after loading %d rows: lakesql %q, MariaDB %q", wantRows, lakeSummary, mariaSummary)
	}
}

func summary(b *testing.B, db *gosql.DB) string {
	values := make([]string, 6)
	ptrs := make([]any, len(values))
	for i := range values {
		ptrs[i] = &values[i]
	}
	if err := db.QueryRow(ingestSummary).Scan(ptrs...); err != nil {
		b.Fatal(err)
	}
	return strings.Join(values, "|")
}

var insertMB = flag.Int("wire.insertmb", 50, "size in MB of the one INSERT statement of BenchmarkWireLargeInsert")

// BenchmarkWireLargeInsert measures issue 17's memory bound: one INSERT
// statement of -wire.insertmb MB of payment rows into an empty table, on
// a lakesql server running as its own process, so that the statement the
// client builds and sends is not counted as the server's. It reports how
// far the server's resident set grew during the statement, as a multiple
// of the statement's size (goal ≤ 4), and its rows per second against
// MariaDB running the same statement.
//
//	eval "$(.ci/mariadb start)"
//	go test ./bench/wire -run '^$' -bench WireLargeInsert -benchtime 1x [-wire.insertmb N]
func BenchmarkWireLargeInsert(b *testing.B) {
	process := servertest.StartProcess(b, ingestConfig(b))
	lake, maria := ingestServers(b, process.Addr)
	var stmt string
	rows := 0
	for rows = 10_000; ; rows += 10_000 {
		if stmt = insertStatements(0, rows, rows)[0]; len(stmt) >= *insertMB<<20 {
			break
		}
	}
	var lakeTime, mariaTime time.Duration
	var growth int64
	round := 0
	for b.Loop() {
		stmt := insertStatements(round, rows, rows)
		pid := process.Pid()
		before := residentBytes(b, pid)
		p := watchPeaks(b, pid, b.TempDir(), func() { lakeTime += timeExec(b, lake, stmt) })
		growth = max(growth, p.rss-before)
		mariaTime += timeExec(b, maria, stmt)
		round++
	}
	reportRates(b, float64(round*rows), "rows/s", lakeTime, mariaTime)
	b.ReportMetric(float64(growth)/float64(len(stmt)), "rss-growth/statement")
	b.ReportMetric(float64(len(stmt))/(1<<20), "statement-MB")
	checkSameIngest(b, lake, maria, round*rows)
}
