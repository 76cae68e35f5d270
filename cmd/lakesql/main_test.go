package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestMain lets a test re-run this binary as the real lakesql command, so
// exit codes and stderr are checked as a user sees them.
func TestMain(m *testing.M) {
	if args := os.Getenv("LAKESQL_TEST_ARGS"); args != "" {
		os.Args = append([]string{"lakesql"}, strings.Split(args, "\x1f")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lakesql runs the command in a child process.
func lakesql(t *testing.T, args ...string) (stdout, stderr string, exitCode int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LAKESQL_TEST_ARGS="+strings.Join(args, "\x1f"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), 0
}

func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	sort.Strings(lines)
	return lines
}

func TestCatPrintsJSONRowsAtEachSnapshot(t *testing.T) {
	dir := fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor")
	out, stderr, code := lakesql(t, "cat", dir, "--snapshot", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := sortedLines(out)
	if len(lines) != 8 {
		t.Fatalf("snapshot 2 has %d rows, want 8 (9 written, Tony deleted):\n%s", len(lines), out)
	}
	if !strings.Contains(out, `{"f0":"Alice","f1":10,"f2":1,"f3":19.1}`) || strings.Contains(out, "Tony") {
		t.Errorf("snapshot 2 does not show Alice's update and Tony's delete:\n%s", out)
	}
	latest, _, _ := lakesql(t, "cat", dir)
	if strings.Contains(latest, `"Alex"`) || !strings.Contains(latest, `"Skye2"`) {
		t.Errorf("latest snapshot still has Alex or lacks Skye2:\n%s", latest)
	}
}

func TestCatByTimestampAndTag(t *testing.T) {
	dir := fixtures.Copy(t, fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"))
	// A tag is a snapshot file plus tag fields; a plain snapshot copy is
	// a valid tag.
	snap, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-1"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "tag", "tag-day1"), snap)
	byTag, stderr, code := lakesql(t, "cat", dir, "--tag", "day1")
	bySnapshot, _, _ := lakesql(t, "cat", "--snapshot", "1", dir)
	if code != 0 || byTag != bySnapshot {
		t.Fatalf("--tag day1 (exit %d, %s) differs from --snapshot 1", code, stderr)
	}
	// One millisecond before snapshot 2 was committed, snapshot 1 is the
	// latest.
	byTime, stderr, code := lakesql(t, "cat", dir, "--timestamp-ms", commitTime(t, dir, 2, -1))
	if code != 0 || byTime != bySnapshot {
		t.Fatalf("--timestamp-ms before snapshot 2 (exit %d, %s) differs from snapshot 1", code, stderr)
	}
}

func TestCatErrorsAreOneLineAndNameTheCause(t *testing.T) {
	corruptManifest := fixtures.Copy(t, fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"))
	manifest := filepath.Join(corruptManifest, "manifest", latestSnapshot(t, corruptManifest).BaseManifestList)
	truncate(t, manifest)
	corruptData := fixtures.Copy(t, fixtures.TableDir("paimon-java/append_complex_data"))
	truncateDataFiles(t, corruptData)
	geometry := fixtures.Copy(t, fixtures.TableDir("paimon-java/append_10"))
	replaceInFile(t, filepath.Join(geometry, "schema", "schema-0"), `"type" : "DOUBLE"`, `"type" : "GEOMETRY"`)
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"missing table", []string{"cat", "/nonexistent/t"}, []string{"/nonexistent/t"}},
		{"expired snapshot", []string{"cat", fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"), "--snapshot", "99"},
			[]string{"snapshot 99", "earliest 1"}},
		{"unknown tag", []string{"cat", fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"), "--tag", "x"}, []string{`tag "x"`}},
		{"corrupt manifest list", []string{"cat", corruptManifest}, []string{manifest, "corrupt"}},
		{"corrupt data file", []string{"cat", corruptData}, []string{corruptData, ".parquet", "corrupt"}},
		{"unsupported feature", []string{"cat", geometry}, []string{"unsupported: data type GEOMETRY"}},
		{"two selectors", []string{"cat", "x", "--snapshot", "1", "--tag", "t"}, []string{"at most one"}},
		{"bad snapshot id", []string{"cat", "x", "--snapshot", "0"}, []string{"positive"}},
		{"unknown command", []string{"frobnicate"}, []string{"unknown command"}},
	}
	for _, c := range cases {
		out, stderr, code := lakesql(t, c.args...)
		if code == 0 || out != "" {
			t.Errorf("%s: exit %d with output %q; want a failure", c.name, code, out)
		}
		first := strings.SplitN(stderr, "\n", 2)[0]
		for _, w := range c.want {
			if !strings.Contains(first, w) {
				t.Errorf("%s: first stderr line %q lacks %q", c.name, first, w)
			}
		}
		if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
			t.Errorf("%s: panicked:\n%s", c.name, stderr)
		}
	}
}

func TestInspectShowsSchemaSnapshotsAndFiles(t *testing.T) {
	var out bytes.Buffer
	dir := fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor")
	if err := run(context.Background(), []string{"inspect", dir}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"primary keys: f0, f1, f2", "option bucket = 2", "snapshots (5)",
		"18479097-2854-4748-982f-d277e140b4b4", "COMPACT", "live files of snapshot 5",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out.String())
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// truncate cuts a file to half its size.
func truncate(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, info.Size()/2); err != nil {
		t.Fatal(err)
	}
}

func truncateDataFiles(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			truncate(t, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readSnapshot(t *testing.T, dir string, id string) *spec.Snapshot {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-"+id))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.DecodeSnapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func latestSnapshot(t *testing.T, dir string) *spec.Snapshot {
	t.Helper()
	hint, err := os.ReadFile(filepath.Join(dir, "snapshot", "LATEST"))
	if err != nil {
		t.Fatal(err)
	}
	return readSnapshot(t, dir, strings.TrimSpace(string(hint)))
}

// commitTime returns snapshot id's commit time plus delta milliseconds.
func commitTime(t *testing.T, dir string, id int, delta int64) string {
	t.Helper()
	return strconv.FormatInt(readSnapshot(t, dir, strconv.Itoa(id)).TimeMillis+delta, 10)
}

// replaceInFile replaces old, which must occur, by new in the file at p.
func replaceInFile(t *testing.T, p, old, new string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s holds no %s", p, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each command's --help prints its usage and every flag with its
// description to stdout and succeeds.
func TestCommandHelpDescribesFlags(t *testing.T) {
	for command, flags := range map[string][]string{
		"serve":   {"-listen", "-warehouse", "-config", "-metrics-listen", "-catalog-option"},
		"compact": {"-warehouse", "-table", "-partitions", "-full", "-watch", "-interval"},
		"cat":     {"-snapshot", "-tag", "-timestamp-ms"},
	} {
		for _, help := range []string{"--help", "-h"} {
			var out bytes.Buffer
			if err := runHelping(context.Background(), []string{command, help}, &out); err != nil {
				t.Errorf("%s %s: %v, want the help and no error", command, help, err)
			}
			text := out.String()
			if !strings.Contains(text, "lakesql "+command) {
				t.Errorf("%s %s printed no usage:\n%s", command, help, text)
			}
			for _, f := range flags {
				if !strings.Contains(text, "  "+f+" ") && !strings.Contains(text, "  "+f+"\n") {
					t.Errorf("%s %s does not describe %s:\n%s", command, help, f, text)
				}
			}
		}
	}
}
