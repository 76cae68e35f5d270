package commit

import (
	"context"
	"errors"
	"slices"
	"strings"
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

// A compaction that lost its inputs names the snapshot that deleted them,
// not the latest one, which after an inline writer's data part is its own
// APPEND; and says so when no snapshot since the writer's read did.
func TestDeletedFileConflictNamesTheDeleter(t *testing.T) {
	h := newHarness(t, false)
	setupForOverwrite(h)
	stale := compactionOfA(h).Messages[0] // planned on snapshot 3
	h.commit(compactionOfA(h))            // snapshot 4 replaces a1, a2
	h.commitFiles("other", 1, h.appendMsg("2024-01-02", fileSpec{name: "b2", rows: 1}))

	stale.NewFiles = []spec.DataFileMeta{h.file(fileSpec{name: "n1", rows: 4})}
	stale.CompactAfter = []spec.DataFileMeta{h.file(fileSpec{name: "c2", rows: 30, compacted: true})}
	h.placeFiles([]Message{stale})
	ce := compactConflict(t, h, Request{CommitUser: "inline", Identifier: 1, Messages: []Message{stale}, ReadSnapshotID: 3})
	if ce.BaseSnapshotID != 3 || ce.Conflicting.ID != 4 || ce.Conflicting.CommitUser != "compactor" || ce.Detail != "" {
		t.Fatalf("conflict %v; want read snapshot 3, conflicting snapshot 4 of the compactor", ce)
	}

	ghost := h.appendMsg("2024-01-02", fileSpec{name: "n2", rows: 1})
	ghost.CompactBefore = []spec.DataFileMeta{h.file(fileSpec{name: "never-committed", rows: 1})}
	ghost.CompactAfter = []spec.DataFileMeta{h.file(fileSpec{name: "c3", rows: 1, compacted: true})}
	h.placeFiles([]Message{ghost})
	ce = compactConflict(t, h, Request{CommitUser: "inline", Identifier: 2, Messages: []Message{ghost}, ReadSnapshotID: 6})
	if ce.Conflicting.ID != 7 || !strings.Contains(ce.Detail, "no snapshot after snapshot 6 deleted the named files") {
		t.Fatalf("conflict %v; want the latest snapshot 7, and a note that none deleted the file", ce)
	}
}

// compactConflict commits req and returns the conflict of its compact part.
func compactConflict(t *testing.T, h *harness, req Request) *ConflictError {
	t.Helper()
	_, err := h.committer(nil).Commit(context.Background(), req)
	var cpe *CompactPartError
	var ce *ConflictError
	if !errors.As(err, &cpe) || !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive {
		t.Fatalf("err = %v; want a CompactPartError wrapping DeletedFileNotLive", err)
	}
	return ce
}

func TestAttributeDeletedFilesNeedsTheWholeHistory(t *testing.T) {
	ce := &ConflictError{Kind: DeletedFileNotLive, BaseSnapshotID: 3, Conflicting: SnapshotRef{ID: 9}, Files: []string{"f"}}
	attributeDeletedFiles(ce, []SnapshotDelta{{Snapshot: SnapshotRef{ID: 4}}}, false)
	if ce.Conflicting.ID != 9 || ce.Detail != "" {
		t.Fatalf("partial history changed the report: %v", ce)
	}
}
