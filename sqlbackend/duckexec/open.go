//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strconv"

	"github.com/duckdb/duckdb-go/v2"
)

// Config bounds what DuckDB may use.
type Config struct {
	// Threads is DuckDB's worker threads; 0 leaves DuckDB's default (the
	// machine's cores).
	Threads int
	// MemoryLimit is DuckDB's memory limit in DuckDB's notation ("1GB");
	// "" leaves DuckDB's default (80% of RAM).
	MemoryLimit string
	// TempDir is where large group-bys, joins and sorts spill; "" leaves
	// DuckDB's default (next to the database, none in memory).
	TempDir string
}

// open opens an in-memory DuckDB database bounded by cfg. Insertion order
// is not preserved: MySQL promises no order without ORDER BY, and DuckDB
// needs far less memory without it. Parquet footers are cached across
// queries (metadataCache).
func open(cfg Config) (*sql.DB, error) {
	q := url.Values{}
	q.Set("preserve_insertion_order", "false")
	if cfg.Threads > 0 {
		q.Set("threads", strconv.Itoa(cfg.Threads))
	}
	if cfg.MemoryLimit != "" {
		q.Set("memory_limit", cfg.MemoryLimit)
	}
	if cfg.TempDir != "" {
		q.Set("temp_directory", cfg.TempDir)
	}
	connector, err := duckdb.NewConnector("?"+q.Encode(), metadataCache)
	if err != nil {
		return nil, fmt.Errorf("duckexec: open DuckDB: %w", err)
	}
	return sql.OpenDB(connector), nil
}

// metadataCache keeps the footers of the Parquet files DuckDB reads
// between queries: a Paimon data file never changes once written (its
// name is new for each write), and each query otherwise reads and
// decodes the footers of all its files before its first row, a
// millisecond of a point query's few. DuckDB 1.5 holds the cache in its
// buffer pool, under the memory limit, evicting the least recently used
// footers. The setting needs the Parquet extension, loaded only once the
// database is open, so it is set on each new connection.
func metadataCache(execer driver.ExecerContext) error {
	_, err := execer.ExecContext(context.Background(), "SET GLOBAL parquet_metadata_cache = true", nil)
	return err
}
