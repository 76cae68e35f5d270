package commit

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// afterPutFS runs a function once, right after the first put of a
// snapshot file succeeds.
type afterPutFS struct {
	fileio.FileIO
	once  sync.Once
	after func()
}

func (f *afterPutFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	err := f.FileIO.PutIfAbsent(ctx, p, data)
	if err == nil && strings.Contains(p, "/snapshot/snapshot-") {
		f.once.Do(f.after)
	}
	return err
}

// TestExpiredKnownSnapshotIsNotLatest: a group remembers the snapshot it
// published last and takes it for the latest when the next id is free.
// Between a request's data part and its compact part, another process
// publishes two snapshots and expiry deletes all but the latest: the
// remembered one and the next are gone. The compact part must build on the real latest snapshot: built on
// the remembered one (still in the request's cache), it would publish into
// the freed id, re-creating an expired snapshot off the chain, whose rows
// no later snapshot holds.
func TestExpiredKnownSnapshotIsNotLatest(t *testing.T) {
	h := newHarness(t, true)
	ctx := context.Background()
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "s1", rows: 5, minK: 1, maxK: 5}))
	other := h.committer(nil)
	fs := &afterPutFS{FileIO: h.mem}
	fs.after = func() {
		for i, name := range []string{"o1", "o2"} {
			msgs := []Message{h.appendMsg("2024-01-02", fileSpec{name: name, rows: 1, minK: 10, maxK: 10})}
			h.placeFiles(msgs)
			if _, err := other.Commit(ctx, Request{CommitUser: "other", Identifier: int64(i + 1), Messages: msgs}); err != nil {
				t.Errorf("other process: %v", err)
			}
		}
		for _, id := range []int64{1, 2, 3} { // expiry of all but the latest
			if err := h.mem.Delete(ctx, other.snapshots.SnapshotPath(id)); err != nil {
				t.Error(err)
			}
		}
	}
	mine := h.committer(fs)
	data := h.appendMsg("2024-01-01", fileSpec{name: "m1", rows: 1, minK: 7, maxK: 7})
	compacted := Message{Partition: partition("2024-01-01"), Bucket: 0, TotalBuckets: h.totalBuckets(),
		CompactBefore: []spec.DataFileMeta{h.file(fileSpec{name: "s1", rows: 5, minK: 1, maxK: 5})},
		CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "c1", rows: 5, level: 5, minK: 1, maxK: 5, compacted: true})}}
	msgs := []Message{data, compacted}
	h.placeFiles(msgs)
	res, err := mine.Commit(ctx, Request{CommitUser: "mine", Identifier: 1, Messages: msgs})
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if got, want := res.Snapshots, []int64{2, 5}; !slices.Equal(got, want) {
		t.Fatalf("published %v, want %v: the data part at 2, the compact part after the other process's 3 and 4", got, want)
	}
	if ok, _ := fileio.Exists(ctx, h.mem, other.snapshots.SnapshotPath(3)); ok {
		t.Fatal("expired snapshot 3 was published again")
	}
}
