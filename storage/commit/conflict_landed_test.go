package commit

import (
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

func TestJudgeLanded(t *testing.T) {
	const me = "writer-a"
	mine, other := digestOf("rows of this commit"), digestOf("rows of another commit")
	appendSnap := func(id int64, user string, identifier int64) SnapshotRef {
		return SnapshotRef{ID: id, CommitUser: user, CommitIdentifier: identifier, CommitKind: spec.CommitKindAppend}
	}
	withDigest := func(s SnapshotRef, d Digest) SnapshotRef { s.Digest = d; return s }
	compactSnap := func(id int64, user string, identifier int64) SnapshotRef {
		return SnapshotRef{ID: id, CommitUser: user, CommitIdentifier: identifier, CommitKind: spec.CommitKindCompact}
	}
	cases := []struct {
		name    string
		kind    spec.CommitKind
		digest  Digest
		newer   []SnapshotRef // newest first
		outcome LandedOutcome
		at      int64 // the snapshot the verdict rests on; 0 if none
	}{
		{"no newer snapshots", spec.CommitKindAppend, mine, nil, NotLanded, 0},
		{"only other users committed", spec.CommitKindAppend, mine,
			[]SnapshotRef{compactSnap(9, "compactor", 7), appendSnap(8, "writer-b", 7)}, NotLanded, 0},
		{"timed-out attempt did land", spec.CommitKindAppend, mine,
			[]SnapshotRef{withDigest(appendSnap(9, me, 7), mine), appendSnap(8, "writer-b", 3)}, Landed, 9},
		{"a snapshot without a digest (Java, an older lakesql) is trusted", spec.CommitKindAppend, mine,
			[]SnapshotRef{appendSnap(9, me, 7)}, Landed, 9},
		{"a commit without a digest trusts the snapshot", spec.CommitKindAppend, Digest{},
			[]SnapshotRef{withDigest(appendSnap(9, me, 7), other)}, Landed, 9},
		{"same identifier, other rows: a second writer of the user", spec.CommitKindAppend, mine,
			[]SnapshotRef{withDigest(appendSnap(9, me, 7), other)}, OtherContent, 9},
		{"my earlier identifier is not this commit", spec.CommitKindAppend, mine,
			[]SnapshotRef{appendSnap(8, me, 6)}, NotLanded, 0},
		// Paimon's filterCommitted would call this committed and drop it.
		{"a later identifier alone proves nothing", spec.CommitKindAppend, mine,
			[]SnapshotRef{appendSnap(9, me, 8), appendSnap(8, me, 6)}, NotProven, 9},
		{"the identifier found behind later ones", spec.CommitKindAppend, mine,
			[]SnapshotRef{appendSnap(11, me, 9), appendSnap(10, me, 8), withDigest(appendSnap(9, me, 7), mine)}, Landed, 9},
		{"append half landed, compact half did not", spec.CommitKindCompact, mine,
			[]SnapshotRef{withDigest(appendSnap(8, me, 7), mine)}, NotLanded, 0},
		{"compact half landed after the append half", spec.CommitKindCompact, mine,
			[]SnapshotRef{withDigest(compactSnap(9, me, 7), mine), withDigest(appendSnap(8, me, 7), mine)}, Landed, 9},
		{"compact half shows the append half landed, though it expired", spec.CommitKindAppend, mine,
			[]SnapshotRef{withDigest(compactSnap(9, me, 7), mine)}, Landed, 9},
		{"an overwrite is not the append of the same identifier", spec.CommitKindAppend, mine,
			[]SnapshotRef{{ID: 9, CommitUser: me, CommitIdentifier: 7, CommitKind: spec.CommitKindOverwrite}}, NotLanded, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := JudgeLanded(me, 7, c.kind, c.digest, c.newer)
			if got.Outcome != c.outcome || got.Snapshot.ID != c.at {
				t.Fatalf("JudgeLanded = %+v; want outcome %d at snapshot %d", got, c.outcome, c.at)
			}
		})
	}
}

func digestOf(s string) Digest { return RowDigest([]byte(s)) }

// TestDigestSum: the digest of a set of rows does not depend on their
// order, tells a row written twice from once, and round-trips as text.
func TestDigestSum(t *testing.T) {
	rows := []Digest{digestOf("a"), digestOf("b"), digestOf("c")}
	var forward, backward, twice Digest
	for i := range rows {
		forward.Add(rows[i])
		backward.Add(rows[len(rows)-1-i])
	}
	if forward != backward {
		t.Fatalf("sum depends on order: %s vs %s", forward, backward)
	}
	twice = forward
	twice.Add(rows[0])
	if twice == forward {
		t.Fatal("adding a row did not change the sum")
	}
	max := Digest{}
	for i := range max {
		max[i] = 0xff
	}
	one := Digest{31: 1}
	max.Add(one)
	if !max.IsZero() {
		t.Fatalf("2^256-1 + 1 = %s, want 0 (the sum is modulo 2^256)", max)
	}
	parsed, err := ParseDigest(forward.String())
	if err != nil || parsed != forward {
		t.Fatalf("ParseDigest(%s) = %s, %v", forward, parsed, err)
	}
	for _, bad := range []string{"v2:00", "v1:zz", "v1:00"} {
		if _, err := ParseDigest(bad); err == nil {
			t.Errorf("ParseDigest(%q) accepted", bad)
		}
	}
}
