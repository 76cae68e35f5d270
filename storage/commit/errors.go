package commit

import (
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// ConflictKind says why a commit cannot be published on top of the latest
// snapshot.
//
// # Retryable or terminal
//
// "Retryable" (lakeerr.ErrRetryableConflict, MySQL 1213 / SQLSTATE 40001)
// means: re-running the statement from scratch against the new latest
// snapshot can succeed, so the SQL layer lets the client retry. "Terminal"
// (lakeerr.ErrTerminalConflict) means: no retry of this commit can succeed,
// and retrying the statement blindly is either pointless or harmful; the
// owner has to rebuild its state first. Neither class is retried inside the
// commit loop, which only retries lost publish races.
//
//   - BucketCountChanged: terminal. The files were hashed into buckets with
//     the old count. The usual cause is a writer configured with a bucket
//     count the table's data does not have, which a retry repeats forever;
//     a concurrent rescale needs the writer rebuilt, not a retry.
//   - InvalidDelta: terminal. The commit contradicts itself (a writer bug);
//     the same plan fails the same way every time.
//   - FileAddedTwice: terminal. The usual cause is a retry after a timeout
//     whose first attempt did land. Retrying the statement would write the
//     same rows again under new file names, so the caller must treat the
//     batch as committed (see FindLanded) rather than retry.
//   - OverwriteTargetChanged: retryable. The overwrite computed its deletes
//     against the snapshot it read; rows committed to its target since then
//     would survive it (or, in Paimon, be deleted unseen, apache/paimon#4802).
//     Re-running the statement plans against the new rows. Compactions of
//     the target do not count: they change no rows, and the Committer
//     re-bases the deletes onto their output instead.
//   - WriteWriteConflict: retryable. A commit published after the snapshot
//     this one's writer read wrote a primary key this one writes (see
//     KeyCheck). Re-running the statement reads the winner's row and
//     derives its write from it, as a lock-based database would have
//     made it wait for the winner and then read it.
//   - DeletedFileNotLive and KeyRangeOverlap: terminal for COMPACT, retryable
//     otherwise. Someone else rewrote the files this commit builds on. A
//     compactor's in-memory levels are then stale, so it must drop its
//     result and re-plan from the latest snapshot (apache/paimon#3143 shows
//     that retrying it as is fails every later commit too); compaction
//     only rewrites, so nothing is lost. A statement (row-level DELETE,
//     UPDATE, OVERWRITE) re-planned from the latest snapshot succeeds.
type ConflictKind int

const (
	// BucketCountChanged: entries of one partition disagree on the total
	// bucket count, and the commit is not an overwrite that rescales it.
	BucketCountChanged ConflictKind = iota + 1
	// InvalidDelta: the commit's own entries add a file twice, or delete a
	// file and add it back, which scans cannot represent.
	InvalidDelta
	// OverwriteTargetChanged: a snapshot other than a compaction,
	// committed after the overwrite's base, touched a partition the
	// overwrite replaces.
	OverwriteTargetChanged
	// FileAddedTwice: the commit adds a file that is already live.
	FileAddedTwice
	// DeletedFileNotLive: the commit deletes a file that is no longer live,
	// because another commit compacted, upgraded or overwrote it.
	DeletedFileNotLive
	// KeyRangeOverlap: two files of one LSM level >= 1 of a bucket overlap
	// in key range, which breaks the sorted-run invariant reads rely on.
	KeyRangeOverlap
	// WriteWriteConflict: a snapshot published after the writer's base
	// wrote a primary key this commit writes, or may have (see KeyCheck).
	WriteWriteConflict
)

var conflictKindNames = map[ConflictKind]string{
	BucketCountChanged:     "bucket count changed",
	InvalidDelta:           "commit adds a file twice or re-adds a deleted file",
	OverwriteTargetChanged: "overwrite target changed since base",
	FileAddedTwice:         "file added twice",
	DeletedFileNotLive:     "deleted file no longer live",
	KeyRangeOverlap:        "LSM key ranges overlap at level >= 1",
	WriteWriteConflict:     "write-write conflict on a primary key",
}

func (k ConflictKind) String() string {
	if name, ok := conflictKindNames[k]; ok {
		return name
	}
	return fmt.Sprintf("ConflictKind(%d)", int(k))
}

// SnapshotRef is what an incident report needs to know about a snapshot.
type SnapshotRef struct {
	// ID is 0 when there is no snapshot (the table is empty).
	ID               int64
	CommitUser       string
	CommitIdentifier int64
	CommitKind       spec.CommitKind
	// Digest is the content digest the snapshot records; zero if none.
	Digest Digest
}

// RefOf returns the reference of a snapshot.
func RefOf(s *spec.Snapshot) SnapshotRef {
	return SnapshotRef{ID: s.ID, CommitUser: s.CommitUser, CommitIdentifier: s.CommitIdentifier, CommitKind: s.CommitKind,
		Digest: snapshotDigest(s.Properties)}
}

func (r SnapshotRef) String() string {
	if r.ID == 0 {
		return "no snapshot"
	}
	return fmt.Sprintf("snapshot %d (user=%s identifier=%d kind=%s)", r.ID, r.CommitUser, r.CommitIdentifier, r.CommitKind)
}

// Location is one bucket of one partition, as people read it.
type Location struct {
	// Partition is rendered by the caller's formatter; empty for an
	// unpartitioned table.
	Partition string
	Bucket    int32
}

// String follows the table's directory layout, so the location can be
// pasted into a file listing.
func (l Location) String() string {
	if l.Partition == "" {
		return fmt.Sprintf("bucket-%d", l.Bucket)
	}
	return fmt.Sprintf("%s/bucket-%d", l.Partition, l.Bucket)
}

// maxReportedFiles bounds the file list of a ConflictError, so one commit of
// thousands of files still produces a one-line message.
const maxReportedFiles = 10

// ConflictError reports a commit that conflicts with a concurrent one. It
// carries the facts an incident report needs: the snapshot the writer read,
// the snapshot it conflicted with, both commit users and identifiers, the
// partitions and buckets involved, and the attempt count.
//
// errors.Is(err, lakeerr.ErrRetryableConflict) or
// errors.Is(err, lakeerr.ErrTerminalConflict) tells the class; ConflictKind
// documents which kinds are which and why.
type ConflictError struct {
	Kind ConflictKind
	// CommitKind is the kind of the rejected commit; it decides the class of
	// DeletedFileNotLive and KeyRangeOverlap.
	CommitKind       spec.CommitKind
	CommitUser       string
	CommitIdentifier int64
	// Attempt counts publish attempts of this commit, from 1.
	Attempt int
	// BaseSnapshotID is the snapshot the writer read; 0 for an empty table.
	BaseSnapshotID int64
	// Conflicting is the snapshot the commit conflicts with: the latest one,
	// or for OverwriteTargetChanged the first one that touched the target,
	// or for DeletedFileNotLive the first one after the writer's read that
	// deleted a named file (see Request.ReadSnapshotID).
	Conflicting SnapshotRef
	Locations   []Location
	// Files names the offending files, at most maxReportedFiles of them;
	// OmittedFiles counts the rest.
	Files        []string
	OmittedFiles int
	// Detail is the kind-specific fact, e.g. the two bucket counts.
	Detail string
}

// Retryable reports whether re-planning the statement from the latest
// snapshot can succeed; see ConflictKind for the reasons.
func (e *ConflictError) Retryable() bool {
	switch e.Kind {
	case OverwriteTargetChanged, WriteWriteConflict:
		return true
	case DeletedFileNotLive, KeyRangeOverlap:
		return e.CommitKind != spec.CommitKindCompact
	}
	return false
}

// Unwrap returns the class, so errors.Is matches the lakeerr sentinel.
func (e *ConflictError) Unwrap() error {
	if e.Retryable() {
		return lakeerr.ErrRetryableConflict
	}
	return lakeerr.ErrTerminalConflict
}

// Error renders one line: class and kind, then this commit, then the
// snapshot it lost to, then where, then which files.
func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): commit user=%s identifier=%d kind=%s attempt=%d",
		e.Unwrap(), e.Kind, e.CommitUser, e.CommitIdentifier, e.CommitKind, e.Attempt)
	fmt.Fprintf(&b, " read %s, conflicts with %s", baseName(e.BaseSnapshotID), e.Conflicting)
	if len(e.Locations) > 0 {
		fmt.Fprintf(&b, "; in %s", joinStrings(e.Locations))
	}
	if len(e.Files) > 0 {
		fmt.Fprintf(&b, "; files %s", strings.Join(e.Files, ", "))
		if e.OmittedFiles > 0 {
			fmt.Fprintf(&b, " and %d more", e.OmittedFiles)
		}
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, "; %s", e.Detail)
	}
	return b.String()
}

