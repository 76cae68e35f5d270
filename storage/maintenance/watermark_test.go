package maintenance

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestWatermarkProgress(t *testing.T) {
	for _, tc := range []struct {
		watermark      *int64
		want           int64
		fromCommitTime bool
	}{
		{watermark: ptr(int64(500)), want: 500},
		{watermark: nil, want: 1234, fromCommitTime: true},
		{watermark: ptr(int64(math.MinInt64)), want: 1234, fromCommitTime: true},
	} {
		got, fromCommitTime := watermarkProgress(&spec.Snapshot{TimeMillis: 1234, Watermark: tc.watermark})
		if got != tc.want || fromCommitTime != tc.fromCommitTime {
			t.Errorf("watermark %v: progress %d (commit time %v), want %d (%v)", tc.watermark, got, fromCommitTime, tc.want, tc.fromCommitTime)
		}
	}
}

// watermarkFixture has one commit with watermark 1000.
func watermarkFixture(t *testing.T) *fixture {
	f := newFixture(t, pkTable)
	f.commit("w", commit.Request{Messages: f.prepare([][]any{row("d1", 1, "a")}, false), Watermark: ptr(int64(1000))})
	return f
}

func TestWaitWatermarkReached(t *testing.T) {
	f := watermarkFixture(t)
	id, err := WaitWatermark(context.Background(), f.FS, f.Dir, 1000, WaitOptions{Now: f.clock.Now,
		Sleep: func(context.Context, time.Duration) error {
			t.Fatal("slept although the watermark was reached")
			return nil
		}})
	if err != nil || id != 1 {
		t.Fatalf("got %d, %v; want snapshot 1", id, err)
	}
}

// TestWaitWatermarkWaitsForCommit: the gate opens on the commit that
// carries the watermark past the value.
func TestWaitWatermarkWaitsForCommit(t *testing.T) {
	f := watermarkFixture(t)
	sleeps := 0
	sleep := func(_ context.Context, d time.Duration) error {
		sleeps++
		if d != time.Second {
			t.Errorf("slept %v, want the poll interval", d)
		}
		f.clock.Advance(d)
		switch sleeps {
		case 2: // not enough yet
			f.commit("w", commit.Request{Messages: f.prepare([][]any{row("d1", 2, "b")}, false), Watermark: ptr(int64(1500))})
		case 3:
			f.commit("w", commit.Request{Messages: f.prepare([][]any{row("d1", 3, "c")}, false), Watermark: ptr(int64(2500))})
		}
		return nil
	}
	// Each commit moves the clock a minute: the timeout leaves room for them.
	id, err := WaitWatermark(context.Background(), f.FS, f.Dir, 2000, WaitOptions{Timeout: time.Hour, PollInterval: time.Second,
		Now: f.clock.Now, Sleep: sleep})
	if err != nil || id != 3 || sleeps != 3 {
		t.Fatalf("got %d, %v after %d sleeps; want snapshot 3 after 3", id, err, sleeps)
	}
}

func TestWaitWatermarkTimeout(t *testing.T) {
	f := watermarkFixture(t)
	sleep := func(_ context.Context, d time.Duration) error { f.clock.Advance(d); return nil }
	_, err := WaitWatermark(context.Background(), f.FS, f.Dir, 5000, WaitOptions{Timeout: 10 * time.Second,
		PollInterval: 3 * time.Second, Now: f.clock.Now, Sleep: sleep})
	var timeout *WatermarkTimeoutError
	if !errors.As(err, &timeout) || !errors.Is(err, ErrWatermarkTimeout) {
		t.Fatalf("got %v, want a watermark timeout", err)
	}
	if timeout.Latest != 1 || timeout.Progress != 1000 || timeout.FromCommitTime ||
		!strings.Contains(err.Error(), "latest snapshot 1 has watermark 1000") {
		t.Fatalf("timeout %+v: %v", timeout, err)
	}
	if elapsed := f.clock.Now().Sub(t0.Add(time.Minute)); elapsed != 10*time.Second {
		t.Fatalf("gave up after %v, want exactly the 10s timeout", elapsed)
	}
}

func TestWaitWatermarkCommitTimeAndEmptyTable(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	sleep := func(_ context.Context, d time.Duration) error { f.clock.Advance(d); return nil }
	_, err := WaitWatermark(ctx, f.FS, f.Dir, 1, WaitOptions{Timeout: time.Second, Now: f.clock.Now, Sleep: sleep})
	if !errors.Is(err, ErrWatermarkTimeout) || !strings.Contains(err.Error(), "no snapshot") {
		t.Fatalf("empty table: %v", err)
	}
	f.insert("w", row("d1", 1, "a")) // no watermark: its commit time counts
	committed := f.clock.Now().UnixMilli()
	if id, err := WaitWatermark(ctx, f.FS, f.Dir, committed, WaitOptions{Now: f.clock.Now, Sleep: sleep}); err != nil || id != 1 {
		t.Fatalf("commit time %d: %d, %v", committed, id, err)
	}
	_, err = WaitWatermark(ctx, f.FS, f.Dir, committed+1, WaitOptions{Timeout: time.Second, Now: f.clock.Now, Sleep: sleep})
	if !strings.Contains(err.Error(), "commit time (it has no watermark)") {
		t.Fatalf("past the commit time: %v", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := WaitWatermark(canceled, f.FS, f.Dir, committed+1, WaitOptions{Now: f.clock.Now}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled wait: %v", err)
	}
	if _, err := WaitWatermark(ctx, f.FS, f.Dir, 1, WaitOptions{Timeout: -time.Second}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative timeout: %v", err)
	}
}
