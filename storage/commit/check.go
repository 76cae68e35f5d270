package commit

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// checkedAttempt is what the conflict check of an attempt settled.
type checkedAttempt struct {
	// index is the index files the new snapshot lists (see combineIndex).
	index *indexPlan
	// rebased holds an overwrite's entries with its deletes re-based onto
	// the latest snapshot (see rebaseOverwrite); nil when the part's own
	// delta stands.
	rebased []spec.ManifestEntry
}

// checkConflicts runs CheckConflicts for part p on top of latest.
func (r *run) checkConflicts(ctx context.Context, p *part, latest *spec.Snapshot, attempt int) (*checkedAttempt, error) {
	in := r.conflictInput(p, latest, attempt)
	var keyErr error
	in.CompareKeys = r.table.keyComparator(&keyErr)
	live, err := r.fillHistory(ctx, in, p, latest)
	if err != nil {
		return nil, err
	}
	inc, err := r.rebaseOverwrite(ctx, p, latest, in, live)
	if err != nil {
		return nil, err
	}
	in.Delta = inc.entries
	in.Base = inPartitionsOf(inc.entries, live)
	if err := CheckConflicts(*in); err != nil {
		return nil, r.attributeDeletion(ctx, err, in.BaseSnapshotID, latest)
	}
	if keyErr != nil {
		return nil, keyErr
	}
	if err := r.checkKeys(ctx, p, latest, attempt); err != nil {
		return nil, err
	}
	if p.overwrite != nil && p.overwrite.target.err != nil {
		return nil, p.overwrite.target.err
	}
	index, err := r.combineIndex(ctx, inc.index, latest, in)
	if err != nil {
		return nil, err
	}
	if err := checkVectorTargets(in, inc, live, index); err != nil {
		return nil, err
	}
	checked := &checkedAttempt{index: index}
	if inc.rebased {
		checked.rebased = inc.entries
	}
	return checked, nil
}

// conflictInput describes part p on top of latest for the conflict
// checker and its reports, without the entries.
func (r *run) conflictInput(p *part, latest *spec.Snapshot, attempt int) *ConflictInput {
	in := &ConflictInput{
		CommitKind:       p.kind,
		CommitUser:       r.req.CommitUser,
		CommitIdentifier: r.req.Identifier,
		Attempt:          attempt,
		BaseSnapshotID:   p.baseSnapshotID,
		PrimaryKey:       r.table.primaryKey,
		FormatPartition:  r.table.formatPartition,
	}
	if latest != nil {
		in.Latest = RefOf(latest)
	}
	if p.overwrite != nil {
		in.OverwriteTarget = p.overwrite.target.contains
	}
	return in
}

// fillHistory supplies, for an overwrite, the deltas since its base, and
// returns the data files live in latest.
//
// A row-level rewrite (an OVERWRITE-kind data part without an overwrite
// scope) replaces named files, and DeletedFileNotLive already fails it if
// any of them changed; it is not checked for other changes to its
// partitions, so its base is taken to be latest.
func (r *run) fillHistory(ctx context.Context, in *ConflictInput, p *part, latest *spec.Snapshot) ([]spec.ManifestEntry, error) {
	var live []spec.ManifestEntry
	if latest != nil {
		var err error
		if live, err = r.liveEntries(ctx, latest); err != nil {
			return nil, err
		}
	}
	switch {
	case p.overwrite != nil:
		since, err := r.deltasSince(ctx, p.overwrite.baseSnapshotID, latest)
		if err != nil {
			return nil, err
		}
		in.SinceBase = since
	case p.kind == spec.CommitKindOverwrite:
		in.BaseSnapshotID = idOf(latest)
	}
	return live, nil
}

// increment is what one attempt of a part adds and deletes.
type increment struct {
	entries []spec.ManifestEntry
	index   []spec.IndexManifestEntry
	// rebased is set when the entries are not those of the part's delta
	// files (see rebaseOverwrite).
	rebased bool
}

