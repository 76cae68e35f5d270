package commit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// workload is a commit to sweep faults over, on a table it sets up first.
type workload struct {
	name    string
	pk      bool
	setup   func(h *harness)
	request func(h *harness) Request
	// After the request applied exactly once: the live files, the record
	// count and how many snapshots it added to setup's.
	wantLive      []string
	wantTotal     int64
	wantSnapshots int64
}

// merge-min-count=2 makes every workload merge the manifests of setup's
// snapshots, so that the merge's writes are swept too.
var sweepOptions = []string{"manifest.merge-min-count=2"}

var workloads = []workload{
	{
		name: "append",
		setup: func(h *harness) {
			h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "a1", rows: 10}))
			h.commitFiles("setup", 2, h.appendMsg("2024-01-02", fileSpec{name: "a2", rows: 20}))
		},
		request: func(h *harness) Request {
			return Request{CommitUser: "w", Identifier: 7, Messages: []Message{
				h.appendMsg("2024-01-01", fileSpec{name: "b", rows: 5}),
				h.appendMsg("2024-01-02", fileSpec{name: "c", rows: 7}),
			}}
		},
		wantLive: []string{"a1", "a2", "b", "c"}, wantTotal: 42, wantSnapshots: 1,
	},
	{
		// An upsert flushes a level-0 file and compacts the two older ones:
		// an APPEND and a COMPACT snapshot, so a crash can fall between them.
		name: "upsert", pk: true,
		setup: func(h *harness) {
			h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "k1", rows: 10, minK: 1, maxK: 10}))
			h.commitFiles("setup", 2, h.appendMsg("2024-01-01", fileSpec{name: "k2", rows: 11, minK: 5, maxK: 15}))
		},
		request: func(h *harness) Request {
			m := h.appendMsg("2024-01-01", fileSpec{name: "k3", rows: 3, minK: 1, maxK: 3})
			m.CompactBefore = []spec.DataFileMeta{
				h.file(fileSpec{name: "k1", rows: 10, minK: 1, maxK: 10}),
				h.file(fileSpec{name: "k2", rows: 11, minK: 5, maxK: 15}),
			}
			m.CompactAfter = []spec.DataFileMeta{h.file(fileSpec{name: "k4", rows: 15, level: 5, minK: 1, maxK: 15, compacted: true})}
			return Request{CommitUser: "w", Identifier: 7, Messages: []Message{m}}
		},
		wantLive: []string{"k3", "k4"}, wantTotal: 18, wantSnapshots: 2,
	},
	{
		name: "overwrite",
		setup: func(h *harness) {
			h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "o1", rows: 10}))
			h.commitFiles("setup", 2, h.appendMsg("2024-01-02", fileSpec{name: "o2", rows: 20}))
		},
		request: func(h *harness) Request {
			return Request{CommitUser: "w", Identifier: 7,
				Messages:  []Message{h.appendMsg("2024-01-01", fileSpec{name: "o3", rows: 4})},
				Overwrite: &Overwrite{BaseSnapshotID: 2, Static: map[string]any{"dt": "2024-01-01"}}}
		},
		wantLive: []string{"o2", "o3"}, wantTotal: 24, wantSnapshots: 1,
	},
	{
		// A compaction rewrote the target after the overwrite's base: the
		// overwrite's deletes are re-based onto its output, in metadata
		// written with the attempt's base list.
		name: "overwrite-after-compaction",
		setup: func(h *harness) {
			h.commitFiles("setup", 1,
				h.appendMsg("2024-01-01", fileSpec{name: "o1", rows: 10}),
				h.appendMsg("2024-01-02", fileSpec{name: "o2", rows: 20}))
			m := Message{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(),
				CompactBefore: []spec.DataFileMeta{h.file(fileSpec{name: "o1", rows: 10})},
				CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "c1", rows: 10, compacted: true})}}
			h.commitFiles("compactor", 1, m)
		},
		request: func(h *harness) Request {
			return Request{CommitUser: "w", Identifier: 7,
				Messages:  []Message{h.appendMsg("2024-01-01", fileSpec{name: "o3", rows: 4})},
				Overwrite: &Overwrite{BaseSnapshotID: 1, Static: map[string]any{"dt": "2024-01-01"}}}
		},
		wantLive: []string{"o2", "o3"}, wantTotal: 24, wantSnapshots: 1,
	},
	{
		// A read-modify-write commit checks its keys (KeyCheck) against a
		// snapshot published after its base whose file overlaps its own in
		// key range: both files' keys are read, and none is shared.
		name: "key-checked-update", pk: true,
		setup: func(h *harness) {
			h.commitFiles("setup", 1, Message{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(),
				NewFiles: []spec.DataFileMeta{h.keyFile("2024-01-01", "k1.parquet", 1, 5, 10)}})
			h.commitFiles("other", 1, Message{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(),
				NewFiles: []spec.DataFileMeta{h.keyFile("2024-01-01", "k2.parquet", 20, 25, 30)}})
		},
		request: func(h *harness) Request {
			return Request{CommitUser: "w", Identifier: 7, KeyCheck: &KeyCheck{BaseSnapshotID: 1},
				Messages: []Message{{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(),
					NewFiles: []spec.DataFileMeta{h.keyFile("2024-01-01", "k3.parquet", 21, 22)}}}}
		},
		wantLive: []string{"k1.parquet", "k2.parquet", "k3.parquet"}, wantTotal: 8, wantSnapshots: 1,
	},
}

