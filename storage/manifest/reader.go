package manifest

import (
	"context"
	"fmt"
	"path"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// Reader reads the manifest/ directory of a table. Manifest files are
// immutable, so callers may cache what it returns by file name.
type Reader struct {
	io  fileio.FileIO
	dir string
}

// NewReader returns a Reader for the table at tableDir.
func NewReader(io fileio.FileIO, tableDir string) *Reader {
	return &Reader{io: io, dir: path.Join(tableDir, "manifest")}
}

// Path returns the path of a file in the manifest directory.
func (r *Reader) Path(name string) string { return path.Join(r.dir, name) }

// ManifestList reads one manifest list.
func (r *Reader) ManifestList(ctx context.Context, name string) ([]spec.ManifestFileMeta, error) {
	data, err := r.read(ctx, name)
	if err != nil {
		return nil, err
	}
	metas, err := DecodeList(data)
	if err != nil {
		return nil, fmt.Errorf("manifest list %s: %w", r.Path(name), err)
	}
	return metas, nil
}

// Entries reads one manifest file.
func (r *Reader) Entries(ctx context.Context, name string) ([]spec.ManifestEntry, error) {
	data, err := r.read(ctx, name)
	if err != nil {
		return nil, err
	}
	entries, err := DecodeEntries(data)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", r.Path(name), err)
	}
	return entries, nil
}

func (r *Reader) read(ctx context.Context, name string) ([]byte, error) {
	data, err := r.io.ReadFile(ctx, r.Path(name))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", r.Path(name), err)
	}
	return data, nil
}

// DataManifests returns the manifests of a snapshot's data files: those of
// its base list, then those of its delta list, in commit order.
func (r *Reader) DataManifests(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestFileMeta, error) {
	base, err := r.ManifestList(ctx, s.BaseManifestList)
	if err != nil {
		return nil, err
	}
	delta, err := r.ManifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	return append(base, delta...), nil
}

// LiveEntries returns the data files live in snapshot s.
func (r *Reader) LiveEntries(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	merger := NewMerger()
	err := r.eachDataManifest(ctx, s, func(meta spec.ManifestFileMeta, entries []spec.ManifestEntry) error {
		if err := merger.Add(entries); err != nil {
			return fmt.Errorf("snapshot %d, manifest %s: %w", s.ID, meta.FileName, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return merger.Live(), nil
}

// UnmergedEntries returns every entry of snapshot s's data manifests, ADD
// and DELETE, in commit order: an ADD and the DELETE of the same file
// stay until a manifest compaction drops both. Java's $partitions and
// $buckets take the newest creation time of such entries
// (AbstractFileStoreScan.readPartitionEntries, PartitionEntry.merge).
func (r *Reader) UnmergedEntries(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	var all []spec.ManifestEntry
	err := r.eachDataManifest(ctx, s, func(_ spec.ManifestFileMeta, entries []spec.ManifestEntry) error {
		all = append(all, entries...)
		return nil
	})
	return all, err
}

func (r *Reader) eachDataManifest(ctx context.Context, s *spec.Snapshot, fn func(spec.ManifestFileMeta, []spec.ManifestEntry) error) error {
	metas, err := r.DataManifests(ctx, s)
	if err != nil {
		return err
	}
	for _, meta := range metas {
		entries, err := r.Entries(ctx, meta.FileName)
		if err != nil {
			return err
		}
		if err := fn(meta, entries); err != nil {
			return err
		}
	}
	return nil
}

// IndexEntries reads an index manifest and returns its live ADD entries.
// An index manifest lists every live index file, so DELETE entries in it
// only cancel ADDs of the same file.
func (r *Reader) IndexEntries(ctx context.Context, name string) ([]spec.IndexManifestEntry, error) {
	data, err := r.read(ctx, name)
	if err != nil {
		return nil, err
	}
	entries, err := DecodeIndex(data)
	if err != nil {
		return nil, fmt.Errorf("index manifest %s: %w", r.Path(name), err)
	}
	return liveIndexEntries(entries), nil
}

func liveIndexEntries(entries []spec.IndexManifestEntry) []spec.IndexManifestEntry {
	type key struct {
		partition string
		bucket    int32
		file      string
	}
	deleted := map[key]bool{}
	for _, e := range entries {
		if e.Kind == spec.FileKindDelete {
			deleted[key{string(e.Partition), e.Bucket, e.IndexFile.FileName}] = true
		}
	}
	var live []spec.IndexManifestEntry
	for _, e := range entries {
		if e.Kind == spec.FileKindAdd && !deleted[key{string(e.Partition), e.Bucket, e.IndexFile.FileName}] {
			live = append(live, e)
		}
	}
	return live
}