// rebaseOverwrite returns what the attempt of part p on top of latest
// commits: the part's own entries, unless p is an overwrite whose target
// only compactions touched since its base (TargetCompacted). Its deletes,
// of the files live in the base, would then name files the compactions
// replaced; since a compaction never changes rows, deleting the target's
// files live in latest instead deletes exactly the rows the writer read.
// Those deletes depend on latest, so unlike the part's delta files they
// are written with the attempt's base files (see prepare).
func (r *run) rebaseOverwrite(ctx context.Context, p *part, latest *spec.Snapshot, in *ConflictInput, live []spec.ManifestEntry) (increment, error) {
	own := increment{entries: p.entries, index: p.index}
	if p.overwrite == nil || judgeOverwriteTarget(in).Change != TargetCompacted {
		return own, nil
	}
	liveIndex, err := r.indexEntries(ctx, latest)
	if err != nil {
		return increment{}, err
	}
	ow := p.overwrite
	return increment{
		entries: append(deletesInTarget(live, ow.target), ow.added...),
		index:   append(indexDeletesInTarget(liveIndex, ow.target), ow.addedIndex...),
		rebased: true,
	}, nil
}

// inPartitionsOf returns the entries of live in the partitions of delta.
func inPartitionsOf(delta, live []spec.ManifestEntry) []spec.ManifestEntry {
	changed := map[string]bool{}
	for i := range delta {
		changed[string(delta[i].Partition)] = true
	}
	// Count first: entries are large and live holds every file of the
	// table, so growing out by append copied them several times per commit.
	n := 0
	for i := range live {
		if changed[string(live[i].Partition)] {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]spec.ManifestEntry, 0, n)
	for i := range live {
		if changed[string(live[i].Partition)] {
			out = append(out, live[i])
		}
	}
	return out
}

// resolveOverwrite adds to an overwrite part, before its delta is
// written, a DELETE of every data and index file live in its base snapshot
// inside its target. The deletes come from the base, the snapshot the
// writer read, never from whatever is latest: files published since then
// are outside the target, or make CheckConflicts fail with
// OverwriteTargetChanged (apache/paimon#4802), or were produced by
// compactions, in which case an attempt re-bases the deletes onto them
// (rebaseOverwrite).
func (r *run) resolveOverwrite(ctx context.Context, p *part) error {
	ow := p.overwrite
	if ow == nil || ow.baseSnapshotID == 0 {
		return nil
	}
	base, found, err := r.readSnapshot(ctx, ow.baseSnapshotID)
	if err != nil {
		return err
	}
	if !found {
		return r.baseMissing(ctx, p)
	}
	live, err := r.liveEntries(ctx, base)
	if err != nil {
		return err
	}
	liveIndex, err := r.indexEntries(ctx, base)
	if err != nil {
		return err
	}
	p.entries = append(deletesInTarget(live, ow.target), ow.added...)
	p.index = append(indexDeletesInTarget(liveIndex, ow.target), ow.addedIndex...)
	return nil
}

// baseMissing reports an overwrite whose base snapshot no longer exists:
// its deletes cannot be computed, and the rows it would replace may have
// changed since.
func (r *run) baseMissing(ctx context.Context, p *part) error {
	latest, err := r.readLatest(ctx)
	if err != nil {
		return err
	}
	in := r.conflictInput(p, latest, 1)
	return in.conflict(OverwriteTargetChanged, in.Latest, nil,
		fmt.Sprintf("base snapshot %d does not exist (expired?)", p.overwrite.baseSnapshotID))
}

func deletesInTarget(live []spec.ManifestEntry, target *partitionMatcher) []spec.ManifestEntry {
	var out []spec.ManifestEntry
	for _, e := range live {
		if target.contains(e.Partition) {
			e.Kind = spec.FileKindDelete
			out = append(out, e)
		}
	}
	return out
}

func indexDeletesInTarget(live []spec.IndexManifestEntry, target *partitionMatcher) []spec.IndexManifestEntry {
	var out []spec.IndexManifestEntry
	for _, e := range live {
		if target.contains(e.Partition) {
			e.Kind = spec.FileKindDelete
			out = append(out, e)
		}
	}
	return out
}
