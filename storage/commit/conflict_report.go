package commit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// conflict builds the error for entries that caused a conflict of the given
// kind with the snapshot against.
func (in *ConflictInput) conflict(kind ConflictKind, against SnapshotRef, entries []spec.ManifestEntry, detail string) *ConflictError {
	files, omitted := fileNames(entries)
	return &ConflictError{
		Kind:             kind,
		CommitKind:       in.CommitKind,
		CommitUser:       in.CommitUser,
		CommitIdentifier: in.CommitIdentifier,
		Attempt:          in.Attempt,
		BaseSnapshotID:   in.BaseSnapshotID,
		Conflicting:      against,
		Locations:        in.locations(entries),
		Files:            files,
		OmittedFiles:     omitted,
		Detail:           detail,
	}
}

// locations returns the distinct buckets of entries, sorted.
func (in *ConflictInput) locations(entries []spec.ManifestEntry) []Location {
	seen := map[Location]bool{}
	var out []Location
	for i := range entries {
		l := Location{Partition: in.partitionName(entries[i].Partition), Bucket: entries[i].Bucket}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b Location) int {
		return cmp.Or(strings.Compare(a.Partition, b.Partition), cmp.Compare(a.Bucket, b.Bucket))
	})
	return out
}

// fileNames returns the distinct file names of entries in order, at most
// maxReportedFiles, and how many were left out.
func fileNames(entries []spec.ManifestEntry) (names []string, omitted int) {
	seen := map[string]bool{}
	for i := range entries {
		name := entries[i].File.FileName
		if seen[name] {
			continue
		}
		seen[name] = true
		if len(names) == maxReportedFiles {
			omitted++
			continue
		}
		names = append(names, name)
	}
	return names, omitted
}

func (in *ConflictInput) partitionName(partition []byte) string {
	if in.FormatPartition != nil {
		return in.FormatPartition(partition)
	}
	return fmt.Sprintf("%x", partition)
}
