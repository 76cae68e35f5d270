// Package metamorphic holds the model-based test of the write and commit
// paths with several writers on one table (style.md 8.4 item 5): the
// system-level proof that concurrent jobs on one primary-key table neither
// lose nor duplicate commits nor lose updates, and that their conflicts
// are reported in the documented classes. The package has no non-test code; this file only
// documents it.
//
// # Pipeline
//
// A seeded generator writes an ops list in a readable text syntax, one op
// per line (ops_test.go documents it). The list is parsed back and only the
// parsed list is executed, so the text file alone reproduces a run. The
// runner gives every writer its own TableWriter per batch, its own
// Committer and its own commit user, on its own fault-injecting view
// (timeoutFS) of one shared memio table, and runs the ops either serially in list order
// (deterministic: the interleaving of the list is the schedule) or with one
// goroutine per writer (real races: lost publishes, backoff, retries).
//
// The checker then reads the snapshot log, the source of truth for the
// serialization order, and asserts:
//   - snapshot ids are 1..latest, without gaps;
//   - each (commit user, identifier) landed at most once per part (the
//     APPEND or OVERWRITE data part, and the COMPACT part, which share the
//     identifier), and every snapshot belongs to a request of the ops;
//   - what each Commit call said agrees with the log: a part it reported
//     published or already landed is in the log once, at the reported id;
//     a part it failed with a conflict is absent;
//   - every error is of a documented class (lakeerr.ErrRetryableConflict,
//     ErrTerminalConflict, ErrUnknownOutcome), and of the kind the request
//     can meet, for a reason the log shows: an APPEND only loses races
//     (RetryExhaustedError, and never in a serial run); an overwrite may
//     also meet OverwriteTargetChanged, naming a snapshot after its base
//     that touched its target; a COMPACT part (an upgrade) may meet
//     DeletedFileNotLive, its file being no longer live there, or
//     KeyRangeOverlap, a file of its level overlapping it there; a
//     read-modify-write batch may meet WriteWriteConflict, naming another
//     request's snapshot after its base that wrote one of its keys (an
//     APPEND) or changed one of its partitions (an OVERWRITE), never a
//     COMPACT one; ErrUnknownOutcome only after an injected fault;
//   - of the requests of one read-modify-write statement (its first and
//     its re-runs), at most one landed;
//   - each user's receipt names a snapshot of that user, identifier and
//     kind (it may lag, never lead);
//   - each snapshot's delta changed the partitions its request wrote;
//   - no OVERWRITE snapshot has, between its base and itself, a snapshot
//     that changed a partition it replaced (it must have failed with the
//     retryable OverwriteTargetChanged instead), as the delta manifests
//     show;
//   - table.Read at every snapshot id equals the model replayed up to it;
//   - at every snapshot each counter (a hot key of the incr ops) reads the
//     number of increments that landed since it was last absent, and
//     every landed increment read a snapshot at or after the last one
//     that changed its key (first-committer-wins): no lost update.
//
// # The model
//
// The model replays the landed requests in snapshot-id order: APPEND adds
// the batch's records, OVERWRITE first empties its target partitions,
// COMPACT changes no row. For a primary-key table a key shows the record
// with the largest sequence, a DELETE record hiding the key (the
// deduplicate merge engine). Every blind record's sequence is the index
// of the op that wrote it (counters, below, are the exception), and the
// workload makes that agree with Paimon's rule,
// under which the record with the largest sequence number wins whatever
// the commit order:
//   - disjoint keys (the default): each writer owns a key range inside the
//     shared partitions and buckets. Paimon's sequence numbers are per
//     writer, so across writers they decide nothing, but they never need
//     to: no blind key has two writers. Within a writer, each batch opens a fresh
//     TableWriter, which restores its sequence numbers above every live
//     file of the bucket, so a later op always has a larger sequence.
//   - shared keys: every writer writes every key, and the table declares
//     sequence.field=seq, a column holding the op index. Paimon then
//     orders records by it, across writers, whatever the commit order;
//     a late commit of an early op loses to an earlier commit of a later
//     op, and the model says so.
//
// An append table keeps every inserted row; an overwrite empties its
// target partitions first.
//
// # Read-modify-write
//
// In every primary-key configuration a third or so of the batches are
// read-modify-write statements, an autocommit UPDATE v = v + 1 of one or
// two of three hot counters shared by all writers (two in partition d1,
// one in d2): each incr op reads its key at the batch's base through
// table.Read, writes v+1, and the commit carries KeyCheck on that base.
// After a WriteWriteConflict the writer re-runs the rows on the latest
// snapshot as a new request with the next identifier, a bounded number of
// times, as the server does; faults and retries of the same identifier
// work as for other batches. Blind rows never touch counter keys, so a
// counter changes only by increments and by overwrites of its partition,
// which the counter model takes to empty it. The row model cannot see a
// lost update (it replays the values written, and two increments of one
// read write the same value); the counter model counts increments
// instead. Each incr row's seq is one more than the seq it read: with
// first-committer-wins that grows with the commit order, which is the
// order the model's rule, sequence.field and Paimon's own sequence
// numbers (restored by each batch's TableWriter) all need to agree on.
//
// # Reproducing
//
// Configurations: primary-key tables with 1, 2 and 4 buckets (disjoint
// keys), 2 buckets with shared keys, 2 buckets with commit.max-retries=1
// (writers run out of retries and re-run the request, as in the
// incident), and an append table. The ops mix upserts, UPDATE_AFTER and
// DELETE rows, static, dynamic and empty overwrites, truncates, upgrade
// compactions, read-modify-write increments, timeouts (lost ack or lost
// put, and a failed read-back) and re-runs of a request on the same or a
// new Committer.
//
// Every run logs its seed, configuration and the command that reproduces
// it; a failing run also writes its ops list and history to a directory it
// names. Flags: -metamorphic.seed, -metamorphic.ops (replay an ops file),
// -metamorphic.long (many random seeds, longer workloads),
// -metamorphic.seeds, -metamorphic.keep (write every run's ops list and
// history).
package metamorphic
