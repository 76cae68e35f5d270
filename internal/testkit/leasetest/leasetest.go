// Package leasetest builds the lease registries of the tests of the
// packages that take leases (storage/commit, write, compact, maintenance).
// storage/lease's own tests cannot import it (it imports storage/lease);
// they build their registry from clocktest and filetest, as this does.
package leasetest

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lakesql/lakesql/storage/lease"
)

// New returns a registry whose holders read now (the wall clock if nil),
// whose leases live ttl (lease.DefaultTTL if zero), and whose lease files
// are named <prefix>-1, <prefix>-2, … in every run, so that a test, a trace
// or a fault sweep finds a lease's I/O at the same names and steps.
func New(prefix string, now func() time.Time, ttl time.Duration) *lease.Registry {
	var n atomic.Int64
	return lease.NewRegistry(lease.Config{TTL: ttl, Now: now, NewUUID: func() string {
		return fmt.Sprintf("%s-%d", prefix, n.Add(1))
	}})
}
