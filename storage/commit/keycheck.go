package commit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// KeyCheck asks a commit to its primary-key table to fail with a
// retryable WriteWriteConflict when a commit published after the snapshot
// its writer read also wrote one of the primary keys it writes: snapshot
// isolation with first-committer-wins, checked on keys. Without it a
// read-modify-write statement (UPDATE bal = bal + 1) silently overwrites
// a concurrent writer's change, since Paimon keeps whichever version has
// the higher sequence number and never compares keys across commits (see
// docs/isolation.md).
//
// The keys a commit writes are those of the files its data part adds,
// retractions included: a delete against an update of the same key is a
// conflict too. COMPACT snapshots never conflict, since they change no
// rows; an OVERWRITE snapshot conflicts when it touched a bucket the
// commit writes, since it deletes rows without naming their keys.
type KeyCheck struct {
	// BaseSnapshotID is the snapshot the writer read; 0 for an empty
	// table, when every snapshot is concurrent.
	BaseSnapshotID int64
}

// KeyScope says where a key of a table can live, and so which files of a
// concurrent commit may hold a key this commit writes.
type KeyScope int

const (
	// KeysInBucket: fixed buckets; a key is always in the same bucket of
	// its partition.
	KeysInBucket KeyScope = iota
	// KeysInPartition: dynamic or postponed buckets place a key in any
	// bucket of its partition (Paimon's HASH_DYNAMIC, bucket -2).
	KeysInPartition
	// KeysAnywhere: the primary key does not contain every partition key,
	// so an update may move a key to another partition (KEY_DYNAMIC).
	KeysAnywhere
)

// KeyCheckInput is everything DecideKeyCheck decides on: the key-level
// check is a pure function of the files of this commit, the deltas of the
// snapshots since its base and the keys of the files PlanKeyCheck names.
type KeyCheckInput struct {
	CommitUser       string
	CommitIdentifier int64
	Attempt          int
	BaseSnapshotID   int64
	// CheckedUpTo, if after the base, is the newest snapshot an earlier
	// check of the commit cleared; Since then starts after it.
	CheckedUpTo int64
	Latest      SnapshotRef
	// Mine holds the files this commit's data part adds.
	Mine []spec.ManifestEntry
	// Since holds the delta of every snapshot after BaseSnapshotID (or
	// CheckedUpTo) up to Latest, in id order; a COMPACT or ANALYZE snapshot may come without
	// entries, which the check never reads.
	Since []SnapshotDelta
	Scope KeyScope
	// KeyTypes decode the files' MinKey and MaxKey and order keys.
	KeyTypes []spec.DataType
	// KeyNames name the key columns in a conflict's message.
	KeyNames        []string
	FormatPartition func(partition []byte) string
}

// KeyCandidate is a file of a concurrent snapshot whose key range overlaps
// files of this commit in a place where they can share a key: only their
// keys tell whether they do.
type KeyCandidate struct {
	Snapshot SnapshotRef
	Theirs   spec.ManifestEntry
	Mine     []spec.ManifestEntry
}

// KeySource returns the keys of a file named by a candidate, sorted in key
// order; the caller reads them from the file.
type KeySource func(e *spec.ManifestEntry) ([][]any, error)

