package commit

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// indexPlan is the full list of index files a snapshot lists, when a part
// changes index files; a nil plan keeps the latest snapshot's index
// manifest.
type indexPlan struct {
	entries []spec.IndexManifestEntry
}

// indexKey identifies an index file in the index manifest.
type indexKey struct {
	partition string
	bucket    int32
	file      string
}

func indexKeyOf(e *spec.IndexManifestEntry) indexKey {
	return indexKey{partition: string(e.Partition), bucket: e.Bucket, file: e.IndexFile.FileName}
}

// indexEntries returns the live index files of snapshot s.
func (r *run) indexEntries(ctx context.Context, s *spec.Snapshot) ([]spec.IndexManifestEntry, error) {
	if s == nil || s.IndexManifest == nil {
		return nil, nil
	}
	if entries, ok := r.cache.index[*s.IndexManifest]; ok {
		return entries, nil
	}
	if entries, ok := r.view.indexEntries(*s.IndexManifest); ok {
		return entries, nil
	}
	entries, err := r.c.manifests.IndexEntries(ctx, *s.IndexManifest)
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	r.cache.index[*s.IndexManifest] = entries
	return entries, nil
}

// combineIndex applies an attempt's index changes to the latest
// snapshot's index files, as Java's IndexManifestFileHandler rewrites the
// full list each commit: DELETEs first, then ADDs. Unlike Java's bucketed combiner, which
// lets a new file silently replace the previous one of its bucket and
// type, files are matched by name, so a deletion vector another writer
// replaced meanwhile is a conflict, not a lost update: deleting a file
// that is no longer live, or adding one that is, conflicts as the same
// change to a data file would.
func (r *run) combineIndex(ctx context.Context, index []spec.IndexManifestEntry, latest *spec.Snapshot, in *ConflictInput) (*indexPlan, error) {
	if len(index) == 0 {
		return nil, nil
	}
	live, err := r.indexEntries(ctx, latest)
	if err != nil {
		return nil, err
	}
	files := newIndexSet(live)
	var missing, added []spec.ManifestEntry
	for i := range index {
		if e := &index[i]; e.Kind == spec.FileKindDelete && !files.remove(e) {
			missing = append(missing, asConflictEntry(e))
		}
	}
	for i := range index {
		if e := &index[i]; e.Kind == spec.FileKindAdd && !files.add(e) {
			added = append(added, asConflictEntry(e))
		}
	}
	if len(missing) > 0 {
		return nil, in.conflict(DeletedFileNotLive, in.Latest, missing, "index files")
	}
	if len(added) > 0 {
		return nil, in.conflict(FileAddedTwice, in.Latest, added, "index files")
	}
	return &indexPlan{entries: files.list()}, nil
}

// checkVectorTargets fails an attempt that adds deletion vectors whose
// rows another commit has moved: a vector for a data file that is no
// longer live (a compaction or a rewrite replaced it, and its rows live
// on elsewhere), or a data file that has another live vector after the
// attempt (a concurrent deletion added one, which this one would hide).
// Java checks the first for unaware-bucket tables
// (ConflictDetection.buildDeltaEntriesWithDV); index files are otherwise
// matched by name only (combineIndex), which leaves both unseen.
func checkVectorTargets(in *ConflictInput, inc increment, live []spec.ManifestEntry, index *indexPlan) error {
	added := addedVectors(inc.index)
	if len(added) == 0 {
		return nil
	}
	files := liveAfter(live, inc.entries)
	var gone, doubled []spec.ManifestEntry
	for k, e := range added {
		if !files[k] {
			gone = append(gone, spec.ManifestEntry{Kind: spec.FileKindAdd, Partition: e.Partition, Bucket: e.Bucket, File: spec.DataFileMeta{FileName: k.file}})
		}
	}
	seen := map[indexKey]int{}
	for _, e := range index.entries {
		if e.IndexFile.IndexType != spec.IndexTypeDeletionVectors {
			continue
		}
		for _, r := range e.IndexFile.DeletionVectorRanges {
			k := indexKey{partition: string(e.Partition), bucket: e.Bucket, file: r.DataFileName}
			if seen[k]++; seen[k] == 2 && added[k] != nil {
				doubled = append(doubled, asConflictEntry(added[k]))
			}
		}
	}
	if len(gone) > 0 {
		return in.conflict(DeletedFileNotLive, in.Latest, gone, "data files of new deletion vectors")
	}
	if len(doubled) > 0 {
		return in.conflict(DeletedFileNotLive, in.Latest, doubled, "deletion vectors another commit replaced")
	}
	return nil
}

// addedVectors are the data files the added deletion-vector index files
// of index hold vectors for, keyed by partition, bucket and data file
// name, each with the index entry that adds it.
func addedVectors(index []spec.IndexManifestEntry) map[indexKey]*spec.IndexManifestEntry {
	out := map[indexKey]*spec.IndexManifestEntry{}
	for i := range index {
		e := &index[i]
		if e.Kind != spec.FileKindAdd || e.IndexFile.IndexType != spec.IndexTypeDeletionVectors {
			continue
		}
		for _, r := range e.IndexFile.DeletionVectorRanges {
			out[indexKey{partition: string(e.Partition), bucket: e.Bucket, file: r.DataFileName}] = e
		}
	}
	return out
}

// liveAfter is the set of data files live once delta applies to live.
func liveAfter(live, delta []spec.ManifestEntry) map[indexKey]bool {
	files := make(map[indexKey]bool, len(live)+len(delta))
	for _, es := range [][]spec.ManifestEntry{live, delta} {
		for i := range es {
			e := &es[i]
			files[indexKey{partition: string(e.Partition), bucket: e.Bucket, file: e.File.FileName}] = e.Kind == spec.FileKindAdd
		}
	}
	return files
}

// asConflictEntry presents an index file the way conflict reports name
// files.
func asConflictEntry(e *spec.IndexManifestEntry) spec.ManifestEntry {
	return spec.ManifestEntry{Kind: e.Kind, Partition: e.Partition, Bucket: e.Bucket, File: spec.DataFileMeta{FileName: e.IndexFile.FileName}}
}

// indexSet is an ordered set of live index files.
type indexSet struct {
	order []indexKey
	files map[indexKey]spec.IndexManifestEntry
}

func newIndexSet(live []spec.IndexManifestEntry) *indexSet {
	s := &indexSet{files: map[indexKey]spec.IndexManifestEntry{}}
	for i := range live {
		s.add(&live[i])
	}
	return s
}

func (s *indexSet) add(e *spec.IndexManifestEntry) bool {
	k := indexKeyOf(e)
	if _, ok := s.files[k]; ok {
		return false
	}
	added := *e
	added.Kind = spec.FileKindAdd
	s.files[k] = added
	s.order = append(s.order, k)
	return true
}

func (s *indexSet) remove(e *spec.IndexManifestEntry) bool {
	k := indexKeyOf(e)
	if _, ok := s.files[k]; !ok {
		return false
	}
	delete(s.files, k)
	return true
}

// list returns the live files in the order they were added.
func (s *indexSet) list() []spec.IndexManifestEntry {
	out := make([]spec.IndexManifestEntry, 0, len(s.files))
	emitted := map[indexKey]bool{}
	for _, k := range s.order {
		if e, ok := s.files[k]; ok && !emitted[k] {
			emitted[k] = true
			out = append(out, e)
		}
	}
	return out
}
