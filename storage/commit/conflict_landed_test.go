package commit

import (
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

func TestFindLanded(t *testing.T) {
	const me = "writer-a"
	appendSnap := func(id int64, user string, identifier int64) SnapshotRef {
		return SnapshotRef{ID: id, CommitUser: user, CommitIdentifier: identifier, CommitKind: spec.CommitKindAppend}
	}
	compactSnap := func(id int64, user string, identifier int64) SnapshotRef {
		return SnapshotRef{ID: id, CommitUser: user, CommitIdentifier: identifier, CommitKind: spec.CommitKindCompact}
	}
	cases := []struct {
		name   string
		kind   spec.CommitKind
		newer  []SnapshotRef
		landed int64 // id of the snapshot that shows the commit; 0 if none
	}{
		{"no newer snapshots", spec.CommitKindAppend, nil, 0},
		{"only other users committed", spec.CommitKindAppend,
			[]SnapshotRef{appendSnap(8, "writer-b", 7), compactSnap(9, "compactor", 7)}, 0},
		{"timed-out attempt did land", spec.CommitKindAppend,
			[]SnapshotRef{appendSnap(8, "writer-b", 3), appendSnap(9, me, 7)}, 9},
		{"my earlier identifier is not this commit", spec.CommitKindAppend,
			[]SnapshotRef{appendSnap(8, me, 6)}, 0},
		{"my later identifier landed, so this one was handled", spec.CommitKindAppend,
			[]SnapshotRef{appendSnap(8, me, 6), appendSnap(9, me, 8)}, 9},
		{"append half landed, compact half did not", spec.CommitKindCompact,
			[]SnapshotRef{appendSnap(8, me, 7)}, 0},
		{"compact half landed after the append half", spec.CommitKindCompact,
			[]SnapshotRef{appendSnap(8, me, 7), compactSnap(9, me, 7)}, 9},
		{"compact half shows the append half landed, though it expired", spec.CommitKindAppend,
			[]SnapshotRef{compactSnap(9, me, 7)}, 9},
		{"an overwrite is not the append of the same identifier", spec.CommitKindAppend,
			[]SnapshotRef{{ID: 9, CommitUser: me, CommitIdentifier: 7, CommitKind: spec.CommitKindOverwrite}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := FindLanded(me, 7, c.kind, c.newer)
			if ok != (c.landed != 0) || got.ID != c.landed {
				t.Fatalf("FindLanded = %+v, %v; want snapshot %d", got, ok, c.landed)
			}
		})
	}
}
