// Package systables serves Paimon's metadata system tables over SQL,
// `t$snapshots`, `t$schemas`, `t$options`, `t$tags`, `t$consumers` and the
// snapshot-scoped `t$files`, `t$manifests`, `t$partitions` and
// `t$buckets`, with Java's columns and renderings
// (org.apache.paimon.table.system), read only. It also names the system
// tables that read rows, `t$audit_log` and `t$ro` (RowKindOf), and
// refuses writes to any system table (ReadOnly), for the backend, which
// serves those kinds: they read the table itself, pinned and with the
// transaction's own writes, as only the backend can.
//
// The backend hands it a table, the warehouse's FileIO and the snapshot a
// statement reads (Backend); nothing here knows of pins, sessions or
// transactions.
package systables
