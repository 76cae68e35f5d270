// Package tablelock makes lakesql publish a table's snapshots and schemas
// under the catalog lock Java Paimon takes, so that Java writers sharing
// the table cannot overwrite what lakesql published.
//
// Java publishes snapshot-N (RenamingSnapshotCommit) and schema-N
// (SchemaManager under JdbcCatalog.runWithLock) by checking that the file
// does not exist and then renaming onto it, or writing it on an object
// store. That check-then-act is only atomic under the catalog lock
// (org.apache.paimon.catalog.CatalogLock, taken per table when the catalog
// has lock.enabled). lakesql's own puts are atomic (link(2), a conditional
// PUT), but Java's rename happening after its exists() check replaces a
// snapshot lakesql published in between: a commit acknowledged to a client
// vanishes (integration/interop/FINDINGS.md, F22). Holding the same lock
// across lakesql's put closes the window: Java's check and rename then
// happen entirely before or entirely after it.
//
// The lock is applied as a FileIO decorator (Wrap) rather than at each
// call site, so that every path that publishes a snapshot or a schema
// (commits, compaction, rollback, ALTER TABLE, CREATE TABLE) takes it, and
// no future one can forget to.
package tablelock
