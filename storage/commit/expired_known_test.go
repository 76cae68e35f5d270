package commit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

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
	fs := &putHooksFS{FileIO: h.mem}
	fs.afterFirstSnapshot = func(string) {
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

// putHooksFS runs before once, right before the put of the last of the
// first matches files whose path contains match (if match is set), and
// afterFirstSnapshot once, right after the first snapshot put succeeds.
// It records the names of the snapshot files put.
type putHooksFS struct {
	fileio.FileIO
	mu                 sync.Mutex // puts of one commit run at once
	match              string
	matches            int
	before             func()
	afterFirstSnapshot func(path string)
	snapshots          []string
}

func (f *putHooksFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if f.match != "" && strings.Contains(p, f.match) && f.countMatch() {
		f.before()
	}
	err := f.FileIO.PutIfAbsent(ctx, p, data)
	if err == nil && strings.Contains(p, "/snapshot/snapshot-") {
		if after := f.recordSnapshot(p); after != nil {
			after(p)
		}
	}
	return err
}

// countMatch counts a matching put and reports whether it is the one to
// stall before.
func (f *putHooksFS) countMatch() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.matches--
	return f.matches == 0
}

// recordSnapshot records a snapshot put and returns the after hook if it
// is the first.
func (f *putHooksFS) recordSnapshot(p string) func(string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.snapshots = append(f.snapshots, p[strings.LastIndex(p, "/")+1:])
	after := f.afterFirstSnapshot
	f.afterFirstSnapshot = nil
	return after
}

// TestStalledPutIsNotAPhantom: a commit reads snapshot 1 and, before it
// puts snapshot 2, another process publishes 2 and 3 and an expiry keeping
// one snapshot deletes 1 and 2. A put of snapshot 2 would then succeed,
// into an id nothing builds on any more: left there, the commit would be
// acknowledged and its rows never read (TestMultiServerMaintenance saw
// acknowledged batches vanish this way). The commit must publish on top
// of snapshot 3, whether the others ran while it wrote its base manifest
// list (the
// check of its base before the put sees it, and it puts no phantom) or
// right before the put (the check after the put withdraws the phantom).
func TestStalledPutIsNotAPhantom(t *testing.T) {
	// The delta manifest list is written before the latest snapshot is
	// read, the base list after.
	t.Run("base-list", func(t *testing.T) { stalledPut(t, "/manifest/manifest-list-", 2, 2) })
	t.Run("snapshot", func(t *testing.T) { stalledPut(t, "/snapshot/snapshot-", 1, 2) })
}

// TestPhantomBuiltOnIsStillAPhantom: right after the stalled commit puts
// its phantom snapshot 2, a committer misled by a stale LATEST hint builds
// snapshot 3 on it (naming it as parent). The check must walk up to the
// newest snapshot, find the gap at 4, and still withdraw snapshot 2.
func TestPhantomBuiltOnIsStillAPhantom(t *testing.T) {
	stalledPut(t, "/snapshot/snapshot-", 1, 3, func(h *harness, p string) {
		ctx := context.Background()
		data, err := h.mem.ReadFile(ctx, p)
		if err != nil {
			t.Error(err)
			return
		}
		phantom, err := spec.DecodeSnapshot(data)
		if err != nil {
			t.Error(err)
			return
		}
		misled := *phantom
		uuid := "misled-" + *phantom.UUID
		misled.ID, misled.UUID, misled.CommitUser = phantom.ID+1, &uuid, "misled"
		misled.Properties = map[string]string{ParentProperty: *phantom.UUID}
		encoded, err := spec.EncodeSnapshot(&misled)
		if err != nil {
			t.Error(err)
			return
		}
		if err := h.mem.PutIfAbsent(ctx, strings.Replace(p, "snapshot-2", "snapshot-3", 1), encoded); err != nil {
			t.Error(err)
		}
	})
}

// stalledPut stalls a commit that read snapshot 1 before its put of the
// matches-th file matching stallBefore, while another process publishes
// others snapshots and an expiry deletes all but the newest.
func stalledPut(t *testing.T, stallBefore string, matches, others int, afterPhantom ...func(h *harness, path string)) {
	h := newHarness(t, true)
	ctx := context.Background()
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "s1", rows: 5, minK: 1, maxK: 5}))
	other := h.committer(nil)
	fs := &putHooksFS{FileIO: h.mem, match: stallBefore, matches: matches}
	for _, after := range afterPhantom {
		fs.afterFirstSnapshot = func(p string) { after(h, p) }
	}
	fs.before = func() {
		for i := range others {
			msgs := []Message{h.appendMsg("2024-01-02", fileSpec{name: fmt.Sprintf("o%d", i+1), rows: 1, minK: 10 + int64(i), maxK: 10 + int64(i)})}
			h.placeFiles(msgs)
			if _, err := other.Commit(ctx, Request{CommitUser: "other", Identifier: int64(i + 1), Messages: msgs}); err != nil {
				t.Errorf("other process: %v", err)
			}
		}
		for id := range int64(others) { // expiry of all but the latest
			if err := h.mem.Delete(ctx, other.snapshots.SnapshotPath(id+1)); err != nil {
				t.Error(err)
			}
		}
	}
	mine := h.committer(fs)
	msgs := []Message{h.appendMsg("2024-01-03", fileSpec{name: "m1", rows: 1, minK: 7, maxK: 7})}
	h.placeFiles(msgs)
	res, err := mine.Commit(ctx, Request{CommitUser: "mine", Identifier: 1, Messages: msgs})
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if got, want := res.Snapshots, []int64{int64(others) + 2}; !slices.Equal(got, want) {
		t.Fatalf("published %v, want %v: on top of the other process's newest snapshot", got, want)
	}
	if ok, _ := fileio.Exists(ctx, h.mem, other.snapshots.SnapshotPath(2)); ok {
		t.Fatal("expired snapshot 2 was published again")
	}
	if want := fmt.Sprintf("snapshot-%d", others+2); strings.Contains(stallBefore, "manifest") && !slices.Equal(fs.snapshots, []string{want}) {
		t.Fatalf("put %v, want only %s: the base was gone before the put", fs.snapshots, want)
	}
}
