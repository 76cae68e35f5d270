package scan

import (
	"context"
	"runtime"
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

// NewPlanner returns a Planner reading manifests with r and caching them
// in cache (nil for none).
func NewPlanner(r *manifest.Reader, cache *ManifestCache) *Planner {
	return &Planner{manifests: r, cache: cache, parallelism: min(2*runtime.GOMAXPROCS(0), 16)}
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
	entries, err := p.readManifests(ctx, pl.PruneManifests(metas))
	if err != nil {
		return nil, err
	}
	return pl.Finish(append(entries, in.Staged))
}

// DataManifests returns the manifests of a snapshot's base and delta
// lists, in commit order.
func (p *Planner) DataManifests(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestFileMeta, error) {
	base, err := p.manifestList(ctx, s.BaseManifestList)
	if err != nil {
		return nil, err
	}
	delta, err := p.manifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	return append(append([]spec.ManifestFileMeta(nil), base...), delta...), nil
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
// returns their entries in the order of metas; the first error cancels
// the rest.
func (p *Planner) readManifests(ctx context.Context, metas []spec.ManifestFileMeta) ([][]spec.ManifestEntry, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]spec.ManifestEntry, len(metas))
	errs := make([]error, len(metas))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(p.parallelism, len(metas)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(metas) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if out[i], errs[i] = p.entries(ctx, metas[i].FileName); errs[i] != nil {
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, ctx.Err()
}
