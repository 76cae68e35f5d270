// Package bytelru is the byte-bounded least-recently-used map that caches
// of immutable file contents use: the caching FileIO wrappers, and the
// decoded footers and pages of data files.
package bytelru

import (
	"container/list"
	"sync"
)

// Cache maps keys (paths, mostly) to values of a cost in bytes, evicting the least
// recently used values while the total exceeds its bound. It is safe for
// concurrent use.
type Cache[K comparable, V any] struct {
	maxBytes int64
	cost     func(V) int64

	mu    sync.Mutex
	bytes int64
	// lru holds *entry[K, V] values, most recently used first.
	lru   *list.List
	index map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key   K
	value V
	cost  int64
}

// New returns an empty cache of at most maxBytes, cost measuring a value.
func New[K comparable, V any](maxBytes int64, cost func(V) int64) *Cache[K, V] {
	return &Cache[K, V]{maxBytes: maxBytes, cost: cost, lru: list.New(), index: map[K]*list.Element{}}
}

// Get returns the value of p and marks it used.
func (c *Cache[K, V]) Get(p K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[p]
	if !ok {
		var zero V
		return zero, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry[K, V]).value, true
}

// Put stores v as p's value, replacing any, unless v alone exceeds the
// bound; then it evicts until the total fits.
func (c *Cache[K, V]) Put(p K, v V) {
	cost := c.cost(v)
	if cost > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[p]; ok {
		c.remove(el)
	}
	c.index[p] = c.lru.PushFront(&entry[K, V]{key: p, value: v, cost: cost})
	c.bytes += cost
	for c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
}

// Remove drops p's value, if any.
func (c *Cache[K, V]) Remove(p K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[p]; ok {
		c.remove(el)
	}
}

// Len is the number of values cached; Bytes their total cost.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.index)
}

func (c *Cache[K, V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

func (c *Cache[K, V]) remove(el *list.Element) {
	e := c.lru.Remove(el).(*entry[K, V])
	delete(c.index, e.key)
	c.bytes -= e.cost
}
