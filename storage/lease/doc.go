// Package lease protects the files a lakesql writer has written but not
// yet committed from orphan removal.
//
// # Why
//
// Orphan removal (storage/maintenance.RemoveOrphanFiles) deletes the files
// of a table that no snapshot, tag or branch references. Until its commit
// publishes them, that is what a writer's files are: the data files of a
// TableWriter after PrepareCommit, the manifests and manifest lists a
// commit writes before its snapshot put, a compaction's output, the temp
// file of a staged snapshot put. An age threshold protects them only if
// every write-and-commit is shorter than it; at zero age nothing does, and
// the snapshot published afterwards references files that are gone.
//
// # Leases
//
// A writer holds a lease on the table while it has such files: a small file
// <table>/_lakesql/leases/<uuid> (see Dir). Its protection start is the
// modification time the storage gave the lease file when it was created:
// every file modified at or after the start (less ClockSlack) may be a
// holder's, and orphan removal keeps it (Lease.Covers). Both times come from
// the storage's clock, so the clocks of writers never matter. Java Paimon's
// orphan cleaner lists only Paimon's own directories and never looks into
// _lakesql.
//
// A lease lives while its holder renews it: the holder rewrites the file,
// with the same content, whenever it is older than a third of the TTL at
// one of the holder's operations (Handle.Check), so the modification time
// of a lease whose holder is alive and working is never older than the
// TTL. A lease older than its TTL is stale (Lease.Stale): its holder died
// or stalled. Orphan removal ignores stale leases and deletes them.
//
// A holder that has not renewed for three quarters of the TTL, measured on
// its own clock from before its last successful write, takes its lease for
// lost (ErrExpired) and must not publish: orphan removal may have taken
// the lease for stale and deleted its files. The remaining quarter covers
// the difference between the remover's clock and the storage's, and the
// time between a holder's last check and its snapshot put. A holder that
// finds its lease file gone when renewing takes it for lost too.
//
// # Sharing
//
// One lease file serves every holder of a process on one table reached
// through one FileIO: a generation. Acquire joins the current generation,
// in memory, unless it started more than half the TTL ago; then a new
// generation starts for the new holders while the old one serves its
// holders until they release it. A generation's file is deleted when its
// last holder releases it. So how far back orphan removal keeps files is
// bounded by half the TTL plus the life of the oldest holder, and a steady
// stream of commits costs no lease I/O: only starting, renewing and ending
// a generation do.
//
// # The lease file
//
// JSON: {"version":1,"owner":"<process>","ttl-ms":<TTL>,"start":"<RFC 3339>"}.
// A lease that was never renewed does not record its start, which is then
// its modification time; its first renewal (a Stat, then the rewrite)
// learns the start and records it. Lease files are written as hints
// (fileio.OverwriteHint): a lease matters only while its holder lives, and
// a crash of the machine a local warehouse is on ends the holder as well.
package lease