// PlanKeyCheck returns the pairs of files whose keys decide the check, or
// the conflict that needs no keys: a gap in the history (an expired
// snapshot cannot be shown to have left the keys alone), or an OVERWRITE
// snapshot that touched a place this commit writes. No candidate and no
// error means no conflict, without opening a data file.
func PlanKeyCheck(in KeyCheckInput) ([]KeyCandidate, error) {
	if gap := in.historyGap(); gap != "" {
		return nil, in.conflict(in.Latest, nil, gap)
	}
	mine, err := in.decodeRanges(in.Mine)
	if err != nil {
		return nil, err
	}
	if in.landedInHistory() {
		// An earlier attempt of this commit landed (its acknowledgement was
		// lost): it passed this check when it was published, and what other
		// writers did after it are later commits, not rivals. The landed
		// check, not this one, decides on the request.
		return nil, nil
	}
	var out []KeyCandidate
	for _, s := range in.Since {
		switch s.Snapshot.CommitKind {
		case spec.CommitKindCompact, spec.CommitKindAnalyze:
			continue
		case spec.CommitKindAppend:
			found, err := in.appendCandidates(s, mine)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		default:
			if e := in.touchedByOverwrite(s, mine); e != nil {
				return nil, in.conflict(s.Snapshot, []spec.ManifestEntry{*e},
					fmt.Sprintf("%s snapshot %d rewrote %s, where this commit writes", s.Snapshot.CommitKind, s.Snapshot.ID, in.place(e)))
			}
		}
	}
	return out, nil
}

// DecideKeyCheck returns a retryable *ConflictError naming the first keys
// a candidate and this commit both wrote, or nil if no candidate shares a
// key with this commit.
func DecideKeyCheck(in KeyCheckInput, candidates []KeyCandidate, keys KeySource) error {
	for i := range candidates {
		c := &candidates[i]
		theirs, err := keys(&c.Theirs)
		if err != nil {
			return err
		}
		for j := range c.Mine {
			mine, err := keys(&c.Mine[j])
			if err != nil {
				return err
			}
			if common := commonKeys(in.KeyTypes, theirs, mine, maxReportedKeys); len(common) > 0 {
				return in.conflict(c.Snapshot, []spec.ManifestEntry{c.Theirs, c.Mine[j]},
					fmt.Sprintf("primary key %s written by both", in.renderKeys(common)))
			}
		}
	}
	return nil
}

// maxReportedKeys bounds the keys a conflict names.
const maxReportedKeys = 3

// keyRange is a file's decoded MinKey and MaxKey.
type keyRange struct {
	entry    *spec.ManifestEntry
	min, max []any
}

