package commit

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// An inline writer's request whose compaction lost to a compaction service:
// the data part lands first, so the error of the compact part comes
// wrapped in a CompactPartError, with the data part's snapshot in the
// Result. A request that only compacts, or whose data part fails, gets the
// bare error: no rows of it are in the table.
func TestCompactPartErrorOnlyAfterTheDataPartLanded(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	setupForOverwrite(h)
	staleCompaction := compactionOfA(h)
	h.commit(compactionOfA(h))

	m := staleCompaction.Messages[0]
	m.NewFiles = []spec.DataFileMeta{h.file(fileSpec{name: "n1", rows: 4})}
	m.CompactAfter = []spec.DataFileMeta{h.file(fileSpec{name: "c2", rows: 30, compacted: true})}
	h.placeFiles([]Message{m})
	res, err := h.committer(nil).Commit(ctx, Request{CommitUser: "inline", Identifier: 1, Messages: []Message{m}})
	var cpe *CompactPartError
	var ce *ConflictError
	if !errors.As(err, &cpe) || !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("err = %v; want a CompactPartError wrapping a terminal DeletedFileNotLive", err)
	}
	if cpe.Error() != ce.Error() || !slices.Equal(res.Snapshots, []int64{5}) {
		t.Fatalf("message %q, snapshots %v; want the conflict's message and the APPEND snapshot 5", cpe, res.Snapshots)
	}
	if view := inspect(t, h.mem); view.latest.CommitKind != spec.CommitKindAppend || !slices.Equal(view.live, []string{"b1", "c1", "n1"}) {
		t.Fatalf("snapshot %d (%s) holds %v; want the APPEND of n1 on the service's c1", view.latest.ID, view.latest.CommitKind, view.live)
	}

	_, err = h.committer(nil).Commit(ctx, Request{CommitUser: "service", Identifier: 1, Messages: staleCompaction.Messages})
	if !errors.As(err, &ce) || errors.As(err, &cpe) {
		t.Fatalf("compaction-only request: err = %v; want a bare ConflictError", err)
	}
	rewrite := h.appendMsg("2024-01-01", fileSpec{name: "n2", rows: 1})
	rewrite.DeletedFiles = []spec.DataFileMeta{h.file(fileSpec{name: "a1", rows: 10})}
	rewrite.CompactBefore = []spec.DataFileMeta{h.file(fileSpec{name: "n1", rows: 4})}
	rewrite.CompactAfter = []spec.DataFileMeta{h.file(fileSpec{name: "c3", rows: 4, compacted: true})}
	h.placeFiles([]Message{rewrite})
	_, err = h.committer(nil).Commit(ctx, Request{CommitUser: "rewriter", Identifier: 1, Messages: []Message{rewrite}})
	if !errors.As(err, &ce) || ce.CommitKind != spec.CommitKindOverwrite || errors.As(err, &cpe) {
		t.Fatalf("failed data part: err = %v; want the bare conflict of the OVERWRITE part", err)
	}
}
