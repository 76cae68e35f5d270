package s3io

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
)

// forEachTarget runs test against gofakes3 and, when LAKESQL_S3_ENDPOINT
// is set, against versitygw.
func forEachTarget(t *testing.T, test func(t *testing.T, tg target)) {
	t.Run("gofakes3", func(t *testing.T) {
		tg, _ := fakeServer(t)
		test(t, tg)
	})
	t.Run("versitygw", func(t *testing.T) { test(t, versitygwServer(t)) })
}

// forEachServer is forEachTarget with an FS whose requests ft counts, and
// a root of the test's own.
func forEachServer(t *testing.T, test func(t *testing.T, f *FS, ft *faultTransport, root string)) {
	forEachTarget(t, func(t *testing.T, tg target) {
		ft := newFaultTransport()
		test(t, tg.openWith(t, tg.withTransport(ft)), ft, testRoot(t))
	})
}

func mustPut(t *testing.T, f *FS, p string, data []byte) {
	t.Helper()
	if err := f.PutIfAbsent(t.Context(), p, data); err != nil {
		t.Fatal(err)
	}
}

// pattern returns n bytes that differ from their neighbours, so that a
// read of the wrong range cannot pass for the right one.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31+i/251) ^ seed
	}
	return b
}

func TestFooterReadsCostOneRequest(t *testing.T) {
	forEachServer(t, func(t *testing.T, f *FS, ft *faultTransport, root string) {
		p := path.Join(root, "data-0.parquet")
		data := pattern(1<<20, 0)
		mustPut(t, f, p, data)
		ft.setIntercept(nil)
		file, err := f.Open(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		size := len(data)
		// A Parquet reader's first reads: the length and magic, then the
		// footer they locate.
		readAt(t, file, data, size-8, 8)
		readAt(t, file, data, size-8-20_000, 20_000)
		expectCount(t, ft, getObject, 1)
		readAt(t, file, data, 4, 100_000)
		// A range straddling the start of the cached tail is fetched whole.
		readAt(t, file, data, size-tailSize-10, 20)
		expectCount(t, ft, getObject, 3)
	})
}

func readAt(t *testing.T, f fileio.File, data []byte, off, n int) {
	t.Helper()
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, int64(off))
	if err != nil || got != n || !bytes.Equal(buf, data[off:off+n]) {
		t.Fatalf("ReadAt(%d bytes at %d) = %d, %v; want the file's bytes", n, off, got, err)
	}
}

func TestOpenSmallAndEmptyFiles(t *testing.T) {
	forEachServer(t, func(t *testing.T, f *FS, _ *faultTransport, root string) {
		for _, size := range []int{0, 1, 1000, tailSize, tailSize + 1} {
			p := path.Join(root, fmt.Sprintf("size-%d", size))
			data := pattern(size, 7)
			mustPut(t, f, p, data)
			file, err := f.Open(t.Context(), p)
			if err != nil {
				t.Fatalf("Open of %d bytes: %v", size, err)
			}
			if file.Size() != int64(size) {
				t.Errorf("Size() = %d, want %d", file.Size(), size)
			}
			got, err := io.ReadAll(io.NewSectionReader(file, 0, file.Size()+10))
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("reading all %d bytes: %d bytes, %v", size, len(got), err)
			}
			file.Close()
		}
	})
}

func TestListReadsEveryPage(t *testing.T) {
	forEachServer(t, func(t *testing.T, f *FS, ft *faultTransport, root string) {
		f.pageSize = 3
		var want []fileio.FileInfo
		for i := range 8 {
			p := path.Join(root, fmt.Sprintf("f-%02d", i))
			mustPut(t, f, p, make([]byte, i))
			want = append(want, fileio.FileInfo{Path: p, Size: int64(i)})
			dir := path.Join(root, fmt.Sprintf("d-%02d", i))
			// Two files per directory, so that a page may end inside one.
			mustPut(t, f, path.Join(dir, "a"), nil)
			mustPut(t, f, path.Join(dir, "b"), nil)
			want = append(want, fileio.FileInfo{Path: dir, IsDir: true})
		}
		slices.SortFunc(want, func(a, b fileio.FileInfo) int { return strings.Compare(a.Path, b.Path) })
		ft.setIntercept(nil)
		got, err := f.List(t.Context(), root)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i].ModTime = time.Time{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("List =\n%+v\nwant\n%+v", got, want)
		}
		if n := ft.count(listObjects); n < 16/3 {
			t.Errorf("%d list requests for 16 children in pages of 3", n)
		}
	})
}

// TestDirectoryVanishesWithItsLastFile: directories are implied by keys,
// as the catalog's drop expects of object stores.
func TestDirectoryVanishesWithItsLastFile(t *testing.T) {
	forEachServer(t, func(t *testing.T, f *FS, _ *faultTransport, root string) {
		ctx := t.Context()
		file := path.Join(root, "db.db", "t", "schema", "schema-0")
		mustPut(t, f, file, []byte("{}"))
		if err := f.Delete(ctx, file); err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{path.Join(root, "db.db", "t", "schema"), path.Join(root, "db.db")} {
			if _, err := f.Stat(ctx, dir); !errors.Is(err, fileio.ErrNotExist) {
				t.Errorf("Stat(%s) = %v, want ErrNotExist", dir, err)
			}
		}
		if infos, err := f.List(ctx, root); err != nil || len(infos) != 0 {
			t.Errorf("List(root) = %+v, %v; want nothing", infos, err)
		}
		// A file may now take the name of the vanished directory.
		mustPut(t, f, path.Join(root, "db.db", "t", "schema"), []byte("file"))
	})
}

func TestDeleteFilesInBatches(t *testing.T) {
	forEachServer(t, func(t *testing.T, f *FS, ft *faultTransport, root string) {
		f.deleteBatch = 10
		var paths []string
		for i := range 25 {
			p := path.Join(root, "orphans", fmt.Sprintf("data-%d", i))
			mustPut(t, f, p, []byte{byte(i)})
			paths = append(paths, p)
		}
		kept := path.Join(root, "orphans", "kept")
		mustPut(t, f, kept, []byte("k"))
		ft.setIntercept(nil)
		missing := path.Join(root, "orphans", "never-written")
		if err := f.DeleteFiles(t.Context(), append(paths, missing, paths[0])); err != nil {
			t.Fatal(err)
		}
		expectCount(t, ft, deleteObjects, 3)
		infos, err := f.List(t.Context(), path.Join(root, "orphans"))
		if err != nil || len(infos) != 1 || infos[0].Path != kept {
			t.Errorf("after DeleteFiles: %+v, %v; want only %s", infos, err, kept)
		}
	})
}

// TestReadOfReplacedFileFails: reads of an open file stay on the version
// Open saw. gofakes3 ignores If-Match on GET, so only versitygw runs it.
func TestReadOfReplacedFileFails(t *testing.T) {
	tg := versitygwServer(t)
	f := tg.open(t)
	ctx := t.Context()
	p := path.Join(testRoot(t), "LATEST")
	data := pattern(1<<20, 1)
	if err := f.Overwrite(ctx, p, data); err != nil {
		t.Fatal(err)
	}
	file, err := f.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if err := f.Overwrite(ctx, p, pattern(1<<20, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := file.ReadAt(make([]byte, 100), 0); !isPreconditionFailed(err) {
		t.Errorf("ReadAt of a replaced file = %v, want S3's 412", err)
	}
}
