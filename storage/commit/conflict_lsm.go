package commit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// runKey names one sorted run of an LSM tree: a level >= 1 of a bucket.
type runKey struct {
	partition string
	bucket    int32
	level     int32
}

func runKeyOf(e *spec.ManifestEntry) runKey {
	return runKey{partition: string(e.Partition), bucket: e.Bucket, level: e.File.Level}
}

// checkKeyRanges requires the files of every level >= 1 run to have
// disjoint key ranges, because readers treat such a level as one sorted run
// and would merge overlapping files wrongly. Level 0 holds overlapping
// flushes by design and is not checked.
//
// Only runs this delta adds a file to are checked. Paimon checks every run
// of the changed partitions, so an overlap already in the table fails every
// later commit there, even appends that cannot have caused it; only an ADD
// can create an overlap, so nothing is missed.
func checkKeyRanges(in *ConflictInput, live []spec.ManifestEntry) error {
	if !in.PrimaryKey {
		return nil
	}
	runs := runsAddedTo(in.Delta, live)
	keys := make([]runKey, 0, len(runs))
	for key := range runs {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b runKey) int {
		return cmp.Or(strings.Compare(a.partition, b.partition), cmp.Compare(a.bucket, b.bucket), cmp.Compare(a.level, b.level))
	})
	var offending []spec.ManifestEntry
	var detail string
	for _, key := range keys {
		overlaps := overlappingNeighbours(runs[key], in.CompareKeys)
		if len(overlaps) > 0 && detail == "" {
			detail = fmt.Sprintf("%s and %s overlap at level %d", overlaps[0].File.FileName, overlaps[1].File.FileName, key.level)
		}
		offending = append(offending, overlaps...)
	}
	if len(offending) == 0 {
		return nil
	}
	return in.conflict(KeyRangeOverlap, in.Latest, offending, detail)
}

// runsAddedTo groups the live files of every level >= 1 run that delta
// adds a file to.
func runsAddedTo(delta, live []spec.ManifestEntry) map[runKey][]spec.ManifestEntry {
	touched := map[runKey]bool{}
	for i := range delta {
		if delta[i].Kind == spec.FileKindAdd && delta[i].File.Level >= 1 {
			touched[runKeyOf(&delta[i])] = true
		}
	}
	runs := map[runKey][]spec.ManifestEntry{}
	for i := range live {
		if key := runKeyOf(&live[i]); touched[key] {
			runs[key] = append(runs[key], live[i])
		}
	}
	return runs
}

// overlappingNeighbours sorts a run by min key and returns each adjacent
// pair whose ranges meet (prev.maxKey >= next.minKey). Equal min keys are
// ordered by file name so the report is deterministic.
func overlappingNeighbours(run []spec.ManifestEntry, compareKeys func(a, b []byte) int) []spec.ManifestEntry {
	slices.SortFunc(run, func(a, b spec.ManifestEntry) int {
		return cmp.Or(compareKeys(a.File.MinKey, b.File.MinKey), strings.Compare(a.File.FileName, b.File.FileName))
	})
	var out []spec.ManifestEntry
	for i := 1; i < len(run); i++ {
		if compareKeys(run[i-1].File.MaxKey, run[i].File.MinKey) >= 0 {
			out = append(out, run[i-1], run[i])
		}
	}
	return out
}
