package commit

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// metaCache holds the metadata one Commit call read or wrote. Snapshot,
// manifest list and manifest files are immutable, so a retry reads only
// what the snapshots published since the previous attempt added. Decoded
// lists and manifests also go to Committer.decoded, which outlives the
// call. What the call wrote is kept as decoded back from the bytes (see
// fileWriter), so that nothing cached shares memory with the request.
type metaCache struct {
	snapshots map[int64]*spec.Snapshot
	lists     map[string][]spec.ManifestFileMeta
	entries   map[string][]spec.ManifestEntry
	live      map[int64][]spec.ManifestEntry
	index     map[string][]spec.IndexManifestEntry
}

func newMetaCache() metaCache {
	return metaCache{
		snapshots: map[int64]*spec.Snapshot{},
		lists:     map[string][]spec.ManifestFileMeta{},
		entries:   map[string][]spec.ManifestEntry{},
		live:      map[int64][]spec.ManifestEntry{},
		index:     map[string][]spec.IndexManifestEntry{},
	}
}

// readSnapshot reads snapshot-<id>; found is false if it does not exist
// (not yet published, or expired). The file is read directly rather than
// through snapshot.Manager.Snapshot, which lists the directory to explain
// a missing file: here a missing file is an expected answer.
func (r *run) readSnapshot(ctx context.Context, id int64) (s *spec.Snapshot, found bool, err error) {
	if s, ok := r.view.snapshot(id); ok {
		return s, true, nil
	}
	if s, ok := r.cache.snapshots[id]; ok {
		return s, true, nil
	}
	s, found, err = r.readSnapshotFile(ctx, id)
	if found {
		r.cache.snapshots[id] = s
	}
	return s, found, err
}

// readSnapshotFile reads snapshot id from storage, bypassing the caches
// (which hold what this run planned on); found is false when there is no
// such file.
func (r *run) readSnapshotFile(ctx context.Context, id int64) (s *spec.Snapshot, found bool, err error) {
	p := r.c.snapshots.SnapshotPath(id)
	data, err := r.c.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("commit: read snapshot %d: %w", id, err)
	}
	if s, err = spec.DecodeSnapshot(data); err != nil {
		return nil, false, fmt.Errorf("commit: snapshot file %s: %w", p, err)
	}
	return s, true, nil
}

// readLatest returns the newest snapshot, or nil for an empty table.
func (r *run) readLatest(ctx context.Context) (*spec.Snapshot, error) {
	id, ok, err := r.c.snapshots.LatestID(ctx)
	if err != nil {
		return nil, fmt.Errorf("commit: find latest snapshot: %w", err)
	}
	if !ok {
		return nil, nil
	}
	s, found, err := r.readSnapshot(ctx, id)
	if err == nil && !found {
		err = fmt.Errorf("commit: latest snapshot %d disappeared while being read", id)
	}
	return s, err
}

func (r *run) manifestList(ctx context.Context, name string) ([]spec.ManifestFileMeta, error) {
	if metas, ok := r.cache.lists[name]; ok {
		return metas, nil
	}
	if metas, ok := r.view.manifestList(name); ok {
		return metas, nil
	}
	if metas, ok := r.c.decoded.ManifestList(name); ok {
		return metas, nil
	}
	metas, err := r.c.manifests.ManifestList(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	r.c.decoded.AddManifestList(name, metas)
	return metas, nil
}

func (r *run) manifestEntries(ctx context.Context, name string) ([]spec.ManifestEntry, error) {
	if entries, ok := r.cache.entries[name]; ok {
		return entries, nil
	}
	if entries, ok := r.view.manifestEntries(name); ok {
		return entries, nil
	}
	if entries, ok := r.c.decoded.Entries(name); ok {
		return entries, nil
	}
	entries, err := r.c.manifests.Entries(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	r.c.decoded.AddEntries(name, entries)
	return entries, nil
}

// dataManifests returns the manifests of a snapshot's base list, then
// those of its delta list: the input of the next snapshot's base list.
func (r *run) dataManifests(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestFileMeta, error) {
	base, err := r.manifestList(ctx, s.BaseManifestList)
	if err != nil {
		return nil, err
	}
	delta, err := r.manifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	return append(append([]spec.ManifestFileMeta{}, base...), delta...), nil
}

// liveEntries returns the data files live in snapshot s. Those of the
// snapshots a batch builds on are kept in the batch's view, shared by its
// attempts: the id of one not yet published may end up naming another
// snapshot, so they never go to the run's cache.
func (r *run) liveEntries(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	cache := r.cache.live
	if r.view.holds(s.ID) {
		cache = r.view.live
	}
	if live, ok := cache[s.ID]; ok {
		return live, nil
	}
	metas, err := r.dataManifests(ctx, s)
	if err != nil {
		return nil, err
	}
	merger := manifest.NewMerger()
	for _, meta := range metas {
		entries, err := r.manifestEntries(ctx, meta.FileName)
		if err != nil {
			return nil, err
		}
		if err := merger.Add(entries); err != nil {
			return nil, fmt.Errorf("commit: snapshot %d, manifest %s: %w", s.ID, meta.FileName, err)
		}
	}
	cache[s.ID] = merger.Live()
	return cache[s.ID], nil
}

// liveAfter returns the data files live in s given those live in the
// snapshot before it: a snapshot's base list holds the whole state of the
// one before, so folding in s's delta suffices. A delta that only adds
// files, which its conflict check found not live before, extends the set
// without folding it again.
func (r *run) liveAfter(ctx context.Context, before []spec.ManifestEntry, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	delta, err := r.deltaEntries(ctx, s)
	if err != nil {
		return nil, err
	}
	if onlyAdds(delta) {
		return append(before[:len(before):len(before)], delta...), nil
	}
	merger := manifest.NewMerger()
	if err := merger.Add(before); err != nil {
		return nil, err
	}
	if err := merger.Add(delta); err != nil {
		return nil, err
	}
	return merger.Live(), nil
}

func onlyAdds(entries []spec.ManifestEntry) bool {
	for i := range entries {
		if entries[i].Kind != spec.FileKindAdd {
			return false
		}
	}
	return true
}

// deltaEntries returns the entries snapshot s committed.
func (r *run) deltaEntries(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	metas, err := r.manifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	var out []spec.ManifestEntry
	for _, meta := range metas {
		entries, err := r.manifestEntries(ctx, meta.FileName)
		if err != nil {
			return nil, err
		}
		out = append(out, entries...)
	}
	return out, nil
}

// deltasSince returns the deltas of the snapshots after base up to latest,
// in id order. It stops at the first missing (expired) snapshot: the
// conflict checker treats the shortened history as a gap and fails closed.
func (r *run) deltasSince(ctx context.Context, base int64, latest *spec.Snapshot) ([]SnapshotDelta, error) {
	var out []SnapshotDelta
	for id := base + 1; id <= idOf(latest); id++ {
		s, found, err := r.readSnapshot(ctx, id)
		if err != nil || !found {
			return out, err
		}
		entries, err := r.deltaEntries(ctx, s)
		if err != nil {
			return nil, err
		}
		out = append(out, SnapshotDelta{Snapshot: RefOf(s), Entries: entries})
	}
	return out, nil
}
