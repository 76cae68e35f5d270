// Package commit publishes snapshots of a Paimon table: the commit path of
// Java's FileStoreCommitImpl, with the failure modes of two writers on one
// table made safe.
//
// A Committer turns a Request (the files a writer added and removed) into
// at most two snapshots: the data part (APPEND, or OVERWRITE) and the
// compact part (COMPACT), published in that order under the request's
// identifier. Each part first checks the user's receipt
// (commit-user/<user>, the newest commit known to have landed): if it shows
// the part landed, nothing is done. Otherwise the part writes its delta
// manifests and list, which do not depend on the latest snapshot (for an
// overwrite, with the deletes of its target's files in the snapshot the
// writer read), and is attempted until it is published or found to have
// landed:
//
//  1. Landed check. A walk back from the latest snapshot to the receipt's
//     tells whether this identifier and part are already in the table, so
//     that a retried request never lands twice, even after its snapshot
//     expired. A snapshot of the same user this Committer did not publish
//     means a second live writer shares the user: SharedUserError.
//  2. Conflict check (CheckConflicts) against the live files of the latest
//     snapshot in the partitions the part changes; an overwrite fails if
//     a snapshot other than a compaction touched its target since the
//     snapshot the writer read. If only compactions did, which rewrite
//     files but never change rows, the attempt re-bases the overwrite's
//     deletes onto the target's files live in the latest snapshot
//     (JudgeOverwriteTarget); that delta depends on the latest snapshot,
//     so it is written with the attempt's base files (step 3), and the
//     part's own delta is deleted unless a put named it.
//  3. Metadata: the base manifest list (latest's manifests, small ones
//     merged) and the index manifest when index files change. A failure
//     here deletes what the attempt wrote.
//  4. Publish: snapshot-<latest+1> by FileIO.PutIfAbsent, the only commit
//     point. ErrExist means another commit won: retry, at once after the
//     first lost race in a row (the winner is already visible), then after
//     an exponential backoff with jitter from commit.min-retry-wait up to
//     commit.max-retry-wait, up to commit.max-retries or commit.timeout.
//     Any other error is resolved by reading the snapshot back; if that
//     fails the outcome is unknown and nothing is cleaned up. Expiry can
//     free an id again: right before the put the attempt checks that the
//     snapshot it built on still exists, and after it that its snapshot
//     extends the history rather than re-creating an expired id (a
//     phantom, withdrawn and retried; see offChain). Each snapshot names
//     the one it built on in the property lakesql.parent-uuid.
//  5. After a publish: the LATEST hint and the receipt, both advisory and
//     written without waiting for durability where the FileIO allows
//     (fileio.HintWriter).
//
// A part that ends unpublished (a conflict, an error, found landed) deletes
// its delta files unless a snapshot put named them.
//
// # Group commit
//
// The Committers of one process on one branch of one table, reached
// through one FileIO, never race each other for a snapshot id: their
// attempts queue in a group, and the caller that finds no attempt running
// leads a batch of all queued attempts, then hands the lead to the oldest
// attempt still queued. A batch reads the latest snapshot once and plans
// its attempts in order, each on top of the snapshot the one before it
// will publish (landed check, conflict check, base list), so each request
// still gets its own snapshot, conflict check and outcome. The base files
// of all attempts are written concurrently; the snapshots are put strictly
// in order, each after its own files and the snapshot before it are
// durable, so a crash between two puts leaves contiguous ids and complete
// snapshots. The LATEST hint is written once per batch, by the newest
// snapshot's caller, and the group remembers the snapshot it published
// last instead of reading the hint.
//
// An attempt that publishes nothing leaves the chain as it was. A put that
// does not land (a race lost to another process or another FileIO, an I/O
// error) ends that attempt as above, and every attempt planned after it in
// the batch is superseded: its base files are deleted, and it is planned
// again, first in the next batch, without counting as an attempt. So a
// failure of one request is never another's, and a request's error still
// says whether it may have landed (lakeerr.ErrUnknownOutcome).
package commit
