package maintenance

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// Defaults of WaitOptions.
const (
	DefaultWaitTimeout      = time.Minute
	DefaultWaitPollInterval = 200 * time.Millisecond
)

// WaitOptions configures WaitWatermark.
type WaitOptions struct {
	// Timeout bounds the wait; 0 means DefaultWaitTimeout.
	Timeout time.Duration
	// PollInterval is the time between two reads of the latest snapshot;
	// 0 means DefaultWaitPollInterval.
	PollInterval time.Duration
	// Now and Sleep are the clock; defaults time.Now and a timer. Sleep
	// returns early with the context's error.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// WatermarkTimeoutError reports a WaitWatermark that gave up. It wraps
// ErrWatermarkTimeout.
type WatermarkTimeoutError struct {
	Want    int64
	Timeout time.Duration
	// Latest is the last snapshot read, 0 if the table had none; Progress
	// is its watermark, or its commit time when FromCommitTime is set.
	Latest         int64
	Progress       int64
	FromCommitTime bool
}

func (e *WatermarkTimeoutError) Error() string {
	if e.Latest == 0 {
		return fmt.Sprintf("watermark %d not reached after %v: the table has no snapshot", e.Want, e.Timeout)
	}
	what := "watermark"
	if e.FromCommitTime {
		what = "commit time (it has no watermark)"
	}
	return fmt.Sprintf("watermark %d not reached after %v: latest snapshot %d has %s %d", e.Want, e.Timeout, e.Latest, what, e.Progress)
}

// Unwrap returns ErrWatermarkTimeout.
func (e *WatermarkTimeoutError) Unwrap() error { return ErrWatermarkTimeout }

// WaitWatermark blocks until the latest snapshot's watermark, or its
// commit time (epoch milliseconds) when it has no watermark, is at least
// value, and returns that snapshot's id: the reconciliation gate, which
// tells a reader that every row up to value has been committed. It gives
// up after the timeout with a *WatermarkTimeoutError naming the latest
// progress it saw.
func WaitWatermark(ctx context.Context, fio fileio.FileIO, tableDir string, value int64, opts WaitOptions) (int64, error) {
	if opts.Timeout < 0 || opts.PollInterval < 0 {
		return 0, fmt.Errorf("wait watermark: negative timeout or poll interval: %w", ErrInvalidArgument)
	}
	timeout := cmp.Or(opts.Timeout, DefaultWaitTimeout)
	poll := cmp.Or(opts.PollInterval, DefaultWaitPollInterval)
	now := nowOrDefault(opts.Now)
	sleep := opts.Sleep
	if sleep == nil {
		sleep = sleepContext
	}
	snapshots := snapshot.NewManager(fio, tableDir, "")
	deadline := now().Add(timeout)
	timeoutErr := &WatermarkTimeoutError{Want: value, Timeout: timeout}
	for {
		latest, err := snapshots.Latest(ctx)
		if err != nil {
			return 0, err
		}
		if latest != nil {
			progress, fromCommitTime := watermarkProgress(latest)
			if progress >= value {
				return latest.ID, nil
			}
			timeoutErr.Latest, timeoutErr.Progress, timeoutErr.FromCommitTime = latest.ID, progress, fromCommitTime
		}
		remaining := deadline.Sub(now())
		if remaining <= 0 {
			return 0, timeoutErr
		}
		if err := sleep(ctx, min(poll, remaining)); err != nil {
			return 0, err
		}
	}
}

// watermarkProgress is how far a snapshot shows the table to be: its
// watermark, or its commit time when it has none (Java writers without a
// watermark leave it null or Long.MIN_VALUE).
func watermarkProgress(s *spec.Snapshot) (progress int64, fromCommitTime bool) {
	if s.Watermark != nil && *s.Watermark != math.MinInt64 {
		return *s.Watermark, false
	}
	return s.TimeMillis, true
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
