package commit

import (
	"context"
	"fmt"
	"testing"
)

// TestNewestIdentifier: the newest identifier of a user is its receipt's
// or that of a snapshot published after it, and is still found when the
// receipt was lost.
func TestNewestIdentifier(t *testing.T) {
	h := newHarness(t, false)
	ctx := context.Background()
	for i, c := range []struct {
		user string
		id   int64
	}{{"job", 5}, {"other", 100}, {"job", 9}, {"other", 101}} {
		h.commit(Request{CommitUser: c.user, Identifier: c.id,
			Messages: []Message{h.appendMsg("2024-01-01", fileSpec{name: fmt.Sprintf("f%d", i), rows: 1})}})
	}
	newest := func() int64 {
		t.Helper()
		n, err := h.committer(nil).NewestIdentifier(ctx, "job")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := newest(); got != 9 {
		t.Fatalf("with the receipt: %d, want 9", got)
	}
	if err := h.mem.Delete(ctx, tableDir+"/commit-user/job"); err != nil {
		t.Fatal(err)
	}
	if got := newest(); got != 9 {
		t.Fatalf("without the receipt: %d, want 9", got)
	}
	if n, err := h.committer(nil).NewestIdentifier(ctx, "nobody"); err != nil || n != 0 {
		t.Fatalf("a user that never committed: %d, %v", n, err)
	}
}
