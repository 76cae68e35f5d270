package commit

import (
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// ConflictInput is everything CheckConflicts decides on.
type ConflictInput struct {
	CommitKind       spec.CommitKind
	CommitUser       string
	CommitIdentifier int64
	// Attempt counts publish attempts of this commit, from 1.
	Attempt int
	// BaseSnapshotID is the snapshot the writer read and planned against;
	// 0 for an empty table. It stays the same across publish attempts:
	// the overwrite check is about what the writer saw, not what the last
	// attempt saw.
	BaseSnapshotID int64
	// Latest is the snapshot the commit would be published on top of.
	Latest SnapshotRef

	// Base holds the live ADD entries of Latest in every partition Delta
	// touches (the "changed partitions").
	Base []spec.ManifestEntry
	// Delta holds this commit's ADD and DELETE entries, in commit order.
	Delta []spec.ManifestEntry

	// PrimaryKey enables the LSM key-range check, which needs CompareKeys:
	// it orders two serialized key BinaryRows (DataFileMeta.MinKey/MaxKey).
	PrimaryKey  bool
	CompareKeys func(a, b []byte) int

	// OverwriteTarget says which serialized partitions an OVERWRITE
	// replaces; nil means the partitions Delta touches (dynamic partition
	// overwrite). Ignored for other kinds.
	OverwriteTarget func(partition []byte) bool
	// SinceBase holds, for an OVERWRITE, the delta of every snapshot after
	// BaseSnapshotID up to Latest, in id order. Ignored for other kinds.
	// When only COMPACT snapshots touched the target (TargetCompacted),
	// Delta must delete the target's files live in Latest, not in the base.
	SinceBase []SnapshotDelta

	// FormatPartition renders a serialized partition for people, e.g.
	// "dt=2024-01-01/hr=3"; nil renders it in hex.
	FormatPartition func(partition []byte) string
}

// SnapshotDelta is the delta of one snapshot: the entries it committed.
type SnapshotDelta struct {
	Snapshot SnapshotRef
	Entries  []spec.ManifestEntry
}

// CheckConflicts and FindLanded are pure functions of data the Committer
// has read (live entries, deltas, snapshot headers), so each incident class
// of two writers on one table is a test case, not a race to reproduce.

// CheckConflicts returns nil if the commit may be published on top of
// in.Latest, a *ConflictError if it conflicts with a concurrent commit, or
// another error if the input itself is invalid.
//
// The checks run in the order of Paimon's ConflictDetection.checkConflicts,
// and the first failing one decides:
//  1. bucket count unchanged per partition (not for OVERWRITE, which may
//     rescale);
//  2. the delta is self-consistent;
//  3. for OVERWRITE, no snapshot but a compaction touched its target
//     since its base (lakesql's fix for apache/paimon#4802; it runs before
//     the merge because a changed target is the cause of what the merge
//     would report);
//  4. merging Base and Delta: no live file is added again, no deleted file
//     is missing;
//  5. for primary-key tables, the files of each LSM level >= 1 this
//     commit adds to do not overlap in key range.
//
// Unlike Paimon, plain appends are checked too: two appends never conflict
// with each other, but the duplicate-add check catches a batch committed
// twice.
func CheckConflicts(in ConflictInput) error {
	if err := validate(&in); err != nil {
		return err
	}
	for _, check := range []func(*ConflictInput) error{checkBucketCounts, checkDeltaConsistent, checkOverwriteTarget} {
		if err := check(&in); err != nil {
			return err
		}
	}
	live, err := mergeBaseAndDelta(&in)
	if err != nil {
		return err
	}
	return checkKeyRanges(&in, live)
}

// validate rejects input no correct caller builds, rather than reporting a
// misleading conflict for it.
func validate(in *ConflictInput) error {
	if in.PrimaryKey && in.CompareKeys == nil {
		return errors.New("commit: conflict check of a primary-key table needs a key comparator")
	}
	for i := range in.Base {
		if in.Base[i].Kind != spec.FileKindAdd {
			return fmt.Errorf("commit: live entry of %s for file %s has kind %s", in.Latest, in.Base[i].File.FileName, in.Base[i].Kind)
		}
	}
	for i := range in.Delta {
		if k := in.Delta[i].Kind; k != spec.FileKindAdd && k != spec.FileKindDelete {
			return fmt.Errorf("commit: delta entry for file %s has kind %s", in.Delta[i].File.FileName, k)
		}
	}
	return nil
}

// checkBucketCounts requires one total bucket count per partition among
// Base and Delta, because a file hashed with another count holds keys of
// other buckets. Base is scanned first, so its count is the expected one.
func checkBucketCounts(in *ConflictInput) error {
	if in.CommitKind == spec.CommitKindOverwrite {
		return nil
	}
	expected := map[string]int32{}
	var offending []spec.ManifestEntry
	var detail string
	for _, entries := range [][]spec.ManifestEntry{in.Base, in.Delta} {
		for _, e := range entries {
			if e.TotalBuckets <= 0 {
				continue
			}
			want, seen := expected[string(e.Partition)]
			if !seen {
				expected[string(e.Partition)] = e.TotalBuckets
				continue
			}
			if want != e.TotalBuckets {
				offending = append(offending, e)
				if detail == "" {
					detail = fmt.Sprintf("total buckets of partition %s changed from %d to %d without overwrite",
						in.partitionName(e.Partition), want, e.TotalBuckets)
				}
			}
		}
	}
	if len(offending) == 0 {
		return nil
	}
	return in.conflict(BucketCountChanged, in.Latest, offending, detail)
}

// checkDeltaConsistent rejects a delta that adds an identifier while an
// earlier entry of it is unresolved: adding it twice, or deleting it and
// adding it back. Scans fold entries through a map keyed by identifier, so
// such a pair can lose the file. An ADD followed by a DELETE cancels out.
// This is stricter than the live-set fold of manifest.Merger, which accepts
// a re-add after a pending delete.
func checkDeltaConsistent(in *ConflictInput) error {
	unresolved := map[manifest.Identifier]spec.FileKind{}
	var offending []spec.ManifestEntry
	for i := range in.Delta {
		e := &in.Delta[i]
		id := manifest.IdentifierOf(e)
		previous, seen := unresolved[id]
		switch {
		case e.Kind == spec.FileKindAdd && seen:
			offending = append(offending, *e)
		case e.Kind == spec.FileKindAdd:
			unresolved[id] = spec.FileKindAdd
		case seen && previous == spec.FileKindAdd:
			delete(unresolved, id)
		default:
			unresolved[id] = spec.FileKindDelete
		}
	}
	if len(offending) == 0 {
		return nil
	}
	return in.conflict(InvalidDelta, in.Latest, offending, "")
}

// checkOverwriteTarget fails an OVERWRITE when a snapshot committed after
// its base may have added rows to a partition it replaces (see
// JudgeOverwriteTarget). The overwrite deletes the files it saw; Paimon
// instead deletes whatever is live at commit time, which silently drops
// rows the writer never read (apache/paimon#4802). Failing lets the
// statement re-plan against those rows. Compactions of the target do not
// fail it: they leave the rows the writer read, and the Committer re-bases
// the deletes onto the files they produced (a delta still deleting the
// files a compaction replaced fails the merge with DeletedFileNotLive).
func checkOverwriteTarget(in *ConflictInput) error {
	if in.CommitKind != spec.CommitKindOverwrite {
		return nil
	}
	h := judgeOverwriteTarget(in)
	if h.Change != TargetChanged {
		return nil
	}
	return in.conflict(OverwriteTargetChanged, h.Cause, h.Entries, h.Gap)
}

// historyGap describes why SinceBase does not cover every snapshot after
// the base, or returns "". A missing snapshot (expired, or not supplied)
// cannot be shown to leave the target alone, so the check fails closed;
// re-planning from the latest snapshot needs no history.
func (in *ConflictInput) historyGap() string {
	want := in.Latest.ID - in.BaseSnapshotID
	if want < 0 {
		return fmt.Sprintf("latest snapshot %d is older than base snapshot %d", in.Latest.ID, in.BaseSnapshotID)
	}
	for i, s := range in.SinceBase {
		if s.Snapshot.ID != in.BaseSnapshotID+1+int64(i) {
			return fmt.Sprintf("history since base is not contiguous at snapshot %d", s.Snapshot.ID)
		}
	}
	if int64(len(in.SinceBase)) != want {
		return fmt.Sprintf("history since base holds %d of %d snapshots", len(in.SinceBase), want)
	}
	return ""
}

// overwriteTarget returns the caller's target, or the partitions of Delta.
func (in *ConflictInput) overwriteTarget() func([]byte) bool {
	if in.OverwriteTarget != nil {
		return in.OverwriteTarget
	}
	touched := map[string]bool{}
	for i := range in.Delta {
		touched[string(in.Delta[i].Partition)] = true
	}
	return func(partition []byte) bool { return touched[string(partition)] }
}

// mergeBaseAndDelta folds Delta onto Base with manifest.Merger and returns
// the merged live set, or nil when checkKeyRanges has no use for it. Delta
// entries are folded one at a time so that every ADD of a live file is
// reported, not only the first.
//
// Without the live set to return, only the entries of Base that can clash
// are folded: those named like a file of Delta or like another file of
// Base, since equal identifiers have equal file names. The outcome is the
// same, without computing the identifier of every live file of the
// changed partitions.
func mergeBaseAndDelta(in *ConflictInput) ([]spec.ManifestEntry, error) {
	needLive := in.PrimaryKey && addsToLeveledRun(in.Delta)
	base := in.Base
	if !needLive {
		base = clashCandidates(in.Base, in.Delta)
	}
	merger := manifest.NewMerger()
	if err := merger.Add(base); err != nil {
		return nil, fmt.Errorf("commit: live entries of %s: %w", in.Latest, err)
	}
	var addedTwice []spec.ManifestEntry
	for i := range in.Delta {
		err := merger.Add(in.Delta[i : i+1])
		switch {
		case err == nil:
		case in.Delta[i].Kind == spec.FileKindAdd && errors.Is(err, lakeerr.ErrCorruption):
			// The merger rejects an ADD only when the identifier is live.
			addedTwice = append(addedTwice, in.Delta[i])
		default:
			return nil, fmt.Errorf("commit: %w", err)
		}
	}
	if len(addedTwice) > 0 {
		return nil, in.conflict(FileAddedTwice, in.Latest, addedTwice, "")
	}
	if dangling := merger.DanglingDeletes(); len(dangling) > 0 {
		return nil, in.conflict(DeletedFileNotLive, in.Latest, dangling, "")
	}
	if !needLive {
		return nil, nil
	}
	return merger.Live(), nil
}

// addsToLeveledRun reports whether delta adds a file at a level >= 1, the
// only case checkKeyRanges reads the live set for.
func addsToLeveledRun(delta []spec.ManifestEntry) bool {
	for i := range delta {
		if delta[i].Kind == spec.FileKindAdd && delta[i].File.Level >= 1 {
			return true
		}
	}
	return false
}

// clashCandidates returns, in order, the entries of base whose file name
// is that of an entry of delta or of another entry of base.
func clashCandidates(base, delta []spec.ManifestEntry) []spec.ManifestEntry {
	counts := make(map[string]int, len(base)+len(delta))
	for i := range delta {
		counts[delta[i].File.FileName] = 2
	}
	for i := range base {
		counts[base[i].File.FileName]++
	}
	var out []spec.ManifestEntry
	for i := range base {
		if counts[base[i].File.FileName] > 1 {
			out = append(out, base[i])
		}
	}
	return out
}
