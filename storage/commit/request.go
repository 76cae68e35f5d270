package commit

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidRequest marks a Request no retry can make valid: a bad commit
// user, partitions that do not decode, an overwrite that contradicts itself.
var ErrInvalidRequest = errors.New("invalid commit request")

// Request is one commit: everything a writer changed since its last commit.
// Mirrors the committable of Java's FileStoreCommitImpl.commit and
// overwritePartition.
type Request struct {
	// CommitUser names the writer. It must be unique per live writer (see
	// SharedUserError) and usable as a file name: receipts are stored under
	// it. Batch writers that commit with spec.BatchCommitIdentifier need a
	// fresh user per job, as in Java.
	CommitUser string
	// Identifier orders the commits of one user; a user commits increasing
	// identifiers, and a retry of a commit reuses its identifier.
	Identifier int64
	Messages   []Message
	// Watermark, if set, advances the table watermark; the snapshot keeps
	// the maximum of it and the previous one.
	Watermark  *int64
	Properties map[string]string
	// Overwrite, if set, makes the data part an INSERT OVERWRITE.
	Overwrite *Overwrite
	// KeyCheck, if set, fails the data part of a commit to a primary-key
	// table with a retryable WriteWriteConflict when a commit published
	// since the writer's read wrote one of its keys. Writers whose rows
	// derive from rows they read (UPDATE, DELETE … WHERE, upserts that
	// read the old row) set it; blind upserts are last-writer-wins, as in
	// Paimon, and leave it nil.
	KeyCheck *KeyCheck
	// ReadSnapshotID is the snapshot the writer read and planned its
	// files and compactions against; 0 when unknown or the table was
	// empty. It decides nothing: a conflict report names it, and the
	// snapshot after it that deleted a file this commit builds on.
	ReadSnapshotID int64
}

// Overwrite says which partitions an OVERWRITE replaces, and against which
// snapshot the writer planned it.
//
// The scope is, in order of precedence:
//   - Truncate: the whole table, and the request may add no files;
//   - Static non-nil: the partitions whose named keys equal the given values
//     (a partial spec; an empty map is the whole table), and every new file
//     must lie in them;
//   - otherwise, with dynamic-partition-overwrite (the default) on a
//     partitioned table: the partitions of the new files, and nothing at
//     all when there are none (Java skips such an overwrite);
//   - otherwise the whole table.
type Overwrite struct {
	// BaseSnapshotID is the snapshot the writer read; 0 for an empty table.
	// The overwrite deletes the files live in it, and fails with a
	// retryable OverwriteTargetChanged conflict if a later snapshot other
	// than a compaction touched the target, rather than delete rows the
	// writer never saw. After compactions only, it deletes the files
	// they left in the target, which hold the rows the writer read.
	BaseSnapshotID int64
	// Static maps partition keys to values, typed as in spec/values.go
	// (nil matches a null partition value).
	Static   map[string]any
	Truncate bool
}

// Result says what a Commit did.
type Result struct {
	// Snapshots lists the ids this call published, in order: none, one, or
	// two (an APPEND or OVERWRITE snapshot, then a COMPACT one).
	Snapshots []int64
	// AlreadyCommittedIn is the newest snapshot showing that (part of) the
	// request landed before this call; 0 if none did. When only the receipt
	// of a later identifier survives expiry, it is that later snapshot.
	AlreadyCommittedIn int64
	// Warnings holds failures after a successful publish: the LATEST hint
	// and the commit-user receipt are accelerators, so failing to write
	// them does not fail the commit, but the caller should log them.
	Warnings []error
}

// AlreadyCommitted reports whether the whole request had landed before.
func (r Result) AlreadyCommitted() bool {
	return len(r.Snapshots) == 0 && r.AlreadyCommittedIn != 0
}

func (r Result) String() string {
	switch {
	case r.AlreadyCommitted():
		return fmt.Sprintf("already committed in snapshot %d", r.AlreadyCommittedIn)
	case r.AlreadyCommittedIn != 0:
		return fmt.Sprintf("published snapshots %v (already committed in snapshot %d)", r.Snapshots, r.AlreadyCommittedIn)
	case len(r.Snapshots) == 0:
		return "nothing to commit"
	}
	return fmt.Sprintf("published snapshots %v", r.Snapshots)
}

// maxUserNameBytes keeps a receipt name within every file system's limit.
const maxUserNameBytes = 200

// validateCommitUser rejects a user that cannot be a plain file name in the
// commit-user directory: anything that could name another directory
// ("..", "a/b"), a hidden or temporary file (".x"), or that a shell or a
// listing would render ambiguously (control characters).
func validateCommitUser(user string) error {
	bad := func(why string) error {
		return fmt.Errorf("commit user %q %s: %w", user, why, ErrInvalidRequest)
	}
	switch {
	case user == "":
		return bad("is empty")
	case len(user) > maxUserNameBytes:
		return bad(fmt.Sprintf("is longer than %d bytes", maxUserNameBytes))
	case !utf8.ValidString(user):
		return bad("is not UTF-8")
	case strings.HasPrefix(user, "."):
		return bad("starts with a dot")
	case strings.ContainsAny(user, `/\`):
		return bad("contains a path separator")
	case strings.ContainsFunc(user, unicode.IsControl):
		return bad("contains a control character")
	}
	return nil
}
