package commit

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// mergeManifests returns the base manifest list of the next snapshot from
// the manifests of the latest one (its base, then its delta), merging
// small manifests so that the list does not grow by one manifest per
// commit. It is Java's legacy minor compaction
// (ManifestFileLegacyMerger.compactMinor): walk the manifests in order,
// grouping them until a group reaches manifest.target-file-size, merge each
// full group, and merge the tail group only if it has at least
// manifest.merge-min-count manifests.
//
// The full compaction Java tries first (rewriting every manifest with
// deletes once they total manifest.full-compaction-threshold-size) is not
// done; until it is, DELETE entries whose ADD lies in another group stay in
// the list.
func (r *run) mergeManifests(ctx context.Context, w *fileWriter, input []spec.ManifestFileMeta) ([]spec.ManifestFileMeta, error) {
	var out, group []spec.ManifestFileMeta
	var size int64
	for _, m := range input {
		group = append(group, m)
		size += m.FileSize
		if size < r.c.cfg.manifestTargetSize {
			continue
		}
		merged, err := r.mergeGroup(ctx, w, group)
		if err != nil {
			return nil, err
		}
		out, group, size = append(out, merged...), nil, 0
	}
	if len(group) < r.c.cfg.mergeMinCount {
		return append(out, group...), nil
	}
	merged, err := r.mergeGroup(ctx, w, group)
	if err != nil {
		return nil, err
	}
	return append(out, merged...), nil
}

// mergeGroup rewrites a group of manifests as one run of manifests, or
// none if all its entries cancel out. A single manifest is kept as is.
func (r *run) mergeGroup(ctx context.Context, w *fileWriter, group []spec.ManifestFileMeta) ([]spec.ManifestFileMeta, error) {
	if len(group) == 1 {
		return group, nil
	}
	var entries []spec.ManifestEntry
	for _, m := range group {
		e, err := r.manifestEntries(ctx, m.FileName)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e...)
	}
	folded, err := foldEntries(entries)
	if err != nil {
		return nil, err
	}
	return r.writeManifests(w, folded)
}

// foldEntries merges entries, in commit order, as Java's
// FileEntry.mergeEntries does for a manifest merge: an ADD and a later
// DELETE of one identifier cancel out; a DELETE whose ADD lies in an
// earlier manifest is kept, so that merging with that manifest later
// cancels it. Adding a file twice, deleting it twice or adding it back
// after a delete leave the table ambiguous and are reported as corruption
// (Java throws on the first and silently drops the second DELETE).
func foldEntries(entries []spec.ManifestEntry) ([]spec.ManifestEntry, error) {
	pending := map[manifest.Identifier]int{}
	kept := make([]bool, len(entries))
	for i := range entries {
		e := &entries[i]
		id := manifest.IdentifierOf(e)
		prev, seen := pending[id]
		switch {
		case !seen:
			pending[id], kept[i] = i, true
		case e.Kind == spec.FileKindDelete && entries[prev].Kind == spec.FileKindAdd:
			delete(pending, id)
			kept[prev] = false
		default:
			return nil, fmt.Errorf("commit: merging manifests: %s of file %s (bucket %d, level %d) after its %s: %w",
				e.Kind, e.File.FileName, e.Bucket, e.File.Level, entries[prev].Kind, lakeerr.ErrCorruption)
		}
	}
	out := make([]spec.ManifestEntry, 0, len(pending))
	for i := range entries {
		if kept[i] {
			out = append(out, entries[i])
		}
	}
	return out, nil
}
