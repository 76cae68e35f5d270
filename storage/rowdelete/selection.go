package rowdelete

import (
	"context"
	"errors"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Selection is the rows a statement deletes: positions in the data files
// of pinned plans. It is not safe for concurrent use.
type Selection struct {
	targets []*target
	byFile  map[fileKey]*target
	// read are the files a Find has read, which later Finds skip.
	read map[fileKey]bool
}

// fileKey identifies a data file of a partition bucket.
type fileKey struct {
	partition string
	bucket    int32
	name      string
}

// target is a data file with rows to delete.
type target struct {
	bucket *table.BucketPlan
	file   spec.DataFileMeta
	// positions are ascending: Find reads a file in order.
	positions []int64
}

// NewSelection returns an empty selection.
func NewSelection() *Selection {
	return &Selection{byFile: map[fileKey]*target{}, read: map[fileKey]bool{}}
}

// Rows is how many rows s deletes.
func (s *Selection) Rows() int64 {
	var n int64
	for _, t := range s.targets {
		n += int64(len(t.positions))
	}
	return n
}

// ErrSelected, returned by a match of Find with the last row it selects,
// ends the Find without reading further rows.
var ErrSelected = errors.New("rowdelete: every row is selected")

// Find reads the live rows of every data file of plan that no earlier
// Find of s read, and selects the rows match accepts. plan is a plan of
// an append table; rows come in its schema, every column.
func (s *Selection) Find(ctx context.Context, t *table.Table, plan *table.Plan, match func(row []any) (bool, error)) error {
	err := s.find(ctx, t, plan, match)
	if errors.Is(err, ErrSelected) {
		return nil
	}
	return err
}

func (s *Selection) find(ctx context.Context, t *table.Table, plan *table.Plan, match func(row []any) (bool, error)) error {
	for i := range plan.Buckets {
		b := &plan.Buckets[i]
		for j := range b.Files {
			f := &b.Files[j]
			k := fileKey{partition: string(b.Partition), bucket: b.Bucket, name: f.FileName}
			if s.read[k] {
				continue
			}
			s.read[k] = true
			err := t.ReadPositions(ctx, plan.Schema, b, f, func(pos int64, row []any) error {
				ok, err := match(row)
				if ok {
					s.add(k, b, f, pos)
				}
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Selection) add(k fileKey, b *table.BucketPlan, f *spec.DataFileMeta, pos int64) {
	t := s.byFile[k]
	if t == nil {
		t = &target{bucket: b, file: *f}
		s.byFile[k] = t
		s.targets = append(s.targets, t)
	}
	t.positions = append(t.positions, pos)
}

// byBucket groups the targets by partition bucket, in the order Find met
// them.
func (s *Selection) byBucket() [][]*target {
	type bucketKey struct {
		partition string
		bucket    int32
	}
	at := map[bucketKey]int{}
	var out [][]*target
	for _, t := range s.targets {
		k := bucketKey{string(t.bucket.Partition), t.bucket.Bucket}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], t)
	}
	return out
}
