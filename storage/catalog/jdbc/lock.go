package jdbc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/catalog/tablelock"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ErrLockTimeout is returned when the catalog lock of a table could not
// be acquired within lock-acquire-timeout: another writer held it. Nothing
// was published, so the work can be retried.
var ErrLockTimeout = fmt.Errorf("catalog lock wait timeout: %w", lakeerr.ErrRetryableConflict)

// Backoff between tries, as JdbcCatalogLock.lock: 100 ms doubling up to
// lock-check-max-sleep.
const firstLockSleep = 50 * time.Millisecond

// releaseAttempts and releaseTimeout bound the deletion of a lock row; a
// row left behind blocks every writer of the table until it is older
// than lock-acquire-timeout.
const (
	releaseAttempts = 3
	releaseTimeout  = 10 * time.Second
)

var _ tablelock.Locker = (*Catalog)(nil)

// LockID is the lock's primary key, as JdbcCatalogLock.runWithLock forms it.
func (c *Catalog) LockID(t tablelock.Target) string {
	return fmt.Sprintf("%s.%s.%s", c.opts.CatalogKey, t.Database, t.Object)
}

// RunWithLock is JdbcCatalogLock.runWithLock: fn runs while this process
// holds the table's row of paimon_distributed_locks. The row is deleted
// afterwards even if ctx was cancelled meanwhile.
func (c *Catalog) RunWithLock(ctx context.Context, t tablelock.Target, fn func(context.Context) error) error {
	if !c.opts.LockEnabled {
		return fn(ctx)
	}
	id := c.LockID(t)
	if len(id) > c.opts.LockKeyMaxLength {
		return fmt.Errorf("%s: lock id %q is longer than lock-key-max-length %d", c, id, c.opts.LockKeyMaxLength)
	}
	holder := c.holder(id)
	holder.Lock()
	defer holder.Unlock()
	if err := c.acquire(ctx, id); err != nil {
		return err
	}
	defer c.release(context.WithoutCancel(ctx), id)
	return fn(ctx)
}

func (c *Catalog) holder(id string) *sync.Mutex {
	m, _ := c.holders.LoadOrStore(id, &sync.Mutex{})
	return m.(*sync.Mutex)
}

// acquire tries until it holds the lock or lock-acquire-timeout passes.
func (c *Catalog) acquire(ctx context.Context, id string) error {
	start := c.now()
	sleep := firstLockSleep
	for {
		held, err := c.tryAcquire(ctx, id)
		if err != nil || held {
			return err
		}
		waited := c.now().Sub(start)
		if waited > c.opts.LockAcquireTimeout {
			return fmt.Errorf("%s: lock %q: %w after %v", c, id, ErrLockTimeout, waited.Round(time.Millisecond))
		}
		sleep = min(2*sleep, c.opts.LockCheckMaxSleep)
		if err := c.sleep(ctx, sleep); err != nil {
			return err
		}
	}
}

// tryAcquire is JdbcUtils.acquire: delete the row if it outlived its
// expiry (its holder died), then insert it. A duplicate key means another
// writer holds it; any other failure is returned, where Java would keep
// retrying until its timeout.
func (c *Catalog) tryAcquire(ctx context.Context, id string) (bool, error) {
	expired := `DELETE FROM paimon_distributed_locks WHERE ` + c.dialect.lockAgeOver + ` AND lock_id = ?`
	if _, err := c.exec(ctx, expired, id); err != nil {
		return false, c.wrap("clear expired lock "+id, err)
	}
	expireSeconds := c.opts.LockAcquireTimeout.Milliseconds() / 1000
	_, err := c.exec(ctx, `INSERT INTO paimon_distributed_locks (lock_id, expire_time_seconds) VALUES (?,?)`, id, expireSeconds)
	switch {
	case err == nil:
		return true, nil
	case c.dialect.uniqueViolation(err):
		return false, nil
	}
	return false, c.wrap("acquire lock "+id, err)
}

// release is JdbcUtils.release, retried: the work is done whatever
// happens here, so a failure is reported to releaseFailed, not returned.
func (c *Catalog) release(ctx context.Context, id string) {
	var errs []error
	for range releaseAttempts {
		attemptCtx, cancel := context.WithTimeout(ctx, releaseTimeout)
		_, err := c.exec(attemptCtx, `DELETE FROM paimon_distributed_locks WHERE lock_id = ?`, id)
		cancel()
		if err == nil {
			return
		}
		errs = append(errs, err)
	}
	c.releaseFailed(id, c.wrap("release lock "+id, errors.Join(errs...)))
}