func baseName(id int64) string {
	if id == 0 {
		return "no snapshot"
	}
	return fmt.Sprintf("snapshot %d", id)
}

func joinStrings[T fmt.Stringer](items []T) string {
	parts := make([]string, len(items))
	for i, item := range items {
		parts[i] = item.String()
	}
	return strings.Join(parts, ", ")
}

// RetryExhaustedError reports a commit that kept losing the publish race
// (or whose puts kept failing without landing) until commit.max-retries or
// commit.timeout. It is retryable: nothing was published, and re-running
// the statement later can succeed. It carries the facts of the incident:
// the snapshot the writer read, the snapshot that won last and who wrote
// it, this commit's user and identifier, where it wrote, and how often it
// tried.
type RetryExhaustedError struct {
	Reason           string
	CommitKind       spec.CommitKind
	CommitUser       string
	CommitIdentifier int64
	// BaseSnapshotID is the snapshot the writer read: the overwrite's base,
	// else the latest snapshot of the first attempt; 0 for an empty table.
	BaseSnapshotID int64
	// Latest is the snapshot that took the id the last attempt wanted, or,
	// when the last put failed without landing, the one it built on. Only
	// its ID is set if it could not be read back.
	Latest    SnapshotRef
	Locations []Location
	Attempts  int
	// Cause is the I/O error of the last attempt's put, when it failed
	// without landing; nil when it lost the race.
	Cause error
}

