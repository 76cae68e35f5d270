package footercache

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestConformance(t *testing.T) {
	filetest.ConformanceOverMemory(t, func(inner fileio.FileIO) fileio.FileIO { return New(inner, 1<<20) })
}

// newCounted is a cache of maxBytes over a memio store whose reads and
// opens are counted.
func newCounted(maxBytes int64) (*FS, *filetest.CountingFS) {
	inner := filetest.NewCountingFS(memio.New())
	return New(inner, maxBytes), inner
}

// parquetShaped returns a file laid out like a Parquet file: a body, then
// a footer of footerSize bytes, its length and the magic. seed makes the
// bytes of different files differ.
func parquetShaped(bodySize, footerSize int, seed byte) []byte {
	data := make([]byte, bodySize+footerSize)
	for i := range data {
		data[i] = byte(i*7) ^ seed
	}
	data = binary.LittleEndian.AppendUint32(data, uint32(footerSize))
	return append(data, "PAR1"...)
}

func put(t *testing.T, fsys fileio.FileIO, p string, data []byte) {
	t.Helper()
	if err := fsys.PutIfAbsent(context.Background(), p, data); err != nil {
		t.Fatal(err)
	}
}

// readTail reads the last n bytes of f, as a Parquet reader does first.
func readTail(t *testing.T, f fileio.File, n int64) []byte {
	t.Helper()
	n = min(n, f.Size())
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, f.Size()-n); err != nil {
		t.Fatalf("reading the last %d bytes: %v", n, err)
	}
	return buf
}

// openAndReadFooter opens p through fsys and reads its tail the way the
// Parquet reader does: the bytes a cached file holds, else the last 64 KiB.
func openAndReadFooter(t *testing.T, fsys *FS, p string, size int64) (fileio.File, []byte) {
	t.Helper()
	f, err := fsys.OpenSized(context.Background(), p, size)
	if err != nil {
		t.Fatalf("OpenSized(%s, %d): %v", p, size, err)
	}
	first := int64(64 << 10)
	if m, ok := f.(interface{ MemoryTail() int64 }); ok {
		first = m.MemoryTail()
	}
	return f, readTail(t, f, first)
}

// TestSecondOpenServesFooterFromMemory checks the whole life of one
// footer: the first open reads the file and records its footer, the
// second serves the footer without opening the file, and opens it once
// when a page is read.
func TestSecondOpenServesFooterFromMemory(t *testing.T) {
	fsys, inner := newCounted(1 << 20)
	const p = "/w/db.db/t/bucket-0/data-1.parquet"
	data := parquetShaped(100_000, 3000, 1)
	size := int64(len(data))
	put(t, fsys, p, data)

	f, _ := openAndReadFooter(t, fsys, p, size)
	f.Close()
	if st := fsys.Stats(); st.Misses != 1 || st.Hits != 0 || st.Files != 1 || st.Bytes != 3008 {
		t.Fatalf("after the first open: %+v, want 1 miss and the 3008-byte footer cached", st)
	}

	f, footer := openAndReadFooter(t, fsys, p, size)
	defer f.Close()
	if !bytes.Equal(footer, data[len(data)-3008:]) {
		t.Fatal("the cached footer differs from the file's")
	}
	if st := fsys.Stats(); st.Hits != 1 || inner.Opens(p) != 1 {
		t.Fatalf("second open: %+v and %d opens of the file, want a hit and no new open", st, inner.Opens(p))
	}
	for _, off := range []int64{0, 50_000} {
		page := make([]byte, 1000)
		if _, err := f.ReadAt(page, off); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(page, data[off:off+1000]) {
			t.Fatalf("page at %d differs from the file's", off)
		}
	}
	if n := inner.Opens(p); n != 2 {
		t.Errorf("reading pages of the cached file opened it %d times in all, want 2 (once per open that read pages)", n)
	}
}

// TestReadAtSemanticsOfCachedFile checks io.ReaderAt's contract at and past
// the end of a file served from memory.
func TestReadAtSemanticsOfCachedFile(t *testing.T) {
	fsys, _ := newCounted(1 << 20)
	const p = "/w/t/data.parquet"
	data := parquetShaped(500, 100, 2)
	put(t, fsys, p, data)
	f, _ := openAndReadFooter(t, fsys, p, int64(len(data)))
	f.Close()
	f, _ = openAndReadFooter(t, fsys, p, int64(len(data)))
	defer f.Close()
	buf := make([]byte, 20)
	n, err := f.ReadAt(buf, int64(len(data))-10)
	if n != 10 || !errors.Is(err, io.EOF) || !bytes.Equal(buf[:n], data[len(data)-10:]) {
		t.Errorf("read past the end: %d bytes, %v; want the last 10 and io.EOF", n, err)
	}
	if n, err := f.ReadAt(buf, int64(len(data))); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("read at the end: %d bytes, %v; want 0 and io.EOF", n, err)
	}
	if _, err := f.ReadAt(buf, -1); err == nil {
		t.Error("read at a negative offset succeeded")
	}
}

