// Package ddl translates between MySQL table DDL and Paimon table
// definitions: CREATE TABLE text and GMS's column schema become a
// catalog.TableDefinition, ALTER TABLE becomes catalog.SchemaChanges, and
// a Paimon schema becomes the CREATE TABLE text SHOW CREATE TABLE prints.
//
// # What goes where
//
//	column types, NULL, COMMENT      Paimon fields (sqltypes.PaimonType)
//	PRIMARY KEY (…)                  primary keys
//	PARTITION BY LIST COLUMNS (…)    partition keys
//	KEY (…) PARTITIONS n             bucket = n, bucket-key
//	KEY i (c) [USING BITMAP]         file indexes (fileindex.go)
//	COMMENT 'paimon:{…} text'        other options, and the table comment
//
// # Paimon options in the table comment
//
// MySQL has no syntax for arbitrary table properties, and GMS passes only
// the COMMENT table option to the storage layer, so Paimon options travel
// in the comment:
//
//	COMMENT 'paimon:{"merge-engine":"partial-update","sequence.field":"ts"} order facts'
//
// The comment starts with "paimon:" and a JSON object of option keys and
// values (spaces may separate the two); whatever follows the object is the
// table comment a person reads ("order facts"). A JSON object is used
// because option values hold commas (bucket-key, sequence.field), colons
// and slashes (paths), which a key=value list would have to escape.
// Values are JSON strings; numbers and booleans are accepted as written
// ({"bucket": 4}); in ALTER TABLE … COMMENT, null removes an option. A
// comment that does not start with "paimon:" followed by "{" is plain
// text, so ordinary comments need no care. Whitespace between the object
// and the text is not kept.
//
// SHOW CREATE TABLE prints the comment in the same form (TableComment),
// so its output round-trips: options appear in key order, and those the
// catalog fills in itself (file.format = parquet, the default bucket
// count) or expresses as PARTITION BY clauses are left out.
package ddl
