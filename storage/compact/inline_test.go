package compact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/write"
)

// recordingCompactor passes requests to the inline compactor and keeps the
// sorted-run count of each request and whether it changed files.
type recordingCompactor struct {
	inner write.BucketCompactor
	mu    sync.Mutex
	runs  []int
	// changed counts the requests that replaced files.
	changed int
}

func (r *recordingCompactor) CompactBucket(ctx context.Context, b write.BucketCompaction) (write.CompactedFiles, error) {
	res, err := r.inner.CompactBucket(ctx, b)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, sortedRunsOf(b.Files))
	if len(res.Before) > 0 {
		r.changed++
	}
	return res, err
}

func sortedRunsOf(files []spec.DataFileMeta) int {
	runs := 0
	levels := map[int32]bool{}
	for _, f := range files {
		if f.Level == 0 {
			runs++
		} else if !levels[f.Level] {
			levels[f.Level] = true
			runs++
		}
	}
	return runs
}

// inlineWriter is one long-lived TableWriter with inline compaction and the
// committer of its messages, checked against a model after every commit.
type inlineWriter struct {
	tt        *testTable
	w         *write.TableWriter
	committer *commit.Committer
	compactor *recordingCompactor
	ident     int64
	model     map[int64]string
	rng       *rand.Rand
}

func newInlineWriter(t *testing.T, tt *testTable, budget int64) *inlineWriter {
	t.Helper()
	ctx := context.Background()
	rc := &recordingCompactor{inner: InlineCompactor()}
	opts := writetest.Options(tt.Table)
	opts.MemoryBudget, opts.Compactor = budget, rc
	w, err := write.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return &inlineWriter{tt: tt, w: w, committer: tt.Committer(nil), compactor: rc, model: map[int64]string{},
		rng: rand.New(rand.NewPCG(7, 11))}
}

// writeRandom upserts or deletes n random keys of 300, in the writer and
// the model.
func (iw *inlineWriter) writeRandom(t *testing.T, round, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		id := iw.rng.Int64N(300)
		if iw.rng.IntN(5) == 0 {
			if err := iw.w.Write(ctx, []any{id, "gone"}, spec.RowKindDelete); err != nil {
				t.Fatal(err)
			}
			delete(iw.model, id)
			continue
		}
		v := fmt.Sprintf("r%d-%d-padding-so-files-have-some-size", round, i)
		if err := iw.w.Write(ctx, []any{id, v}, spec.RowKindInsert); err != nil {
			t.Fatal(err)
		}
		iw.model[id] = v
	}
}

func (iw *inlineWriter) prepare(t *testing.T) []commit.Message {
	t.Helper()
	msgs, err := iw.w.PrepareCommit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// commit commits the messages and returns the kinds of the snapshots it
// published.
func (iw *inlineWriter) commit(t *testing.T, msgs []commit.Message) []spec.CommitKind {
	t.Helper()
	ctx := context.Background()
	iw.ident++
	res, err := iw.committer.Commit(ctx, commit.Request{CommitUser: "inline-writer", Identifier: iw.ident, Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []spec.CommitKind
	for _, id := range res.Snapshots {
		snap, err := iw.tt.Open().Snapshots().Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, snap.CommitKind)
	}
	return kinds
}

func (iw *inlineWriter) modelRows() []string {
	var out []string
	for id, v := range iw.model {
		out = append(out, fmt.Sprintf("%d|%s", id, v))
	}
	slices.Sort(out)
	return out
}

func hasCompaction(msgs []commit.Message) bool {
	return slices.ContainsFunc(msgs, func(m commit.Message) bool { return len(m.CompactBefore)+len(m.CompactAfter) > 0 })
}

// maxBucketRuns is the largest sorted-run count of a bucket among the live
// files.
func maxBucketRuns(entries []spec.ManifestEntry) int {
	byBucket := map[string][]spec.DataFileMeta{}
	for _, e := range entries {
		key := fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
		byBucket[key] = append(byBucket[key], e.File)
	}
	most := 0
	for _, files := range byBucket {
		most = max(most, sortedRunsOf(files))
	}
	return most
}

// TestInlineCompactionKeepsRunsBounded writes a two-bucket table through
// one TableWriter over many PrepareCommit and Commit cycles, some
// committing two PrepareCommits at once as a transaction does. A commit
// whose messages carry compaction publishes APPEND then COMPACT, the
// buckets never exceed the stop trigger, reads equal the model, and no
// data file is left unreferenced.
func TestInlineCompactionKeepsRunsBounded(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "2", "num-sorted-run.compaction-trigger": "3"}))
	stop, err := tt.Schema().CoreOptions().NumSortedRunStopTrigger()
	if err != nil {
		t.Fatal(err)
	}
	iw := newInlineWriter(t, tt, 0)
	compactingCommits, roundsOnSeveralLevels := 0, 0
	for round := range 30 {
		iw.writeRandom(t, round, 40)
		msgs := iw.prepare(t)
		if round%5 == 4 {
			iw.writeRandom(t, 1000+round, 40)
			msgs = append(msgs, iw.prepare(t)...)
		}
		kinds := iw.commit(t, msgs)
		want := []spec.CommitKind{spec.CommitKindAppend}
		if hasCompaction(msgs) {
			want = append(want, spec.CommitKindCompact)
			compactingCommits++
		}
		if !slices.Equal(kinds, want) {
			t.Fatalf("round %d: snapshots %v, want %v", round, kinds, want)
		}
		assertRows(t, fmt.Sprintf("round %d", round), tt.Read(), iw.modelRows())
		if runs := maxBucketRuns(tt.LiveFiles()); runs > stop {
			t.Fatalf("round %d: a bucket has %d sorted runs, stop trigger %d", round, runs, stop)
		}
		if len(levelsOf(tt.LiveFiles())) > 1 {
			roundsOnSeveralLevels++
		}
	}
	if compactingCommits < 5 {
		t.Fatalf("%d of 30 commits compacted, want the picker to fire regularly", compactingCommits)
	}
	// Whether the last commit left one level (a full compaction) or
	// several depends on the files' encoded sizes; that compaction outputs
	// live beside new level-0 files along the way does not.
	if roundsOnSeveralLevels == 0 {
		t.Fatal("no round had live files on more than one level: compaction outputs never lived beside new files")
	}
	if levels := levelsOf(tt.LiveFiles()); levels[0] == len(tt.LiveFiles()) {
		t.Fatalf("live files only on level 0 (%v), want compacted levels", levels)
	}
	assertNoOrphans(t, tt)
}

