package compact

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// writeUpdates commits one batch updating keys 0..9 to the given tag.
func writeUpdates(tt *testTable, tag string) {
	var batch []tabletest.Record
	for i := range 10 {
		batch = append(batch, tabletest.Insert(int64(i), tag))
	}
	tt.writeCommit(batch...)
}

// TestLostCompactionPlansAgain lets another compaction remove the inputs
// of a compaction between its rewrite and its commit: the commit conflicts,
// its files are deleted, and the second plan compacts what is there now.
func TestLostCompactionPlansAgain(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}))
	for c := range 3 {
		writeUpdates(tt, fmt.Sprintf("c%d", c))
	}
	var logs []string
	opts := tt.options(Minor)
	opts.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	opts.hooks.beforeCommit = func(attempt int) {
		if attempt != 1 {
			return
		}
		tt.compact(Full)
		for c := 3; c < 6; c++ {
			writeUpdates(tt, fmt.Sprintf("c%d", c))
		}
	}
	res, err := Table(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || res.Snapshot != tt.Latest().ID {
		t.Fatalf("result %+v, want the second attempt to commit the latest snapshot %d", res, tt.Latest().ID)
	}
	if !slices.ContainsFunc(logs, func(s string) bool { return strings.Contains(s, "lost to a concurrent commit") }) {
		t.Fatalf("no re-plan message in %q", logs)
	}
	want := []string{}
	for i := range 10 {
		want = append(want, fmt.Sprintf("%d|c5", i))
	}
	assertRows(t, "after the re-planned compaction", tt.Read(), want)
	assertNoOrphans(t, tt)
}

// TestInputsExpiredDuringRewrite lets another compaction replace the
// inputs of a compaction after it planned, and expiry delete them, before
// it reads them: the compaction plans again from the latest snapshot.
func TestInputsExpiredDuringRewrite(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}))
	for c := range 3 {
		writeUpdates(tt, fmt.Sprintf("c%d", c))
	}
	opts := tt.options(Minor)
	opts.hooks.beforeRewrite = func(attempt int) {
		if attempt != 1 {
			return
		}
		replaced := tt.LiveFiles()
		tt.compact(Full)
		s := tt.Schema()
		for _, e := range replaced {
			dir, err := bucketDir(s, tt.Dir, e.Partition, e.Bucket)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.FS.Delete(context.Background(), dir+"/"+e.File.FileName); err != nil {
				t.Fatal(err)
			}
		}
		for c := 3; c < 6; c++ {
			writeUpdates(tt, fmt.Sprintf("c%d", c))
		}
	}
	res, err := Table(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || res.Snapshot != tt.Latest().ID {
		t.Fatalf("result %+v, want the second attempt to commit", res)
	}
	want := []string{}
	for i := range 10 {
		want = append(want, fmt.Sprintf("%d|c5", i))
	}
	assertRows(t, "after the re-planned compaction", tt.Read(), want)
}

// TestLostCompactionGivesUp loses every attempt: the error wraps the
// conflict, nothing the compaction wrote is left, and the rows are intact.
func TestLostCompactionGivesUp(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "2"}))
	tag := 0
	next := func() {
		writeUpdates(tt, fmt.Sprintf("c%d", tag))
		tag++
	}
	for range 3 {
		next()
	}
	opts := tt.options(Minor)
	opts.MaxAttempts = 2
	opts.hooks.beforeCommit = func(int) {
		tt.compact(Full)
		for range 3 {
			next()
		}
	}
	res, err := Table(context.Background(), opts)
	if !errors.Is(err, lakeerr.ErrTerminalConflict) || res.Attempts != 2 {
		t.Fatalf("result %+v, error %v; want a terminal conflict after 2 attempts", res, err)
	}
	want := []string{}
	for i := range 10 {
		want = append(want, fmt.Sprintf("%d|c%d", i, tag-1))
	}
	assertRows(t, "after the lost compactions", tt.Read(), want)
	assertNoOrphans(t, tt)
}

// TestConcurrentWritersAndCompactions runs two writers and two compactors
// on one table at once. The writers own disjoint keys and must never fail;
// compactions may lose to each other and plan again. At the end the table
// holds exactly each writer's last values: no row lost or duplicated.
func TestConcurrentWritersAndCompactions(t *testing.T) {
	tt := newLocalTable(t, pkDefinition(map[string]string{"bucket": "2", "num-sorted-run.compaction-trigger": "3",
		"write-only": "true"}))
	const writers, commits, keys = 2, 12, 20
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var writerErrs [writers]error
	model := make([]map[int64]string, writers)
	for w := range writers {
		model[w] = map[int64]string{}
		wg.Go(func() {
			for c := range commits {
				var batch []tabletest.Record
				for k := range keys {
					id := int64(w*keys + k)
					switch {
					case (c+k)%7 == 0:
						batch = append(batch, tabletest.Delete(id, "x"))
						delete(model[w], id)
					case (c+k)%3 != 0:
						v := fmt.Sprintf("w%d-c%d", w, c)
						batch = append(batch, tabletest.Insert(id, v))
						model[w][id] = v
					}
				}
				if err := tt.tryWriteCommit(fmt.Sprintf("writer-%d", w), batch); err != nil {
					writerErrs[w] = err
					return
				}
			}
		})
	}
	var compactions sync.WaitGroup
	var mu sync.Mutex
	stats := map[string]int{}
	for i, mode := range []Mode{Minor, Full} {
		compactions.Go(func() {
			identity := NewIdentity(fmt.Sprintf("compactor-%d", i))
			for ctx.Err() == nil {
				opts := tt.options(mode)
				opts.Identity = identity
				res, err := Table(context.Background(), opts)
				mu.Lock()
				switch {
				case err != nil && !lostToConcurrentCommit(err):
					stats["failed: "+err.Error()]++
				case err != nil:
					stats["gave up"]++
				case res.Snapshot != 0:
					stats["committed"]++
				}
				if res.Attempts > 1 {
					stats["re-planned"]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	cancel()
	compactions.Wait()
	for w, err := range writerErrs {
		if err != nil {
			t.Fatalf("writer %d failed: %v", w, err)
		}
	}
	for k := range stats {
		if strings.HasPrefix(k, "failed") {
			t.Fatalf("a compaction failed for another reason than a concurrent commit: %v", stats)
		}
	}
	t.Logf("compactions: %v", stats)

	var want []string
	for w := range writers {
		for _, id := range slices.Sorted(maps.Keys(model[w])) {
			want = append(want, fmt.Sprintf("%d|%s", id, model[w][id]))
		}
	}
	slices.Sort(want)
	assertRows(t, "after concurrent writes and compactions", tt.Read(), want)
	tt.compact(Full)
	assertRows(t, "after a final full compaction", tt.Read(), want)
	assertNoOrphans(t, tt)
}
