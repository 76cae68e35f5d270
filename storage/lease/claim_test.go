package lease

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestDecideClaim(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const ttl = time.Minute
	mine := &claimFile{Version: claimVersion, Holder: "me", TTLMs: ttl.Milliseconds()}
	theirs := &claimFile{Version: claimVersion, Holder: "them", TTLMs: ttl.Milliseconds()}
	theirsLong := &claimFile{Version: claimVersion, Holder: "them", TTLMs: (10 * time.Minute).Milliseconds()}
	unreadable := &claimFile{Owner: "an unreadable claim file"}
	cases := []struct {
		name  string
		found *claimFile
		age   time.Duration
		want  claimAction
	}{
		{"no claim", nil, 0, claimCreate},
		{"my fresh claim", mine, 10 * time.Second, claimKeep},
		{"my claim past a third of its life", mine, 21 * time.Second, claimRenew},
		{"my stale claim is still mine", mine, 2 * time.Minute, claimRenew},
		{"a live claim of another writer", theirs, 59 * time.Second, claimRefuse},
		{"a stale claim of another writer", theirs, 61 * time.Second, claimTakeOver},
		{"another writer's TTL decides, not mine", theirsLong, 5 * time.Minute, claimRefuse},
		{"an unreadable claim ages out by my TTL", unreadable, 61 * time.Second, claimTakeOver},
		{"an unreadable claim is respected until then", unreadable, 30 * time.Second, claimRefuse},
	}
	for _, c := range cases {
		if got := decideClaim(c.found, t0, t0.Add(c.age), "me", ttl); got != c.want {
			t.Errorf("%s: got action %d, want %d", c.name, got, c.want)
		}
	}
}

// TestClaims plays two servers' sessions claiming one commit user on one
// table: the second is refused while the first lives, takes the claim
// over once the first went quiet past the TTL, and then refuses the first.
func TestClaims(t *testing.T) {
	ctx := context.Background()
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	fs := &clockedFS{FileIO: memio.New(), now: clock, modTimes: map[string]time.Time{}}
	a := Claimant{Holder: "a", Owner: "session a", Now: clock}
	b := Claimant{Holder: "b", Owner: "session b", Now: clock}
	const table, user = "wh/db.db/t", "flink-cdc-pay"
	if err := a.Claim(ctx, fs, table, user); err != nil {
		t.Fatal(err)
	}
	if err := a.Claim(ctx, fs, table, user); err != nil {
		t.Fatalf("renewing my own claim: %v", err)
	}
	var claimed *ClaimedError
	err := b.Claim(ctx, fs, table, user)
	if !errors.As(err, &claimed) || claimed.Owner != "session a" || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("second claimant: %v, want refused naming session a", err)
	}
	if err := b.Claim(ctx, fs, table, "another-user"); err != nil {
		t.Fatalf("another user is free: %v", err)
	}
	offset.Add(int64(2 * ClaimTTL))
	if err := b.Claim(ctx, fs, table, user); err != nil {
		t.Fatalf("taking over a stale claim: %v", err)
	}
	if err := a.Claim(ctx, fs, table, user); !errors.As(err, &claimed) || claimed.Owner != "session b" {
		t.Fatalf("the first claimant after losing its claim: %v, want refused naming session b", err)
	}
	if err := a.Release(ctx, fs, table, user); err != nil {
		t.Fatal(err)
	}
	if err := a.Claim(ctx, fs, table, user); err == nil {
		t.Fatal("releasing a claim one does not hold deleted it")
	}
	if err := b.Release(ctx, fs, table, user); err != nil {
		t.Fatal(err)
	}
	if err := a.Claim(ctx, fs, table, user); err != nil {
		t.Fatalf("claiming a released user: %v", err)
	}
}

// TestClaimPathEscapesUser: any commit user names one file in the claims
// directory.
func TestClaimPathEscapesUser(t *testing.T) {
	if got, want := ClaimPath("t", "a/../b c"), "t/_lakesql/claims/a%2F..%2Fb%20c"; got != want {
		t.Fatalf("ClaimPath = %q, want %q", got, want)
	}
}

// clockedFS stamps the files it writes with a test clock, as a storage
// whose clock the claimants share would.
type clockedFS struct {
	fileio.FileIO
	now      func() time.Time
	mu       sync.Mutex
	modTimes map[string]time.Time
}

func (c *clockedFS) stamp(p string, err error) error {
	if err == nil {
		c.mu.Lock()
		c.modTimes[p] = c.now()
		c.mu.Unlock()
	}
	return err
}

func (c *clockedFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	return c.stamp(p, c.FileIO.PutIfAbsent(ctx, p, data))
}

func (c *clockedFS) Overwrite(ctx context.Context, p string, data []byte) error {
	return c.stamp(p, c.FileIO.Overwrite(ctx, p, data))
}

func (c *clockedFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	fi, err := c.FileIO.Stat(ctx, p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.modTimes[p]; ok && err == nil {
		fi.ModTime = t
	}
	return fi, err
}
