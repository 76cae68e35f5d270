//go:build duckdb_arrow && cgo

package server

import "github.com/lakesql/lakesql/sqlbackend/duckexec"

func init() {
	executorFactory = func(cfg ExecutorConfig) (executor, error) {
		return duckexec.New(duckexec.Config{Threads: cfg.Threads, MemoryLimit: cfg.MemoryLimit, TempDir: cfg.TempDir})
	}
}
