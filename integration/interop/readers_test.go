//go:build interop

package interop

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// reader is one real Paimon reader running in batch mode: a long-lived
// process that answers one JSON command line with one JSON answer line, so
// a whole run starts one JVM (or Python) per reader.
type reader struct {
	name string
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	// stderr keeps what the process printed there, for a failure message.
	stderr strings.Builder
}

// answer is a reader's reply to one command.
type answer struct {
	Output string `json:"output"`
	Error  string `json:"error"`
}

// call runs one subcommand (dump, snapshots, systable, …) and returns its
// output, or the reader's error message as an error.
func (r *reader) call(args ...string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	if _, err := r.in.Write(append(line, '\n')); err != nil {
		return "", fmt.Errorf("%s: write command: %v (stderr: %s)", r.name, err, r.stderr.String())
	}
	reply, err := r.out.ReadBytes('\n')
	if err != nil {
		return "", fmt.Errorf("%s: read answer: %v (stderr: %s)", r.name, err, r.stderr.String())
	}
	var a answer
	if err := json.Unmarshal(reply, &a); err != nil {
		return "", fmt.Errorf("%s: answer %q: %v", r.name, reply, err)
	}
	if a.Error != "" {
		return "", fmt.Errorf("%s: %s", r.name, a.Error)
	}
	return a.Output, nil
}

func (r *reader) close() {
	r.in.Close()
	r.cmd.Wait()
}

func startReader(name string, argv ...string) (*reader, error) {
	r := &reader{name: name, cmd: exec.Command(argv[0], argv[1:]...)}
	r.cmd.Stderr = &lockedWriter{w: &r.stderr}
	in, err := r.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %v", name, err)
	}
	r.in, r.out = in, bufio.NewReaderSize(out, 1<<20)
	return r, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// javaVersions are the paimon-bundle versions the Java tool is built for
// (see .ci/interop); 2.0.0, which issue 14 names, is not published.
var javaVersions = []string{"1.4.2", "1.3.1"}

var (
	readersOnce sync.Once
	readers     []*reader
	readersErr  error
)

// allReaders starts every reader once per test binary. The Java tool's
// directory comes from LAKESQL_INTEROP_JAVA (default java/ next to this
// file) and pypaimon's Python from LAKESQL_INTEROP_PYTHON (default the venv
// .ci/interop makes).
func allReaders(t *testing.T) []*reader {
	t.Helper()
	readersOnce.Do(func() { readers, readersErr = startReaders() })
	if readersErr != nil {
		t.Fatalf("%v\n(run .ci/interop, which builds and installs the readers)", readersErr)
	}
	return readers
}

func startReaders() ([]*reader, error) {
	javaDir := os.Getenv("LAKESQL_INTEROP_JAVA")
	if javaDir == "" {
		javaDir, _ = filepath.Abs("java")
	}
	var rs []*reader
	for _, v := range javaVersions {
		dir := filepath.Join(javaDir, "target", "paimon-"+v)
		cp, err := os.ReadFile(filepath.Join(dir, "classpath.txt"))
		if err != nil {
			return nil, fmt.Errorf("java reader %s is not built: %v", v, err)
		}
		classpath := filepath.Join(dir, "paimon-interop.jar") + ":" + strings.TrimSpace(string(cp))
		// C1 only and the serial collector, as java/run.sh runs the tool.
		r, err := startReader("java-"+v, "java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath, "org.lakesql.interop.PaimonTool", "batch")
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	python := os.Getenv("LAKESQL_INTEROP_PYTHON")
	if python == "" {
		home, _ := os.UserHomeDir()
		python = filepath.Join(home, ".cache", "lakesql-interop", "venv-pypaimon-2.1.0", "bin", "python")
	}
	if _, err := os.Stat(python); err != nil {
		return nil, fmt.Errorf("pypaimon's python: %v", err)
	}
	script, _ := filepath.Abs(filepath.Join("pypaimon", "dump.py"))
	r, err := startReader("pypaimon-2.1.0", python, script, "batch")
	if err != nil {
		return nil, err
	}
	return append(rs, r), nil
}

// javaReaders are the readers that answer more than dump.
func javaReaders(rs []*reader) []*reader {
	var out []*reader
	for _, r := range rs {
		if strings.HasPrefix(r.name, "java-") {
			out = append(out, r)
		}
	}
	return out
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, r := range readers {
		r.close()
	}
	os.Exit(code)
}