// Unwrap returns the class and the last cause.
func (e *RetryExhaustedError) Unwrap() []error {
	if e.Cause == nil {
		return []error{lakeerr.ErrRetryableConflict}
	}
	return []error{lakeerr.ErrRetryableConflict, e.Cause}
}

func (e *RetryExhaustedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: commit user=%s identifier=%d kind=%s attempts=%d read %s, lost to %s",
		lakeerr.ErrRetryableConflict, e.Reason, e.CommitUser, e.CommitIdentifier, e.CommitKind, e.Attempts,
		baseName(e.BaseSnapshotID), e.Latest)
	if len(e.Locations) > 0 {
		fmt.Fprintf(&b, "; in %s", joinStrings(e.Locations))
	}
	if e.Cause != nil {
		fmt.Fprintf(&b, "; last put failed: %v", e.Cause)
	}
	return b.String()
}

// SharedUserError reports that another live writer commits under this
// Committer's commit user. Idempotent retries tell commits apart by
// (user, identifier), so two writers sharing a user would take each
// other's commits for their own and drop them as already committed; the
// Committer refuses to publish instead. It is terminal: the writers must
// be given distinct users.
type SharedUserError struct {
	CommitUser string
	// Foreign is the snapshot (or receipt) the other writer published.
	Foreign SnapshotRef
	// Own is the newest snapshot this Committer published for the user;
	// 0 if it has published none.
	Own int64
}

// Unwrap returns the class.
func (e *SharedUserError) Unwrap() error { return lakeerr.ErrTerminalConflict }

func (e *SharedUserError) Error() string {
	own := "none yet"
	if e.Own != 0 {
		own = fmt.Sprintf("snapshot %d", e.Own)
	}
	return fmt.Sprintf("%s: commit user %s is used by two live writers: %s is not this writer's (its newest is %s)",
		lakeerr.ErrTerminalConflict, e.CommitUser, e.Foreign, own)
}

// CompactPartError reports a request whose data part (APPEND or OVERWRITE)
// is in the table, published by this Commit or found landed before, and
// whose compact part then failed. The rows are committed; the compaction
// is not, unless Err wraps lakeerr.ErrUnknownOutcome, when it may be. A
// writer that compacts inline can therefore report its write as done and
// drop the compaction: a compaction only rewrites rows the table already
// holds, so losing it, e.g. to a compaction service that rewrote the same
// files first, loses nothing but the work.
//
// Err keeps the compact part's class (lakeerr.ErrTerminalConflict for a
// lost conflict, ErrUnknownOutcome, ...), which errors.Is and errors.As
// see through the wrapper; the message is Err's.
type CompactPartError struct {
	Err error
}

func (e *CompactPartError) Error() string { return e.Err.Error() }

// Unwrap returns the compact part's error.
func (e *CompactPartError) Unwrap() error { return e.Err }

// IdentityError reports a commit whose user and identifier the table's
// history contradicts (see JudgeLanded): a snapshot, or the receipt, of
// the same user and identifier holds other rows (OtherContent), or the
// user committed a newer identifier and nothing shows this one landed
// (NotProven). Paimon would take either for "already committed" and drop
// the rows silently; nothing is written instead. It is terminal: the
// writer needs a commit user of its own, or a new identifier.
type IdentityError struct {
	CommitUser string
	Identifier int64
	Kind       spec.CommitKind
	Outcome    LandedOutcome
	// Snapshot is the snapshot or receipt that contradicts the request.
	Snapshot SnapshotRef
	// Digest is the request's content digest.
	Digest Digest
}

// Unwrap returns the class.
func (e *IdentityError) Unwrap() error { return lakeerr.ErrTerminalConflict }

func (e *IdentityError) Error() string {
	if e.Outcome == OtherContent {
		return fmt.Sprintf("%s: commit user %s identifier %d already landed in %s with other rows (content digest %s; this commit's %s): "+
			"two writers share one commit user, or a re-run statement computed other rows than its first run; nothing was written. "+
			"Give each writer a commit user of its own, or this commit a new identifier",
			lakeerr.ErrTerminalConflict, e.CommitUser, e.Identifier, e.Snapshot, e.Snapshot.Digest, e.Digest)
	}
	return fmt.Sprintf("%s: commit user %s already committed identifier %d in %s, newer than this commit's identifier %d, "+
		"and no retained snapshot shows identifier %d: two writers share one commit user, or identifier %d is reused; nothing was written "+
		"(Paimon would skip it as already committed)",
		lakeerr.ErrTerminalConflict, e.CommitUser, e.Snapshot.CommitIdentifier, e.Snapshot, e.Identifier, e.Identifier, e.Identifier)
}
