package scan

import (
	"container/list"
	"sync"

	"github.com/lakesql/lakesql/storage/spec"
)

// DefaultCacheEntries bounds a ManifestCache: the number of manifest
// entries (one per data file added or deleted) it keeps decoded, a few
// hundred bytes each.
const DefaultCacheEntries = 256 << 10

// ManifestCache keeps decoded manifests and manifest lists, which are
// immutable, by file name, evicting the least recently used beyond a
// budget of entries. One cache is shared by every plan of a table; it is
// safe for concurrent use. Callers must not modify what it returns.
type ManifestCache struct {
	mu       sync.Mutex
	capacity int
	size     int
	order    *list.List // front = most recently used
	items    map[string]*list.Element
}

type cacheItem struct {
	name    string
	weight  int
	entries []spec.ManifestEntry
	metas   []spec.ManifestFileMeta
}

// NewManifestCache returns a cache holding up to capacity entries;
// capacity <= 0 caches nothing.
func NewManifestCache(capacity int) *ManifestCache {
	return &ManifestCache{capacity: capacity, order: list.New(), items: map[string]*list.Element{}}
}

func (c *ManifestCache) get(name string) (*cacheItem, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[name]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheItem), true
}

func (c *ManifestCache) put(item *cacheItem) {
	if c == nil || item.weight > c.capacity {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[item.name]; ok {
		return
	}
	c.items[item.name] = c.order.PushFront(item)
	c.size += item.weight
	for c.size > c.capacity {
		last := c.order.Back()
		old := last.Value.(*cacheItem)
		c.order.Remove(last)
		delete(c.items, old.name)
		c.size -= old.weight
	}
}

// Len returns the number of files cached.
func (c *ManifestCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Entries returns the decoded manifest name, if cached. Callers must not
// modify it.
func (c *ManifestCache) Entries(name string) ([]spec.ManifestEntry, bool) {
	item, ok := c.get(name)
	if !ok {
		return nil, false
	}
	return item.entries, true
}

// AddEntries caches the decoded manifest name. It must hold exactly what
// the file holds (manifests are immutable), and neither the caller nor any
// later reader may modify it.
func (c *ManifestCache) AddEntries(name string, entries []spec.ManifestEntry) {
	c.put(&cacheItem{name: name, weight: len(entries), entries: entries})
}

// ManifestList returns the decoded manifest list name, if cached. Callers
// must not modify it.
func (c *ManifestCache) ManifestList(name string) ([]spec.ManifestFileMeta, bool) {
	item, ok := c.get(name)
	if !ok {
		return nil, false
	}
	return item.metas, true
}

// AddManifestList caches the decoded manifest list name, under the same
// rules as AddEntries.
func (c *ManifestCache) AddManifestList(name string, metas []spec.ManifestFileMeta) {
	c.put(&cacheItem{name: name, weight: len(metas), metas: metas})
}
