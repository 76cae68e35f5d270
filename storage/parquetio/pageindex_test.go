package parquetio

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// countingSource counts the bytes read from a file.
type countingSource struct {
	*bytes.Reader
	read int64
}

func (s *countingSource) ReadAt(p []byte, off int64) (int, error) {
	s.read += int64(len(p))
	return s.Reader.ReadAt(p, off)
}

func (s *countingSource) Size() int64 { return s.Reader.Size() }

// pagedFile is a file of several row groups whose columns, flat and
// nested, have pages of different boundaries (cut at 500 rows, and by
// size for the long texts), with nulls and a dictionary.
func pagedFile(t *testing.T) ([]byte, []spec.DataField, [][]any) {
	t.Helper()
	fields := []spec.DataField{
		{ID: 0, Name: "key", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "status", Type: typ(spec.VarChar, true)},
		{ID: 2, Name: "text", Type: typ(spec.VarChar, true)},
		{ID: 3, Name: "ints", Type: nullableArray(typ(spec.Int, true))},
	}
	rows := make([][]any, 20_000)
	for i := range rows {
		var text, ints any
		if i%7 != 0 {
			text = fmt.Sprintf("%0*d", 10+i%90, i)
		}
		if i%5 != 0 {
			ints = []any{int32(i), nil}
		}
		rows[i] = []any{int64(i), []any{"PAID", "OPEN", nil}[i%3], text, ints}
	}
	return writeFile(t, fields, rows, WriterOptions{PageRowLimit: 500, PageSize: 16 << 10, RowGroupSize: 64 << 10}), fields, rows
}

// TestRowRangesReadTheirRows: any row ranges read exactly their rows at
// their file positions, as rows and as vectors, reading only the pages
// that hold them, and the same rows when the offset indexes are missing
// and through a page cache, the pages decoded once and shared.
func TestRowRangesReadTheirRows(t *testing.T) {
	data, fields, rows := pagedFile(t)
	r, err := Open(bytes.NewReader(data), "ranges.parquet")
	if err != nil {
		t.Fatal(err)
	}
	groups := r.RowGroups()
	if len(groups) < 3 {
		t.Fatalf("%d row groups, want several", len(groups))
	}
	rnd := rand.New(rand.NewPCG(3, 5))
	cache := &mapPageCache{pages: map[PageCacheKey]*CachedPages{}}
	for round := range 200 {
		var ranges []RowRange
		for range 1 + rnd.IntN(3) {
			g := rnd.IntN(len(groups))
			from := rnd.Int64N(groups[g].NumRows)
			to := from + 1 + rnd.Int64N(min(groups[g].NumRows-from, 2_500))
			ranges = append(ranges, RowRange{Group: g, From: from, To: to})
		}
		src := &countingSource{Reader: bytes.NewReader(data)}
		ranged, err := Open(src, "ranges.parquet")
		if err != nil {
			t.Fatal(err)
		}
		if round%4 == 3 { // a file without offset indexes
			for g := range ranged.meta.RowGroups {
				for c := range ranged.meta.RowGroups[g].Columns {
					ranged.meta.RowGroups[g].Columns[c].OffsetIndexLength = 0
				}
			}
		}
		opened := src.read
		got, positions := readRanges(t, ranged, requestsOf(fields), ranges)
		want, wantPositions := rowsOfRanges(rows, groups, ranges)
		checkRows(t, got, want)
		if fmt.Sprint(positions) != fmt.Sprint(wantPositions) {
			t.Fatalf("ranges %v: positions %v, want %v", ranges, positions, wantPositions)
		}
		checkVectorRanges(t, ranged, fields, ranges, want, wantPositions)
		// Through the page cache, filling it and then served by it.
		ranged.CachePages(cache)
		for range 2 {
			got, _ := readRanges(t, ranged, requestsOf(fields), ranges)
			checkRows(t, got, want)
			checkVectorRanges(t, ranged, fields, ranges, want, wantPositions)
		}
		if round%4 != 3 && len(ranges) == 1 && ranges[0].To-ranges[0].From < 500 && src.read-opened > int64(len(data))/4 {
			t.Errorf("ranges %v read %d bytes of a %d-byte file", ranges, src.read-opened, len(data))
		}
	}
	if cache.hits == 0 {
		t.Fatal("no read was served by the page cache")
	}
}

// rowsOfRanges are the rows of a file, of the row groups given, that
// ranges select, and their file positions.
func rowsOfRanges(rows [][]any, groups []RowGroup, ranges []RowRange) ([][]any, []int64) {
	var want [][]any
	var positions []int64
	for _, rg := range ranges {
		for i := rg.From; i < rg.To; i++ {
			want = append(want, rows[groups[rg.Group].FirstRow+i])
			positions = append(positions, groups[rg.Group].FirstRow+i)
		}
	}
	return want, positions
}

// checkVectorRanges reads the flat columns of fields (all but the last)
// as vectors over ranges, in batches of 7 rows, and wants the rows (less
// their last column) at the positions given.
func checkVectorRanges(t *testing.T, r *Reader, fields []spec.DataField, ranges []RowRange, want [][]any, positions []int64) {
	t.Helper()
	flat := requestsOf(fields[:len(fields)-1])
	got, gotPositions, err := readVectorRanges(r, flat, ranges, 7)
	if err != nil {
		t.Fatal(err)
	}
	trimmed := make([][]any, len(want))
	for i, row := range want {
		trimmed[i] = row[:len(flat)]
	}
	checkRows(t, got, trimmed)
	if fmt.Sprint(gotPositions) != fmt.Sprint(positions) {
		t.Fatalf("ranges %v: vector positions %v, want %v", ranges, gotPositions, positions)
	}
}

