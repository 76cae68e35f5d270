package lsm

import (
	"container/heap"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// FileMeta describes a data file by what the LSM algorithms need from it;
// Payload carries the caller's own file metadata through untouched. Mirrors
// the fields of org.apache.paimon.io.DataFileMeta used by IntervalPartition
// and Levels.
type FileMeta[P any] struct {
	FileName     string
	Level        int
	MinKey       []any
	MaxKey       []any
	MinSeq       int64
	MaxSeq       int64
	CreationTime spec.TimestampValue
	Payload      P
}

// SortedRun is a list of files whose key ranges do not overlap, in key
// order. Mirrors org.apache.paimon.mergetree.SortedRun.
type SortedRun[P any] []FileMeta[P]

// PartitionIntervals cuts files into sections whose key ranges do not
// overlap each other, and each section into the fewest sorted runs. Sections
// come in key order; runs within a section in the order they were opened.
// Mirrors org.apache.paimon.mergetree.compact.IntervalPartition: files are
// sorted by (minKey, maxKey), a new section starts when a file's minKey is
// above every maxKey seen in the current one, and inside a section each file
// joins the run whose last maxKey is smallest if it starts after it, or else
// opens a new run.
func PartitionIntervals[P any](files []FileMeta[P], compareKeys RowComparator) [][]SortedRun[P] {
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b FileMeta[P]) int {
		if c := compareKeys(a.MinKey, b.MinKey); c != 0 {
			return c
		}
		return compareKeys(a.MaxKey, b.MaxKey)
	})
	var sections [][]SortedRun[P]
	start := 0
	var bound []any
	for i, f := range sorted {
		if i > start && compareKeys(f.MinKey, bound) > 0 {
			sections = append(sections, partitionSection(sorted[start:i], compareKeys))
			start = i
		}
		if i == start || compareKeys(f.MaxKey, bound) > 0 {
			bound = f.MaxKey
		}
	}
	if start < len(sorted) {
		sections = append(sections, partitionSection(sorted[start:], compareKeys))
	}
	return sections
}

// partitionSection assigns the files of one section, sorted by minKey, to
// the minimum number of sorted runs: greedy interval colouring, where the
// run ending earliest is the only one worth trying.
func partitionSection[P any](files []FileMeta[P], compareKeys RowComparator) []SortedRun[P] {
	q := &runQueue[P]{compareKeys: compareKeys}
	q.runs = append(q.runs, SortedRun[P]{files[0]})
	q.order = append(q.order, 0)
	for _, f := range files[1:] {
		top := q.order[0]
		run := q.runs[top]
		if compareKeys(f.MinKey, run[len(run)-1].MaxKey) > 0 {
			q.runs[top] = append(run, f)
			heap.Fix(q, 0)
			continue
		}
		q.runs = append(q.runs, SortedRun[P]{f})
		heap.Push(q, len(q.runs)-1)
	}
	return q.runs
}

// runQueue is a min-heap of run indexes keyed on each run's last maxKey.
type runQueue[P any] struct {
	runs        []SortedRun[P]
	order       []int
	compareKeys RowComparator
}

func (q *runQueue[P]) Len() int { return len(q.order) }

func (q *runQueue[P]) Less(i, j int) bool {
	a, b := q.runs[q.order[i]], q.runs[q.order[j]]
	return q.compareKeys(a[len(a)-1].MaxKey, b[len(b)-1].MaxKey) < 0
}

func (q *runQueue[P]) Swap(i, j int) { q.order[i], q.order[j] = q.order[j], q.order[i] }

func (q *runQueue[P]) Push(x any) { q.order = append(q.order, x.(int)) }

func (q *runQueue[P]) Pop() any {
	last := q.order[len(q.order)-1]
	q.order = q.order[:len(q.order)-1]
	return last
}
