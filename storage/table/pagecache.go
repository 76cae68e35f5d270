package table

import (
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/internal/bytelru"
	"github.com/lakesql/lakesql/storage/parquetio"
)

// PageCache is a bounded cache of decoded Parquet pages, which the tables
// of a server share (see parquetio.PageCache): the pages of row ranges
// that point and short range reads decode.
type PageCache struct {
	lru          *bytelru.Cache[parquetio.PageCacheKey, *parquetio.CachedPages]
	hits, misses atomic.Int64
}

// NewPageCache returns an empty cache of at most maxBytes of pages.
func NewPageCache(maxBytes int64) *PageCache {
	return &PageCache{lru: bytelru.New[parquetio.PageCacheKey](maxBytes, (*parquetio.CachedPages).MemorySize)}
}

// Get implements parquetio.PageCache.
func (c *PageCache) Get(key parquetio.PageCacheKey) (*parquetio.CachedPages, bool) {
	pages, ok := c.lru.Get(key)
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return pages, ok
}

// Put implements parquetio.PageCache.
func (c *PageCache) Put(key parquetio.PageCacheKey, pages *parquetio.CachedPages) {
	c.lru.Put(key, pages)
}

// PageCacheStats describes a PageCache's use since NewPageCache.
type PageCacheStats struct {
	Hits, Misses int64
	// Bytes is the size of the pages cached now.
	Bytes int64
}

// Stats returns the cache's counters and occupancy.
func (c *PageCache) Stats() PageCacheStats {
	return PageCacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Bytes: c.lru.Bytes()}
}

// SetPageCache has the reads of t keep the pages of row ranges in c (nil:
// none). Call it before t is shared.
func (t *Table) SetPageCache(c *PageCache) { t.pages = c }