// commitFiles commits msgs as user with identifier and places their files.
func (h *harness) commitFiles(user string, identifier int64, msgs ...Message) {
	h.placeFiles(msgs)
	h.commit(Request{CommitUser: user, Identifier: identifier, Messages: msgs})
}

// TestFaultSweep injects one fault into each I/O operation of each
// workload's commit in turn, in the manner of pebble's TestErrors: a clean
// failure (fail-before), a failure after the effect landed (fail-after),
// or a crash before or after the operation, after which the table is
// reopened on what a crash leaves (memio.CrashClone). Every run must leave
// a readable table whose every snapshot is complete, and a retry of the
// same request by a restarted writer must apply it exactly once. The sweep
// ends when a run completes with no fault injected, which must happen at
// the step count of a clean run: every operation was faulted once.
func TestFaultSweep(t *testing.T) {
	faults := []errorio.Fault{errorio.FailBefore, errorio.FailAfter, errorio.CrashBefore, errorio.CrashAfter}
	for _, w := range workloads {
		for _, fault := range faults {
			t.Run(w.name+"/"+fault.String(), func(t *testing.T) { sweep(t, w, fault) })
		}
	}
}

func sweep(t *testing.T, w workload, fault errorio.Fault) {
	cleanOps := cleanRun(t, w)
	sawSnapshotPut := false
	for k := 0; ; k++ {
		h := newHarness(t, w.pk, sweepOptions...)
		w.setup(h)
		fsys := errorio.Wrap(h.mem, errorio.OnNth(k, nil, fault))
		req := w.request(h)
		h.placeFiles(req.Messages)
		res, err := h.committer(fsys).Commit(context.Background(), req)
		if !fsys.Injected() {
			if err != nil || k != cleanOps {
				t.Fatalf("run %d without a fault: err %v; a clean run has %d operations", k, err, cleanOps)
			}
			break
		}
		op := fsys.Trace()[k]
		sawSnapshotPut = sawSnapshotPut || op.Kind == errorio.PutIfAbsent && strings.Contains(op.Path, "/snapshot/snapshot-")
		checkFaultedRun(t, h, w, fault, op, res, err)
	}
	if !sawSnapshotPut {
		t.Fatal("the sweep never faulted the snapshot put")
	}
}

// cleanRun returns how many operations the workload's commit performs.
func cleanRun(t *testing.T, w workload) int {
	h := newHarness(t, w.pk, sweepOptions...)
	w.setup(h)
	fsys := errorio.Wrap(h.mem, nil)
	req := w.request(h)
	h.placeFiles(req.Messages)
	if _, err := h.committer(fsys).Commit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	checkApplied(t, h, w)
	return len(fsys.Trace())
}

func checkFaultedRun(t *testing.T, h *harness, w workload, fault errorio.Fault, op errorio.Op, res Result, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, fileio.ErrInjected) {
		t.Fatalf("fault at %s: error does not wrap the injected fault: %v", op, err)
	}
	if fault == errorio.CrashBefore || fault == errorio.CrashAfter {
		h.mem = h.mem.CrashClone()
	}
	view := inspect(t, h.mem)
	cleanFailure := err != nil && fault != errorio.CrashBefore && fault != errorio.CrashAfter && !errors.Is(err, lakeerr.ErrUnknownOutcome)
	if got := metadataLeftovers(h.mem, view); cleanFailure && len(got) > 0 {
		t.Fatalf("fault at %s failed the commit before its publish (%v), but left files %v", op, err, got)
	}
	if err == nil && int64(len(res.Snapshots)) != w.wantSnapshots {
		t.Fatalf("fault at %s: commit succeeded with %s", op, res)
	}
	if _, err := h.committer(nil).Commit(context.Background(), w.request(h)); err != nil {
		t.Fatalf("fault at %s (%v): retry failed: %v", op, fault, err)
	}
	checkApplied(t, h, w)
}

// checkApplied checks that the workload's request is in the table exactly
// once, and that files no snapshot references are only manifests.
func checkApplied(t *testing.T, h *harness, w workload) {
	t.Helper()
	view := inspect(t, h.mem)
	const setupSnapshots = 2
	if view.latest.ID != setupSnapshots+w.wantSnapshots || !slices.Equal(view.live, w.wantLive) || deref(view.latest.TotalRecordCount) != w.wantTotal {
		t.Fatalf("latest snapshot %d holds %v (%d records); want snapshot %d holding %v (%d records)",
			view.latest.ID, view.live, deref(view.latest.TotalRecordCount), setupSnapshots+w.wantSnapshots, w.wantLive, w.wantTotal)
	}
	for _, f := range leftovers(h.mem, view) {
		if !strings.HasPrefix(f, "manifest/") {
			t.Fatalf("leftover %s is not a metadata file of a failed attempt", f)
		}
	}
}

// metadataLeftovers are the leftovers other than data files, which the
// writer, not the commit, created.
func metadataLeftovers(mem *memio.FS, view tableView) []string {
	var out []string
	for _, f := range leftovers(mem, view) {
		if !strings.HasPrefix(f, "dt=") {
			out = append(out, f)
		}
	}
	return out
}
