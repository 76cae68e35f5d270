package fileiotest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
)

// MultiProcess describes how helper processes reach the FileIO under test
// for the race between OS processes.
//
// The race re-executes the test binary once per racing process, running
// only HelperTest, a test of the calling package whose body is
//
//	fileiotest.RunHelper(t, harness)
type MultiProcess struct {
	HelperTest string
	// Open opens, in a helper process, the FileIO whose root Harness.New
	// returned in the parent.
	Open func(root string) (fileio.FileIO, error)
	// Processes race in each of Rounds rounds.
	Processes, Rounds int
}

// The parent passes a helper its assignment through the environment.
const (
	rootEnv   = "LAKESQL_FILEIOTEST_ROOT"
	pathEnv   = "LAKESQL_FILEIOTEST_PATH"
	writerEnv = "LAKESQL_FILEIOTEST_WRITER"
)

// A helper talks to the parent in lines carrying this prefix, since the test
// framework writes to the same stdout.
const (
	linePrefix = "fileiotest: "
	readyLine  = "ready"
	wonLine    = "won"
	existLine  = "exist"
)

func testMultiProcessRace(t *testing.T, h Harness) {
	mp := h.MultiProcess
	if mp == nil {
		t.Skip("multi-process race not supported: " + h.NoMultiProcess)
	}
	if mp.Processes < 2 || mp.Processes > maxWriters || mp.Rounds < 1 {
		t.Fatalf("MultiProcess asks for %d processes x %d rounds; want 2..%d processes, 1 round or more",
			mp.Processes, mp.Rounds, maxWriters)
	}
	fsys, root := h.New(t)
	for round := range mp.Rounds {
		p := path.Join(root, fmt.Sprintf("round-%d", round), "snapshot-1")
		winner := expectOneWinner(t, raceProcesses(t, mp, root, p))
		expectContent(t, fsys, p, payload(winner))
	}
}

// raceProcesses starts one helper per writer and lets them publish only
// once all are ready, so their PutIfAbsent calls overlap rather than run one
// after another as the processes start up.
func raceProcesses(t *testing.T, mp *MultiProcess, root, p string) []error {
	helpers := make([]*helper, mp.Processes)
	for i := range helpers {
		helpers[i] = startHelper(t, mp.HelperTest, root, p, i)
	}
	for _, hp := range helpers {
		if line := hp.nextLine(t); line != readyLine {
			hp.fail(t, fmt.Sprintf("said %q before being ready", line))
		}
	}
	for _, hp := range helpers {
		hp.stdin.Close()
	}
	results := make([]error, len(helpers))
	for i, hp := range helpers {
		results[i] = hp.result(t)
	}
	return results
}

// RunHelper is the body of MultiProcess.HelperTest. Run directly, as part of
// the package's tests, it skips; run by the race, it publishes its writer's
// payload and reports the outcome to the parent.
func RunHelper(t *testing.T, h Harness) {
	root, isHelper := os.LookupEnv(rootEnv)
	if !isHelper {
		t.Skip("helper process of the multi-process race in fileiotest.Run")
	}
	writer, err := strconv.Atoi(os.Getenv(writerEnv))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := h.MultiProcess.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	data := payload(writer)
	fmt.Println(linePrefix + readyLine)
	// The parent closes stdin once every helper is ready.
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		t.Fatal(err)
	}
	err = fsys.PutIfAbsent(t.Context(), os.Getenv(pathEnv), data)
	switch {
	case err == nil:
		fmt.Println(linePrefix + wonLine)
	case errors.Is(err, fileio.ErrExist):
		fmt.Println(linePrefix + existLine)
	default:
		fmt.Println(linePrefix + strings.ReplaceAll(err.Error(), "\n", " "))
	}
}

// helper is one racing process, seen from the parent.
type helper struct {
	writer int
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Scanner
	// output keeps every stdout line, for the failure message.
	output []string
	stderr bytes.Buffer
}

func startHelper(t *testing.T, helperTest, root, p string, writer int) *helper {
	t.Helper()
	testBinary, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), testBinary, "-test.run=^"+regexp.QuoteMeta(helperTest)+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), rootEnv+"="+root, pathEnv+"="+p, writerEnv+"="+strconv.Itoa(writer))
	hp := &helper{writer: writer, cmd: cmd}
	cmd.Stderr = &hp.stderr
	if hp.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	hp.stdout = bufio.NewScanner(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// On failure, t.Context() is cancelled first, which kills the helper;
	// Wait then reaps it.
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Wait()
		}
	})
	return hp
}

// nextLine returns the helper's next protocol line, without the prefix.
func (hp *helper) nextLine(t *testing.T) string {
	t.Helper()
	for hp.stdout.Scan() {
		line := hp.stdout.Text()
		hp.output = append(hp.output, line)
		if msg, ok := strings.CutPrefix(line, linePrefix); ok {
			return msg
		}
	}
	hp.fail(t, "ended its output early")
	return ""
}

// result reads the helper's outcome, waits for it to exit, and returns the
// outcome as the error its PutIfAbsent returned (ErrExist standing for any
// error wrapping it).
func (hp *helper) result(t *testing.T) error {
	t.Helper()
	outcome := hp.nextLine(t)
	for hp.stdout.Scan() {
		hp.output = append(hp.output, hp.stdout.Text())
	}
	if err := hp.cmd.Wait(); err != nil {
		hp.fail(t, "failed: "+err.Error())
	}
	switch outcome {
	case wonLine:
		return nil
	case existLine:
		return fileio.ErrExist
	default:
		return errors.New(outcome)
	}
}

// fail stops the helper, so that its stderr is complete, and fails the test.
func (hp *helper) fail(t *testing.T, what string) {
	t.Helper()
	if hp.cmd.ProcessState == nil {
		_ = hp.cmd.Process.Kill()
		_ = hp.cmd.Wait()
	}
	t.Fatalf("helper %d %s\nstdout:\n%s\nstderr:\n%s", hp.writer, what, strings.Join(hp.output, "\n"), hp.stderr.String())
}
