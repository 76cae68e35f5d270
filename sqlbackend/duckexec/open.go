//go:build duckdb_arrow && cgo

package duckexec

import (
	"database/sql"
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
// needs far less memory without it.
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
	connector, err := duckdb.NewConnector("?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("duckexec: open DuckDB: %w", err)
	}
	return sql.OpenDB(connector), nil
}
