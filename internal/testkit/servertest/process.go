package servertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/server"
)

// Process is a `lakesql serve` OS process: what a benchmark measures of
// the server alone (its resident set), apart from the clients driving it.
type Process struct {
	// Addr is the loopback address the process listens on.
	Addr string
	cmd  *exec.Cmd
	// stderr holds what the process logged, shown when it fails.
	stderr *bytes.Buffer
}

// StartProcess builds the lakesql command and serves cfg from a new
// process until the test ends; cfg.Listen should ask for port 0.
func StartProcess(t testing.TB, cfg server.Config) *Process {
	t.Helper()
	cmd, addr, stderr, err := Serve(BuildLakesql(t), WriteConfig(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	p := &Process{Addr: addr, cmd: cmd, stderr: stderr}
	t.Cleanup(func() { p.stop(t) })
	return p
}

// WriteConfig writes cfg, a server.Config or the JSON object of one, as
// a config file in a temporary directory of the test and returns its
// path.
func WriteConfig(t testing.TB, cfg any) string {
	t.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	configPath := filepath.Join(t.TempDir(), "lakesql.json")
	if err := os.WriteFile(configPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return configPath
}

// BuildLakesql builds the lakesql command into a temporary directory of
// the test and returns its path.
func BuildLakesql(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lakesql")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/lakesql/lakesql/cmd/lakesql").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Serve starts `bin serve --config configPath` and waits for the line
// giving its address. The process logs to stderr; the caller ends it.
func Serve(bin, configPath string) (cmd *exec.Cmd, addr string, stderr *bytes.Buffer, err error) {
	cmd = exec.Command(bin, "serve", "--config", configPath)
	stderr = &bytes.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", nil, err
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		_ = cmd.Wait()
		return nil, "", nil, fmt.Errorf("lakesql serve ended before listening: %s", stderr)
	}
	addr, ok := strings.CutPrefix(sc.Text(), "lakesql listening on ")
	if !ok {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, "", nil, fmt.Errorf("lakesql serve printed %q", sc.Text())
	}
	// Nothing else is printed on stdout; draining it keeps the process
	// from blocking should that change.
	go func() {
		for sc.Scan() {
		}
	}()
	return cmd, addr, stderr, nil
}

// stop ends the process as SIGTERM does for an operator, and fails the
// test if it does not shut down cleanly.
func (p *Process) stop(t testing.TB) {
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("signal lakesql serve: %v", err)
		return
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("lakesql serve: %v\n%s", err, p.stderr)
		}
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		t.Errorf("lakesql serve did not shut down in a minute\n%s", p.stderr)
	}
}

// Pid is the process's id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// ResidentBytes is VmRSS of process pid, from /proc.
func ResidentBytes(pid int) (int64, error) {
	status := fmt.Sprintf("/proc/%d/status", pid)
	data, err := os.ReadFile(status)
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		if len(fields) == 3 && fields[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in %s", status)
}
