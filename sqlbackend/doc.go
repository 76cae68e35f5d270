// Package sqlbackend exposes a Paimon warehouse to go-mysql-server v0.20.0:
// databases are the catalog's databases, tables are Paimon tables, and every
// read is pinned to one snapshot.
//
// # What is here and what is not
//
// This package owns what needs its tables, pins and transactions: the
// catalog (databases, DDL, views), Table with its pinned scans, pushdown,
// key lookups, rescans and aggregates, the sessions and transactions that
// stage writes and commit them, the DML editors, the rows of $audit_log,
// $ro and branches, and the engine that assembles them with GMS. Tables
// and transactions stay together: a table reads its transaction's pins
// and staged files, and a write reads the table (key checks, upserts,
// deletes) before it stages rows in the transaction's writer. The parts
// that need none of that sit below this package and never import it:
//
//   - gmsfix, the corrections of GMS itself (types, subqueries, joins,
//     windows, mis-bound ASTs), which the engine places among its rules;
//     their tests run statements through the engine and are here;
//   - systables, the metadata system tables, given a table and the
//     snapshot this package pins (systemTablesBackend);
//   - metrics, what the backend records and the server serves;
//   - mysqlerr, the MySQL error every part sends for a storage failure.
//
// Code that reads pinned tables, as aggregate.go's vectorized aggregates
// do, is glue that belongs here; what it runs, over storage's batches, can
// be a part below.
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
// IndexSearchableTable.LookupForExpressions (single-table UPDATE and
// DELETE) or pushFiltersIntoScans (every other statement, after join
// planning) into the storage predicate (planner.PushFilters); the table
// prunes manifests, partitions, buckets and files with it and filters
// rows. The scan returns only rows the predicate makes TRUE, and the
// conjuncts PushFilters translated exactly have the predicate's value on
// every row, so they leave the Filter node above the scan (PreciseMatch is
// true); the engine evaluates only the residual conjuncts. The lookup's
// String() is what EXPLAIN shows: the pinned snapshot, what was kept and
// pruned, and the residual filter, which the Filter node above shows too.
//
// # Results sent to clients
//
// GMS's handler reads a statement's rows on one goroutine and turns every
// value into the wire's text on another, which is the bottleneck of a
// streamed table. For statements the server marks (WithWireResult), the
// wireResult root does part of that work on the reading goroutine
// (signed numbers, DATEs) and saves the rest two of GMS's three decimal
// conversions, with the same text and column metadata (wireresult.go).
//
// A statement whose whole result DuckDB computes skips GMS's rows
// altogether: the server passes the client's result callback in the
// context (WithWireSpool), and the wireResult root writes DuckDB's
// streaming result to it batch by batch, each value encoded from DuckDB's
// vectors into the text GMS would send, under the column definitions GMS
// would send (wirestream.go; duckexec.RunText); vitess makes the binary
// protocol's rows of that text for a prepared statement, as of GMS's.
// GMS's handler then sees a result of no rows and ends it.
package sqlbackend
