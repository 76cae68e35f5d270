package commit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// setupForOverwrite commits two files to dt=2024-01-01 and one to
// dt=2024-01-02 (snapshots 1 to 3): the overwrites below read snapshot 3.
func setupForOverwrite(h *harness) {
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "a1", rows: 10}))
	h.commitFiles("setup", 2, h.appendMsg("2024-01-01", fileSpec{name: "a2", rows: 20}))
	h.commitFiles("setup", 3, h.appendMsg("2024-01-02", fileSpec{name: "b1", rows: 5}))
}

// compactionOfA rewrites the two files of dt=2024-01-01 into c1, as a
// compaction service does: a request with only a compact increment.
func compactionOfA(h *harness) Request {
	m := Message{Partition: partition("2024-01-01"), Bucket: 0, TotalBuckets: h.totalBuckets(),
		CompactBefore: []spec.DataFileMeta{h.file(fileSpec{name: "a1", rows: 10}), h.file(fileSpec{name: "a2", rows: 20})},
		CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "c1", rows: 30, compacted: true})}}
	h.placeFiles([]Message{m})
	return Request{CommitUser: "compactor", Identifier: 1, Messages: []Message{m}}
}

// overwriteCase is an overwrite of dt=2024-01-01 that read snapshot 3.
type overwriteCase struct {
	name string
	req  func(h *harness) Request
	// After the overwrite: the live files and the delta of its snapshot.
	wantLive  []string
	wantDelta []string
}

var overwritesOfA = []overwriteCase{
	{
		name: "static",
		req: func(h *harness) Request {
			return overwriteRequest(h, &Overwrite{BaseSnapshotID: 3, Static: map[string]any{"dt": "2024-01-01"}}, "n1")
		},
		wantLive: []string{"b1", "n1"}, wantDelta: []string{"DELETE c1", "ADD n1"},
	},
	{
		name: "dynamic",
		req:  func(h *harness) Request { return overwriteRequest(h, &Overwrite{BaseSnapshotID: 3}, "n1") },
		// The dynamic target is the partitions of the new files.
		wantLive: []string{"b1", "n1"}, wantDelta: []string{"DELETE c1", "ADD n1"},
	},
	{
		name: "truncate",
		req: func(h *harness) Request {
			return overwriteRequest(h, &Overwrite{BaseSnapshotID: 3, Truncate: true}, "")
		},
		wantLive: nil, wantDelta: []string{"DELETE c1", "DELETE b1"},
	},
}

func overwriteRequest(h *harness, ow *Overwrite, newFile string) Request {
	req := Request{CommitUser: "writer", Identifier: 1, Overwrite: ow}
	if newFile != "" {
		req.Messages = []Message{h.appendMsg("2024-01-01", fileSpec{name: newFile, rows: 4})}
		h.placeFiles(req.Messages)
	}
	return req
}

// A compaction of the target between the overwrite's base and its commit
// changed files, not rows: the overwrite lands, deleting the compaction's
// output instead of the files it read, and leaves no metadata behind.
func TestOverwriteAfterCompactionOfItsTarget(t *testing.T) {
	for _, tc := range overwritesOfA {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, false, "dynamic-partition-overwrite=true")
			setupForOverwrite(h)
			h.commit(compactionOfA(h))
			res, err := h.committer(nil).Commit(context.Background(), tc.req(h))
			if err != nil || !slices.Equal(res.Snapshots, []int64{5}) {
				t.Fatalf("overwrite = %s, %v; want snapshot 5", res, err)
			}
			checkOverwriteLanded(t, h, tc)
			if got := leftovers(h.mem, inspect(t, h.mem)); len(got) > 0 {
				t.Fatalf("files no snapshot references: %v", got)
			}
		})
	}
}

