package scan

import (
	"cmp"
	"slices"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// Split is the unit of parallel reading: files of one bucket of one
// partition that are read together. Mirrors
// org.apache.paimon.table.source.DataSplit.
type Split struct {
	// Partition is the serialized partition BinaryRow.
	Partition    []byte
	Bucket       int32
	TotalBuckets int32
	Files        []spec.DataFileMeta
	// RawConvertible splits are read file by file without merging: append
	// splits, and primary-key splits whose keys do not repeat across files.
	RawConvertible bool
	// DeletionFiles locates the deletion vector of each file that has one,
	// by data file name.
	DeletionFiles map[string]DeletionFile
}

// DeletionFile is where a data file's deletion vector is stored.
// Mirrors org.apache.paimon.table.source.DeletionFile.
type DeletionFile struct {
	// IndexFile is the deletion-vectors index file holding the vector.
	IndexFile    string
	ExternalPath *string
	Meta         spec.DeletionVectorMeta
}

// splitConfig is what split generation needs from the table options.
type splitConfig struct {
	targetSize   int64
	openFileCost int64
	// uniqueKeys holds when keys never repeat across levels above 0:
	// deletion-vector and first-row tables.
	uniqueKeys bool
}

// group is a packed list of files and whether it reads without merging.
type group struct {
	files []spec.DataFileMeta
	raw   bool
}

// packOrdered is BinPacking.packForOrdered: items stay in order, and a bin
// is closed before the item that would take it past target.
func packOrdered[T any](items []T, weight func(T) int64, target int64) [][]T {
	var bins [][]T
	var bin []T
	var binWeight int64
	for _, item := range items {
		w := weight(item)
		if binWeight+w > target && len(bin) > 0 {
			bins, bin, binWeight = append(bins, bin), nil, 0
		}
		binWeight += w
		bin = append(bin, item)
	}
	if len(bin) > 0 {
		bins = append(bins, bin)
	}
	return bins
}

func (c splitConfig) fileWeight(f spec.DataFileMeta) int64 { return max(f.FileSize, c.openFileCost) }

// splitAppend mirrors AppendOnlySplitGenerator.splitForBatch.
func splitAppend(files []spec.DataFileMeta, c splitConfig) []group {
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b spec.DataFileMeta) int {
		if a.MinSequenceNumber != b.MinSequenceNumber {
			return cmp.Compare(a.MinSequenceNumber, b.MinSequenceNumber)
		}
		return cmp.Compare(a.FileName, b.FileName)
	})
	var out []group
	for _, bin := range packOrdered(sorted, c.fileWeight, c.targetSize) {
		out = append(out, group{files: bin, raw: true})
	}
	return out
}

// splitDataEvolution keeps a bucket of a data-evolution table in one
// split: files that hold columns of the same rows (overlapping row-id
// ranges) must be read together, which the reader does (Java's
// DataEvolutionSplitGenerator keeps such files in one split too). The
// split is raw, each stored row a table row, only when no two files share
// rows and every file holds all its schema's columns.
func splitDataEvolution(files []spec.DataFileMeta) []group {
	if len(files) == 0 {
		return nil
	}
	return []group{{files: files, raw: !sharesRows(files)}}
}

// sharesRows reports whether a file holds only some columns, or two files
// hold rows of the same row ids.
func sharesRows(files []spec.DataFileMeta) bool {
	type rowIDs struct{ from, to int64 }
	ranges := make([]rowIDs, 0, len(files))
	for i := range files {
		f := &files[i]
		if f.WriteCols != nil || f.FirstRowID == nil {
			return true
		}
		ranges = append(ranges, rowIDs{*f.FirstRowID, *f.FirstRowID + f.RowCount})
	}
	slices.SortFunc(ranges, func(a, b rowIDs) int { return cmp.Compare(a.from, b.from) })
	for i := 1; i < len(ranges); i++ {
		if ranges[i].from < ranges[i-1].to {
			return true
		}
	}
	return false
}

// splitPrimaryKey mirrors MergeTreeSplitGenerator.splitForBatch: files
// whose keys cannot repeat are packed one by one and read raw; otherwise
// IntervalPartition sections are packed whole, and only a group of one file
// without retractions is read raw.
func splitPrimaryKey(files []lsm.FileMeta[*spec.DataFileMeta], compareKeys lsm.RowComparator, c splitConfig) []group {
	plain := make([]spec.DataFileMeta, len(files))
	for i, f := range files {
		plain[i] = *f.Payload
	}
	if rawConvertible(plain, c.uniqueKeys) {
		var out []group
		for _, bin := range packOrdered(plain, c.fileWeight, c.targetSize) {
			out = append(out, group{files: bin, raw: true})
		}
		return out
	}
	var sections [][]spec.DataFileMeta
	for _, section := range lsm.PartitionIntervals(files, compareKeys) {
		var flat []spec.DataFileMeta
		for _, run := range section {
			for _, f := range run {
				flat = append(flat, *f.Payload)
			}
		}
		sections = append(sections, flat)
	}
	weight := func(section []spec.DataFileMeta) int64 { return max(totalSize(section), c.openFileCost) }
	var out []group
	for _, bin := range packOrdered(sections, weight, c.targetSize) {
		flat := slices.Concat(bin...)
		out = append(out, group{files: flat, raw: len(flat) == 1 && withoutDeleteRows(&flat[0])})
	}
	return out
}

// rawConvertible is the raw-convertible case of MergeTreeSplitGenerator:
// no file at level 0 or with retractions, and keys unique across levels or
// all files on one level.
func rawConvertible(files []spec.DataFileMeta, uniqueKeys bool) bool {
	for i := range files {
		if files[i].Level == 0 || !withoutDeleteRows(&files[i]) {
			return false
		}
	}
	if uniqueKeys {
		return true
	}
	for i := range files {
		if files[i].Level != files[0].Level {
			return false
		}
	}
	return true
}

// withoutDeleteRows is Java's withoutDeleteRow: an unknown count (files
// of old writers) may hide retractions.
func withoutDeleteRows(f *spec.DataFileMeta) bool {
	return f.DeleteRowCount != nil && *f.DeleteRowCount == 0
}

func totalSize(files []spec.DataFileMeta) int64 {
	var n int64
	for i := range files {
		n += files[i].FileSize
	}
	return n
}
