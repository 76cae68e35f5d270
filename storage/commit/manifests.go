package commit

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// rollCheckEntries is how many entries go into a manifest between checks
// of its size, as Java's RollingFileWriter checks every 1000 records: a
// manifest is closed at the first check where it reached
// manifest.target-file-size.
const rollCheckEntries = 1000

// writeManifests writes entries, in order, into manifests of about
// manifest.target-file-size, and returns their manifest-list records.
func (r *run) writeManifests(w *fileWriter, entries []spec.ManifestEntry) ([]spec.ManifestFileMeta, error) {
	files, err := r.rollManifests(entries)
	if err != nil {
		return nil, err
	}
	metas := make([]spec.ManifestFileMeta, 0, len(files))
	for _, chunk := range files {
		data, err := manifest.EncodeEntries(r.c.cfg.manifestFormat, chunk)
		if err != nil {
			return nil, fmt.Errorf("commit: encode manifest: %w", err)
		}
		f, err := w.manifest(data)
		if err != nil {
			return nil, err
		}
		meta, err := r.manifestMeta(f, chunk)
		if err != nil {
			return nil, err
		}
		metas = append(metas, meta)
	}
	return metas, nil
}

// rollManifests splits entries into the contents of manifests. The size of
// a manifest is estimated as the sum of its blocks of rollCheckEntries
// encoded on their own, which is what a streaming writer would have
// flushed by then.
func (r *run) rollManifests(entries []spec.ManifestEntry) ([][]spec.ManifestEntry, error) {
	var files [][]spec.ManifestEntry
	start, size := 0, int64(0)
	for i := 0; i+rollCheckEntries < len(entries); i += rollCheckEntries {
		block, err := manifest.EncodeEntries(r.c.cfg.manifestFormat, entries[i:i+rollCheckEntries])
		if err != nil {
			return nil, fmt.Errorf("commit: encode manifest: %w", err)
		}
		size += int64(len(block))
		if size >= r.c.cfg.manifestTargetSize {
			files = append(files, entries[start:i+rollCheckEntries])
			start, size = i+rollCheckEntries, 0
		}
	}
	if start < len(entries) {
		files = append(files, entries[start:])
	}
	return files, nil
}

// manifestMeta is the manifest-list record of a manifest holding entries:
// counts, the partition stats readers prune manifests with, and bucket
// and level ranges. Row-id ranges stay null: lakesql assigns no row ids.
func (r *run) manifestMeta(f writtenFile, entries []spec.ManifestEntry) (spec.ManifestFileMeta, error) {
	stats, err := partitionStats(r.table, entries)
	if err != nil {
		return spec.ManifestFileMeta{}, err
	}
	meta := spec.ManifestFileMeta{FileName: f.name, FileSize: f.size, PartitionStats: stats, SchemaID: r.table.schemaID}
	for i := range entries {
		if entries[i].Kind == spec.FileKindAdd {
			meta.NumAddedFiles++
		} else {
			meta.NumDeletedFiles++
		}
	}
	meta.MinBucket, meta.MaxBucket = int32Range(entries, func(e *spec.ManifestEntry) int32 { return e.Bucket })
	meta.MinLevel, meta.MaxLevel = int32Range(entries, func(e *spec.ManifestEntry) int32 { return e.File.Level })
	return meta, nil
}

func int32Range(entries []spec.ManifestEntry, field func(*spec.ManifestEntry) int32) (lo, hi *int32) {
	if len(entries) == 0 {
		return nil, nil
	}
	minV, maxV := field(&entries[0]), field(&entries[0])
	for i := range entries {
		minV, maxV = min(minV, field(&entries[i])), max(maxV, field(&entries[i]))
	}
	return &minV, &maxV
}

// partitionStats is the _PARTITION_STATS of a manifest, as Java's
// SimpleStatsCollector computes it over the partition of every entry:
// per partition column the least and greatest non-null value (null when
// all are null) and the number of entries where it is null.
func partitionStats(t *tableLayout, entries []spec.ManifestEntry) (spec.SimpleStats, error) {
	n := len(t.partitionTypes)
	lo, hi := make([]any, n), make([]any, n)
	nulls := make([]int64, n)
	decoded := map[string][]any{}
	for i := range entries {
		values, ok := decoded[string(entries[i].Partition)]
		if !ok {
			var err error
			if values, err = t.decodePartition(entries[i].Partition); err != nil {
				return spec.SimpleStats{}, err
			}
			decoded[string(entries[i].Partition)] = values
		}
		for f, v := range values {
			switch {
			case v == nil:
				nulls[f]++
			case lo[f] == nil:
				lo[f], hi[f] = v, v
			default:
				lo[f], hi[f] = least(t.partitionTypes[f], lo[f], v), greatest(t.partitionTypes[f], hi[f], v)
			}
		}
	}
	return newPartitionStats(t.partitionTypes, lo, hi, nulls)
}

func least(t spec.DataType, a, b any) any {
	if spec.CompareValues(t, b, a) < 0 {
		return b
	}
	return a
}

func greatest(t spec.DataType, a, b any) any {
	if spec.CompareValues(t, b, a) > 0 {
		return b
	}
	return a
}

func newPartitionStats(types []spec.DataType, lo, hi []any, nulls []int64) (spec.SimpleStats, error) {
	counts := make([]*int64, len(nulls))
	for i := range nulls {
		counts[i] = &nulls[i]
	}
	stats, err := spec.NewSimpleStats(types, lo, hi, counts)
	if err != nil {
		return spec.SimpleStats{}, fmt.Errorf("commit: partition stats: %w", err)
	}
	return stats, nil
}