// TestInlineCompactionStallsAtStopTrigger flushes many times within one
// PrepareCommit (a tiny memory budget, no spilling): the writer compacts
// whenever a flush brings a bucket to the stop trigger, so no compaction
// ever sees more sorted runs than that, and the commit holds the result.
func TestInlineCompactionStallsAtStopTrigger(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "write-buffer-spillable": "false",
		"num-sorted-run.compaction-trigger": "2", "num-sorted-run.stop-trigger": "4"}))
	iw := newInlineWriter(t, tt, 2<<10)
	iw.writeRandom(t, 0, 600)
	msgs := iw.prepare(t)
	newFiles := 0
	for _, m := range msgs {
		newFiles += len(m.NewFiles)
	}
	if newFiles <= 4 {
		t.Fatalf("%d flushed files, want many more than the stop trigger", newFiles)
	}
	if len(iw.compactor.runs) < 2 || iw.compactor.changed < 2 {
		t.Fatalf("compactions %v (%d changed files), want several before PrepareCommit", iw.compactor.runs, iw.compactor.changed)
	}
	if most := slices.Max(iw.compactor.runs); most > 4 {
		t.Fatalf("a compaction saw %d sorted runs, want at most the stop trigger 4 (requests %v)", most, iw.compactor.runs)
	}
	if kinds := iw.commit(t, msgs); !slices.Equal(kinds, []spec.CommitKind{spec.CommitKindAppend, spec.CommitKindCompact}) {
		t.Fatalf("snapshots %v, want APPEND then COMPACT", kinds)
	}
	assertRows(t, "after commit", tt.Read(), iw.modelRows())
	if runs := maxBucketRuns(tt.LiveFiles()); runs > 4 {
		t.Fatalf("%d sorted runs after commit, stop trigger 4", runs)
	}
	assertNoOrphans(t, tt)
}

// TestInlineCompactionWriteOnly: a write-only table is never compacted by
// its writers, however many runs pile up.
func TestInlineCompactionWriteOnly(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "write-only": "true",
		"num-sorted-run.compaction-trigger": "2"}))
	iw := newInlineWriter(t, tt, 0)
	for round := range 8 {
		iw.writeRandom(t, round, 20)
		msgs := iw.prepare(t)
		if hasCompaction(msgs) {
			t.Fatalf("round %d: write-only messages carry compaction", round)
		}
		if kinds := iw.commit(t, msgs); !slices.Equal(kinds, []spec.CommitKind{spec.CommitKindAppend}) {
			t.Fatalf("round %d: snapshots %v, want APPEND", round, kinds)
		}
		assertRows(t, fmt.Sprintf("round %d", round), tt.Read(), iw.modelRows())
	}
	if len(iw.compactor.runs) != 0 {
		t.Fatalf("write-only writer asked for %d compactions", len(iw.compactor.runs))
	}
	if levels := levelsOf(tt.LiveFiles()); levels[0] != 8 || len(levels) != 1 {
		t.Fatalf("levels %v, want 8 level-0 files", levels)
	}
}

// TestInlineCompactionAbortAndClose: compaction outputs that are never
// committed are deleted, by Abort after PrepareCommit and by Close before
// it, while the committed files they replaced stay.
func TestInlineCompactionAbortAndClose(t *testing.T) {
	options := map[string]string{"bucket": "1", "write-buffer-spillable": "false",
		"num-sorted-run.compaction-trigger": "2", "num-sorted-run.stop-trigger": "3"}
	ctx := context.Background()
	t.Run("abort", func(t *testing.T) {
		tt := newMemTable(t, pkDefinition(options))
		committed := newInlineWriter(t, tt, 0)
		for round := range 3 {
			committed.writeRandom(t, round, 30)
			committed.commit(t, committed.prepare(t))
		}
		want := tt.Read()
		iw := newInlineWriter(t, tt, 0)
		// More rows than all the committed runs: the new run's size
		// amplification makes this PrepareCommit compact whatever the
		// committed runs are and the files' encoded sizes.
		iw.writeRandom(t, 10, 150)
		if msgs := iw.prepare(t); !hasCompaction(msgs) {
			t.Fatal("the aborted PrepareCommit did not compact; the test needs it to")
		}
		if err := iw.w.Abort(ctx); err != nil {
			t.Fatal(err)
		}
		assertRows(t, "after abort", tt.Read(), want)
		assertNoOrphans(t, tt)
	})
	t.Run("close", func(t *testing.T) {
		tt := newMemTable(t, pkDefinition(options))
		iw := newInlineWriter(t, tt, 2<<10)
		iw.writeRandom(t, 0, 400)
		if iw.compactor.changed == 0 {
			t.Fatal("no compaction before Close; the test needs one")
		}
		if err := iw.w.Close(); err != nil {
			t.Fatal(err)
		}
		if files := dataFilesOnDisk(t, tt.FS, tt.Dir); len(files) != 0 {
			t.Fatalf("Close left %v", files)
		}
	})
}
