// Package sqlbackend exposes a Paimon warehouse to go-mysql-server v0.20.0:
// databases are the catalog's databases, tables are Paimon tables, and every
// read is pinned to one snapshot.
//
// # Snapshot pinning
//
// GMS starts a transaction before it binds the tables of a statement
// (go-mysql-server.md §1.5, §4.2), so a Table is always opened inside one.
// The transaction pins each table at its first use: in autocommit mode the
// transaction is the statement, so a statement reads the latest snapshot of
// each table as of its start; in an explicit transaction every later
// statement reads the same pinned snapshot, and a table first used later in
// the transaction is pinned at the newest snapshot committed before the
// transaction's read view was taken (its first read, or START TRANSACTION
// WITH CONSISTENT SNAPSHOT), the way InnoDB's read views behave.
//
// # Pushdown
//
// FilteredTable is never called by v0.20.0, so filters are pushed through
// IndexSearchableTable.LookupForExpressions into the storage predicate
// (planner.PushFilters); the table prunes manifests, partitions, buckets and
// files with it and filters rows, and PreciseMatch is false, so the engine
// still evaluates the whole filter above the scan. The lookup's String() is
// what EXPLAIN shows: the pinned snapshot, what was kept and pruned, and the
// residual filter.
package sqlbackend
