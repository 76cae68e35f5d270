// Package wire benchmarks lakesql over the MySQL protocol against DuckDB
// reading the same Parquet files in-process (issue 16's Q1-Q5). It builds
// only with the duckdb_arrow tag, which links DuckDB:
//
//	go test -tags duckdb_arrow -run '^$' -bench Wire ./bench/wire/ [-wire.rows N]
package wire
