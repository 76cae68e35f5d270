// Package duckexec runs the queries package duckplan translates on an
// embedded DuckDB (github.com/duckdb/duckdb-go/v2, linked statically
// through cgo). Everything but this comment is built only with the duckdb
// build tag, so that a build without cgo, and every storage test, never
// links DuckDB; such a build runs every statement on go-mysql-server.
package duckexec
