package commit

import (
	"context"
	"errors"
	"path"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestSharedCommitUserIsRefused(t *testing.T) {
	for _, withReceipt := range []bool{true, false} {
		h := newHarness(t, false)
		first, second := h.committer(nil), h.committer(nil)
		ctx := context.Background()
		if _, err := first.Commit(ctx, appendRequest(h, "job", 1, "f1")); err != nil {
			t.Fatal(err)
		}
		// The second writer starts after snapshot 1, which predates it.
		if _, err := second.Commit(ctx, appendRequest(h, "job", 2, "f2")); err != nil {
			t.Fatal(err)
		}
		if !withReceipt {
			if err := h.mem.Delete(ctx, tableDir+"/commit-user/job"); err != nil {
				t.Fatal(err)
			}
		}
		_, err := first.Commit(ctx, appendRequest(h, "job", 3, "f3"))
		var su *SharedUserError
		if !errors.As(err, &su) || !errors.Is(err, lakeerr.ErrTerminalConflict) {
			t.Fatalf("receipt %v: err = %v; want a terminal SharedUserError", withReceipt, err)
		}
		if su.CommitUser != "job" || su.Foreign.ID != 2 || su.Foreign.CommitIdentifier != 2 || su.Own != 1 {
			t.Fatalf("receipt %v: %+v; want snapshot 2 named as foreign and snapshot 1 as own", withReceipt, su)
		}
		if latest := inspect(t, h.mem).latest.ID; latest != 2 {
			t.Fatalf("receipt %v: latest snapshot %d; the refused commit must publish nothing", withReceipt, latest)
		}
	}
}

// A writer whose first call is a retry its receipt shows landed still
// reads the table then, so a rival of the same user that publishes
// afterwards is not taken for an earlier run of the writer.
func TestSharedUserAfterALandedRetryIsRefused(t *testing.T) {
	h := newHarness(t, false)
	ctx := context.Background()
	live, restarted := h.committer(nil), h.committer(nil)
	first := appendRequest(h, "job", 1, "f1")
	if _, err := live.Commit(ctx, first); err != nil {
		t.Fatal(err)
	}
	if res, err := restarted.Commit(ctx, first); err != nil || !res.AlreadyCommitted() {
		t.Fatalf("retry = %s, %v; want already committed", res, err)
	}
	if _, err := live.Commit(ctx, appendRequest(h, "job", 2, "f2")); err != nil {
		t.Fatal(err)
	}
	_, err := restarted.Commit(ctx, appendRequest(h, "job", 3, "f3"))
	var su *SharedUserError
	if !errors.As(err, &su) || su.Foreign.ID != 2 {
		t.Fatalf("err = %v; want a SharedUserError naming snapshot 2", err)
	}
}

// Java's filterCommitted walks snapshots and forgets a commit once its
// snapshot expires; the receipt written before expiry keeps the retry a
// no-op. Without it, the duplicate-add check is the last guard.
func TestReceiptsSurviveSnapshotExpiry(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	req := appendRequest(h, "job", 9, "batch")
	h.commit(req)
	h.commit(appendRequest(h, "other", 1, "other"))
	c := h.committer(nil)
	s1, err := c.snapshots.Snapshot(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.mem.Delete(ctx, tableDir+"/commit-user/job"); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteReceipts(ctx, []*spec.Snapshot{s1}); err != nil {
		t.Fatal(err)
	}
	if err := h.mem.Delete(ctx, c.snapshots.SnapshotPath(1)); err != nil {
		t.Fatal(err)
	}
	res, err := h.committer(nil).Commit(ctx, req)
	if err != nil || !res.AlreadyCommitted() || res.AlreadyCommittedIn != 1 {
		t.Fatalf("retry after expiry = %s, %v; want already committed in snapshot 1", res, err)
	}

	if err := h.mem.Delete(ctx, tableDir+"/commit-user/job"); err != nil {
		t.Fatal(err)
	}
	_, err = h.committer(nil).Commit(ctx, req)
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != FileAddedTwice || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("retry without receipt = %v; want the terminal FileAddedTwice guard", err)
	}
}

func TestWriteReceiptsNeverMovesBack(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	c := h.committer(nil)
	older := &spec.Snapshot{ID: 3, CommitUser: "job", CommitIdentifier: 4, CommitKind: spec.CommitKindCompact}
	newer := &spec.Snapshot{ID: 7, CommitUser: "job", CommitIdentifier: 5, CommitKind: spec.CommitKindAppend}
	foreign := &spec.Snapshot{ID: 8, CommitUser: "../escape", CommitIdentifier: 1, CommitKind: spec.CommitKindAppend}
	if err := c.WriteReceipts(ctx, []*spec.Snapshot{newer, foreign}); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteReceipts(ctx, []*spec.Snapshot{older}); err != nil {
		t.Fatal(err)
	}
	rc, err := c.readReceipt(ctx, "job")
	if err != nil || rc == nil || *rc != (receipt{Identifier: 5, SnapshotID: 7, CommitKind: spec.CommitKindAppend}) {
		t.Fatalf("receipt = %+v, %v; want identifier 5 in snapshot 7", rc, err)
	}
	if files := h.mem.Files(); slices.Contains(files, "wh/db.db/escape") || len(files) != 2 {
		t.Fatalf("files %v; want the schema and one receipt", files)
	}
}

func TestCommitUserMustBeAPlainFileName(t *testing.T) {
	h := newHarness(t, false)
	for _, user := range []string{"", "..", "../t2", "a/b", `a\b`, ".hidden", "tab\tuser"} {
		_, err := h.committer(nil).Commit(context.Background(), appendRequest(h, user, 1, "f"))
		if !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("user %q: err = %v; want ErrInvalidRequest", user, err)
		}
	}
	if ids, _ := h.committer(nil).snapshots.IDs(context.Background()); len(ids) != 0 {
		t.Fatalf("snapshots %v published for invalid users", ids)
	}
}

