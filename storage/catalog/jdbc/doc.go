// Package jdbc opens a warehouse whose catalog is Paimon's JDBC catalog
// (org.apache.paimon.jdbc.JdbcCatalog): the names of databases and tables
// live in a relational database (PostgreSQL, MySQL or SQLite), in the
// tables Java creates (paimon_tables, paimon_database_properties,
// paimon_table_properties), while the tables' files stay in the warehouse
// where the filesystem catalog puts them.
//
// With lock.enabled it also takes Java's catalog lock
// (org.apache.paimon.jdbc.JdbcCatalogLock): a row of
// paimon_distributed_locks whose primary key is
// "<catalog-key>.<database>.<table>", inserted to acquire and deleted to
// release, and deleted by any acquirer once older than its
// expire_time_seconds. Java writers publish snapshots and schemas under
// it; lakesql must too (package tablelock explains why), so the Catalog
// is a tablelock.Locker.
//
// The statements are Java's, per dialect, so that both sides read and
// write the same rows. Options are Paimon's catalog option keys (uri,
// jdbc.user, jdbc.password, catalog-key, lock.enabled,
// lock-acquire-timeout, lock-check-max-sleep, lock-key-max-length), so one
// catalog definition serves Flink, Spark and lakesql.
package jdbc