func readRanges(t *testing.T, r *Reader, columns []ColumnRequest, ranges []RowRange) ([][]any, []int64) {
	t.Helper()
	it, err := r.NewRowRangeIterator(columns, ranges)
	if err != nil {
		t.Fatal(err)
	}
	return drainRows(t, it)
}

// TestPageStatsBoundTheirPages: each page's bounds hold the values of its
// rows, and a page of only nulls says so; the indexes come from the bytes
// Open read with the footer, without reading the file again.
func TestPageStatsBoundTheirPages(t *testing.T) {
	data, fields, rows := pagedFile(t)
	src := &countingSource{Reader: bytes.NewReader(data)}
	r, err := Open(src, "ranges.parquet")
	if err != nil {
		t.Fatal(err)
	}
	opened := src.read
	defer func() {
		if src.read != opened {
			t.Errorf("page statistics read %d bytes of the file", src.read-opened)
		}
	}()
	for g, group := range r.RowGroups() {
		for c, f := range fields[:3] {
			pages, ok, err := r.PageStats(g, ColumnRequest{Name: f.Name, Type: f.Type})
			if err != nil || !ok || len(pages) < 2 {
				t.Fatalf("group %d %s: %d pages, %v, %v", g, f.Name, len(pages), ok, err)
			}
			for p, page := range pages {
				end := group.NumRows
				if p+1 < len(pages) {
					end = pages[p+1].FirstRow
				}
				nulls := 0
				for i := page.FirstRow; i < end; i++ {
					v := rows[group.FirstRow+i][c]
					if v == nil {
						nulls++
						continue
					}
					if spec.CompareValues(f.Type, v, page.Min) < 0 || spec.CompareValues(f.Type, v, page.Max) > 0 {
						t.Fatalf("group %d %s page %d: %v outside [%v, %v]", g, f.Name, p, v, page.Min, page.Max)
					}
				}
				if page.OnlyNulls != (nulls == int(end-page.FirstRow)) {
					t.Errorf("group %d %s page %d: only nulls %v with %d of %d rows null", g, f.Name, p, page.OnlyNulls, nulls, end-page.FirstRow)
				}
			}
		}
	}
	if _, ok, _ := r.PageStats(0, ColumnRequest{Name: "ints", Type: fields[3].Type}); ok {
		t.Error("page stats of a nested column")
	}
}

// TestEmptyRowRangesReadNothing: a range of no rows, even one starting
// at a page boundary, reads nothing and is no error.
func TestEmptyRowRangesReadNothing(t *testing.T) {
	data, fields, rows := pagedFile(t)
	r, err := Open(bytes.NewReader(data), "ranges.parquet")
	if err != nil {
		t.Fatal(err)
	}
	ranges := []RowRange{{Group: 0, From: 500, To: 500}, {Group: 0, From: 0, To: 0}, {Group: 1, From: 3, To: 5}}
	got, positions := readRanges(t, r, requestsOf(fields), ranges)
	first := r.RowGroups()[1].FirstRow
	checkRows(t, got, rows[first+3:first+5])
	if len(positions) != 2 || positions[0] != first+3 {
		t.Errorf("positions %v, want %d and %d", positions, first+3, first+4)
	}
}

// mapPageCache is a PageCache that keeps every page.
type mapPageCache struct {
	mu    sync.Mutex
	pages map[PageCacheKey]*CachedPages
	hits  int
}

func (c *mapPageCache) Get(key PageCacheKey) (*CachedPages, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[key]
	if ok {
		c.hits++
	}
	return p, ok
}

func (c *mapPageCache) Put(key PageCacheKey, p *CachedPages) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pages[key] = p
}

// TestCachedPagesAreSharedSafely: readers in several goroutines read the
// same row ranges through one page cache, as rows and as vectors, and all
// get their rows (run with -race, this checks that cached pages are only
// read).
func TestCachedPagesAreSharedSafely(t *testing.T) {
	data, fields, rows := pagedFile(t)
	cache := &mapPageCache{pages: map[PageCacheKey]*CachedPages{}}
	ranges := []RowRange{{Group: 1, From: 10, To: 900}, {Group: 2, From: 333, To: 334}}
	groups := func() []RowGroup {
		r, err := Open(bytes.NewReader(data), "shared.parquet")
		if err != nil {
			t.Fatal(err)
		}
		return r.RowGroups()
	}()
	want, positions := rowsOfRanges(rows, groups, ranges)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			r, err := Open(bytes.NewReader(data), "shared.parquet")
			if err != nil {
				t.Error(err)
				return
			}
			r.CachePages(cache)
			for range 10 {
				got, _ := readRanges(t, r, requestsOf(fields), ranges)
				checkRows(t, got, want)
				checkVectorRanges(t, r, fields, ranges, want, positions)
			}
		})
	}
	wg.Wait()
	if cache.hits == 0 {
		t.Fatal("no read was served by the page cache")
	}
}