// A row-level DELETE rewrites files: its data increment deletes files, so
// it commits as OVERWRITE, as in Java, and is checked file by file.
func TestRowLevelRewriteCommitsAsOverwrite(t *testing.T) {
	h := newHarness(t, false)
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "old", rows: 10}))
	h.commitFiles("other", 1, h.appendMsg("2024-01-01", fileSpec{name: "concurrent", rows: 1}))
	m := h.appendMsg("2024-01-01", fileSpec{name: "rewritten", rows: 9})
	m.DeletedFiles = []spec.DataFileMeta{h.file(fileSpec{name: "old", rows: 10})}
	h.placeFiles([]Message{m})
	req := Request{CommitUser: "deleter", Identifier: 1, Messages: []Message{m}}
	res := h.commit(req)
	view := inspect(t, h.mem)
	if view.latest.ID != res.Snapshots[0] || view.latest.CommitKind != spec.CommitKindOverwrite {
		t.Fatalf("snapshot %d is %s; want OVERWRITE", view.latest.ID, view.latest.CommitKind)
	}
	if !slices.Equal(view.live, []string{"concurrent", "rewritten"}) || *view.latest.DeltaRecordCount != -1 {
		t.Fatalf("live %v, delta %d records", view.live, *view.latest.DeltaRecordCount)
	}
	again := h.appendMsg("2024-01-01", fileSpec{name: "rewritten-again", rows: 9})
	again.DeletedFiles = m.DeletedFiles
	h.placeFiles([]Message{again})
	_, err := h.committer(nil).Commit(context.Background(), Request{CommitUser: "deleter", Identifier: 2, Messages: []Message{again}})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || !errors.Is(err, lakeerr.ErrRetryableConflict) {
		t.Fatalf("deleting the file again: err = %v; want a retryable DeletedFileNotLive", err)
	}
}

func TestWatermarkNeverMovesBack(t *testing.T) {
	h := newHarness(t, false)
	for i, w := range []int64{100, 50} {
		req := appendRequest(h, "job", int64(i+1), "f"+string(rune('a'+i)))
		req.Watermark = &w
		h.commit(req)
	}
	h.commit(appendRequest(h, "job", 3, "fc"))
	if w := inspect(t, h.mem).latest.Watermark; w == nil || *w != 100 {
		t.Fatalf("watermark %v; want 100", w)
	}
}

// A row-tracking table's next row id passes from snapshot to snapshot: a
// commit that adds no file needing row ids keeps it, as Java's does, so
// that Java's next write numbers its rows after the existing ones.
func TestNextRowIDIsCarried(t *testing.T) {
	h := newHarness(t, false)
	h.commit(appendRequest(h, "job", 1, "fa"))
	next := int64(4242)
	rewriteSnapshot(t, h, 1, func(s *spec.Snapshot) { s.NextRowID = &next })
	h.commit(appendRequest(h, "job", 2, "fb"))
	if got := inspect(t, h.mem).latest.NextRowID; got == nil || *got != next {
		t.Fatalf("next row id %v after a commit; want %d", got, next)
	}
}

// A snapshot keeps its predecessor's statistics file (Spark's ANALYZE
// TABLE) while the schema is the one they were computed on, as Java's
// commit does; statistics of another schema, a missing file and a
// malformed one are not kept.
func TestStatisticsAreInherited(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, content string
		kept          bool
	}{
		{"same schema", `{"snapshotId":1,"schemaId":0,"mergedRecordCount":1,"colStats":{}}`, true},
		{"another schema", `{"snapshotId":1,"schemaId":7,"mergedRecordCount":1,"colStats":{}}`, false},
		{"missing", "", false},
		{"malformed", `{"snapshotId":`, false},
	} {
		h := newHarness(t, false)
		h.commit(appendRequest(h, "job", 1, "fa"))
		name := "stat-0a1b-0"
		rewriteSnapshot(t, h, 1, func(s *spec.Snapshot) { s.Statistics = &name })
		if c.content != "" {
			if err := h.mem.PutIfAbsent(ctx, path.Join(tableDir, "statistics", name), []byte(c.content)); err != nil {
				t.Fatal(err)
			}
		}
		// The second commit reads the file; the third, on snapshot 2, the
		// committer's record of it (h.commit opens a fresh committer, so
		// both go through one here).
		c2 := h.committer(nil)
		for id := int64(2); id <= 3; id++ {
			if _, err := c2.Commit(ctx, appendRequest(h, "job", id, "f"+string(rune('a'+id)))); err != nil {
				t.Fatal(err)
			}
			got := inspect(t, h.mem).latest.Statistics
			if kept := got != nil && *got == name; kept != c.kept {
				t.Errorf("%s: statistics %v after commit %d; kept %v, want %v", c.name, got, id, kept, c.kept)
			}
		}
	}
}

// rewriteSnapshot changes snapshot id of h's table in place, as another
// engine would have written it.
func rewriteSnapshot(t *testing.T, h *harness, id int64, change func(*spec.Snapshot)) {
	t.Helper()
	ctx := context.Background()
	snaps := snapshot.NewManager(h.mem, tableDir, "")
	s, err := snaps.Snapshot(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	change(s)
	data, err := spec.EncodeSnapshot(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.mem.Overwrite(ctx, snaps.SnapshotPath(id), data); err != nil {
		t.Fatal(err)
	}
}