func (in *KeyCheckInput) decodeRanges(entries []spec.ManifestEntry) ([]keyRange, error) {
	out := make([]keyRange, 0, len(entries))
	for i := range entries {
		if entries[i].Kind != spec.FileKindAdd {
			continue
		}
		r, err := in.decodeRange(&entries[i])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (in *KeyCheckInput) decodeRange(e *spec.ManifestEntry) (keyRange, error) {
	lo, err := spec.DeserializeBinaryRow(in.KeyTypes, e.File.MinKey)
	if err != nil {
		return keyRange{}, fmt.Errorf("commit: min key of file %s: %w", e.File.FileName, err)
	}
	hi, err := spec.DeserializeBinaryRow(in.KeyTypes, e.File.MaxKey)
	if err != nil {
		return keyRange{}, fmt.Errorf("commit: max key of file %s: %w", e.File.FileName, err)
	}
	return keyRange{entry: e, min: lo, max: hi}, nil
}

// appendCandidates pairs the files an APPEND snapshot wrote with the files
// of this commit that may share a key with them. Files a compaction wrote
// into an APPEND snapshot (Java's changelog compaction) hold no new rows.
func (in *KeyCheckInput) appendCandidates(s SnapshotDelta, mine []keyRange) ([]KeyCandidate, error) {
	var out []KeyCandidate
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Kind != spec.FileKindAdd || e.File.FileSource != nil && *e.File.FileSource == spec.FileSourceCompact {
			continue
		}
		theirs, err := in.decodeRange(e)
		if err != nil {
			return nil, err
		}
		var overlapping []spec.ManifestEntry
		for _, m := range mine {
			if in.samePlace(m.entry, e) && in.overlap(m, theirs) {
				overlapping = append(overlapping, *m.entry)
			}
		}
		if len(overlapping) > 0 {
			out = append(out, KeyCandidate{Snapshot: s.Snapshot, Theirs: *e, Mine: overlapping})
		}
	}
	return out, nil
}

// touchedByOverwrite returns an entry of an OVERWRITE (or unknown kind of)
// snapshot in a place this commit writes, or nil.
func (in *KeyCheckInput) touchedByOverwrite(s SnapshotDelta, mine []keyRange) *spec.ManifestEntry {
	for i := range s.Entries {
		for _, m := range mine {
			if in.samePlace(m.entry, &s.Entries[i]) {
				return &s.Entries[i]
			}
		}
	}
	return nil
}

// landedInHistory reports whether a snapshot of the history carries this
// commit's user and identifier.
func (in *KeyCheckInput) landedInHistory() bool {
	return slices.ContainsFunc(in.Since, func(s SnapshotDelta) bool {
		return s.Snapshot.CommitUser == in.CommitUser && s.Snapshot.CommitIdentifier == in.CommitIdentifier
	})
}

func (in *KeyCheckInput) samePlace(a, b *spec.ManifestEntry) bool {
	switch in.Scope {
	case KeysAnywhere:
		return true
	case KeysInPartition:
		return string(a.Partition) == string(b.Partition)
	}
	return string(a.Partition) == string(b.Partition) && a.Bucket == b.Bucket
}

func (in *KeyCheckInput) overlap(a, b keyRange) bool {
	return spec.CompareRows(in.KeyTypes, a.min, b.max) <= 0 && spec.CompareRows(in.KeyTypes, b.min, a.max) <= 0
}

// commonKeys returns up to limit keys present in both sorted key lists.
func commonKeys(types []spec.DataType, a, b [][]any, limit int) [][]any {
	var out [][]any
	for i, j := 0, 0; i < len(a) && j < len(b) && len(out) < limit; {
		switch c := spec.CompareRows(types, a[i], b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// historyGap describes why Since does not hold every snapshot after the
// base (or CheckedUpTo) up to Latest, or returns "".
func (in *KeyCheckInput) historyGap() string {
	first := max(in.BaseSnapshotID, in.CheckedUpTo) + 1
	missing := first + int64(len(in.Since))
	for i, s := range in.Since {
		if s.Snapshot.ID != first+int64(i) {
			missing = first + int64(i)
			break
		}
	}
	if missing > in.Latest.ID {
		return ""
	}
	return fmt.Sprintf("snapshot %d, committed after snapshot %d this commit read, is missing (expired?): cannot show it wrote none of this commit's keys", missing, in.BaseSnapshotID)
}

func (in *KeyCheckInput) place(e *spec.ManifestEntry) string {
	l := Location{Bucket: e.Bucket}
	if in.FormatPartition != nil {
		l.Partition = in.FormatPartition(e.Partition)
	}
	return l.String()
}

// renderKeys names keys as MySQL names a duplicate entry: values joined by
// '-', each key in quotes, with the key columns.
func (in *KeyCheckInput) renderKeys(keys [][]any) string {
	rendered := make([]string, len(keys))
	for i, k := range keys {
		parts := make([]string, len(k))
		for j, v := range k {
			parts[j] = renderKeyValue(in.KeyTypes[j], v)
		}
		rendered[i] = "'" + strings.Join(parts, "-") + "'"
	}
	return fmt.Sprintf("(%s) = %s", strings.Join(in.KeyNames, ", "), strings.Join(rendered, ", "))
}

func renderKeyValue(t spec.DataType, v any) string {
	if ts, ok := v.(spec.TimestampValue); ok {
		return ts.Format(t.Precision)
	}
	return fmt.Sprint(v)
}

// conflict builds the WriteWriteConflict error against snapshot s.
func (in *KeyCheckInput) conflict(s SnapshotRef, entries []spec.ManifestEntry, detail string) *ConflictError {
	ci := ConflictInput{
		CommitKind: spec.CommitKindAppend, CommitUser: in.CommitUser, CommitIdentifier: in.CommitIdentifier,
		Attempt: in.Attempt, BaseSnapshotID: in.BaseSnapshotID, FormatPartition: in.FormatPartition,
	}
	return ci.conflict(WriteWriteConflict, s, slices.Clone(entries), detail)
}
