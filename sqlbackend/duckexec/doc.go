// Package duckexec runs the queries package duckplan translates on an
// embedded DuckDB (github.com/duckdb/duckdb-go/v2, linked statically
// through cgo). Everything but this comment and ErrUnsupported is built
// only with the duckdb_arrow build tag (duckdb-go's own tag for its Arrow
// API, which feeds DuckDB the rows only lakesql's reader produces) and
// cgo, so that a build without either, and every storage test, never
// links DuckDB; such a build runs every statement on go-mysql-server:
//
//	go build -tags duckdb_arrow ./cmd/lakesql
//
// # Relations
//
// Each duckplan.Source becomes a common table expression named as the
// relation, columns c0, c1, … typed from the Paimon types: DuckDB reads
// Source.Files itself (read_parquet, filtered by Source.FileFilter, less
// the files' deleted rows: an anti join on file name and file_row_number
// with a temporary table of them), and the rows of Source.Rows arrive as
// an Arrow stream, copied into a temporary table of the statement's
// connection (see session.copyArrow for why not scanned in place).
// Results are converted to the Go values of the GMS schema's types,
// explicitly and exactly, or refused.
package duckexec
