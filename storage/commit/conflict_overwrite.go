package commit

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// TargetChange says what the snapshots committed after an overwrite's base
// did to the partitions it replaces (its target).
type TargetChange int

const (
	// TargetUnchanged: no snapshot since the base touched the target, so
	// the files live there in the base are the ones to delete.
	TargetUnchanged TargetChange = iota + 1
	// TargetCompacted: only COMPACT snapshots touched the target. A
	// compaction rewrites files but never adds rows, so the target still
	// holds the rows the writer read, in other files. The overwrite may
	// land once its deletes are re-based onto the files live in the
	// target in the latest snapshot.
	TargetCompacted
	// TargetChanged: another kind of snapshot (an APPEND, an OVERWRITE)
	// touched the target, or the history since the base is incomplete, so
	// the target may hold rows the writer never read.
	TargetChanged
)

var targetChangeNames = map[TargetChange]string{
	TargetUnchanged: "unchanged",
	TargetCompacted: "compacted",
	TargetChanged:   "changed",
}

func (c TargetChange) String() string {
	if name, ok := targetChangeNames[c]; ok {
		return name
	}
	return fmt.Sprintf("TargetChange(%d)", int(c))
}

// TargetHistory is the verdict of JudgeOverwriteTarget.
type TargetHistory struct {
	Change TargetChange
	// For TargetChanged: Cause is the first snapshot that changed the
	// target (Latest when the history has a gap), Entries are the entries
	// in the target of every snapshot that changed it, and Gap says why the
	// history is incomplete, if it is.
	Cause   SnapshotRef
	Entries []spec.ManifestEntry
	Gap     string
}

// JudgeOverwriteTarget classifies the snapshots committed after an
// OVERWRITE's base (in.SinceBase, up to in.Latest) by what they did to its
// target (in.OverwriteTarget, or the partitions of in.Delta). It is a pure
// function of the snapshot kinds and the partitions of their entries:
// CheckConflicts fails the overwrite on TargetChanged, and the Committer
// re-bases the overwrite's deletes onto in.Latest on TargetCompacted
// before checking.
//
// Only a COMPACT snapshot is trusted to leave the rows alone: a snapshot of
// any other kind that touched the target may have added rows there.
func JudgeOverwriteTarget(in ConflictInput) TargetHistory {
	return judgeOverwriteTarget(&in)
}

func judgeOverwriteTarget(in *ConflictInput) TargetHistory {
	if gap := in.historyGap(); gap != "" {
		return TargetHistory{Change: TargetChanged, Cause: in.Latest, Gap: gap}
	}
	inTarget := memoizedByPartition(in.overwriteTarget())
	h := TargetHistory{Change: TargetUnchanged}
	for _, s := range in.SinceBase {
		for _, e := range s.Entries {
			if !inTarget(e.Partition) {
				continue
			}
			if s.Snapshot.CommitKind == spec.CommitKindCompact {
				if h.Change == TargetUnchanged {
					h.Change = TargetCompacted
				}
				continue
			}
			if h.Change != TargetChanged {
				h.Change, h.Cause = TargetChanged, s.Snapshot
			}
			h.Entries = append(h.Entries, e)
		}
	}
	return h
}

// memoizedByPartition remembers the answer of match per serialized
// partition: a target matcher decodes the row on every call, and the
// history of a busy table repeats few partitions over many entries.
func memoizedByPartition(match func([]byte) bool) func([]byte) bool {
	seen := map[string]bool{}
	return func(partition []byte) bool {
		answer, ok := seen[string(partition)]
		if !ok {
			answer = match(partition)
			seen[string(partition)] = answer
		}
		return answer
	}
}