// The compaction lands while the overwrite is about to publish: the first
// attempt, which deletes the files of the base, loses the race, and the
// retry re-bases the deletes onto the compaction's output.
func TestOverwriteLosingTheRaceToACompactionOfItsTarget(t *testing.T) {
	for _, tc := range overwritesOfA {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, false, "dynamic-partition-overwrite=true")
			setupForOverwrite(h)
			compaction := compactionOfA(h)
			fired := false
			fsys := errorio.Wrap(h.mem, injectorFunc(func(op errorio.Op) errorio.Fault {
				if isSnapshotPut(op) && !fired {
					fired = true
					h.commit(compaction)
				}
				return errorio.NoFault
			}))
			res, err := h.committer(fsys).Commit(context.Background(), tc.req(h))
			if err != nil || !slices.Equal(res.Snapshots, []int64{5}) {
				t.Fatalf("overwrite = %s, %v; want snapshot 5 after the compaction's 4", res, err)
			}
			checkOverwriteLanded(t, h, tc)
			// The lost attempt's delta and base list were named by a put,
			// so they stay for orphan cleanup (apache/paimon#7441).
			for _, f := range leftovers(h.mem, inspect(t, h.mem)) {
				if !strings.HasPrefix(f, "manifest/") {
					t.Fatalf("leftover %s is not metadata of the lost attempt", f)
				}
			}
		})
	}
}

func checkOverwriteLanded(t *testing.T, h *harness, tc overwriteCase) {
	t.Helper()
	view := inspect(t, h.mem)
	if view.latest.CommitKind != spec.CommitKindOverwrite || !slices.Equal(view.live, tc.wantLive) {
		t.Fatalf("snapshot %d (%s) holds %v; want an OVERWRITE holding %v", view.latest.ID, view.latest.CommitKind, view.live, tc.wantLive)
	}
	// The order of entries in a delta means nothing to readers.
	if got := deltaOf(t, h, view.latest); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(tc.wantDelta))) {
		t.Fatalf("delta of snapshot %d: %v; want %v", view.latest.ID, got, tc.wantDelta)
	}
	var wantTotal int64
	if slices.Contains(tc.wantLive, "b1") {
		wantTotal += 5
	}
	if slices.Contains(tc.wantLive, "n1") {
		wantTotal += 4
	}
	if got := deref(view.latest.TotalRecordCount); got != wantTotal {
		t.Fatalf("record count %d; want %d", got, wantTotal)
	}
}

// deltaOf renders the entries snapshot s committed as "KIND file".
func deltaOf(t *testing.T, h *harness, s *spec.Snapshot) []string {
	t.Helper()
	reader := manifest.NewReader(h.mem, tableDir)
	metas, err := reader.ManifestList(context.Background(), s.DeltaManifestList)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, meta := range metas {
		entries, err := reader.Entries(context.Background(), meta.FileName)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			out = append(out, e.Kind.String()+" "+e.File.FileName)
		}
	}
	return out
}

// An append to the target, before or after a compaction of it, may have
// added rows the writer never read: the overwrite still fails retryably,
// naming the append, and deletes what it wrote.
func TestOverwriteAfterAppendAndCompactionOfItsTargetConflicts(t *testing.T) {
	appendToA := func(h *harness) {
		h.commitFiles("appender", 1, h.appendMsg("2024-01-01", fileSpec{name: "late", rows: 1}))
	}
	for _, order := range []string{"compaction first", "append first"} {
		t.Run(order, func(t *testing.T) {
			h := newHarness(t, false)
			setupForOverwrite(h)
			wantAgainst := int64(5)
			if order == "append first" {
				appendToA(h)
				h.commit(compactionOfA(h))
				wantAgainst = 4
			} else {
				h.commit(compactionOfA(h))
				appendToA(h)
			}
			_, err := h.committer(nil).Commit(context.Background(),
				overwriteRequest(h, &Overwrite{BaseSnapshotID: 3, Static: map[string]any{"dt": "2024-01-01"}}, "n1"))
			var ce *ConflictError
			if !errors.As(err, &ce) || ce.Kind != OverwriteTargetChanged || !errors.Is(err, lakeerr.ErrRetryableConflict) {
				t.Fatalf("err = %v; want a retryable OverwriteTargetChanged", err)
			}
			if ce.Conflicting.ID != wantAgainst || ce.Conflicting.CommitUser != "appender" || !slices.Equal(ce.Files, []string{"late"}) {
				t.Fatalf("conflict names %s, files %v; want the append (snapshot %d) and its file", ce.Conflicting, ce.Files, wantAgainst)
			}
			view := inspect(t, h.mem)
			if view.latest.ID != 5 {
				t.Fatalf("latest snapshot %d; the overwrite must publish nothing", view.latest.ID)
			}
			if got := metadataLeftovers(h.mem, view); len(got) > 0 {
				t.Fatalf("the failed overwrite left %v", got)
			}
		})
	}
}
