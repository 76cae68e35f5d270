package scan

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// Planner plans reads of one table: it reads the manifests a plan needs,
// in parallel, through a cache shared by every plan of the table. It is
// safe for concurrent use.
type Planner struct {
	manifests   *manifest.Reader
	cache       *ManifestCache
	parallelism int
	reads       atomic.Int64
}

// DefaultParallelism is how many manifest files a Planner reads at once.
// On an object store each read is a round trip, which overlap: a plan of
// a snapshot's 50 manifests then waits for 4 rounds rather than 50. On a
// local disk the reads are mostly decoding, and goroutines beyond the CPUs
// only queue.
const DefaultParallelism = 16

// NewPlanner returns a Planner reading manifests with r,
// DefaultParallelism at a time, and caching them in cache (nil for none).
func NewPlanner(r *manifest.Reader, cache *ManifestCache) *Planner {
	return NewPlannerParallel(r, cache, DefaultParallelism)
}

// NewPlannerParallel returns a Planner like NewPlanner's that reads up to
// parallelism manifest files at once; 1 (or less) reads them one after
// another. Plans do not depend on it.
func NewPlannerParallel(r *manifest.Reader, cache *ManifestCache, parallelism int) *Planner {
	return &Planner{manifests: r, cache: cache, parallelism: max(parallelism, 1)}
}

// ManifestReads returns how many manifest and manifest-list files the
// Planner has read from storage, cache misses only.
func (p *Planner) ManifestReads() int64 { return p.reads.Load() }

// Plan plans the read of in.Snapshot: only the manifests of that
// snapshot, and of those only the ones whose partitions can match, are
// read.
func (p *Planner) Plan(ctx context.Context, in Input) (*Plan, error) {
	pl, err := Prepare(in)
	if err != nil {
		return nil, err
	}
	if in.Snapshot == nil {
		return pl.Finish([][]spec.ManifestEntry{in.Staged})
	}
	metas, err := p.DataManifests(ctx, in.Snapshot)
	if err != nil {
		return nil, err
	}
	kept := pl.PruneManifests(metas)
	if len(in.Staged) > 0 {
		entries, err := p.readManifests(ctx, kept)
		if err != nil {
			return nil, err
		}
		return pl.Finish(append(entries, in.Staged))
	}
	live, err := p.liveFiles(ctx, kept)
	if err != nil {
		return nil, err
	}
	return pl.FinishLive(live)
}

// liveFiles returns the live files of manifests, in commit order, merged
// once and cached under their names: manifests never change, so the same
// list always merges into the same files, and the point selects of one
// partition, each with its own filter, plan without merging again.
func (p *Planner) liveFiles(ctx context.Context, metas []spec.ManifestFileMeta) ([]spec.ManifestEntry, error) {
	key := liveKey(metas)
	if item, ok := p.cache.get(key); ok {
		return item.entries, nil
	}
	entries, err := p.readManifests(ctx, metas)
	if err != nil {
		return nil, err
	}
	merger := manifest.NewMerger()
	for _, es := range entries {
		if err := merger.Add(es); err != nil {
			return nil, err
		}
	}
	live := merger.Live()
	p.cache.put(&cacheItem{name: key, weight: len(live), entries: live})
	return live, nil
}

// liveKey names the merged live files of manifests in the cache, apart
// from any manifest's own name, which never holds a NUL byte.
func liveKey(metas []spec.ManifestFileMeta) string {
	var b strings.Builder
	b.WriteString("\x00live")
	for i := range metas {
		b.WriteByte(0)
		b.WriteString(metas[i].FileName)
	}
	return b.String()
}

// DataManifests returns the manifests of a snapshot's base and delta
// lists, in commit order. The two lists are read at once.
func (p *Planner) DataManifests(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestFileMeta, error) {
	names := []string{s.BaseManifestList, s.DeltaManifestList}
	lists := make([][]spec.ManifestFileMeta, len(names))
	err := forEach(ctx, p.parallelism, len(names), func(ctx context.Context, i int) (err error) {
		lists[i], err = p.manifestList(ctx, names[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	return append(append([]spec.ManifestFileMeta(nil), lists[0]...), lists[1]...), nil
}

func (p *Planner) manifestList(ctx context.Context, name string) ([]spec.ManifestFileMeta, error) {
	if item, ok := p.cache.get(name); ok {
		return item.metas, nil
	}
	metas, err := p.manifests.ManifestList(ctx, name)
	if err != nil {
		return nil, err
	}
	p.reads.Add(1)
	p.cache.put(&cacheItem{name: name, weight: len(metas), metas: metas})
	return metas, nil
}

func (p *Planner) entries(ctx context.Context, name string) ([]spec.ManifestEntry, error) {
	if item, ok := p.cache.get(name); ok {
		return item.entries, nil
	}
	entries, err := p.manifests.Entries(ctx, name)
	if err != nil {
		return nil, err
	}
	p.reads.Add(1)
	p.cache.put(&cacheItem{name: name, weight: len(entries), entries: entries})
	return entries, nil
}

// readManifests reads manifests with a bounded number of goroutines and
// returns their entries in the order of metas, which is what the merge of
// ADDs and DELETEs depends on; the first error cancels the rest.
func (p *Planner) readManifests(ctx context.Context, metas []spec.ManifestFileMeta) ([][]spec.ManifestEntry, error) {
	out := make([][]spec.ManifestEntry, len(metas))
	err := forEach(ctx, p.parallelism, len(metas), func(ctx context.Context, i int) (err error) {
		out[i], err = p.entries(ctx, metas[i].FileName)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// forEach calls do for 0 ≤ i < n, on up to parallelism goroutines. The
// first error, in time, cancels the ctx of the calls running and starts
// no more; forEach returns it rather than what the cancelled calls report.
func forEach(ctx context.Context, parallelism, n int, do func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(parallelism, n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if err := do(ctx, i); err != nil {
					cancel(err)
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// ListedEntries returns the entries of the manifests of one manifest list,
// a snapshot's delta or changelog list, that in's filter can match: the
// files the snapshot added and deleted, in commit order. The entries are
// the cache's: callers must not modify them.
func (p *Planner) ListedEntries(ctx context.Context, in Input, list string) ([]spec.ManifestEntry, error) {
	pl, err := Prepare(in)
	if err != nil {
		return nil, err
	}
	metas, err := p.manifestList(ctx, list)
	if err != nil {
		return nil, err
	}
	parts, err := p.readManifests(ctx, pl.PruneManifests(metas))
	if err != nil {
		return nil, err
	}
	var out []spec.ManifestEntry
	for _, part := range parts {
		out = append(out, part...)
	}
	return out, nil
}

// PlanFiles plans a read of exactly files, each taken as live whatever its
// kind and kept or pruned by in's filter as a live file is: the files one
// snapshot changed rather than the whole state of in.Snapshot. It does
// not modify files.
func PlanFiles(in Input, files []spec.ManifestEntry) (*Plan, error) {
	pl, err := Prepare(in)
	if err != nil {
		return nil, err
	}
	return pl.FinishLive(files)
}
