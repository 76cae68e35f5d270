// Package wire benchmarks lakesql over the MySQL protocol. BenchmarkWire
// and BenchmarkWireUncompacted compare issue 16's Q1-Q5 with DuckDB
// reading the same Parquet files in-process; they build only with the
// duckdb_arrow tag, which links DuckDB:
//
//	go test -tags duckdb_arrow -run '^$' -bench Wire ./bench/wire/ [-wire.rows N]
//
// BenchmarkWireStream compares Q6, a day of payments streamed to the
// mariadb C client, with MariaDB holding the same rows; it needs no tag
// but the MariaDB of .ci/mariadb:
//
//	eval "$(.ci/mariadb start)"
//	go test -run '^$' -bench WireStream ./bench/wire/ [-wire.rows N]
package wire
