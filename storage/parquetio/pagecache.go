package parquetio

import (
	"errors"
	"io"

	"github.com/parquet-go/parquet-go"
)

// PageCache keeps decoded pages across reads, as ClickHouse's
// uncompressed cache does for short queries: a point read needs one row,
// but Parquet compresses and encodes a page of up to 20,000, so without
// the cache a server looking keys up again and again spends most of its
// time decompressing and decoding pages. Only the pages of row ranges are
// cached, never whole column chunks, so that scans do not flush the pages
// point reads keep. It must be safe for concurrent use.
type PageCache interface {
	Get(key PageCacheKey) (*CachedPages, bool)
	Put(key PageCacheKey, pages *CachedPages)
}

// PageCacheKey names the pages of a column chunk one read decoded: the
// data pages First to Last of the chunk's offset index, with the chunk's
// dictionary. A data file never changes under its name, and the size
// guards against a file of the same name in another warehouse.
type PageCacheKey struct {
	File           string
	Size           int64
	RowGroup, Leaf int
	First, Last    int
}

// CachedPages are the decoded data pages of one read of a column chunk's
// row range, their dictionary attached, which the readers that find them
// in a PageCache share read-only. The cache's reference keeps parquet-go
// from ever returning their buffers to its pools: each reader retains a
// page it is handed and releases it when done, as with pages it decodes.
type CachedPages struct {
	pages []parquet.Page
	size  int64
}

// MemorySize is the memory the pages and their dictionary hold.
func (c *CachedPages) MemorySize() int64 { return c.size }

// CachePages makes the reader keep and reuse the pages of row ranges in
// c; nil turns caching off.
func (r *Reader) CachePages(c PageCache) { r.pageCache = c }

// cachedRangePages returns the decoded pages of one range of a chunk
// from the cache, or on a miss decodes the decompressed pages readPages
// returns into it.
func (r *Reader) cachedRangePages(key PageCacheKey, start int64, readPages func() ([]byte, error)) (parquet.Pages, error) {
	cached, ok := r.pageCache.Get(key)
	if !ok {
		data, err := readPages()
		if err != nil {
			return nil, err
		}
		pages, err := r.decodedPagesAt(key.RowGroup, key.Leaf, start, data)
		if err != nil {
			return nil, err
		}
		if cached, err = decodeAll(pages); err != nil {
			return nil, err
		}
		r.pageCache.Put(key, cached)
	}
	return &pageList{pages: cached.pages}, nil
}

// decodeAll decodes every page of pages and closes them.
func decodeAll(pages parquet.Pages) (*CachedPages, error) {
	defer pages.Close()
	out := &CachedPages{}
	var dictionary parquet.Dictionary
	for {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			for _, p := range out.pages {
				parquet.Release(p)
			}
			return nil, err
		}
		out.pages = append(out.pages, page)
		out.size += page.Size()
		if d := page.Dictionary(); d != nil && d != dictionary {
			dictionary = d
			out.size += d.Page().Size()
		}
	}
}

// pageList serves cached pages, in order, as parquet.Pages.
type pageList struct {
	pages []parquet.Page
	next  int
}

func (l *pageList) ReadPage() (parquet.Page, error) {
	if l.next == len(l.pages) {
		return nil, io.EOF
	}
	page := l.pages[l.next]
	l.next++
	parquet.Retain(page)
	return page, nil
}

// SeekToRow is not needed: readers pass rows over with skipRows.
func (l *pageList) SeekToRow(int64) error {
	return errors.New("parquetio: cached pages are read in order")
}

func (l *pageList) Close() error { return nil }
