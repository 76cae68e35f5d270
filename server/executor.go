package server

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// ExecutorConfig configures the vectorized executor, DuckDB, that runs the
// reads lakesql translates exactly (README, Vectorized execution).
type ExecutorConfig struct {
	// Disabled runs every statement on go-mysql-server, as a server built
	// without the executor does.
	Disabled bool `json:"disabled"`
	// Threads is DuckDB's worker threads; 0 is one per core.
	Threads int `json:"threads"`
	// MemoryLimit bounds DuckDB's memory, in DuckDB's notation ("2GB");
	// "" is DuckDB's default, 80% of the machine's memory.
	MemoryLimit string `json:"memory_limit"`
	// TempDir is where large group-bys, joins and sorts spill; "" is a
	// directory of this process under the system's temporary directory.
	TempDir string `json:"temp_dir"`
}

// executorFactory opens the executor; it is set only in builds with the
// duckdb_arrow tag (executor_duckdb.go), which link DuckDB through cgo.
var executorFactory func(ExecutorConfig) (executor, error)

// executor is the executor the backend runs reads on, and its lifetime.
type executor interface {
	duckplan.Executor
	io.Closer
}

// openExecutor opens the configured executor, or says at start why every
// statement runs on go-mysql-server; nil means no executor.
func openExecutor(cfg ExecutorConfig) (executor, error) {
	switch {
	case executorFactory == nil:
		logrus.Info("vectorized executor: not built in (build with CGO_ENABLED=1 -tags duckdb_arrow); every statement runs on go-mysql-server")
		return nil, nil
	case cfg.Disabled:
		logrus.Info("vectorized executor: disabled by the config; every statement runs on go-mysql-server")
		return nil, nil
	}
	if cfg.TempDir == "" {
		// An in-memory DuckDB has no spill directory of its own, and
		// without one a group-by or join over the memory limit fails. One
		// per process: DuckDB names its spill files the same in every one.
		cfg.TempDir = filepath.Join(os.TempDir(), fmt.Sprintf("lakesql-duckdb-%d", os.Getpid()))
	}
	e, err := executorFactory(cfg)
	if err != nil {
		return nil, fmt.Errorf("vectorized executor: %w", err)
	}
	logrus.Infof("vectorized executor: DuckDB (threads %d, memory limit %q: 0 and \"\" are DuckDB's defaults; spills to %s)",
		cfg.Threads, cfg.MemoryLimit, cfg.TempDir)
	return e, nil
}
