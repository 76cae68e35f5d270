package maintenance

import (
	"context"
	"path"
	"slices"

	"github.com/lakesql/lakesql/storage/fileio"
)

// deletion is the files an operation deletes, by kind.
type deletion map[FileKind][]string

// planDeletion returns the candidates nothing protects, each kind sorted.
// A candidate is protected by its path, and also by its file name: names
// carry a UUID, so a protected file of the same name is the same file
// reached through another path formatting (an older schema's partition
// options, another branch), and keeping it only leaks.
func planDeletion(candidates, protected refSet) deletion {
	names := make(map[string]bool, len(protected))
	for p := range protected {
		names[path.Base(p)] = true
	}
	plan := deletion{}
	for p, kind := range candidates {
		if _, ok := protected[p]; ok || names[path.Base(p)] {
			continue
		}
		plan[kind] = append(plan[kind], p)
	}
	for _, paths := range plan {
		slices.Sort(paths)
	}
	return plan
}

// dataKinds are deleted before metadataKinds: a crash in between leaves
// every manifest that names a deleted data file, so a re-run finds the
// rest. Within the metadata, manifests and index files go before the lists
// and index manifests that name them, for the same reason.
var (
	dataKinds     = []FileKind{FileKindData, FileKindChangelog}
	metadataKinds = []FileKind{FileKindManifest, FileKindIndexFile, FileKindStatistics, FileKindManifestList, FileKindIndexManifest}
)

// execute deletes the files of the given kinds, in order, and counts the
// ones this call removed in deleted.
func (d deletion) execute(ctx context.Context, fio fileio.FileIO, kinds []FileKind, deleted map[FileKind]int) error {
	for _, kind := range kinds {
		for _, p := range d[kind] {
			removed, err := deleteIfExists(ctx, fio, p)
			if err != nil {
				return err
			}
			if removed {
				deleted[kind]++
			}
		}
	}
	return nil
}
