// Package fileiotest is the conformance suite of the fileio.FileIO contract.
// Every implementation runs it from its own tests:
//
//	func TestConformance(t *testing.T) { fileiotest.Run(t, harness) }
//
// The suite includes the races the commit protocol relies on: goroutines
// racing PutIfAbsent on one path while readers poll it, and, for
// implementations shared between processes, separate OS processes racing.
package fileiotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
)

// Harness tells the suite how to obtain the FileIO under test.
type Harness struct {
	// New returns an empty FileIO and a root directory, in that FileIO's
	// path form, under which the suite creates every path. The suite calls
	// it once per subtest.
	New func(t *testing.T) (fsys fileio.FileIO, root string)
	// MultiProcess enables the race between OS processes. When it is nil
	// that subtest is skipped with NoMultiProcess as the reason.
	MultiProcess   *MultiProcess
	NoMultiProcess string
}

// Run runs the conformance suite against h, one subtest per property.
func Run(t *testing.T, h Harness) {
	for _, sub := range []struct {
		name string
		test func(*testing.T, Harness)
	}{
		{"RoundTrip", testRoundTrip},
		{"PutIfAbsentExisting", testPutIfAbsentExisting},
		{"StagedPut", testStagedPut},
		{"Overwrite", testOverwrite},
		{"OverwriteHint", testOverwriteHint},
		{"Stat", testStat},
		{"List", testList},
		{"ListFileNames", testListFileNames},
		{"Delete", testDelete},
		{"DeleteFiles", testDeleteFiles},
		{"OpenReadAt", testOpenReadAt},
		{"FileDirConflict", testFileDirConflict},
		{"CancelledContext", testCancelledContext},
		{"ConcurrentOverwrite", testConcurrentOverwrite},
		{"PutIfAbsentRace", testPutIfAbsentRace},
		{"MultiProcessPutIfAbsentRace", testMultiProcessRace},
	} {
		t.Run(sub.name, func(t *testing.T) { sub.test(t, h) })
	}
}

func testRoundTrip(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "db.db", "t", "snapshot", "snapshot-1")
	if exists, err := fileio.Exists(ctx, fsys, p); err != nil || exists {
		t.Fatalf("Exists before the put = %v, %v; want false, nil", exists, err)
	}
	data := []byte(`{"id":1}`)
	mustPut(t, fsys, p, data)
	// The FileIO must own its copy: a caller reusing its buffer changes
	// nothing stored.
	data[0] = 'X'
	expectContent(t, fsys, p, []byte(`{"id":1}`))

	empty := path.Join(root, "empty")
	mustPut(t, fsys, empty, nil)
	expectContent(t, fsys, empty, []byte{})

	_, err := fsys.ReadFile(ctx, path.Join(root, "missing"))
	expectErrorIs(t, "ReadFile of a missing path", err, fileio.ErrNotExist)
}

func testPutIfAbsentExisting(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "snapshot-1")
	mustPut(t, fsys, p, []byte("first"))
	err := fsys.PutIfAbsent(ctx, p, []byte("second"))
	expectErrorIs(t, "PutIfAbsent of an existing path", err, fileio.ErrExist)
	expectContent(t, fsys, p, []byte("first"))

	hint := path.Join(root, "LATEST")
	if err := fsys.Overwrite(ctx, hint, []byte("1")); err != nil {
		t.Fatal(err)
	}
	err = fsys.PutIfAbsent(ctx, hint, []byte("2"))
	expectErrorIs(t, "PutIfAbsent of an overwritten path", err, fileio.ErrExist)
	expectContent(t, fsys, hint, []byte("1"))
}

