package writetest

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/write"
)

// Load writes rows row(0), …, row(n-1) into the table at dir on the local
// disk, as inserts, and commits them in one snapshot: how benchmarks fill
// a table a server then serves, far faster than INSERTs over the wire.
func Load(tb testing.TB, dir string, n int, row func(i int) []any) {
	tb.Helper()
	LoadCommit(tb, dir, 1, n, row)
}

// LoadCommit is Load as the commit of the given identifier (of commit
// user bench-load): each identifier commits once.
func LoadCommit(tb testing.TB, dir string, identifier int64, n int, row func(i int) []any) {
	tb.Helper()
	ctx := context.Background()
	fsys := localio.New()
	tw, err := write.Open(ctx, write.Options{FileIO: fsys, TableDir: dir, SpillDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	defer tw.Close()
	for i := range n {
		if err := tw.Write(ctx, row(i), spec.RowKindInsert); err != nil {
			tb.Fatal(err)
		}
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := commit.New(commit.Options{FileIO: fsys, TableDir: dir, Core: tw.Schema().CoreOptions()})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := c.Commit(ctx, commit.Request{CommitUser: "bench-load", Identifier: identifier, Messages: msgs}); err != nil {
		tb.Fatal(err)
	}
}
