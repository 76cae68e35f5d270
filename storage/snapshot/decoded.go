package snapshot

import (
	"bytes"
	"sync"

	"github.com/lakesql/lakesql/storage/spec"
)

// decodedCapacity bounds the snapshots a Manager keeps decoded: the pins
// of concurrent statements are mostly the latest one or two.
const decodedCapacity = 8

// decodedSnapshots keeps the decoding of the snapshot files a Manager read
// last, with their bytes: decoding the JSON of a snapshot costs tens of
// microseconds, a point select's whole planning budget, while comparing a
// file read back with the bytes it had costs next to nothing. It is safe
// for concurrent use.
type decodedSnapshots struct {
	mu    sync.Mutex
	items []decodedSnapshot
	next  int
}

type decodedSnapshot struct {
	id   int64
	data []byte
	snap *spec.Snapshot
}

// get returns a copy of the decoding of data, the content of snapshot id,
// if it is kept.
func (d *decodedSnapshots) get(id int64, data []byte) (*spec.Snapshot, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, it := range d.items {
		if it.id == id && bytes.Equal(it.data, data) {
			return it.snap.Clone(), true
		}
	}
	return nil, false
}

// put keeps snap, decoded from data, replacing the oldest kept beyond
// decodedCapacity.
func (d *decodedSnapshots) put(id int64, data []byte, snap *spec.Snapshot) {
	d.mu.Lock()
	defer d.mu.Unlock()
	it := decodedSnapshot{id: id, data: bytes.Clone(data), snap: snap}
	if len(d.items) < decodedCapacity {
		d.items = append(d.items, it)
		return
	}
	d.items[d.next] = it
	d.next = (d.next + 1) % decodedCapacity
}
