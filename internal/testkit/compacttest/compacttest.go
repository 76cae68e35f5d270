// Package compacttest compacts a tabletest.Table, as a dedicated compaction
// job does, for tests of the packages storage/compact builds on. It is
// apart from writetest because storage/compact's own tests use writetest.
package compacttest

import (
	"context"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/compact"
)

// Full compacts every bucket of tt's table fully, on tt's clock and uuids,
// and fails the test unless a snapshot was committed.
func Full(tt *tabletest.Table) compact.Result {
	tt.T.Helper()
	res, err := compact.Table(context.Background(), compact.Options{FileIO: tt.FS, TableDir: tt.Dir, Mode: compact.Full,
		Parallelism: 1, Now: tt.Now, NewUUID: tt.NewUUID, Identity: compact.NewIdentity("compactor")})
	if err != nil {
		tt.T.Fatal(err)
	}
	if res.Snapshot == 0 {
		tt.T.Fatal("the compaction committed nothing")
	}
	return res
}
