package table

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// KeyOrdered returns the rows of a plan of a primary-key table in
// primary-key order (the key's columns in declared order, compared as
// spec.CompareValues compares them), across all its partitions and
// buckets: what a comparison with another copy of the table, sorted by
// the same key, walks. Each bucket's rows come in key order already, as
// they are merged; KeyOrdered merges the buckets, opening each one only
// when the merge reaches the smallest key its files can hold, so that the
// buckets open at once are those whose key ranges overlap (for a key that
// leads with the partition columns, one partition's).
type KeyOrdered struct {
	t      *Table
	ctx    context.Context
	plan   *Plan
	fields []spec.DataField
	keyIdx []int // positions of the primary key in a row
	types  []spec.DataType
	queue  bucketQueue
}

// ReadKeyOrdered reads plan in primary-key order. Close it when done.
func (t *Table) ReadKeyOrdered(ctx context.Context, plan *Plan) (*KeyOrdered, error) {
	s := plan.Schema
	if len(s.PrimaryKeys) == 0 {
		return nil, unsupported("a read in key order of a table without a primary key")
	}
	if plan.Fallback != nil {
		return nil, unsupported("a read in key order of a table with a fallback branch")
	}
	keyIdx, err := fieldPositions(s, s.PrimaryKeys)
	if err != nil {
		return nil, err
	}
	k := &KeyOrdered{t: t, ctx: ctx, plan: plan, fields: s.Fields, keyIdx: keyIdx}
	for _, i := range keyIdx {
		k.types = append(k.types, s.Fields[i].Type)
	}
	k.queue.compare = k.compareKeys
	splits := make([][]Split, len(plan.Buckets))
	for _, split := range plan.Splits {
		splits[split.Bucket] = append(splits[split.Bucket], split)
	}
	for i := range plan.Buckets {
		lower, err := k.lowerBound(i)
		if err != nil {
			return nil, err
		}
		k.queue.items = append(k.queue.items, &bucketStream{bucket: i, splits: splits[i], key: lower})
	}
	heap.Init(&k.queue)
	return k, nil
}

// Fields are the columns of the returned rows: the plan's schema.
func (k *KeyOrdered) Fields() []spec.DataField { return k.fields }

// Next returns the next row in key order, or io.EOF after the last.
func (k *KeyOrdered) Next() ([]any, error) {
	for len(k.queue.items) > 0 {
		top := k.queue.items[0]
		if top.rows == nil {
			if err := k.open(top); err != nil {
				return nil, err
			}
			k.requeue(top)
			continue
		}
		row := top.row
		if err := k.advance(top); err != nil {
			return nil, err
		}
		k.requeue(top)
		return row, nil
	}
	return nil, io.EOF
}

// requeue puts the stream at the top back in order, or drops it once it
// is read to its end.
func (k *KeyOrdered) requeue(top *bucketStream) {
	if top.row == nil {
		heap.Pop(&k.queue)
		return
	}
	heap.Fix(&k.queue, 0)
}

// open starts reading bucket s and reads its first row.
func (k *KeyOrdered) open(s *bucketStream) error {
	sub := *k.plan
	sub.Splits = s.splits
	rows, err := k.t.ExecutePlan(k.ctx, &sub, ReadOptions{Parallelism: 1})
	if err != nil {
		return err
	}
	s.rows = rows
	return k.advance(s)
}

// advance reads the next row of s into it, or closes s at its end. A
// bucket's rows must come in key order, from its files' smallest key on:
// a row before its predecessor would be merged in the wrong place, so it
// is an error.
func (k *KeyOrdered) advance(s *bucketStream) error {
	row, err := s.rows.Next()
	if err == io.EOF {
		s.row = nil
		err = s.rows.Close()
		s.rows = closedRows
		return err
	}
	if err != nil {
		return err
	}
	// s.key is the key before, or the bound the bucket's files give.
	key := k.keyOf(row)
	if k.compareKeys(key, s.key) < 0 {
		b := &k.plan.Buckets[s.bucket]
		return fmt.Errorf("%w: bucket %d of partition %x returned key %v after %v", lakeerr.ErrCorruption, b.Bucket, b.Partition, key, s.key)
	}
	s.row, s.key = row, key
	return nil
}

// closedRows marks a bucket read to its end.
var closedRows = &Rows{}

func (k *KeyOrdered) keyOf(row []any) []any {
	key := make([]any, len(k.keyIdx))
	for i, j := range k.keyIdx {
		key[i] = row[j]
	}
	return key
}

func (k *KeyOrdered) compareKeys(a, b []any) int { return spec.CompareRows(k.types, a, b) }

// lowerBound is the smallest primary key bucket i's files can hold: its
// partition's values and the smallest of its files' minimum keys.
func (k *KeyOrdered) lowerBound(i int) ([]any, error) {
	s, b := k.plan.Schema, &k.plan.Buckets[i]
	partTypes, err := s.PartitionTypes()
	if err != nil {
		return nil, err
	}
	partition, err := spec.DeserializeBinaryRow(partTypes, b.Partition)
	if err != nil {
		return nil, fmt.Errorf("partition of bucket %d: %w", b.Bucket, err)
	}
	ranges, err := scan.KeyRanges(s, k.t.schemaOf(k.ctx), b.Files)
	if err != nil {
		return nil, err
	}
	trimmedTypes := make([]spec.DataType, 0, len(ranges))
	for _, name := range s.TrimmedPrimaryKeys() {
		trimmedTypes = append(trimmedTypes, s.Fields[s.FieldIndex(name)].Type)
	}
	var least []any
	for _, r := range ranges {
		if least == nil || spec.CompareRows(trimmedTypes, r.MinKey, least) < 0 {
			least = r.MinKey
		}
	}
	trimmed := s.TrimmedPrimaryKeys()
	key := make([]any, len(s.PrimaryKeys))
	for j, name := range s.PrimaryKeys {
		if p := slices.Index(s.PartitionKeys, name); p >= 0 {
			key[j] = partition[p]
		} else if least != nil {
			key[j] = least[slices.Index(trimmed, name)]
		}
	}
	return key, nil
}

// Close stops every bucket read.
func (k *KeyOrdered) Close() error {
	var errs []error
	for _, s := range k.queue.items {
		if s.rows != nil && s.rows != closedRows {
			errs = append(errs, s.rows.Close())
		}
	}
	k.queue.items = nil
	return errors.Join(errs...)
}

// bucketStream is one bucket of a KeyOrdered read: before it is opened,
// key is the smallest key it can hold; after, the key of row, its next
// row.
type bucketStream struct {
	bucket int
	splits []Split // the plan's splits of the bucket
	rows   *Rows
	row    []any
	key    []any
}

// bucketQueue orders bucket streams by key; a stream not opened yet goes
// before an opened one of the same key, so that it is opened before that
// key is returned.
type bucketQueue struct {
	items   []*bucketStream
	compare func(a, b []any) int
}

func (q *bucketQueue) Len() int { return len(q.items) }
func (q *bucketQueue) Less(i, j int) bool {
	if c := q.compare(q.items[i].key, q.items[j].key); c != 0 {
		return c < 0
	}
	return q.items[i].rows == nil && q.items[j].rows != nil
}
func (q *bucketQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *bucketQueue) Push(x any)    { q.items = append(q.items, x.(*bucketStream)) }
func (q *bucketQueue) Pop() any {
	last := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return last
}
