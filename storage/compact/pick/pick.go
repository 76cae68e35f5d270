// Package pick decides what a compaction rewrites: pure functions from the
// files of one bucket (their levels and sizes) to the unit to compact, with
// the reason. It performs no I/O, so every decision can be tested from a
// text description of the files (see testdata/).
//
// Primary-key tables use Paimon's universal compaction (Universal): level-0
// files are each a sorted run, every level >= 1 is one sorted run, and runs
// are merged newest first when they amplify the stored size too much, when a
// run is small next to the older ones, or when there are too many of them.
// Append tables merge small files (BucketedAppend for tables with fixed
// buckets, UnawareAppend for bucket-unaware ones).
//
// Reference: Apache Paimon paimon-core org.apache.paimon.mergetree.compact
// (UniversalCompaction, ForceUpLevel0Compaction, EarlyFullCompaction,
// CompactStrategy, MergeTreeCompactManager) and org.apache.paimon.append
// (BucketedAppendCompactManager, AppendCompactCoordinator), read at commit
// 5dacde516bf6 (2026-08).
package pick

import "fmt"

// File is what a picker knows of a data file.
type File struct {
	Name  string
	Level int
	Size  int64
	// MinSeq orders the files of an append bucket by write order.
	MinSeq int64
}

// Run is a sorted run: one level-0 file, or all files of a level >= 1.
type Run struct {
	Level int
	Files []File
}

// Size is the total size of the run's files.
func (r Run) Size() int64 {
	var n int64
	for _, f := range r.Files {
		n += f.Size
	}
	return n
}

// Reason says why a unit was picked.
type Reason int

const (
	// SizeAmplification: the newer runs together outgrew the oldest run by
	// more than compaction.max-size-amplification-percent; everything is
	// merged into the highest level.
	SizeAmplification Reason = iota + 1
	// SizeRatio: the newest runs are at least as large as the next one
	// (within compaction.size-ratio percent), so merging them is cheap
	// relative to what it saves.
	SizeRatio
	// FileNum: more sorted runs than num-sorted-run.compaction-trigger; the
	// newest ones are merged so that the count drops back to the trigger.
	FileNum
	// ForceUpLevel0: tables whose reads or changelog need level 0 empty
	// (first-row, force-lookup, compaction.force-up-level-0) move every
	// level-0 file up even when no other rule fires.
	ForceUpLevel0
	// EarlyFull: compaction.total-size-threshold or
	// compaction.incremental-size-threshold asked for a full compaction.
	EarlyFull
	// Full: a full compaction was requested.
	Full
	// SmallFiles: an append bucket or partition has enough small files to
	// merge.
	SmallFiles
)

func (r Reason) String() string {
	switch r {
	case SizeAmplification:
		return "size-amplification"
	case SizeRatio:
		return "size-ratio"
	case FileNum:
		return "file-num"
	case ForceUpLevel0:
		return "force-up-level-0"
	case EarlyFull:
		return "early-full"
	case Full:
		return "full"
	case SmallFiles:
		return "small-files"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Unit is what one compaction rewrites: its input files, in run order
// (newest run first), and the level the result goes to.
type Unit struct {
	Files       []File
	OutputLevel int
	Reason      Reason
}

func unitOf(runs []Run, outputLevel int, reason Reason) Unit {
	u := Unit{OutputLevel: outputLevel, Reason: reason}
	for _, r := range runs {
		u.Files = append(u.Files, r.Files...)
	}
	return u
}
