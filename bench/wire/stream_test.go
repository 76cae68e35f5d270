package wire

import (
	"bufio"
	gosql "database/sql"
	"flag"
	"hash/fnv"
	"io"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

var streamProfile = flag.String("wire.streamprofile", "", "write a CPU profile of this process (the lakesql server) over BenchmarkWireStream's timed runs to this file")

// streamQuery is issue 16's Q6: one day of payments, every column,
// streamed to the client.
const streamQuery = "SELECT * FROM pay WHERE dt = '2024-01-02'"

// BenchmarkWireStream runs Q6 with the mariadb command-line client (the C
// client, --quick --batch, output to /dev/null) against a lakesql server
// over the compacted payment table of 3 days × -wire.rows rows and
// against MariaDB holding the same rows in an InnoDB table of the same
// primary key, alternately. Both outputs are first checked to hold the
// same rows; the metrics are each side's milliseconds per query and
// their ratio. It needs the MariaDB of .ci/mariadb:
//
//	eval "$(.ci/mariadb start)"
//	go test ./bench/wire -run '^$' -bench WireStream -benchtime 5x [-wire.rows N] [-wire.streamprofile cpu.out]
func BenchmarkWireStream(b *testing.B) {
	client, err := exec.LookPath("mariadb")
	if err != nil {
		b.Skip("the mariadb client is not installed: .ci/mariadb start installs it")
	}
	dsn := os.Getenv(mariadbtest.DSNVariable)
	if dsn == "" {
		b.Skipf("%s is not set: run eval \"$(.ci/mariadb start)\" first", mariadbtest.DSNVariable)
	}
	lake, _ := startWireServerWith(b, path.Join(b.TempDir(), "warehouse"), 0)
	lakeArgs := clientArgs(b, &mysql.Config{Net: "tcp", Addr: lake.Addr, User: "root", DBName: "bench"})
	mariaArgs := loadStreamMariaDB(b, dsn)

	lakeRows, lakeSum := clientOutput(b, client, lakeArgs)
	mariaRows, mariaSum := clientOutput(b, client, mariaArgs)
	if lakeRows != mariaRows || lakeSum != mariaSum {
		b.Fatalf("lakesql sent %d rows (checksum %x), MariaDB %d (checksum %x)", lakeRows, lakeSum, mariaRows, mariaSum)
	}
	if lakeRows != *wireRows {
		b.Fatalf("Q6 returned %d rows, want %d", lakeRows, *wireRows)
	}
	stop := startStreamProfile(b)
	var lakeTime, mariaTime time.Duration
	for b.Loop() {
		lakeTime += runClient(b, client, lakeArgs)
		mariaTime += runClient(b, client, mariaArgs)
	}
	stop()
	n := float64(b.N)
	b.ReportMetric(float64(lakeTime.Microseconds())/n/1000, "lakesql-ms")
	b.ReportMetric(float64(mariaTime.Microseconds())/n/1000, "mariadb-ms")
	b.ReportMetric(float64(lakeTime)/float64(mariaTime), "lakesql/mariadb")
}

// loadStreamMariaDB loads the payment rows into table pay of database
// lakesql_wire_stream on the MariaDB server of dsn, with LOAD DATA LOCAL
// INFILE, and returns the client's arguments to query it.
func loadStreamMariaDB(b *testing.B, dsn string) []string {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		b.Fatal(err)
	}
	cfg.AllowAllFiles = true
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		b.Fatal(err)
	}
	db := gosql.OpenDB(connector)
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	const database = "lakesql_wire_stream"
	servertest.Exec(b, db, "DROP DATABASE IF EXISTS "+database, "CREATE DATABASE "+database, "USE "+database,
		"CREATE TABLE pay "+payColumns+" ENGINE=InnoDB")
	b.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS " + database) })
	start := time.Now()
	rows := writePaymentTSV(b, 3**wireRows)
	servertest.Exec(b, db, "LOAD DATA LOCAL INFILE '"+rows+"' INTO TABLE pay", "ANALYZE TABLE pay")
	b.Logf("MariaDB loaded %d payment rows in %s", 3**wireRows, time.Since(start).Round(time.Millisecond))
	cfg.DBName = database
	return clientArgs(b, cfg)
}

func writePaymentTSV(b *testing.B, n int) string {
	name := filepath.Join(b.TempDir(), "pay.tsv")
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for i := range n {
		w.WriteString(paymentRow(*wireRows, i).tsv())
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// clientArgs are the mariadb client's arguments that run streamQuery on
// the server cfg names.
func clientArgs(b *testing.B, cfg *mysql.Config) []string {
	args := []string{"--no-defaults", "--quick", "--batch", "-u", cfg.User, "-D", cfg.DBName}
	if cfg.Passwd != "" {
		args = append(args, "--password="+cfg.Passwd)
	}
	if cfg.Net == "unix" {
		args = append(args, "--protocol=socket", "--socket="+cfg.Addr)
	} else {
		host, port, err := net.SplitHostPort(cfg.Addr)
		if err != nil {
			b.Fatal(err)
		}
		args = append(args, "--protocol=tcp", "-h", host, "-P", port)
	}
	return append(args, "-e", streamQuery)
}

// runClient runs the client with its output to /dev/null and returns how
// long it took.
func runClient(b *testing.B, client string, args []string) time.Duration {
	cmd := exec.Command(client, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", client, err)
	}
	return time.Since(start)
}

// clientOutput runs the client and returns the number of rows it printed
// (lines after the header) and a checksum of them independent of their
// order: the sum of each line's FNV-1a hash.
func clientOutput(b *testing.B, client string, args []string) (rows int, sum uint64) {
	cmd := exec.Command(client, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	header := true
	for lines.Scan() {
		if header {
			header = false
			continue
		}
		h := fnv.New64a()
		h.Write(lines.Bytes())
		sum += h.Sum64()
		rows++
	}
	if err := lines.Err(); err != nil && err != io.EOF {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v", client, err)
	}
	return rows, sum
}

// startStreamProfile starts the CPU profile -wire.streamprofile asks for
// and returns the function that stops it.
func startStreamProfile(b *testing.B) func() {
	if *streamProfile == "" {
		return func() {}
	}
	f, err := os.Create(*streamProfile)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatalf("-wire.streamprofile: %v (not with -cpuprofile)", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
