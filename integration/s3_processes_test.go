package integration

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/storage/compact"
)

// buildLakesql builds the lakesql command into a temp directory.
func buildLakesql(t *testing.T) string { return servertest.BuildLakesql(t) }

// serveProcess is a `lakesql serve` OS process. Its address changes when
// it is restarted, so it is read under the lock.
type serveProcess struct {
	bin, configPath string

	mu     sync.Mutex
	cmd    *exec.Cmd
	db     *sql.DB
	stderr *bytes.Buffer
}

// startServeProcess serves warehouse from a new process on a free
// loopback port, with the test S3 server in the config file's s3 section.
func startServeProcess(t *testing.T, bin, warehouse string) *serveProcess {
	t.Helper()
	cfg := map[string]any{
		"listen": "127.0.0.1:0", "warehouse": warehouse,
		"s3":  testS3Config(),
		"log": server.LogConfig{Level: "warning", Format: "text"},
	}
	p := &serveProcess{bin: bin, configPath: servertest.WriteConfig(t, cfg)}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.stop)
	return p
}

// start runs the process and waits for its "listening on" line.
func (p *serveProcess) start() error {
	cmd, addr, stderr, err := servertest.Serve(p.bin, p.configPath)
	if err != nil {
		return err
	}
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User = "tcp", addr, "root"
	connector, err := mysql.NewConnector(c)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cmd, p.db, p.stderr = cmd, sql.OpenDB(connector), stderr
	return nil
}

// current returns the database handle of the running process; after a
// kill and until the restart, its statements fail.
func (p *serveProcess) current() *sql.DB {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.db
}

// kill ends the process with SIGKILL: nothing of a statement in flight
// runs after it.
func (p *serveProcess) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
	p.db.Close()
}

// stop ends the process gracefully.
func (p *serveProcess) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_ = p.cmd.Wait()
	p.db.Close()
}

// Environment of a compactor process.
const (
	envCompactTable    = "LAKESQL_IT_COMPACT_TABLE"
	envCompactInterval = "LAKESQL_IT_COMPACT_INTERVAL"
)

// compactorProcess is a dedicated compaction service: the rounds of
// `lakesql compact --watch`, compact.Table with one commit identity, in a
// process of its own.
type compactorProcess struct {
	cmd    *exec.Cmd
	output bytes.Buffer
}

func startCompactor(t *testing.T, location string, interval time.Duration) *compactorProcess {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &compactorProcess{cmd: exec.Command(bin, "-test.run=^TestCompactorProcess$", "-test.count=1", "-test.v")}
	p.cmd.Env = append(os.Environ(), envCompactTable+"="+location, envCompactInterval+"="+interval.String())
	p.cmd.Stdout, p.cmd.Stderr = &p.output, &p.output
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

// stop ends the service with SIGTERM, which it takes between rounds or
// in one, and returns the compactions it reported.
func (p *compactorProcess) stop(t *testing.T) int {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("compactor: %v\n%s", err, p.output.String())
	}
	return strings.Count(p.output.String(), linePrefix+"compacted")
}

// TestCompactorProcess is the body of a compactor process. Run directly,
// as part of the package's tests, it skips.
func TestCompactorProcess(t *testing.T) {
	location, ok := os.LookupEnv(envCompactTable)
	if !ok {
		t.Skip("helper process of the multi-server test")
	}
	interval, err := time.ParseDuration(os.Getenv(envCompactInterval))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	fsys, dir, err := openLocation(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	id := compact.NewCompactionIdentity(nil)
	for ctx.Err() == nil {
		res, err := compact.Table(ctx, compact.Options{FileIO: fsys, TableDir: dir, Identity: id})
		switch {
		case ctx.Err() != nil:
		case err != nil:
			// As in `lakesql compact --watch`: reported, retried next round.
			report("compaction failed: %v", err)
		case res.Snapshot != 0:
			report("compacted snapshot=%d attempts=%d", res.Snapshot, res.Attempts)
		}
		select {
		case <-ctx.Done():
		case <-time.After(interval):
		}
	}
}

// isConnectionLoss reports whether a statement failed because its server
// went away rather than with a MySQL error.
func isConnectionLoss(err error) bool {
	var me *mysql.MySQLError
	return err != nil && !errors.As(err, &me)
}
