package pick

import (
	"cmp"
	"math"
	"slices"
)

// fullCompactMinFiles is the fewest files a full compaction of an append
// bucket rewrites (BucketedAppendCompactManager.FULL_COMPACT_MIN_FILE):
// merging two files saves little.
const fullCompactMinFiles = 3

// BucketedAppend picks the small files of one bucket of an append table
// with fixed buckets. Files are taken in write order (by minimum sequence
// number), so merged files keep the order rows were appended in. Mirrors
// BucketedAppendCompactManager.
type BucketedAppend struct {
	// MinFileNum is compaction.min.file-num: a window of this many
	// consecutive files is merged.
	MinFileNum int
	// TargetFileSize is target-file-size: a window that reaches it slides
	// on, dropping its oldest file, since those files are large enough.
	TargetFileSize int64
}

// Pick returns the windows a compaction merges, oldest first. Paimon picks
// one window per compaction trigger and the next trigger continues with the
// files after it; Pick returns every window those triggers would, so that
// one compaction catches up.
func (b BucketedAppend) Pick(files []File) []Unit {
	queue := sortedBySeq(files)
	var units []Unit
	for {
		window, rest, ok := b.nextWindow(queue)
		if !ok {
			return units
		}
		units = append(units, Unit{Files: window, Reason: SmallFiles})
		queue = rest
	}
}

// nextWindow slides a window over the queue: it grows by one file at a
// time, is taken once it holds MinFileNum files, and drops its oldest file
// whenever its size reaches the target. Files dropped from the window are
// not considered again (they are large enough).
func (b BucketedAppend) nextWindow(queue []File) (window, rest []File, ok bool) {
	var size int64
	start := 0
	for i, f := range queue {
		size += f.Size
		if i+1-start >= b.MinFileNum {
			return queue[start : i+1], queue[i+1:], true
		}
		if size >= b.TargetFileSize {
			size -= queue[start].Size
			start++
		}
	}
	return nil, nil, false
}

// PickFull returns the unit of a full compaction of the bucket: every file
// after the leading ones that already reach the target size, if there are
// at least three and more of them are small than large; every file with
// forceRewriteAll (compaction.force-rewrite-all-files). Mirrors
// BucketedAppendCompactManager.FullCompactTask without deletion vectors.
func (b BucketedAppend) PickFull(files []File, forceRewriteAll bool) (Unit, bool) {
	if forceRewriteAll && len(files) > 0 {
		return Unit{Files: sortedBySeq(files), Reason: Full}, true
	}
	if len(files) < fullCompactMinFiles {
		return Unit{}, false
	}
	queue := sortedBySeq(files)
	for len(queue) > 0 && queue[0].Size >= b.TargetFileSize {
		queue = queue[1:]
	}
	small := 0
	for _, f := range queue {
		if f.Size < b.TargetFileSize {
			small++
		}
	}
	if small <= len(queue)-small || len(queue) < fullCompactMinFiles {
		return Unit{}, false
	}
	return Unit{Files: queue, Reason: Full}, true
}

func sortedBySeq(files []File) []File {
	out := slices.Clone(files)
	slices.SortStableFunc(out, func(a, b File) int { return cmp.Compare(a.MinSeq, b.MinSeq) })
	return out
}

// UnawareAppend picks the small files of one partition of a bucket-unaware
// append table, whose rows have no order to keep: files are packed
// smallest first into groups of about twice the target size. Mirrors
// AppendCompactCoordinator (the batch plan; its streaming ageing of
// leftover files needs state across plans).
type UnawareAppend struct {
	// TargetFileSize is target-file-size.
	TargetFileSize int64
	// CompactionFileSize is target-file-size times
	// compaction.small-file-ratio: smaller files are candidates.
	CompactionFileSize int64
	// OpenFileCost is source.split.open-file-cost, counted for every file
	// of a group so that many tiny files fill a group too.
	OpenFileCost int64
	// MinFileNum is compaction.min.file-num: the smallest leftover group
	// worth merging.
	MinFileNum int
}

// Pick returns the groups to merge.
func (u UnawareAppend) Pick(files []File) []Unit {
	return u.pack(files, u.CompactionFileSize, max(u.MinFileNum, 2))
}

// PickFull returns the groups of a full compaction: every file below the
// target size is a candidate, and a leftover group of two files is merged
// too; with forceRewriteAll every file is rewritten, a lone one too.
// Paimon's coordinator has no full mode; this is lakesql's.
func (u UnawareAppend) PickFull(files []File, forceRewriteAll bool) []Unit {
	if forceRewriteAll {
		return u.pack(files, math.MaxInt64, 1)
	}
	return u.pack(files, u.TargetFileSize, 2)
}

func (u UnawareAppend) pack(files []File, candidateBelow int64, minLeftover int) []Unit {
	var candidates []File
	for _, f := range files {
		if f.Size < candidateBelow {
			candidates = append(candidates, f)
		}
	}
	slices.SortStableFunc(candidates, func(a, b File) int { return cmp.Compare(a.Size, b.Size) })
	var units []Unit
	var bin []File
	var binSize int64
	for _, f := range candidates {
		bin = append(bin, f)
		binSize += f.Size + u.OpenFileCost
		if len(bin) > 1 && binSize >= 2*u.TargetFileSize {
			units = append(units, Unit{Files: bin, Reason: SmallFiles})
			bin, binSize = nil, 0
		}
	}
	if len(bin) >= minLeftover {
		units = append(units, Unit{Files: bin, Reason: SmallFiles})
	}
	return units
}
