package table

import (
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// Staged is what a transaction changed in a table and has not committed:
// data files added and deleted, and index files (deletion vectors of a
// row-level DELETE) added and deleted. A plan reads them on top of its
// snapshot, so that the transaction sees its own writes.
type Staged struct {
	Files []spec.ManifestEntry
	Index []spec.IndexManifestEntry
}

// Empty reports whether nothing is staged.
func (s Staged) Empty() bool { return len(s.Files)+len(s.Index) == 0 }

// applyIndex returns the snapshot's live index files with the staged
// index changes applied: deletions first, then additions, as a commit
// applies them.
func (s Staged) applyIndex(live []spec.IndexManifestEntry) []spec.IndexManifestEntry {
	if len(s.Index) == 0 {
		return live
	}
	deleted := map[indexFileKey]bool{}
	for _, e := range s.Index {
		if e.Kind == spec.FileKindDelete {
			deleted[keyOfIndexFile(e)] = true
		}
	}
	out := slices.DeleteFunc(slices.Clone(live), func(e spec.IndexManifestEntry) bool { return deleted[keyOfIndexFile(e)] })
	for _, e := range s.Index {
		if e.Kind == spec.FileKindAdd {
			out = append(out, e)
		}
	}
	return out
}

// indexFileKey identifies an index file of a partition bucket.
type indexFileKey struct {
	partition string
	bucket    int32
	name      string
}

func keyOfIndexFile(e spec.IndexManifestEntry) indexFileKey {
	return indexFileKey{partition: string(e.Partition), bucket: e.Bucket, name: e.IndexFile.FileName}
}
