package scan

import (
	"fmt"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/predicate"
)

// Explanation says what a plan read and kept, and why it left the rest
// out: what on-call engineers print to answer "which snapshot, which
// files".
type Explanation struct {
	// SnapshotID is the pinned snapshot, 0 for a table without one.
	SnapshotID int64
	SchemaID   int64
	// Manifests are the data manifests of the snapshot in commit order.
	Manifests []ManifestDecision
	// Files are the live files of the manifests read, in manifest order.
	Files []FileDecision
	// Splits counts the splits; RawSplits those read without merging.
	Splits, RawSplits int
	// LimitDroppedSplits counts splits a LIMIT made unnecessary.
	LimitDroppedSplits int
	// Residual is the filter applied to the rows read (TRUE for none),
	// kept as a predicate: its text is only needed when the explanation
	// is printed, and costs a point select more than its bucket pruning.
	Residual predicate.Predicate
}

// ManifestDecision is one manifest of the snapshot.
type ManifestDecision struct {
	FileName string
	// Files is the net number of files the manifest adds (adds minus
	// deletes), known without reading it.
	Files  int64
	Reason Reason
}

// FileDecision is one live data file.
type FileDecision struct {
	// Partition is the partition path (k1=v1/k2=v2), PartitionKey the
	// serialized partition row.
	Partition    string
	PartitionKey string
	Bucket       int32
	FileName     string
	Level        int32
	RowCount     int64
	FileSize     int64
	Reason       Reason
}

// Count is a number of things in total and kept.
type Count struct{ Total, Kept int }

// Totals are the counts of an explanation.
type Totals struct {
	Manifests, Partitions, Buckets, Files Count
	// UnreadFiles is the net number of files in pruned manifests.
	UnreadFiles int64
	// SkippedByIndex counts the files a data-file index or a global index
	// left out.
	SkippedByIndex int
}

func (e *Explanation) count(splits []Split) {
	e.Splits, e.RawSplits = len(splits), 0
	for i := range splits {
		if splits[i].RawConvertible {
			e.RawSplits++
		}
	}
}

// Totals counts manifests, and the partitions, buckets and files of the
// manifests read.
func (e *Explanation) Totals() Totals {
	var t Totals
	for _, m := range e.Manifests {
		t.Manifests.Total++
		if m.Reason == Kept {
			t.Manifests.Kept++
		} else {
			t.UnreadFiles += m.Files
		}
	}
	partitions, buckets := map[string]bool{}, map[bucketKey]bool{}
	for _, f := range e.Files {
		k := bucketKey{f.PartitionKey, f.Bucket}
		partitions[f.PartitionKey] = partitions[f.PartitionKey] || f.Reason == Kept
		buckets[k] = buckets[k] || f.Reason == Kept
		t.Files.Total++
		switch f.Reason {
		case Kept:
			t.Files.Kept++
		case PrunedByFileIndex, PrunedByGlobalIndex:
			t.SkippedByIndex++
		}
	}
	t.Partitions = countKept(partitions)
	t.Buckets = countKept(buckets)
	return t
}

func countKept[K comparable](m map[K]bool) Count {
	c := Count{Total: len(m)}
	for _, kept := range m {
		if kept {
			c.Kept++
		}
	}
	return c
}

// String renders the explanation for people: a summary, then every
// pruned manifest and every file with its decision.
func (e *Explanation) String() string {
	var b strings.Builder
	e.writeSummary(&b)
	for _, m := range e.Manifests {
		if m.Reason != Kept {
			fmt.Fprintf(&b, "  pruned manifest %s (%d files): %s\n", m.FileName, m.Files, m.Reason)
		}
	}
	for _, f := range e.Files {
		if f.Reason == Kept {
			fmt.Fprintf(&b, "  kept   %s level=%d rows=%d\n", f.path(), f.Level, f.RowCount)
		} else {
			fmt.Fprintf(&b, "  pruned %s level=%d rows=%d: %s\n", f.path(), f.Level, f.RowCount, f.Reason)
		}
	}
	return b.String()
}

func (e *Explanation) writeSummary(b *strings.Builder) {
	if e.SnapshotID == 0 {
		fmt.Fprintf(b, "no snapshot (schema %d)\n", e.SchemaID)
	} else {
		fmt.Fprintf(b, "snapshot %d (schema %d)\n", e.SnapshotID, e.SchemaID)
	}
	t := e.Totals()
	fmt.Fprintf(b, "manifests: %d of %d read\n", t.Manifests.Kept, t.Manifests.Total)
	fmt.Fprintf(b, "partitions: %d of %d kept\n", t.Partitions.Kept, t.Partitions.Total)
	fmt.Fprintf(b, "buckets: %d of %d kept\n", t.Buckets.Kept, t.Buckets.Total)
	fmt.Fprintf(b, "files: %d of %d kept", t.Files.Kept, t.Files.Total)
	if t.UnreadFiles > 0 {
		fmt.Fprintf(b, " (%d more in pruned manifests)", t.UnreadFiles)
	}
	if t.SkippedByIndex > 0 {
		fmt.Fprintf(b, ", %d skipped by a file or global index", t.SkippedByIndex)
	}
	fmt.Fprintf(b, "\nsplits: %d (%d raw, %d merge)", e.Splits, e.RawSplits, e.Splits-e.RawSplits)
	if e.LimitDroppedSplits > 0 {
		fmt.Fprintf(b, ", %d more dropped by the limit", e.LimitDroppedSplits)
	}
	b.WriteString("\n")
	residual := ""
	if e.Residual != nil {
		residual = e.Residual.String()
	}
	fmt.Fprintf(b, "residual: %s\n", residual)
}

// path is the file's place in the table: partition/bucket-N/name.
func (f FileDecision) path() string {
	return path.Join(f.Partition, fmt.Sprintf("bucket-%d", f.Bucket), f.FileName)
}
