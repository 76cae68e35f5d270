package filetest

import (
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/fileiotest"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

// ConformanceOverMemory runs the FileIO conformance suite against a
// FileIO that wraps another (a cache, a fault injector), wrapped around a
// fresh memio store in every subtest.
func ConformanceOverMemory(t *testing.T, wrap func(fileio.FileIO) fileio.FileIO) {
	fileiotest.Run(t, fileiotest.Harness{
		New: func(*testing.T) (fileio.FileIO, string) {
			return wrap(memio.New()), "/warehouse"
		},
		NoMultiProcess: "wraps memio, which lives in one process's memory",
	})
}
