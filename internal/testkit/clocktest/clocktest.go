// Package clocktest is the settable clock storage, lease and procedure
// tests inject wherever the code under test reads the time, so that only
// the test moves time.
package clocktest

import (
	"context"
	"sync"
	"time"
)

// Clock is a time that changes only when the test changes it. It is safe
// for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time; pass the method where a func() time.Time is
// wanted.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Sleep advances the clock by d instead of waiting, for code that takes
// a sleep function (retry backoff), and reports whether ctx is done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.Advance(d)
	return ctx.Err()
}

// Tick advances the clock by step and returns the new time: pass it where
// every reading must differ from the last, as successive commits' times do.
func (c *Clock) Tick(step time.Duration) func() time.Time {
	return func() time.Time {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.now = c.now.Add(step)
		return c.now
	}
}
