package compact

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/leasetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lease"
)

// TestCompactionWithALostLeaseCommitsNothing: a compaction that stalls
// for most of its lease's TTL between its rewrite and its commit must not
// publish its output, which orphan removal may have deleted; it fails
// without planning again and deletes what it wrote.
func TestCompactionWithALostLeaseCommitsNothing(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1"}))
	for batch := range 3 {
		var records []tabletest.Record
		for i := range 20 {
			records = append(records, tabletest.Insert(int64(i), fmt.Sprintf("v%d", batch)))
		}
		tt.writeCommit(records...)
	}
	before := tt.Read()
	filesBefore := tt.FS.(*memio.FS).Files()
	clock := clocktest.New(testNow)
	opts := tt.options(Full)
	opts.Leases = leasetest.New("lease", clock.Now, time.Hour)
	opts.hooks.beforeCommit = func(int) { clock.Advance(45 * time.Minute) }
	res, err := Table(context.Background(), opts)
	if !errors.Is(err, lease.ErrExpired) {
		t.Fatalf("compaction whose lease expired before its commit: %+v, %v; want lease.ErrExpired", res, err)
	}
	if res.Attempts != 1 {
		t.Errorf("the compaction planned %d times; a lost lease is no reason to plan again", res.Attempts)
	}
	assertRows(t, "after the refused compaction", tt.Read(), before)
	if after := tt.FS.(*memio.FS).Files(); !slices.Equal(after, filesBefore) {
		t.Fatalf("files after the refused compaction\n %q\nwant\n %q", after, filesBefore)
	}
}
