package wire

import (
	"bufio"
	"bytes"
	gosql "database/sql"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
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
// primary key, alternately, both over TCP. Both outputs are first checked to hold the
// same rows; the metrics are each side's milliseconds per query, the
// server process's CPU milliseconds per query, and their ratios. It needs the MariaDB of .ci/mariadb:
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
	mariaConfig, mariaPID := loadPaymentsMariaDB(b, dsn)
	mariaArgs := clientArgs(b, mariaConfig)

	lakeRows, lakeSum := clientOutput(b, client, lakeArgs)
	mariaRows, mariaSum := clientOutput(b, client, mariaArgs)
	if lakeRows != mariaRows || lakeSum != mariaSum {
		b.Fatalf("lakesql sent %d rows (checksum %x), MariaDB %d (checksum %x)", lakeRows, lakeSum, mariaRows, mariaSum)
	}
	if lakeRows != *wireRows {
		b.Fatalf("Q6 returned %d rows, want %d", lakeRows, *wireRows)
	}
	stop := startStreamProfile(b)
	var lakeTimes, mariaTimes serverTimes
	for b.Loop() {
		lakeTimes.add(runClient(b, client, lakeArgs, os.Getpid()))
		mariaTimes.add(runClient(b, client, mariaArgs, mariaPID))
	}
	stop()
	n := float64(b.N)
	b.ReportMetric(ms(lakeTimes.wall)/n, "lakesql-ms")
	b.ReportMetric(ms(mariaTimes.wall)/n, "mariadb-ms")
	b.ReportMetric(float64(lakeTimes.wall)/float64(mariaTimes.wall), "lakesql/mariadb")
	b.ReportMetric(ms(lakeTimes.cpu)/n, "lakesql-cpu-ms")
	b.ReportMetric(ms(mariaTimes.cpu)/n, "mariadb-cpu-ms")
	b.ReportMetric(float64(lakeTimes.cpu)/float64(mariaTimes.cpu), "cpu-lakesql/mariadb")
	b.ReportMetric(ms(lakeTimes.clientCPU)/n, "lakesql-client-cpu-ms")
	b.ReportMetric(ms(mariaTimes.clientCPU)/n, "mariadb-client-cpu-ms")
}

// serverTimes adds up the runs against one server: the wall time the
// client took, and the server process's CPU time meanwhile, which on a
// shared machine says more than the wall time.
// clientCPU is the client's own CPU time: a server whose rows cost the
// client more shows it there.
type serverTimes struct{ wall, cpu, clientCPU time.Duration }

func (t *serverTimes) add(run serverTimes) {
	t.wall += run.wall
	t.cpu += run.cpu
	t.clientCPU += run.clientCPU
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadPaymentsMariaDB loads the payment rows into table pay of database
// lakesql_wire_stream on the MariaDB server of dsn, with LOAD DATA LOCAL
// INFILE, and returns the connection config that reaches it (over TCP
// when MariaDB listens there) and the server's process id.
func loadPaymentsMariaDB(b *testing.B, dsn string) (*mysql.Config, int) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		b.Fatal(err)
	}
	db := mariadbtest.OpenLoader(b, dsn)
	const database = "lakesql_wire_stream"
	servertest.Exec(b, db, "DROP DATABASE IF EXISTS "+database, "CREATE DATABASE "+database, "USE "+database,
		"CREATE TABLE pay "+payColumns+" ENGINE=InnoDB")
	b.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS " + database) })
	start := time.Now()
	rows := writePaymentTSV(b, 3**wireRows)
	servertest.Exec(b, db, "LOAD DATA LOCAL INFILE '"+rows+"' INTO TABLE pay", "ANALYZE TABLE pay")
	b.Logf("MariaDB loaded %d payment rows in %s", 3**wireRows, time.Since(start).Round(time.Millisecond))
	pidFile := servertest.Column[string](b, db, "SELECT @@pid_file")[0]
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		b.Fatalf("MariaDB's process id: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err != nil {
		b.Fatalf("MariaDB's process id in %s: %v", pidFile, err)
	}
	cfg.DBName = database
	return overTCP(b, db, cfg), n
}

// overTCP is cfg reaching MariaDB over TCP on 127.0.0.1, as the client
// reaches lakesql, when MariaDB listens there: a Unix socket would spare
// MariaDB's client the loopback's cost.
func overTCP(b *testing.B, db *gosql.DB, cfg *mysql.Config) *mysql.Config {
	if cfg.Net != "unix" {
		return cfg
	}
	var port int
	var skipNetworking bool
	if err := db.QueryRow("SELECT @@port, @@skip_networking").Scan(&port, &skipNetworking); err != nil {
		b.Fatal(err)
	}
	if skipNetworking {
		b.Logf("MariaDB does not listen on TCP: the client reaches it by its socket")
		return cfg
	}
	tcp := *cfg
	tcp.Net, tcp.Addr = "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	return &tcp
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
// long it took and the CPU time the server's process, server, spent
// meanwhile.
func runClient(b *testing.B, client string, args []string, server int) serverTimes {
	cmd := exec.Command(client, args...)
	cmd.Stderr = os.Stderr
	cpu := processCPU(b, server)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", client, err)
	}
	wall := time.Since(start)
	clientCPU := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return serverTimes{wall: wall, cpu: processCPU(b, server) - cpu, clientCPU: clientCPU}
}

// processCPU is the user and system time process pid has used so far, from
// /proc/pid/stat (in USER_HZ ticks, 100 a second on Linux).
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("CPU time of process %d: %v", pid, err)
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 14th and 15th of the line.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	var ticks int64
	for _, f := range fields[11:13] {
		t, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("/proc/%d/stat: %v", pid, err)
		}
		ticks += t
	}
	return time.Duration(ticks) * (time.Second / 100)
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
