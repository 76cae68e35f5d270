package main

import (
	"bufio"
	"context"
	"database/sql"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// startServe runs `lakesql serve` in a child process and returns it with
// the address it printed.
func startServe(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LAKESQL_TEST_ARGS="+strings.Join(append([]string{"serve"}, args...), "\x1f"))
	logPath := filepath.Join(t.TempDir(), "stderr.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := os.ReadFile(logPath)
			t.Logf("lakesql serve stderr:\n%s", logs)
		}
	})
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listen line: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "lakesql listening on ")
	if !ok {
		t.Fatalf("first stdout line %q, want \"lakesql listening on ADDR\"", line)
	}
	return cmd, addr
}

// TestServeSIGTERMFinishesRunningStatement: SIGTERM lets the running
// statement return its result, then the process exits 0.
func TestServeSIGTERMFinishesRunningStatement(t *testing.T) {
	warehouse := filepath.Join(t.TempDir(), "new-warehouse")
	cmd, addr := startServe(t, "--listen", "127.0.0.1:0", "--warehouse", warehouse)
	if info, err := os.Stat(warehouse); err != nil || !info.IsDir() {
		t.Fatalf("warehouse directory not created: %v", err)
	}
	db := servertest.Open(t, addr, "root", "")
	result := make(chan error, 1)
	go func() {
		var v int
		result <- db.QueryRow("SELECT SLEEP(1)").Scan(&v)
	}()
	waitForSleep(t, db)

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-result; err != nil {
		t.Errorf("statement running at SIGTERM: %v, want its result", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("lakesql serve after SIGTERM: %v, want exit status 0", err)
	}
}

func waitForSleep(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		var n int
		err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP%'").Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the SLEEP statement never showed in the process list")
}

func TestServeRefusesRemoteListenWithoutPasswords(t *testing.T) {
	_, stderr, code := lakesql(t, "serve", "--listen", "0.0.0.0:0", "--warehouse", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "not a loopback address") {
		t.Errorf("exit %d, stderr %q; want exit 1 and the loopback rule", code, stderr)
	}
}

func TestServeRejectsUnknownConfigKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lakesql.json")
	if err := os.WriteFile(path, []byte(`{"listen": "127.0.0.1:0", "max_conns": 5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := lakesql(t, "serve", "--config", path)
	if code != 1 || !strings.Contains(stderr, `unknown field "max_conns"`) {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the unknown key", code, stderr)
	}
}

func TestServeFlagsOverrideConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lakesql.json")
	if err := os.WriteFile(path, []byte(`{"listen": "127.0.0.1:4000", "warehouse": "/data/wh", "max_connections": 7}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseServeArgs([]string{"--config", path, "--listen", "127.0.0.1:5000", "--metrics-listen", "127.0.0.1:9187"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:5000" || cfg.Warehouse != "/data/wh" || cfg.MaxConnections != 7 || cfg.MetricsListen != "127.0.0.1:9187" {
		t.Errorf("config %+v: want the flags' listen and metrics address and the file's warehouse and max_connections", cfg)
	}
	cfg, err = parseServeArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != server.DefaultListen || cfg.Warehouse != server.DefaultWarehouse {
		t.Errorf("defaults %+v", cfg)
	}
}

// --catalog-option adds to and overrides the config file's catalog options.
func TestServeCatalogOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lakesql.json")
	if err := os.WriteFile(path, []byte(`{"catalog": {"metastore": "jdbc", "uri": "jdbc:sqlite:/a.db", "catalog-key": "lake"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseServeArgs([]string{"--config", path, "--catalog-option", "uri=jdbc:sqlite:/b.db", "--catalog-option", "lock.enabled=true"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"metastore": "jdbc", "uri": "jdbc:sqlite:/b.db", "catalog-key": "lake", "lock.enabled": "true"}
	if !maps.Equal(cfg.Catalog, want) {
		t.Errorf("catalog options %v, want %v", cfg.Catalog, want)
	}
	if _, err := parseServeArgs([]string{"--catalog-option", "lock.enabled"}); err == nil {
		t.Error("--catalog-option without = was accepted")
	}
	_, stderr, code := lakesql(t, "serve", "--warehouse", t.TempDir(), "--catalog-option", "metastore=hive")
	if code != 1 || !strings.Contains(stderr, `catalog metastore "hive"`) {
		t.Errorf("metastore=hive: exit %d, stderr %q; want exit 1 naming the metastore", code, stderr)
	}
}

// The documented example config must stay loadable and valid.
func TestExampleConfigIsValid(t *testing.T) {
	cfg, err := server.LoadConfig(filepath.Join("..", "..", "docs", "lakesql-server.example.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
}
