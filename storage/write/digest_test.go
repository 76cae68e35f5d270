package write

import (
	"context"
	"errors"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// requestDigest sums the content digests of messages, as a commit does.
func requestDigest(msgs []commit.Message) commit.Digest {
	var d commit.Digest
	for _, m := range msgs {
		d.Add(m.ContentDigest)
	}
	return d
}

// TestContentDigest: the digest of a commit is that of its rows and row
// kinds, whatever their order, their flushes or the writer; other rows,
// or the same row with another kind, give another digest.
func TestContentDigest(t *testing.T) {
	tt := accountsTable(t, nil)
	rows := []tabletest.Record{tabletest.Update("d1", int64(1), int64(5)), tabletest.Delete("d1", int64(2), int64(0)), tabletest.Insert("d2", int64(3), int64(7))}
	digestOf := func(records []tabletest.Record, flushAfterFirst bool) commit.Digest {
		w := tt.writer()
		var msgs []commit.Message
		for i, r := range records {
			tt.writeAll(w, []tabletest.Record{r})
			if flushAfterFirst && i == 0 {
				msgs = append(msgs, tt.prepare(w)...)
			}
		}
		return requestDigest(append(msgs, tt.prepare(w)...))
	}
	want := digestOf(rows, false)
	if want.IsZero() {
		t.Fatal("the writer computed no digest")
	}
	reversed := []tabletest.Record{rows[2], rows[1], rows[0]}
	if got := digestOf(reversed, true); got != want {
		t.Errorf("same rows in another order and flushes: %s, want %s", got, want)
	}
	for name, other := range map[string][]tabletest.Record{
		"another value":    {tabletest.Update("d1", int64(1), int64(6)), rows[1], rows[2]},
		"another row kind": {tabletest.Insert("d1", int64(1), int64(5)), rows[1], rows[2]},
		"a row fewer":      rows[:2],
		"a row twice":      append([]tabletest.Record{rows[0]}, rows...),
	} {
		if got := digestOf(other, false); got == want {
			t.Errorf("%s: same digest %s", name, got)
		}
	}
}

// TestCommitIdentityByContent commits rows under a user and identifier,
// then the same identifier again: with the same rows it is already
// committed; with other rows it is refused, never skipped.
func TestCommitIdentityByContent(t *testing.T) {
	tt := accountsTable(t, nil)
	commitRows := func(records []tabletest.Record) (commit.Result, error) {
		w := tt.writer()
		tt.writeAll(w, records)
		return tt.commitRequest(commit.Request{CommitUser: "fix-job", Identifier: 42, Messages: tt.prepare(w)})
	}
	first, err := commitRows([]tabletest.Record{tabletest.Insert("d1", int64(1), int64(10))})
	if err != nil || len(first.Snapshots) != 1 {
		t.Fatalf("first commit: %v, %v", first, err)
	}
	again, err := commitRows([]tabletest.Record{tabletest.Insert("d1", int64(1), int64(10))})
	if err != nil || !again.AlreadyCommitted() || again.AlreadyCommittedIn != first.Snapshots[0] {
		t.Fatalf("the same rows again: %v, %v; want already committed in snapshot %d", again, err, first.Snapshots[0])
	}
	_, err = commitRows([]tabletest.Record{tabletest.Insert("d1", int64(2), int64(20))})
	var ie *commit.IdentityError
	if !errors.As(err, &ie) || ie.Outcome != commit.OtherContent || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("other rows under the same identifier: %v, want an IdentityError of other content", err)
	}
	// Without the receipt (lost in a crash), the snapshot itself tells.
	if err := tt.FS.Delete(context.Background(), tt.Dir+"/commit-user/fix-job"); err != nil {
		t.Fatal(err)
	}
	if _, err = commitRows([]tabletest.Record{tabletest.Insert("d1", int64(3), int64(30))}); !errors.As(err, &ie) || ie.Outcome != commit.OtherContent {
		t.Fatalf("other rows, no receipt: %v, want an IdentityError of other content", err)
	}
	assertRows(t, "rows", tt.Read(), []string{"d1|1|10"})
}
