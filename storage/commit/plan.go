package commit

import (
	"fmt"
	"maps"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// part is one snapshot a request publishes. As in Java's
// FileStoreCommitImpl.commit, the data increments of all messages form one
// part (APPEND, or OVERWRITE) and the compact increments another
// (COMPACT), published in that order under the same identifier. If the
// writer dies between the two, a retry of the request finds the data part
// landed and publishes only the compact part: the landed check tells the
// parts apart by kind (FindLanded, receipts). Java's filterCommitted
// instead takes the identifier as done and drops the compaction.
type part struct {
	kind      spec.CommitKind
	entries   []spec.ManifestEntry
	changelog []spec.ManifestEntry
	index     []spec.IndexManifestEntry
	// overwrite is set when the part replaces partitions.
	overwrite *overwriteScope

	// baseSnapshotID is the snapshot the writer planned against: the
	// overwrite's base, else the latest snapshot of the first attempt.
	baseSnapshotID int64
	// delta holds the part's own files, written before its first attempt
	// and reused by every attempt; deltaNamed is set once a snapshot put
	// named them, after which they are never deleted.
	delta      *deltaFiles
	deltaNamed bool
	// base holds the files an earlier attempt built on its latest
	// snapshot, for reuse by a retry on the same one.
	base *baseFiles
	// keysCheckedUpTo is the newest published snapshot the key check
	// (Request.KeyCheck) cleared this part against.
	keysCheckedUpTo int64
}

// overwriteScope is the target of an overwrite and the snapshot its
// deletes are computed from.
type overwriteScope struct {
	baseSnapshotID int64
	target         *partitionMatcher
	// added and addedIndex are the files the overwrite adds, to which
	// resolveOverwrite and rebaseOverwrite prepend the deletes.
	added      []spec.ManifestEntry
	addedIndex []spec.IndexManifestEntry
}

// planParts splits a request into the parts it publishes, in order.
func planParts(req *Request, t *tableLayout, dynamicOverwrite bool) ([]*part, error) {
	if err := validatePartitions(req.Messages, t); err != nil {
		return nil, err
	}
	data, compact := collectParts(req.Messages)
	var parts []*part
	switch {
	case req.Overwrite != nil:
		p, err := overwritePart(req.Overwrite, t, data, dynamicOverwrite)
		if err != nil {
			return nil, err
		}
		if p != nil {
			parts = append(parts, p)
		}
	case !data.isEmpty():
		data.kind = dataKind(data)
		parts = append(parts, data)
	}
	if !compact.isEmpty() {
		parts = append(parts, compact)
	}
	return parts, nil
}

// validatePartitions rejects messages whose partition rows this table
// cannot decode: manifest partition stats and overwrite targets are
// computed from the decoded values, so a bad row would make them wrong.
func validatePartitions(messages []Message, t *tableLayout) error {
	seen := map[string]bool{}
	for i := range messages {
		p := messages[i].Partition
		if seen[string(p)] {
			continue
		}
		seen[string(p)] = true
		if _, err := t.decodePartition(p); err != nil {
			return fmt.Errorf("message %d: %w: %w", i, ErrInvalidRequest, err)
		}
	}
	return nil
}

func collectParts(messages []Message) (data, compact *part) {
	data, compact = &part{}, &part{kind: spec.CommitKindCompact}
	for i := range messages {
		m := &messages[i]
		data.entries = appendEntries(data.entries, m, spec.FileKindAdd, m.NewFiles)
		data.entries = appendEntries(data.entries, m, spec.FileKindDelete, m.DeletedFiles)
		data.changelog = appendEntries(data.changelog, m, spec.FileKindAdd, m.ChangelogFiles)
		data.index = appendIndexEntries(data.index, m, spec.FileKindAdd, m.NewIndexFiles)
		data.index = appendIndexEntries(data.index, m, spec.FileKindDelete, m.DeletedIndexFiles)
		compact.entries = appendEntries(compact.entries, m, spec.FileKindDelete, m.CompactBefore)
		compact.entries = appendEntries(compact.entries, m, spec.FileKindAdd, m.CompactAfter)
		compact.changelog = appendEntries(compact.changelog, m, spec.FileKindAdd, m.CompactChangelog)
		compact.index = appendIndexEntries(compact.index, m, spec.FileKindAdd, m.CompactNewIndexFiles)
		compact.index = appendIndexEntries(compact.index, m, spec.FileKindDelete, m.CompactDeletedIndexFiles)
	}
	return data, compact
}

func appendEntries(out []spec.ManifestEntry, m *Message, kind spec.FileKind, files []spec.DataFileMeta) []spec.ManifestEntry {
	for _, f := range files {
		out = append(out, spec.ManifestEntry{Kind: kind, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
	}
	return out
}

func appendIndexEntries(out []spec.IndexManifestEntry, m *Message, kind spec.FileKind, files []spec.IndexFileMeta) []spec.IndexManifestEntry {
	for _, f := range files {
		out = append(out, spec.IndexManifestEntry{Kind: kind, Partition: m.Partition, Bucket: m.Bucket, IndexFile: f})
	}
	return out
}

func (p *part) isEmpty() bool {
	return len(p.entries)+len(p.changelog)+len(p.index) == 0
}

// dataKind is APPEND unless the data part removes files or changes
// deletion vectors, as a row-level DELETE or UPDATE does; Java then commits
// it as OVERWRITE (ConflictDetection.shouldBeOverwriteCommit), so that
// streaming readers do not read the rewrite as new rows.
func dataKind(p *part) spec.CommitKind {
	for i := range p.entries {
		if p.entries[i].Kind == spec.FileKindDelete {
			return spec.CommitKindOverwrite
		}
	}
	for i := range p.index {
		if p.index[i].IndexFile.IndexType == spec.IndexTypeDeletionVectors {
			return spec.CommitKindOverwrite
		}
	}
	return spec.CommitKindAppend
}

// overwritePart turns the data part into an OVERWRITE of the request's
// scope, or returns nil for a dynamic overwrite that writes no partition.
func overwritePart(ow *Overwrite, t *tableLayout, data *part, dynamicOverwrite bool) (*part, error) {
	if err := checkOverwriteIncrement(ow, data); err != nil {
		return nil, err
	}
	target, err := overwriteTarget(ow, t, data.entries, dynamicOverwrite)
	if err != nil || target == nil {
		return nil, err
	}
	for i := range data.entries {
		if !target.contains(data.entries[i].Partition) {
			return nil, fmt.Errorf("overwrite of %s adds file %s in partition %s outside it: %w",
				target, data.entries[i].File.FileName, t.formatPartition(data.entries[i].Partition), ErrInvalidRequest)
		}
	}
	if target.err != nil {
		return nil, target.err
	}
	return &part{
		kind:           spec.CommitKindOverwrite,
		entries:        data.entries,
		index:          data.index,
		overwrite:      &overwriteScope{baseSnapshotID: ow.BaseSnapshotID, target: target, added: data.entries, addedIndex: data.index},
		baseSnapshotID: ow.BaseSnapshotID,
	}, nil
}

// checkOverwriteIncrement rejects data increments an overwrite cannot
// express: it deletes whole partitions itself, so explicit deletes would
// delete twice, and it publishes no changelog (Java drops changelog files
// of an overwrite with a warning; lakesql refuses rather than orphan them).
func checkOverwriteIncrement(ow *Overwrite, data *part) error {
	for i := range data.entries {
		if data.entries[i].Kind == spec.FileKindDelete {
			return fmt.Errorf("overwrite deletes file %s explicitly: %w", data.entries[i].File.FileName, ErrInvalidRequest)
		}
	}
	for i := range data.index {
		if data.index[i].Kind == spec.FileKindDelete {
			return fmt.Errorf("overwrite deletes index file %s explicitly: %w", data.index[i].IndexFile.FileName, ErrInvalidRequest)
		}
	}
	if len(data.changelog) > 0 {
		return fmt.Errorf("overwrite carries %d changelog files: %w", len(data.changelog), ErrInvalidRequest)
	}
	if ow.Truncate && len(data.entries) > 0 {
		return fmt.Errorf("truncate adds %d files: %w", len(data.entries), ErrInvalidRequest)
	}
	return nil
}

// overwriteTarget resolves the scope documented on Overwrite.
func overwriteTarget(ow *Overwrite, t *tableLayout, added []spec.ManifestEntry, dynamicOverwrite bool) (*partitionMatcher, error) {
	switch {
	case ow.Truncate:
		return wholeTable(t), nil
	case ow.Static != nil:
		return staticPartitions(t, ow.Static)
	case dynamicOverwrite && t.partitioned():
		if len(added) == 0 {
			return nil, nil
		}
		return partitionsOf(t, added), nil
	}
	return wholeTable(t), nil
}

// partitionMatcher is the set of partitions an overwrite replaces.
type partitionMatcher struct {
	table *tableLayout
	// describe names the set in errors.
	describe string
	// matches decides on decoded partition values.
	matches func(values []any) bool
	// err keeps the first partition that did not decode: contains cannot
	// return it, and treating such a partition as outside the target would
	// silently keep its rows.
	err error
}

func (m *partitionMatcher) String() string { return m.describe }

func (m *partitionMatcher) contains(partition []byte) bool {
	values, err := m.table.decodePartition(partition)
	if err != nil {
		if m.err == nil {
			m.err = err
		}
		return false
	}
	return m.matches(values)
}

func wholeTable(t *tableLayout) *partitionMatcher {
	return &partitionMatcher{table: t, describe: "the whole table", matches: func([]any) bool { return true }}
}

func partitionsOf(t *tableLayout, entries []spec.ManifestEntry) *partitionMatcher {
	seen, names := map[string]bool{}, map[string]bool{}
	var rows [][]any
	for i := range entries {
		if seen[string(entries[i].Partition)] {
			continue
		}
		seen[string(entries[i].Partition)] = true
		names[t.formatPartition(entries[i].Partition)] = true
		// validatePartitions has decoded every partition of the request.
		values, _ := t.decodePartition(entries[i].Partition)
		rows = append(rows, values)
	}
	m := &partitionMatcher{table: t, describe: fmt.Sprintf("partitions %v", slices.Sorted(maps.Keys(names)))}
	m.matches = func(values []any) bool {
		return slices.ContainsFunc(rows, func(row []any) bool { return spec.CompareRows(t.partitionTypes, values, row) == 0 })
	}
	return m
}

func staticPartitions(t *tableLayout, static map[string]any) (*partitionMatcher, error) {
	positions := map[int]any{}
	for key, value := range static {
		idx := slices.Index(t.partitionKeys, key)
		if idx < 0 {
			return nil, fmt.Errorf("overwrite names %q, which is not a partition key of %v: %w", key, t.partitionKeys, ErrInvalidRequest)
		}
		if _, err := spec.SerializeBinaryRow(t.partitionTypes[idx:idx+1], []any{value}); err != nil {
			return nil, fmt.Errorf("overwrite value of %q: %w: %w", key, ErrInvalidRequest, err)
		}
		positions[idx] = value
	}
	m := &partitionMatcher{table: t, describe: fmt.Sprintf("static partition %v", static)}
	m.matches = func(values []any) bool {
		for idx, want := range positions {
			if spec.CompareValues(t.partitionTypes[idx], values[idx], want) != 0 {
				return false
			}
		}
		return true
	}
	return m, nil
}
