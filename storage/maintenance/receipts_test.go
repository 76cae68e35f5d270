package maintenance

import (
	"context"
	"path"
	"testing"

	"github.com/lakesql/lakesql/storage/commit"
)

// TestRetryAfterExpiryWritesNothing: a writer's commit lands, its snapshot
// expires, and the writer (restarted, so with a new Committer) retries
// the same commit; it must find it landed and publish nothing. The
// receipt the commit wrote is removed first, as a crash loses that
// advisory write: only expiry's own receipt can answer.
func TestRetryAfterExpiryWritesNothing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	msgs := f.prepare([][]any{row("d1", 1, "a"), row("d2", 2, "b")}, false)
	if got := f.commit("a", commit.Request{Messages: msgs}); len(got) != 1 || got[0] != 1 {
		t.Fatalf("first commit published %v, want snapshot 1", got)
	}
	for i := range int64(5) {
		f.insert("b", row("d3", i, "x"))
	}
	if err := f.mem.Delete(ctx, path.Join(f.Dir, "commit-user", "a")); err != nil {
		t.Fatal(err)
	}
	res, err := ExpireSnapshots(ctx, f.FS, f.Dir, ExpireOptions{RetainMin: intp(2), OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
	if err != nil || res.Begin != 1 || res.End != 5 {
		t.Fatalf("expiry [%d, %d), %v; want [1, 5)", res.Begin, res.End, err)
	}
	retry, err := f.Committer(f.FS).Commit(ctx, commit.Request{CommitUser: "a", Identifier: 1, Messages: msgs})
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if !retry.AlreadyCommitted() || len(retry.Snapshots) != 0 {
		t.Fatalf("retry published %v (already committed in %d); want nothing", retry.Snapshots, retry.AlreadyCommittedIn)
	}
	if latest := f.LatestID(); latest != 6 {
		t.Fatalf("latest snapshot %d after the retry, want 6", latest)
	}
}
