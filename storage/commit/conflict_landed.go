package commit

import "github.com/lakesql/lakesql/storage/spec"

// LandedOutcome is what the history shows of a commit about to be
// published (see JudgeLanded).
type LandedOutcome int

const (
	// NotLanded: nothing shows the commit; publish it.
	NotLanded LandedOutcome = iota
	// Landed: a snapshot of the same user, identifier and part, with the
	// same content as far as digests tell, is the commit: a retry after a
	// timeout, which must not land twice.
	Landed
	// OtherContent: a snapshot of the same user, identifier and part holds
	// other rows (their digests differ): another writer used the user and
	// identifier, or a re-run statement computed other rows. Publishing
	// would make one identifier name two commits; skipping would drop
	// these rows. Refused.
	OtherContent
	// NotProven: the user committed a newer identifier, and the history
	// given holds no snapshot of this one. Paimon takes that for "already
	// committed" (filterCommitted), which silently drops the rows of a
	// second writer sharing the user. Refused.
	NotProven
)

// LandedVerdict is JudgeLanded's answer, with the snapshot it rests on.
type LandedVerdict struct {
	Outcome  LandedOutcome
	Snapshot SnapshotRef
}

// JudgeLanded decides, from the snapshots committed after some point
// (newest first, as the Committer walks them back from the latest one),
// whether a commit of user with identifier, part kind and digest is
// already in the table. The Committer runs it before publishing, so that
// a retry after a timeout does not commit the same rows twice:
//
//   - after an attempt with unknown outcome, on the snapshots after that
//     attempt's latest (Paimon's tryCommitOnce, step 1);
//   - when a writer restarts with commits it may have published, on the
//     retained snapshots back to the user's receipt (Paimon's
//     filterCommitted).
//
// Only a snapshot of the same identifier proves the commit landed, and
// only with a digest that does not contradict it. With the same
// identifier, the part matters: one commit publishes an APPEND (or
// OVERWRITE) snapshot, then a COMPACT one; if only the first landed, the
// COMPACT part is still due, and a COMPACT snapshot shows that the first
// part landed too, since it is published second. A newer identifier of
// the user is no proof (NotProven), unlike in Paimon: a writer that
// resolves each identifier before the next never retries an older one.
//
// The answer is only as good as the history given: once a commit's
// snapshots expire, the user's receipt stands for the newest of them, and
// the duplicate-add check of CheckConflicts (FileAddedTwice, terminal) is
// the last guard.
func JudgeLanded(user string, identifier int64, kind spec.CommitKind, digest Digest, newer []SnapshotRef) LandedVerdict {
	var newest *SnapshotRef
	for i := range newer {
		s := &newer[i]
		if s.CommitUser != user {
			continue
		}
		switch {
		case s.CommitIdentifier == identifier && shows(s.CommitKind, kind):
			if !sameContent(s.Digest, digest) {
				return LandedVerdict{Outcome: OtherContent, Snapshot: *s}
			}
			return LandedVerdict{Outcome: Landed, Snapshot: *s}
		case s.CommitIdentifier > identifier:
			if newest == nil {
				newest = s
			}
		case s.CommitIdentifier < identifier:
			// A writer's identifiers grow with its snapshots, so the
			// commit is not further back.
			return notLandedOr(newest)
		}
	}
	return notLandedOr(newest)
}

func notLandedOr(newest *SnapshotRef) LandedVerdict {
	if newest != nil {
		return LandedVerdict{Outcome: NotProven, Snapshot: *newest}
	}
	return LandedVerdict{Outcome: NotLanded}
}

// shows reports whether a snapshot of kind landed proves that the part of
// the same commit with kind want landed.
func shows(landed, want spec.CommitKind) bool {
	return landed == want || phase(landed) > phase(want)
}

// phase orders the snapshots of one commit identifier: the data part
// (APPEND or OVERWRITE) is published before the COMPACT part. An unknown
// kind counts as the last phase, so that it is never taken for a commit
// still missing its data.
func phase(kind spec.CommitKind) int {
	switch kind {
	case spec.CommitKindAppend, spec.CommitKindOverwrite:
		return 0
	}
	return 1
}