// TestFooterBeyondFirstReadIsRecordedByTheSecond covers a footer larger
// than the reader's first guess: the reader reads the whole footer next,
// and that read records it.
func TestFooterBeyondFirstReadIsRecordedByTheSecond(t *testing.T) {
	fsys, _ := newCounted(1 << 20)
	const p = "/w/t/wide.parquet"
	data := parquetShaped(1000, 100_000, 3)
	put(t, fsys, p, data)
	f, err := fsys.OpenSized(context.Background(), p, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	readTail(t, f, 64<<10)
	if st := fsys.Stats(); st.Files != 0 {
		t.Fatalf("a read holding part of the footer cached %d bytes", st.Bytes)
	}
	readTail(t, f, 100_008)
	if st := fsys.Stats(); st.Files != 1 || st.Bytes != 100_008 {
		t.Errorf("after reading the whole footer: %+v, want it cached", st)
	}
}

// TestNeverServesFooterOfAnotherFile replaces a file by one of another size
// under the same name: a reader that knows the new size gets the new
// file's footer, and one still holding the old size fails when it reads
// a page instead of mixing the old footer with the new pages.
func TestNeverServesFooterOfAnotherFile(t *testing.T) {
	fsys, inner := newCounted(1 << 20)
	const p = "/w/t/data-x.parquet"
	old := parquetShaped(5000, 200, 4)
	put(t, fsys, p, old)
	f, _ := openAndReadFooter(t, fsys, p, int64(len(old)))
	f.Close()

	// Replaced behind the cache's back, as another process would.
	if err := inner.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	replacement := parquetShaped(6000, 300, 5)
	put(t, inner, p, replacement)

	f, footer := openAndReadFooter(t, fsys, p, int64(len(replacement)))
	f.Close()
	if !bytes.Equal(footer, replacement[len(replacement)-len(footer):]) {
		t.Fatal("opening with the new size served a footer other than the new file's")
	}
	if st := fsys.Stats(); st.Hits != 0 || st.Misses != 2 {
		t.Fatalf("%+v: the open with the new size was not a miss", st)
	}

	// The new footer replaced the old one; put the old one back, as a
	// stale open would have found it, to check the lazy open's size check.
	fsys.put(p, int64(len(old)), old[len(old)-208:])
	f, err := fsys.OpenSized(context.Background(), p, int64(len(old)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("reading a page of a file whose size changed: %v, want ErrCorruption", err)
	}
}

// TestDeleteDropsFooter checks that deleting a file through the cache
// drops its footer.
func TestDeleteDropsFooter(t *testing.T) {
	fsys, _ := newCounted(1 << 20)
	const p = "/w/t/data-d.parquet"
	data := parquetShaped(100, 50, 6)
	put(t, fsys, p, data)
	f, _ := openAndReadFooter(t, fsys, p, int64(len(data)))
	f.Close()
	if err := fsys.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if st := fsys.Stats(); st.Files != 0 || st.Bytes != 0 {
		t.Errorf("after Delete: %+v, want nothing cached", st)
	}
	if _, err := fsys.OpenSized(context.Background(), p, int64(len(data))); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("opening the deleted file: %v, want ErrNotExist", err)
	}
}

// TestEvictsLeastRecentlyUsedWithinBudget fills a cache of three footers'
// worth with more files, reopening the first all along: the budget holds,
// and the file in use survives while the others rotate.
func TestEvictsLeastRecentlyUsedWithinBudget(t *testing.T) {
	const footer = 1000
	fsys, inner := newCounted(3 * (footer + trailerSize))
	size := int64(len(parquetShaped(200, footer, 0)))
	name := func(i int) string { return fmt.Sprintf("/w/t/data-%d.parquet", i) }
	for i := range 10 {
		put(t, fsys, name(i), parquetShaped(200, footer, byte(i)))
	}
	for i := range 10 {
		f, _ := openAndReadFooter(t, fsys, name(i), size)
		f.Close()
		f, _ = openAndReadFooter(t, fsys, name(0), size)
		f.Close()
		if st := fsys.Stats(); st.Bytes > 3*(footer+trailerSize) || st.Files > 3 {
			t.Fatalf("after %d files: %+v exceeds the budget", i+1, st)
		}
	}
	if n := inner.Opens(name(0)); n != 1 {
		t.Errorf("the most recently used file was opened %d times, want once", n)
	}
	for i := 1; i < 8; i++ {
		if _, ok := fsys.get(name(i), size); ok {
			t.Errorf("%s is still cached, though 2 more recently used files fill the rest", name(i))
		}
	}
	for _, i := range []int{8, 9} {
		if _, ok := fsys.get(name(i), size); !ok {
			t.Errorf("%s, among the most recently used, was evicted", name(i))
		}
	}
}

func TestFootersOverBudgetOrOfOtherFilesAreNotCached(t *testing.T) {
	fsys, _ := newCounted(500)
	for p, data := range map[string][]byte{
		"/w/t/big.parquet": parquetShaped(100, 600, 7),
		"/w/t/data.orc":    bytes.Repeat([]byte("not parquet"), 10),
		"/w/t/tiny":        []byte("PAR1"),
	} {
		put(t, fsys, p, data)
		f, got := openAndReadFooter(t, fsys, p, int64(len(data)))
		f.Close()
		if !bytes.Equal(got, data) {
			t.Errorf("%s read back wrong", p)
		}
	}
	if st := fsys.Stats(); st.Files != 0 {
		t.Errorf("%+v: cached a footer over the budget or of a file that is not Parquet", st)
	}
}

func TestDisabledOrUnknownSizeOpensEveryTime(t *testing.T) {
	const p = "/w/t/data.parquet"
	data := parquetShaped(100, 50, 8)
	for _, tc := range []struct {
		maxBytes, size int64
	}{{0, int64(len(data))}, {1 << 20, 0}} {
		fsys, inner := newCounted(tc.maxBytes)
		put(t, fsys, p, data)
		for range 2 {
			f, got := openAndReadFooter(t, fsys, p, tc.size)
			f.Close()
			if !bytes.Equal(got, data) {
				t.Fatal("read back wrong")
			}
		}
		if st := fsys.Stats(); inner.Opens(p) != 2 || st != (Stats{}) {
			t.Errorf("max %d, size %d: %d opens and %+v, want 2 opens and an untouched cache",
				tc.maxBytes, tc.size, inner.Opens(p), st)
		}
	}
}

// TestOpenUsesSizedOpenerWhenThere checks the package-level Open on a
// FileIO with and without the capability.
func TestOpenUsesSizedOpenerWhenThere(t *testing.T) {
	const p = "/w/t/data.parquet"
	data := parquetShaped(100, 50, 9)
	fsys, _ := newCounted(1 << 20)
	put(t, fsys, p, data)
	for _, f := range []fileio.FileIO{fsys, fsys.FileIO} {
		file, err := Open(context.Background(), f, p, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got := readTail(t, file, 64<<10); !bytes.Equal(got, data) {
			t.Error("read back wrong")
		}
		file.Close()
	}
	if st := fsys.Stats(); st.Misses != 1 || st.Files != 1 {
		t.Errorf("%+v: want the one open through the cache to have cached the footer", st)
	}
}

// TestConcurrentReadersSeeTheirFiles runs readers of many files through a
// cache too small for them all, under -race: every read returns the
// bytes of the file it names, whether served from memory or the store.
func TestConcurrentReadersSeeTheirFiles(t *testing.T) {
	const files = 12
	fsys, _ := newCounted(4 * (300 + trailerSize))
	contents := make([][]byte, files)
	name := func(i int) string { return fmt.Sprintf("/w/t/data-%d.parquet", i) }
	for i := range files {
		contents[i] = parquetShaped(2000+i*10, 300, byte(i))
		put(t, fsys, name(i), contents[i])
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 200 {
				if err := readRandomly(fsys, rng, name, contents); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st := fsys.Stats(); st.Hits == 0 || st.Bytes > 4*(300+trailerSize) {
		t.Errorf("%+v: want some hits and the budget kept", st)
	}
}

// readRandomly opens a random file, reads its footer as a Parquet reader
// does, then a random range, and checks both against the file's bytes.
func readRandomly(fsys *FS, rng *rand.Rand, name func(int) string, contents [][]byte) error {
	i := rng.IntN(len(contents))
	data := contents[i]
	f, err := fsys.OpenSized(context.Background(), name(i), int64(len(data)))
	if err != nil {
		return err
	}
	defer f.Close()
	first := int64(64 << 10)
	if m, ok := f.(interface{ MemoryTail() int64 }); ok {
		first = m.MemoryTail()
	}
	first = min(first, int64(len(data)))
	tail := make([]byte, first)
	if _, err := f.ReadAt(tail, int64(len(data))-first); err != nil {
		return err
	}
	off := rng.IntN(len(data) - 1)
	page := make([]byte, rng.IntN(len(data)-off)+1)
	if _, err := f.ReadAt(page, int64(off)); err != nil {
		return err
	}
	if !bytes.Equal(tail, data[int64(len(data))-first:]) || !bytes.Equal(page, data[off:off+len(page)]) {
		return fmt.Errorf("%s: read bytes of another file", name(i))
	}
	return nil
}
