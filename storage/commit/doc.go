// Package commit publishes snapshots of a Paimon table: the commit path of
// Java's FileStoreCommitImpl, with the failure modes of two writers on one
// table made safe.
//
// A Committer turns a Request (the files a writer added and removed) into
// at most two snapshots: the data part (APPEND, or OVERWRITE) and the
// compact part (COMPACT), published in that order under the request's
// identifier. Each part is attempted until it is published or found to
// have landed:
//
//  1. Landed check. The user's receipt (commit-user/<user>, the newest
//     commit known to have landed) and a walk back from the latest snapshot
//     to it tell whether this identifier and part are already in the table,
//     so that a retried request never lands twice, even after its snapshot
//     expired. A snapshot of the same user this Committer did not publish
//     means a second live writer shares the user: SharedUserError.
//  2. Conflict check (CheckConflicts) against the live files of the latest
//     snapshot in the partitions the part changes; an overwrite computes its
//     deletes from the snapshot the writer read and fails if its target
//     changed since.
//  3. Metadata: delta manifests and list (written once, reused by every
//     retry), the base manifest list (latest's manifests, small ones
//     merged), the index manifest when index files change. A failure here
//     deletes what the attempt wrote.
//  4. Publish: snapshot-<latest+1> by FileIO.PutIfAbsent, the only commit
//     point. ErrExist means another commit won: retry, at once after the
//     first lost race in a row (the winner is already visible), then after
//     an exponential backoff with jitter from commit.min-retry-wait up to
//     commit.max-retry-wait, up to commit.max-retries or commit.timeout.
//     Any other error is resolved by reading the snapshot back; if that
//     fails the outcome is unknown and nothing is cleaned up.
//  5. After a publish: the LATEST hint and the receipt, both advisory and
//     written without waiting for durability where the FileIO allows
//     (fileio.HintWriter).
package commit
