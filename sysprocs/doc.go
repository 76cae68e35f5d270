// Package sysprocs holds the maintenance procedures a lakesql server answers
// as CALL sys.<name>(…): compaction, snapshot and tag retention, rollback,
// orphan file removal, partition expiry and the watermark gate. Each one
// resolves a table of the warehouse, checks the caller's privileges on it,
// calls the storage package that does the work (storage/compact,
// storage/maintenance) and returns a result set.
//
// Procedures is a sql.ExternalStoredProcedureProvider; the server hands it
// to the SQL backend, which answers CALL with it. It depends on the storage
// layer and go-mysql-server only, never on sqlbackend or server.
//
// # Calling conventions
//
// Arguments are positional; go-mysql-server has no named arguments. Trailing
// arguments may be left out. go-mysql-server passes NULL as the zero value
// of the parameter's type, so NULL, 0 and the empty string cannot be told apart: for every
// optional argument each of them means "the default" (the table option, or
// Paimon's default), and writing NULL is how a caller skips an argument to
// give a later one.
//
// A table is 'db.t' or 't' (in the current database); either part may be
// backquoted (`db`.`my.table`). Names match exactly, then
// case-insensitively, as the SQL layer resolves them.
//
// A point in time (older_than, and the value of wait_watermark) is a
// datetime 'YYYY-MM-DD[ HH:MM:SS[.fff]]' read in the session time zone
// (@@time_zone; SYSTEM is UTC) unless it ends with an offset, or, for
// older_than, an age as a Paimon duration with a unit ('12 h', '7 d',
// '30 min'), meaning that long before now. A retention time is a Paimon
// duration ('1 d', '12 h'; a bare number is milliseconds).
//
// # Procedures
//
// Result columns are listed after the arrow; "then a summary row" means one
// row per item followed by a row whose item column is NULL, as GROUP BY …
// WITH ROLLUP prints its total.
//
//	sys.compact('db.t' [, partitions] [, mode] [, options])
//	  → table, snapshot_id, files_rewritten, files_upgraded, files_written,
//	    bytes_read, bytes_written, attempts
//	  partitions: 'k=v,k2=v2' specs separated by ';' (any of them); empty is all.
//	  mode: 'full' (the default, as Paimon's batch compaction) or 'minor' (what
//	  the universal picker chooses). snapshot_id is NULL when there was
//	  nothing to compact.
//	  options: 'key=value,…' compaction options for this call alone, as
//	  Java's compact procedure takes them, e.g.
//	  'compaction.force-rewrite-all-files=true' to rewrite every file once
//	  (which gives old files the file indexes declared since).
//
//	sys.expire_snapshots('db.t' [, retain_max] [, retain_min] [, older_than] [, max_deletes])
//	  → table, snapshots_expired, data_files_deleted, changelog_files_deleted,
//	    manifests_deleted, index_files_deleted, statistics_files_deleted,
//	    manifest_lists_deleted, index_manifests_deleted
//	  Defaults: snapshot.num-retained.max, snapshot.num-retained.min,
//	  now minus snapshot.time-retained, snapshot.expire.limit.
//
//	sys.create_tag('db.t', 'tag' [, snapshot_id] [, time_retained])
//	  → table, tag, snapshot_id              (snapshot_id default: the latest)
//	  A tag name that is a number ('5', '-1') is refused: rollback_to and
//	  AS OF read a number as a snapshot id.
//	sys.delete_tag('db.t', 'tag')
//	  → table, tag, snapshot_id, files_deleted
//	sys.expire_tags('db.t' [, older_than])
//	  → table, tag, files_deleted, one row per expired tag then a summary row
//	sys.rollback_to('db.t', snapshot_id | 'tag')
//	  → table, snapshot_id, snapshots_deleted, tags_deleted, restored
//	  A whole number is a snapshot id, and so is a negative one (refused as
//	  out of range), anything else a tag name; a tag whose name is a number
//	  (one written by another engine) cannot be rolled back to. tags_deleted
//	  names the deleted tags, comma-separated; restored is 1 when the target
//	  had expired and was written back from its tag. As in Paimon, stop the
//	  writers first: a commit racing the rollback can bring rolled-back
//	  files back (the storage layer detects most such races, error 1213).
//
//	sys.remove_orphan_files('db.t' [, older_than] [, dry_run])
//	  → table, file_path, last_modified, files, bytes, deleted, one row per
//	    orphan old enough to remove (files 1, deleted 1 if this call deleted
//	    it), then a summary row (files and bytes of all of them, deleted the
//	    number deleted). last_modified is in the session time zone.
//	  The files of lakesql writers still running (SQL sessions, compactions,
//	  other lakesql servers) are kept at any older_than by their write
//	  leases; older_than, one day ago by default, is what protects the
//	  files of other engines' writers (Flink, Spark), so it must exceed
//	  their longest write. A datetime after now is refused.
//
//	sys.expire_partitions('db.t', expiration_time, timestamp_formatter [, timestamp_pattern])
//	  → table, partition, snapshot_id, files_deleted, one row per dropped
//	    partition then a summary row (files_deleted only there).
//	  Partition values are read as wall-clock times in the session time zone;
//	  timestamp_pattern builds the time from several keys ('$dt $hr:00:00').
//	  One call drops at most 100 partitions (Paimon's default
//	  partition.expiration-max-num); call again for more.
//
//	sys.wait_watermark('db.t', watermark_or_timestamp [, timeout_ms])
//	  → table, snapshot_id
//	  Blocks until the latest snapshot's watermark (its commit time when it
//	  has none) reaches the value: epoch milliseconds, or a datetime. It
//	  gives up after timeout_ms (default one minute) with error 3024, and stops
//	  at once on KILL QUERY.
//
//	sys.reconcile('db.t', source, 'srcdb.t' [, at] [, partitions] [, options])
//	  → kind, pk, columns, lake_row, source_row, count, snapshot_id,
//	    commit_user, commit_identifier, watermark
//	  Compares the table at snapshot at (id, tag or time; NULL the latest)
//	  with its source table on the server the configuration's sources name,
//	  by primary key, chunk checksums first (package reconcile). Totals
//	  come first (pk NULL, count set), then each writer's last snapshot up
//	  to at, then the differing keys (missing_in_lake, extra_in_lake,
//	  differs) up to the options' limit.
//
// # Privileges
//
// go-mysql-server lets a CALL run if the user may EXECUTE in the database
// that qualifies it (sys, so GRANT EXECUTE ON sys.* …) or in the current
// database for an unqualified CALL. That says nothing about the table the
// procedure acts on, so each procedure checks it too: wait_watermark and
// reconcile need SELECT on the table, every other procedure INSERT and
// DELETE, at the global, database or table level. A refusal is error 1142.
// reconcile also needs EXECUTE on itself (GRANT EXECUTE ON PROCEDURE
// sys.reconcile), since it reads the source with the server's account;
// without it the call gets error 1370. A user without
// EXECUTE gets go-mysql-server's own "Access denied for user … to database
// 'sys'" (error 1105). A server
// without accounts (an embedded engine) checks nothing, as go-mysql-server
// does.
//
// # Errors
//
// Errors are MySQL errors: 1305 an unknown procedure, 1318 a call with an
// argument count the procedure does not take, 1046 no database selected,
// 1049 unknown database, 1146 unknown table, 1103 bad table name, 1210 a
// bad argument (including a missing tag or snapshot), 1062 a tag that
// exists, 1235 unsupported,
// 1213 (SQLSTATE 40001) a conflict with a concurrent writer or maintenance
// run that a retry resolves, 1180 a terminal conflict or unknown outcome,
// 1296 corruption, 1317 an interrupted call, 3024 a watermark timeout.
package sysprocs
