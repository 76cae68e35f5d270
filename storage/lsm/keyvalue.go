package lsm

import "github.com/lakesql/lakesql/storage/spec"

// KeyValue is one record of a primary-key data file. Mirrors
// org.apache.paimon.KeyValue (without the level, which only lookup uses).
type KeyValue struct {
	// Key holds the trimmed primary-key values (primary keys minus partition
	// keys), in primary-key order.
	Key []any
	// Seq is _SEQUENCE_NUMBER: the per-bucket write order.
	Seq  int64
	Kind spec.RowKind
	// Value is the full row of table columns, in schema order.
	Value []any
	// Origin identifies the stored record to whoever read it (the table
	// reader numbers the records of a split's files by file and row
	// position). The merge never reads it; merge functions that keep one
	// of a key's records whole (deduplicate, first-row, and any key's
	// only record) return that record with its Origin.
	Origin int64
}

// RecordIterator is a stream of records.
//
// Next returns ok=false once the stream is exhausted and keeps doing so; an
// error ends the stream. The slices of a returned record belong to the
// caller: an iterator must not modify or reuse them afterwards, because a
// merge keeps the earlier records of a key while it reads the later ones.
type RecordIterator interface {
	Next() (kv KeyValue, ok bool, err error)
}

// SliceIterator streams records that are already in memory.
type SliceIterator struct {
	records []KeyValue
	pos     int
}

// NewSliceIterator returns an iterator over records, in slice order.
func NewSliceIterator(records []KeyValue) *SliceIterator {
	return &SliceIterator{records: records}
}

// Next returns the next record of the slice.
func (it *SliceIterator) Next() (KeyValue, bool, error) {
	if it.pos >= len(it.records) {
		return KeyValue{}, false, nil
	}
	it.pos++
	return it.records[it.pos-1], true, nil
}

// concatIterator mirrors org.apache.paimon.mergetree.compact.ConcatRecordReader:
// the files of one sorted run are read one after another.
type concatIterator struct {
	iters []RecordIterator
}

// Concat returns an iterator that reads its inputs one after another. The
// files of one sorted run, in key order, concatenate into one sorted stream.
func Concat(iters ...RecordIterator) RecordIterator {
	return &concatIterator{iters: iters}
}

func (c *concatIterator) Next() (KeyValue, bool, error) {
	for len(c.iters) > 0 {
		kv, ok, err := c.iters[0].Next()
		if err != nil || ok {
			return kv, ok, err
		}
		c.iters[0] = nil // let the exhausted input be collected
		c.iters = c.iters[1:]
	}
	return KeyValue{}, false, nil
}
