// Package duckplan is the half of lakesql's vectorized executor that
// needs no DuckDB: it translates go-mysql-server's resolved plans into
// DuckDB SQL, describes the relations a translated statement reads
// (Source), and names the executor that runs them (Executor). The
// executor itself, which links DuckDB through cgo, is package
// sqlbackend/duckexec, built only with the duckdb_arrow build tag; a build
// without it runs every statement on go-mysql-server.
//
// # What is translated
//
// The translator works on the plan GMS resolved, after lakesql's own
// rules (pushdown, join planning, type corrections), never on SQL text:
// names, types and MySQL's result types are GMS's. A subtree is
// translated only when every node and expression in it is on the
// allowlist and DuckDB computes it exactly as MySQL does; anything else
// is refused with a reason, and GMS executes that statement as before.
//
// # Relations
//
// Each lakesql table a translated statement reads is one relation of the
// SQL, named t0, t1, … in the order Translate met them, whose columns are
// c0, c1, … in the order of the table node's GMS schema. The backend
// fills each relation from the snapshot the statement pinned (Source):
// Parquet files DuckDB may read as they are, plus the rows of splits
// only lakesql's reader can produce (merge-on-read, deletion vectors,
// schema evolution, Java's casts).
package duckplan
