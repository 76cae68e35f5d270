package localio

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/fileiotest"
)

var harness = fileiotest.Harness{
	New: func(t *testing.T) (fileio.FileIO, string) { return New(), t.TempDir() },
	MultiProcess: &fileiotest.MultiProcess{
		HelperTest: "TestMultiProcessHelper",
		Open:       func(string) (fileio.FileIO, error) { return New(), nil },
		Processes:  8,
		Rounds:     4,
	},
}

func TestConformance(t *testing.T) { fileiotest.Run(t, harness) }

func TestMultiProcessHelper(t *testing.T) { fileiotest.RunHelper(t, harness) }

func TestLeftoverTempFileDoesNotBlockPut(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "snapshot-1")
	leftover := filepath.Join(dir, ".snapshot-1.3f2a1c64-7d0e-4c55-9a63-0d5b9c2f4e11.tmp")
	writeRaw(t, leftover, "torn")

	if err := New().PutIfAbsent(t.Context(), target, []byte("whole")); err != nil {
		t.Fatal(err)
	}
	expectRaw(t, target, "whole")
	// Another writer's leftover is not ours to remove: List reports it, and
	// IsTempName tells it from table files.
	expectRaw(t, leftover, "torn")
	infos, err := New().List(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var tableFiles []string
	for _, info := range infos {
		if !fileio.IsTempName(info.Path) {
			tableFiles = append(tableFiles, info.Path)
		}
	}
	if len(infos) != 2 || !slices.Equal(tableFiles, []string{target}) {
		t.Errorf("List = %+v; want the leftover and %s, only the latter a table file", infos, target)
	}
}

func TestStagedFileIsTempName(t *testing.T) {
	target := filepath.Join(t.TempDir(), "snapshot", "snapshot-1")
	tmp, err := stageTemp(target, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if !fileio.IsTempName(tmp) || filepath.Dir(tmp) != filepath.Dir(target) {
		t.Errorf("staged %s for %s; want a temp name in the same directory", tmp, target)
	}
	expectRaw(t, tmp, "x")
}

func TestWritesLeaveNoTempFile(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	target := filepath.Join(dir, "snapshot-1")
	hint := filepath.Join(dir, "LATEST")
	l := New()
	if err := l.PutIfAbsent(ctx, target, []byte("won")); err != nil {
		t.Fatal(err)
	}
	if err := l.PutIfAbsent(ctx, target, []byte("lost")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("second PutIfAbsent: %v, want ErrExist", err)
	}
	if err := l.Overwrite(ctx, hint, []byte("1")); err != nil {
		t.Fatal(err)
	}
	expectNames(t, dir, "LATEST", "snapshot-1")
}

func TestFailedPublishLeavesNoTempFile(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	occupied := filepath.Join(dir, "bucket-0")
	writeRaw(t, filepath.Join(occupied, "data-0"), "x")
	l := New()
	// Both fail at the publish step, after the temp file was staged.
	if err := l.PutIfAbsent(ctx, occupied, []byte("y")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("PutIfAbsent over a directory: %v, want ErrExist", err)
	}
	if err := l.Overwrite(ctx, occupied, []byte("y")); err == nil {
		t.Fatal("Overwrite over a directory succeeded")
	}
	expectNames(t, dir, "bucket-0")
}

func TestFailedStagingLeavesNoTarget(t *testing.T) {
	dir := t.TempDir()
	writeRaw(t, filepath.Join(dir, "not-a-dir"), "x")
	target := filepath.Join(dir, "not-a-dir", "snapshot", "snapshot-1")
	if err := New().PutIfAbsent(t.Context(), target, []byte("y")); err == nil {
		t.Fatal("PutIfAbsent below a file succeeded")
	}
	expectRaw(t, filepath.Join(dir, "not-a-dir"), "x")
	expectNames(t, dir, "not-a-dir")
}

func TestTempFileIsReadableByOthers(t *testing.T) {
	// Published files are links to the temp file, so they inherit its mode.
	target := filepath.Join(t.TempDir(), "snapshot-1")
	if err := New().PutIfAbsent(t.Context(), target, []byte("x")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm()&0o044 == 0 {
		t.Errorf("mode %v: group and others cannot read the file", info.Mode())
	}
}

func TestRelativePaths(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx := t.Context()
	l := New()
	if err := l.PutIfAbsent(ctx, filepath.Join("warehouse", "t", "schema-0"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	infos, err := l.List(ctx, filepath.Join("warehouse", "t"))
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Path != filepath.Join("warehouse", "t", "schema-0") {
		t.Errorf("List = %+v, want the one relative path warehouse/t/schema-0", infos)
	}
}

func writeRaw(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func expectRaw(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil || string(got) != want {
		t.Errorf("%s holds %q, %v; want %q", p, got, err, want)
	}
}

// expectNames checks the names in dir with the OS directly, so temp files
// are seen whatever List does with them.
func expectNames(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}
