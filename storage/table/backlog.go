package table

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// Backlog is how far compaction is behind in one snapshot of a table,
// counted as Paimon's compaction counts it, from the live file list alone.
type Backlog struct {
	// SnapshotID is the snapshot whose files were counted; 0 for a table
	// without a snapshot.
	SnapshotID int64
	// MaxSortedRuns is the most sorted runs of any bucket: what a read of
	// that bucket merges (primary-key tables) or opens (append tables).
	MaxSortedRuns int
	// BucketsAtTrigger counts the buckets that reached the table's
	// compaction trigger, the ones a minor compaction would pick by count:
	// primary-key buckets with num-sorted-run.compaction-trigger sorted
	// runs or more, append buckets with compaction.min.file-num files
	// smaller than target-file-size or more.
	BucketsAtTrigger int
	// Trigger is the threshold BucketsAtTrigger was counted with.
	Trigger int
}

// BacklogFile is one live data file as backlog counting sees it.
type BacklogFile struct {
	// Partition identifies the partition; any encoding that is equal for
	// equal partitions will do.
	Partition string
	Bucket    int32
	Level     int32
	Size      int64
}

// BucketRuns is the file layout of one bucket of one partition.
type BucketRuns struct {
	Partition string
	Bucket    int32
	// SortedRuns counts every level-0 file as one run and every other
	// non-empty level as one more, as Paimon's Levels.levelSortedRuns
	// does. Append tables write only level 0, so theirs is the file count.
	SortedRuns int
	// SmallFiles counts the files smaller than the size SortedRuns was
	// given: the files an append compaction merges.
	SmallFiles int
}

// SortedRuns lays files out by bucket, ordered by partition then bucket.
func SortedRuns(files []BacklogFile, smallFileSize int64) []BucketRuns {
	type key struct {
		partition string
		bucket    int32
	}
	type layout struct {
		runs   BucketRuns
		levels map[int32]bool
	}
	buckets := map[key]*layout{}
	for _, f := range files {
		k := key{f.Partition, f.Bucket}
		b, ok := buckets[k]
		if !ok {
			b = &layout{runs: BucketRuns{Partition: f.Partition, Bucket: f.Bucket}, levels: map[int32]bool{}}
			buckets[k] = b
		}
		switch {
		case f.Level == 0:
			b.runs.SortedRuns++
		case !b.levels[f.Level]:
			b.levels[f.Level] = true
			b.runs.SortedRuns++
		}
		if f.Size < smallFileSize {
			b.runs.SmallFiles++
		}
	}
	out := make([]BucketRuns, 0, len(buckets))
	for _, b := range buckets {
		out = append(out, b.runs)
	}
	slices.SortFunc(out, func(a, b BucketRuns) int {
		return cmp.Or(cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Bucket, b.Bucket))
	})
	return out
}

// optionCompactionMinFileNum is the append tables' compaction trigger,
// spelled and defaulted as in org.apache.paimon.CoreOptions (package
// compact reads it too, for its picker).
const (
	optionCompactionMinFileNum  = "compaction.min.file-num"
	defaultCompactionMinFileNum = 5
)

// NewBacklog counts the backlog of files, the live data files of snapshot
// snapshotID of a table whose options are those of s.
func NewBacklog(s *spec.TableSchema, snapshotID int64, files []BacklogFile) (Backlog, error) {
	primaryKey := len(s.PrimaryKeys) > 0
	trigger, smallFileSize, err := backlogThresholds(s.CoreOptions(), primaryKey)
	if err != nil {
		return Backlog{}, err
	}
	b := Backlog{SnapshotID: snapshotID, Trigger: trigger}
	for _, r := range SortedRuns(files, smallFileSize) {
		b.MaxSortedRuns = max(b.MaxSortedRuns, r.SortedRuns)
		count := r.SmallFiles
		if primaryKey {
			count = r.SortedRuns
		}
		if count >= trigger {
			b.BucketsAtTrigger++
		}
	}
	return b, nil
}

// backlogThresholds are the count that triggers a compaction and, for
// append tables, the size below which a file is small enough to merge.
func backlogThresholds(o spec.CoreOptions, primaryKey bool) (trigger int, smallFileSize int64, err error) {
	if primaryKey {
		trigger, err = o.NumSortedRunCompactionTrigger()
		return trigger, 0, err
	}
	trigger = defaultCompactionMinFileNum
	if v, ok := o.Get(optionCompactionMinFileNum); ok {
		if trigger, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return 0, 0, fmt.Errorf("%w: table option %q = %q: not an integer", lakeerr.ErrCorruption, optionCompactionMinFileNum, v)
		}
	}
	smallFileSize, err = o.TargetFileSize(false)
	return trigger, smallFileSize, err
}

// PlanBacklog counts the backlog of the snapshot a plan read, when the
// plan saw every live file of it: ok is false for a plan that left
// manifests unread (a partition filter pruned them) or whose file count
// differs from the snapshot's (a transaction's staged changes are in it),
// and for a plan of a table without a snapshot.
func PlanBacklog(p *Plan) (b Backlog, ok bool, err error) {
	if p == nil || p.Snapshot == nil || p.Scan == nil {
		return Backlog{}, false, nil
	}
	var live int64
	for _, m := range p.Scan.Explain.Manifests {
		if m.Reason != scan.Kept {
			return Backlog{}, false, nil
		}
		live += m.Files
	}
	decisions := p.Scan.Explain.Files
	if live != int64(len(decisions)) {
		return Backlog{}, false, nil
	}
	files := make([]BacklogFile, len(decisions))
	for i, d := range decisions {
		files[i] = BacklogFile{Partition: d.PartitionKey, Bucket: d.Bucket, Level: d.Level, Size: d.FileSize}
	}
	b, err = NewBacklog(p.Schema, p.Snapshot.ID, files)
	return b, err == nil, err
}

// LatestBacklog counts the backlog of the latest snapshot from its
// manifests, without planning a read.
func (t *Table) LatestBacklog(ctx context.Context) (Backlog, error) {
	snap, err := t.snapshots.Latest(ctx)
	if err != nil || snap == nil {
		return Backlog{}, err
	}
	s, err := t.schemas.Latest(ctx)
	if err != nil {
		return Backlog{}, err
	}
	live, err := t.LiveFiles(ctx, snap)
	if err != nil {
		return Backlog{}, err
	}
	files := make([]BacklogFile, len(live))
	for i, e := range live {
		files[i] = BacklogFile{Partition: string(e.Partition), Bucket: e.Bucket, Level: e.File.Level, Size: e.File.FileSize}
	}
	return NewBacklog(s, snap.ID, files)
}
