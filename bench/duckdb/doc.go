// Package duckdb compares lakesql with DuckDB on the same Parquet files.
// It is a separate module because DuckDB needs cgo, which the lakesql
// module does not; run it with
//
//	cd bench/duckdb && go test -bench . -benchtime 20x
package duckdb
