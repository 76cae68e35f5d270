package commit

import "github.com/lakesql/lakesql/storage/spec"

// FindLanded reports whether a commit of user with identifier and kind is
// already in the table, given the snapshots committed after some point, and
// returns the first snapshot (in the order given) that shows it. The caller
// runs it before re-publishing, so that a retry after a timeout does not
// commit the same batch twice:
//
//   - after an attempt with unknown outcome, pass the snapshots after that
//     attempt's latest (Paimon's tryCommitOnce, step 1);
//   - when a writer restarts with commits it may have published, pass the
//     retained snapshots (Paimon's filterCommitted).
//
// A snapshot shows the commit if it has the same user and a greater
// identifier: a writer publishes its identifiers in increasing order and
// resolves each before the next, so a later one landing means this one was
// handled. With the same identifier, the kind matters, because one commit
// publishes an APPEND (or OVERWRITE) snapshot and then a COMPACT one: if
// only the first landed, the COMPACT half is still due; a COMPACT snapshot
// shows that the first half landed too, since it is published second.
//
// The answer is only as good as the history passed in: once a commit's
// snapshots expire it is reported as not landed (the Committer's receipts
// cover that case), and the duplicate-add check of CheckConflicts
// (FileAddedTwice, terminal) is the last guard. Commit users must be unique
// per writer: batch writers all commit with spec.BatchCommitIdentifier, so
// two batch jobs sharing a user would be mistaken for each other.
func FindLanded(user string, identifier int64, kind spec.CommitKind, newer []SnapshotRef) (SnapshotRef, bool) {
	for _, s := range newer {
		if s.CommitUser != user {
			continue
		}
		if s.CommitIdentifier > identifier || s.CommitIdentifier == identifier && shows(s.CommitKind, kind) {
			return s, true
		}
	}
	return SnapshotRef{}, false
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