// testStagedPut checks fileio.StagePut, with the FileIO's Stager if it
// has one: nothing is visible at the path before Put, Put is PutIfAbsent,
// and a discarded or failed staged put leaves nothing behind.
func testStagedPut(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	stage := func(p, content string) fileio.Staged {
		t.Helper()
		s, err := fileio.StagePut(ctx, fsys, p, []byte(content))
		if err != nil {
			t.Fatalf("StagePut(%s): %v", p, err)
		}
		return s
	}
	won, lost, discarded, cancelled := path.Join(root, "won"), path.Join(root, "lost"), path.Join(root, "discarded"), path.Join(root, "cancelled")

	s := stage(won, "staged")
	if exists, err := fileio.Exists(ctx, fsys, won); err != nil || exists {
		t.Fatalf("Exists of a staged path before Put = %v, %v; want false, nil", exists, err)
	}
	if err := s.Put(ctx); err != nil {
		t.Fatalf("Put: %v", err)
	}
	expectContent(t, fsys, won, []byte("staged"))

	s = stage(lost, "late")
	mustPut(t, fsys, lost, []byte("first"))
	expectErrorIs(t, "Put of a path put since staging", s.Put(ctx), fileio.ErrExist)
	expectContent(t, fsys, lost, []byte("first"))

	stage(discarded, "x").Discard()
	s = stage(cancelled, "x")
	done, cancel := context.WithCancel(ctx)
	cancel()
	expectErrorIs(t, "Put with a cancelled context", s.Put(done), context.Canceled)
	expectListing(t, fsys, root, []fileio.FileInfo{{Path: lost, Size: 5}, {Path: won, Size: 6}})
}

func testOverwrite(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "snapshot", "LATEST")
	for _, content := range []string{"10", "9999", "7", ""} {
		if err := fsys.Overwrite(ctx, p, []byte(content)); err != nil {
			t.Fatalf("Overwrite(%q): %v", content, err)
		}
		// Shorter content after longer content checks that nothing of the
		// old version survives the replacement.
		expectContent(t, fsys, p, []byte(content))
	}
	created := path.Join(root, "created")
	mustPut(t, fsys, created, []byte("by put"))
	if err := fsys.Overwrite(ctx, created, []byte("by overwrite")); err != nil {
		t.Fatal(err)
	}
	expectContent(t, fsys, created, []byte("by overwrite"))
}

