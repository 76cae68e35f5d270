// Package bytelru is the byte-bounded least-recently-used map the caching
// FileIO wrappers keep immutable file contents in.
package bytelru

import (
	"container/list"
	"sync"
)

// Cache maps paths to values of a cost in bytes, evicting the least
// recently used values while the total exceeds its bound. It is safe for
// concurrent use.
type Cache[V any] struct {
	maxBytes int64
	cost     func(V) int64

	mu    sync.Mutex
	bytes int64
	// lru holds *entry[V] values, most recently used first.
	lru   *list.List
	index map[string]*list.Element
}

type entry[V any] struct {
	path  string
	value V
	cost  int64
}

// New returns an empty cache of at most maxBytes, cost measuring a value.
func New[V any](maxBytes int64, cost func(V) int64) *Cache[V] {
	return &Cache[V]{maxBytes: maxBytes, cost: cost, lru: list.New(), index: map[string]*list.Element{}}
}

// Get returns the value of p and marks it used.
func (c *Cache[V]) Get(p string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[p]
	if !ok {
		var zero V
		return zero, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry[V]).value, true
}

// Put stores v as p's value, replacing any, unless v alone exceeds the
// bound; then it evicts until the total fits.
func (c *Cache[V]) Put(p string, v V) {
	cost := c.cost(v)
	if cost > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[p]; ok {
		c.remove(el)
	}
	c.index[p] = c.lru.PushFront(&entry[V]{path: p, value: v, cost: cost})
	c.bytes += cost
	for c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
}

// Remove drops p's value, if any.
func (c *Cache[V]) Remove(p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[p]; ok {
		c.remove(el)
	}
}

// Len is the number of values cached; Bytes their total cost.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.index)
}

func (c *Cache[V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

func (c *Cache[V]) remove(el *list.Element) {
	e := c.lru.Remove(el).(*entry[V])
	delete(c.index, e.path)
	c.bytes -= e.cost
}
