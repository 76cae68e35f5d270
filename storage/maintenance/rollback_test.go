package maintenance

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

func TestRollbackToSnapshot(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	buildHistory(f)
	if _, err := CreateTag(ctx, f.FS, f.Dir, "t12", CreateTagOptions{SnapshotID: 12}); err != nil {
		t.Fatal(err)
	}
	late := f.prepare([][]any{row("d9", 1, "late")}, false)
	if got := f.commit("w4", commitRequest("", 0, late)); !slices.Equal(got, []int64{14}) {
		t.Fatalf("w4 published %v, want 14", got)
	}
	before := captureState(t, f.FS, f.Dir)
	res, err := RollbackTo(ctx, f.FS, f.Dir, RollbackTarget{SnapshotID: 11})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.SnapshotsDeleted, []int64{14, 13, 12}) || !slices.Equal(res.TagsDeleted, []string{"t12"}) || res.Restored {
		t.Fatalf("rollback: %+v; want snapshots 14 to 12 and tag t12 deleted", res)
	}
	delete(before.tags, "t12")
	checkRetained(t, f.FS, f.Dir, before, upTo(11))
	hint, err := f.FS.ReadFile(ctx, path.Join(f.Dir, "snapshot", "LATEST"))
	if err != nil || string(hint) != "11" {
		t.Fatalf("LATEST hint %q (%v), want 11", hint, err)
	}
	latest, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{})
	if err != nil || !slices.Equal(latest, before.snapshots[11]) {
		t.Fatalf("latest reads %v (%v), want snapshot 11's %v", latest, err, before.snapshots[11])
	}
	// As in Java, a retry of a rolled-back commit lands again: w4's
	// receipt no longer names the deleted snapshot 14.
	retry, err := f.Committer(f.FS).Commit(ctx, commitRequest("w4", 1, late))
	if err != nil || !slices.Equal(retry.Snapshots, []int64{12}) {
		t.Fatalf("retry of w4's rolled-back commit: %v, %v; want it published as 12", retry, err)
	}
	if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{}); err != nil || !slices.Contains(got, "d9 1 late") {
		t.Fatalf("after the retry the table reads %v (%v), want w4's row back", got, err)
	}
	// w3 wrote snapshots 11 to 13; its next commit goes on from 11's.
	if got := f.insert("w3", row("d9", 2, "after")); !slices.Equal(got, []int64{13}) {
		t.Fatalf("w3's commit after the rollback published %v, want 13", got)
	}
}

func TestRollbackToExpiredTag(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	expiredHistory(f)
	want, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{Tag: "t2"})
	if err != nil {
		t.Fatal(err)
	}
	// Snapshot 2 expired, but a tag holds it: rolling back to its id is
	// rolling back to the tag.
	res, err := RollbackTo(ctx, f.FS, f.Dir, RollbackTarget{SnapshotID: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Restored || !slices.Equal(res.SnapshotsDeleted, []int64{13, 12, 11}) || !slices.Equal(res.TagsDeleted, []string{"t7"}) {
		t.Fatalf("rollback: %+v; want snapshot 2 restored, 11..13 and t7 deleted", res)
	}
	ids, err := snapshot.NewManager(f.FS, f.Dir, "").IDs(ctx)
	if err != nil || !slices.Equal(ids, []int64{2}) {
		t.Fatalf("snapshots %v (%v), want only 2", ids, err)
	}
	if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{}); err != nil || !slices.Equal(got, want) {
		t.Fatalf("latest reads %v (%v), want tag t2's %v", got, err, want)
	}
	earliest, _, err := snapshot.NewManager(f.FS, f.Dir, "").EarliestID(ctx)
	if err != nil || earliest != 2 {
		t.Fatalf("earliest %d (%v), want 2", earliest, err)
	}
}

func TestRollbackArguments(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	f.insert("w", row("d1", 1, "a"))
	for _, tc := range []struct {
		target RollbackTarget
		want   error
	}{
		{RollbackTarget{}, ErrInvalidArgument},
		{RollbackTarget{SnapshotID: 1, Tag: "x"}, ErrInvalidArgument},
		{RollbackTarget{SnapshotID: -1}, ErrInvalidArgument},
		{RollbackTarget{Tag: "missing"}, lakeerr.ErrNotFound},
		{RollbackTarget{SnapshotID: 5}, lakeerr.ErrNotFound},
	} {
		if _, err := RollbackTo(ctx, f.FS, f.Dir, tc.target); !errors.Is(err, tc.want) {
			t.Errorf("rollback to %+v: %v, want %v", tc.target, err, tc.want)
		}
	}
}

// TestRollbackDetectsConcurrentCommit: a writer publishes while the
// rollback runs; the rollback must say so rather than report success.
func TestRollbackDetectsConcurrentCommit(t *testing.T) {
	ctx := context.Background()
	detected := 0
	for k := 0; ; k++ {
		f := newFixture(t, pkTable)
		for i := range int64(4) {
			f.insert("w", row("d1", i, "a"))
		}
		msgs := f.prepare([][]any{row("d2", 1, "late")}, false)
		h := &hookFS{FileIO: f.FS, at: k, hook: func() {
			f.clock.Advance(1)
			if _, err := f.Committer(f.FS).Commit(ctx, commitRequest("late", 1, msgs)); err != nil {
				t.Fatal(err)
			}
		}}
		_, err := RollbackTo(ctx, h, f.Dir, RollbackTarget{SnapshotID: 2})
		if !h.fired {
			if detected == 0 {
				t.Fatal("no commit point was detected")
			}
			return
		}
		ids, listErr := snapshot.NewManager(f.FS, f.Dir, "").IDs(ctx)
		if listErr != nil {
			t.Fatal(listErr)
		}
		newer := slices.ContainsFunc(ids, func(id int64) bool { return id > 2 })
		switch {
		case newer && !errors.Is(err, lakeerr.ErrRetryableConflict):
			t.Fatalf("point %d: snapshots %v remain after rollback to 2, but it returned %v", k, ids, err)
		case !newer && err != nil:
			t.Fatalf("point %d: %v", k, err)
		case newer:
			detected++
			if !strings.Contains(err.Error(), "published while rolling back") {
				t.Errorf("point %d: unclear error %v", k, err)
			}
		}
	}
}

func TestRollbackFaultSweep(t *testing.T) {
	sweep(t, sweepCase{
		setup: func(f *fixture) {
			buildHistory(f)
			if _, err := CreateTag(context.Background(), f.FS, f.Dir, "t12", CreateTagOptions{SnapshotID: 12}); err != nil {
				f.T.Fatal(err)
			}
		},
		run: func(f *fixture, fio fileio.FileIO) error {
			_, err := RollbackTo(context.Background(), fio, f.Dir, RollbackTarget{SnapshotID: 11})
			return err
		},
		keep:     upTo(11),
		dropTags: []string{"t12"},
	})
}

func TestRollbackToExpiredTagFaultSweep(t *testing.T) {
	sweep(t, sweepCase{
		setup: expiredHistory,
		run: func(f *fixture, fio fileio.FileIO) error {
			_, err := RollbackTo(context.Background(), fio, f.Dir, RollbackTarget{Tag: "t2"})
			return err
		},
		keep:     func(int64) bool { return false },
		dropTags: []string{"t7"},
	})
}