// testOverwriteHint checks the visible behaviour of fileio.HintWriter,
// which is Overwrite's, and that fileio.OverwriteHint falls back to
// Overwrite for a FileIO without it. Durability is not checked: it is the
// property a hint write may lack.
func testOverwriteHint(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "branch", "commit-user", "writer")
	for _, content := range []string{"10", "9999", "7", ""} {
		if err := fileio.OverwriteHint(ctx, fsys, p, []byte(content)); err != nil {
			t.Fatalf("OverwriteHint(%q): %v", content, err)
		}
		expectContent(t, fsys, p, []byte(content))
	}
	hw, ok := fsys.(fileio.HintWriter)
	if !ok {
		return
	}
	mustPut(t, fsys, path.Join(root, "file"), []byte("x"))
	if err := hw.OverwriteHint(ctx, path.Join(root, "file", "below"), []byte("y")); err == nil {
		t.Error("OverwriteHint below a file succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	expectErrorIs(t, "OverwriteHint", hw.OverwriteHint(cancelled, p, []byte("new")), context.Canceled)
	expectContent(t, fsys, p, nil)
}

func testStat(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	for _, size := range []int{0, 1, 4099} {
		p := path.Join(root, "dir", fmt.Sprintf("size-%d", size))
		mustPut(t, fsys, p, make([]byte, size))
		info, err := fsys.Stat(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Path != p || info.Size != int64(size) || info.IsDir {
			t.Errorf("Stat(%s) = %+v; want Path %s, Size %d, IsDir false", p, info, p, size)
		}
	}
	dir := path.Join(root, "dir")
	if info, err := fsys.Stat(ctx, dir); err != nil || !info.IsDir || info.Path != dir {
		t.Errorf("Stat of a directory = %+v, %v; want IsDir and Path %s", info, err, dir)
	}
	_, err := fsys.Stat(ctx, path.Join(root, "missing"))
	expectErrorIs(t, "Stat of a missing path", err, fileio.ErrNotExist)
}

func testList(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	dir := path.Join(root, "t")
	for i, name := range []string{"b", "sub/x", "a.txt", "B", "sub/deeper/y", "a", "_u"} {
		mustPut(t, fsys, path.Join(dir, name), make([]byte, i))
	}
	// Byte order: upper case, then '_', then lower case; a prefix first.
	expectListing(t, fsys, dir, []fileio.FileInfo{
		{Path: path.Join(dir, "B"), Size: 3},
		{Path: path.Join(dir, "_u"), Size: 6},
		{Path: path.Join(dir, "a"), Size: 5},
		{Path: path.Join(dir, "a.txt"), Size: 2},
		{Path: path.Join(dir, "b"), Size: 0},
		{Path: path.Join(dir, "sub"), IsDir: true},
	})
	expectListing(t, fsys, path.Join(dir, "sub"), []fileio.FileInfo{
		{Path: path.Join(dir, "sub", "deeper"), IsDir: true},
		{Path: path.Join(dir, "sub", "x"), Size: 1},
	})
	expectListing(t, fsys, path.Join(root, "never-written"), nil)
}

// testListFileNames checks fileio.ListFileNames, with the FileIO's
// FileNamesLister when it has one: the files, not the directories, of
// exactly one level, and nothing for a missing directory.
func testListFileNames(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	dir := path.Join(root, "snapshot")
	for _, name := range []string{"snapshot-2", "LATEST", "snapshot-10", "sub/snapshot-3", "snapshot-1"} {
		mustPut(t, fsys, path.Join(dir, name), []byte("x"))
	}
	names, err := fileio.ListFileNames(ctx, fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	if want := []string{"LATEST", "snapshot-1", "snapshot-10", "snapshot-2"}; !slices.Equal(names, want) {
		t.Errorf("ListFileNames = %q, want %q", names, want)
	}
	names, err = fileio.ListFileNames(ctx, fsys, path.Join(root, "never-written"))
	if err != nil || len(names) != 0 {
		t.Errorf("ListFileNames of a missing directory = %q, %v; want nothing", names, err)
	}
}

func testDelete(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "snapshot", "snapshot-1")
	kept := path.Join(root, "snapshot", "snapshot-2")
	mustPut(t, fsys, p, []byte("1"))
	mustPut(t, fsys, kept, []byte("2"))
	if err := fsys.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	_, err := fsys.ReadFile(ctx, p)
	expectErrorIs(t, "ReadFile of a deleted path", err, fileio.ErrNotExist)
	_, err = fsys.Stat(ctx, p)
	expectErrorIs(t, "Stat of a deleted path", err, fileio.ErrNotExist)
	expectListing(t, fsys, path.Join(root, "snapshot"), []fileio.FileInfo{{Path: kept, Size: 1}})

	err = fsys.Delete(ctx, p)
	expectErrorIs(t, "Delete of a deleted path", err, fileio.ErrNotExist)
	err = fsys.Delete(ctx, path.Join(root, "no-dir", "no-file"))
	expectErrorIs(t, "Delete in a missing directory", err, fileio.ErrNotExist)

	// A deleted name is free again, as expiry followed by a new commit needs.
	mustPut(t, fsys, p, []byte("again"))
	expectContent(t, fsys, p, []byte("again"))
}

// testDeleteFiles checks fileio.DeleteFiles, which uses the FileIO's
// FilesDeleter when it has one: every path goes, in several directories,
// a missing path counts as deleted, and other files stay.
func testDeleteFiles(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	kept := path.Join(root, "snapshot", "snapshot-9")
	mustPut(t, fsys, kept, []byte("9"))
	var gone []string
	for i := range 3 {
		for _, dir := range []string{"snapshot", "manifest"} {
			p := path.Join(root, dir, fmt.Sprintf("file-%d", i))
			mustPut(t, fsys, p, []byte("x"))
			gone = append(gone, p)
		}
	}
	if err := fileio.DeleteFiles(ctx, fsys, append(gone, path.Join(root, "manifest", "never-written"))); err != nil {
		t.Fatal(err)
	}
	for _, p := range gone {
		_, err := fsys.Stat(ctx, p)
		expectErrorIs(t, "Stat of a path DeleteFiles deleted", err, fileio.ErrNotExist)
	}
	expectListing(t, fsys, path.Join(root, "snapshot"), []fileio.FileInfo{{Path: kept, Size: 1}})
	if err := fileio.DeleteFiles(ctx, fsys, nil); err != nil {
		t.Errorf("DeleteFiles of no paths: %v", err)
	}
}

func testOpenReadAt(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	p := path.Join(root, "data-0.parquet")
	data := pattern(1<<20 + 17)
	mustPut(t, fsys, p, data)
	f, err := fsys.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) {
		t.Fatalf("Size() = %d, want %d", f.Size(), len(data))
	}
	size := len(data)
	ranges := [][2]int{{0, 10}, {size - 8, 8}, {size / 2, 4096}, {1, size - 1}}
	// io.ReaderAt allows parallel calls: Parquet reads column chunks so.
	var wg sync.WaitGroup
	for _, r := range ranges {
		wg.Go(func() { expectReadAt(t, f, data, r[0], r[1], nil) })
	}
	wg.Wait()
	expectReadAt(t, f, data, size-50, 100, io.EOF)
	expectReadAt(t, f, data, size, 1, io.EOF)

	_, err = fsys.Open(ctx, path.Join(root, "missing"))
	expectErrorIs(t, "Open of a missing path", err, fileio.ErrNotExist)
}

// testFileDirConflict checks the writes every disk refuses, so that a
// FileIO cannot reach a state (a file that is also a directory) that
// another FileIO could not store.
func testFileDirConflict(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	ctx := t.Context()
	dir := path.Join(root, "bucket-0")
	file := path.Join(dir, "data-0.orc")
	mustPut(t, fsys, file, []byte("x"))
	err := fsys.PutIfAbsent(ctx, dir, []byte("y"))
	expectErrorIs(t, "PutIfAbsent of a directory path", err, fileio.ErrExist)
	if err := fsys.Overwrite(ctx, dir, []byte("y")); err == nil {
		t.Error("Overwrite of a directory path succeeded")
	}
	if err := fsys.PutIfAbsent(ctx, path.Join(file, "below"), []byte("z")); err == nil {
		t.Error("PutIfAbsent below a file succeeded")
	}
	expectListing(t, fsys, dir, []fileio.FileInfo{{Path: file, Size: 1}})
}

func testCancelledContext(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	existing := path.Join(root, "existing")
	fresh := path.Join(root, "fresh")
	mustPut(t, fsys, existing, []byte("kept"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	_, err := fsys.ReadFile(ctx, existing)
	expectErrorIs(t, "ReadFile", err, context.Canceled)
	_, err = fsys.Open(ctx, existing)
	expectErrorIs(t, "Open", err, context.Canceled)
	_, err = fsys.Stat(ctx, existing)
	expectErrorIs(t, "Stat", err, context.Canceled)
	_, err = fsys.List(ctx, root)
	expectErrorIs(t, "List", err, context.Canceled)
	expectErrorIs(t, "Delete", fsys.Delete(ctx, existing), context.Canceled)
	expectErrorIs(t, "PutIfAbsent", fsys.PutIfAbsent(ctx, fresh, []byte("new")), context.Canceled)
	expectErrorIs(t, "Overwrite", fsys.Overwrite(ctx, existing, []byte("new")), context.Canceled)

	// A cancelled operation must not have happened.
	expectContent(t, fsys, existing, []byte("kept"))
	expectListing(t, fsys, root, []fileio.FileInfo{{Path: existing, Size: 4}})
}

func mustPut(t *testing.T, fsys fileio.FileIO, p string, data []byte) {
	t.Helper()
	if err := fsys.PutIfAbsent(t.Context(), p, data); err != nil {
		t.Fatalf("PutIfAbsent(%s): %v", p, err)
	}
}

func expectContent(t *testing.T, fsys fileio.FileIO, p string, want []byte) {
	t.Helper()
	got, err := fsys.ReadFile(t.Context(), p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("ReadFile(%s) = %q, want %q", p, truncate(got), truncate(want))
	}
}

func expectErrorIs(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one wrapping %v", what, err, target)
	}
}

// expectListing compares everything List reports except ModTime, which
// depends on the clock.
func expectListing(t *testing.T, fsys fileio.FileIO, dir string, want []fileio.FileInfo) {
	t.Helper()
	got, err := fsys.List(t.Context(), dir)
	if err != nil {
		t.Fatalf("List(%s): %v", dir, err)
	}
	for i := range got {
		got[i].ModTime = time.Time{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("List(%s) =\n%+v\nwant\n%+v", dir, got, want)
	}
}

// expectReadAt reads n bytes at off and checks them against data and the
// error against wantErr (io.EOF when the range runs past the end).
func expectReadAt(t *testing.T, f fileio.File, data []byte, off, n int, wantErr error) {
	t.Helper()
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, int64(off))
	wantN := min(n, len(data)-off)
	if got != wantN || !errors.Is(err, wantErr) || !bytes.Equal(buf[:got], data[off:off+wantN]) {
		t.Errorf("ReadAt(%d bytes at %d) = %d, %v; want %d bytes of the file, %v", n, off, got, err, wantN, wantErr)
	}
}

// pattern returns n bytes that differ from their neighbours, so that a read
// of the wrong range cannot pass for the right one.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + i/251)
	}
	return b
}

func truncate(b []byte) []byte {
	const limit = 64
	if len(b) > limit {
		return b[:limit]
	}
	return b
}
