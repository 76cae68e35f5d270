package write

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/leasetest"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/spec"
)

// leasedWriter opens a writer that takes its lease, lease-1, from a
// registry with a TTL of one hour on the returned clock.
func leasedWriter(t *testing.T, tt *testTable) (*TableWriter, *clocktest.Clock) {
	clock := clocktest.New(testNow)
	opts := tt.options()
	opts.Leases = leasetest.New("lease", clock.Now, time.Hour)
	return tt.open(opts), clock
}

func leasesOf(t *testing.T, tt *testTable) []lease.Lease {
	t.Helper()
	ls, err := lease.List(context.Background(), tt.FS, tt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func leaseRows(w *TableWriter, tt *testTable, from, to int) {
	for i := from; i < to; i++ {
		if err := w.Write(context.Background(), []any{fmt.Sprintf("d%d", i%2), int64(i), "v"}, spec.RowKindInsert); err != nil {
			tt.T.Fatal(err)
		}
	}
}

// TestWriterHoldsItsLeaseUntilReleased: from Open to Close or Abort the
// writer holds a lease covering every file it wrote, and its messages
// carry it to the commit.
func TestWriterHoldsItsLeaseUntilReleased(t *testing.T) {
	for _, release := range []string{"Close", "Abort"} {
		t.Run(release, func(t *testing.T) {
			tt := newTestTable(t, putFaultTables[1].def)
			w, _ := leasedWriter(t, tt)
			if ls := leasesOf(t, tt); len(ls) != 1 {
				t.Fatalf("leases after Open: %+v; want one", ls)
			}
			leaseRows(w, tt, 0, 50)
			msgs := tt.prepare(w)
			ls := leasesOf(t, tt)
			for _, m := range msgs {
				if m.Lease == nil {
					t.Fatalf("message of bucket %d carries no lease", m.Bucket)
				}
				for _, f := range m.NewFiles {
					fi, err := tt.FS.Stat(context.Background(), tt.filePath(m, f))
					if err != nil || len(ls) != 1 || !ls[0].Covers(fi.ModTime) {
						t.Fatalf("file %s (%v) not covered by the leases %+v", f.FileName, err, ls)
					}
				}
			}
			if len(msgs) == 0 {
				t.Fatal("no messages")
			}
			releaseWriter(t, w, release)
			if ls := leasesOf(t, tt); len(ls) != 0 {
				t.Fatalf("leases after %s: %+v", release, ls)
			}
		})
	}
}

// TestWriterRenewsItsLease: a writer that keeps writing renews its lease.
func TestWriterRenewsItsLease(t *testing.T) {
	tt := newTestTable(t, putFaultTables[1].def)
	w, clock := leasedWriter(t, tt)
	for i := range 4 {
		clock.Advance(30 * time.Minute)
		leaseRows(w, tt, 10*i, 10*i+10)
	}
	if _, err := w.PrepareCommit(context.Background()); err != nil {
		t.Fatalf("PrepareCommit after two hours of steady writes: %v", err)
	}
	data, err := tt.FS.ReadFile(context.Background(), tt.Dir+"/_lakesql/leases/lease-1")
	if err != nil || !strings.Contains(string(data), `"start"`) {
		t.Fatalf("lease file %s, %v; want it renewed", data, err)
	}
}

// TestWriterWithALostLeaseBreaks: a writer idle for most of its lease's
// TTL fails its next call and commits nothing; Abort still cleans up.
func TestWriterWithALostLeaseBreaks(t *testing.T) {
	ctx := context.Background()
	for _, next := range []string{"Write", "PrepareCommit"} {
		t.Run(next, func(t *testing.T) {
			tt := newTestTable(t, putFaultTables[1].def)
			before := memFiles(tt)
			w, clock := leasedWriter(t, tt)
			leaseRows(w, tt, 0, 20)
			var msgs []commit.Message
			if next == "Write" {
				msgs = tt.prepare(w)
			}
			clock.Advance(45 * time.Minute)
			var err error
			if next == "Write" {
				err = w.Write(ctx, []any{"d0", int64(99), "v"}, spec.RowKindInsert)
			} else {
				_, err = w.PrepareCommit(ctx)
			}
			if !errors.Is(err, lease.ErrExpired) || !errors.Is(err, lakeerr.ErrTerminalConflict) {
				t.Fatalf("%s 45 minutes after the last call: %v; want lease.ErrExpired", next, err)
			}
			if _, again := w.PrepareCommit(ctx); !errors.Is(again, lease.ErrExpired) {
				t.Fatalf("the writer is not broken: PrepareCommit %v", again)
			}
			for _, m := range msgs {
				if err := m.Lease.Check(ctx); !errors.Is(err, lease.ErrExpired) {
					t.Fatalf("the lease of an earlier message still passes: %v", err)
				}
			}
			if err := w.Abort(ctx); err != nil {
				t.Fatal(err)
			}
			if after := memFiles(tt); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Fatalf("files after Abort %q; want %q", after, before)
			}
		})
	}
}
