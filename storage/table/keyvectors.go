package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// openKeyRecords opens the records of a file for a merge over the keys
// and sequence fields only (newKeyReader), their Origin origin plus
// their row position: from column vectors when the file's format and
// columns allow, else through the row reader.
func (r *reader) openKeyRecords(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta, groupFilter predicate.Predicate, origin int64) (recordFile, error) {
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return nil, err
	}
	records, err := r.keyRecords(d, groupFilter, origin)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return records, nil
}

func (r *reader) keyRecords(d *dataFile, groupFilter predicate.Predicate, origin int64) (recordFile, error) {
	requests, ok := r.keyVectorColumns(d)
	if !ok {
		kv, err := r.records(d, groupFilter)
		if err != nil {
			return nil, err
		}
		kv.origin = origin
		return kv, nil
	}
	groups, err := r.rowGroups(d, groupFilter)
	if err != nil {
		return nil, err
	}
	it, err := d.parquet().NewVectorIterator(requests, groups)
	if err != nil {
		return nil, err
	}
	return &vectorRecords{data: d, it: it, r: r, origin: origin, userSequence: r.engine.UserSequenceComparator() != nil}, nil
}

// keyVectorColumns returns the vector requests of a file's records for
// a key-only merge: _SEQUENCE_NUMBER, _VALUE_KIND, then each merge
// column (r.mergeColumns) as stored; ok is false for a file that is not
// Parquet, and when a column is missing, has another type than in the
// read schema (a conversion the row path applies) or does not vectorize.
func (r *reader) keyVectorColumns(d *dataFile) (requests []parquetio.ColumnRequest, ok bool) {
	pq := d.parquet()
	if pq == nil {
		return nil, false
	}
	requests = []parquetio.ColumnRequest{
		{Name: parquetio.SequenceNumberColumn, Type: spec.DataType{Root: spec.BigInt}},
		{Name: parquetio.ValueKindColumn, Type: spec.DataType{Root: spec.TinyInt}},
	}
	for _, c := range r.mergeColumns {
		rf := r.schema.Fields[c]
		ff, found := d.fileSchema.FieldByID(rf.ID)
		if !found || ff.Type.String() != rf.Type.String() {
			return nil, false
		}
		requests = append(requests, parquetio.ColumnRequest{Name: ff.Name, Type: ff.Type})
	}
	for _, req := range requests {
		if !pq.CanVectorize(req) {
			return nil, false
		}
	}
	return requests, true
}

// vectorRecords streams the records of a file for a key-only merge from
// column vectors, skipping rows of the file's deletion vector. A record
// holds the key; its Value holds the sequence fields when the table has
// any (the merge orders by them), else it is nil: deduplicate and
// first-row merges read nothing else.
type vectorRecords struct {
	data         *dataFile
	it           *parquetio.VectorIterator
	r            *reader
	origin       int64
	userSequence bool
	// The current batch: vectors, its rows n, the next row, the file
	// position of its first row, and the backing array of its keys.
	vectors []*vector.Vector
	n, next int
	first   int64
	keys    []any
}

// Next implements lsm.RecordIterator.
func (v *vectorRecords) Next() (lsm.KeyValue, bool, error) {
	for {
		if v.next == v.n {
			if err := v.fill(); err == io.EOF {
				return lsm.KeyValue{}, false, nil
			} else if err != nil {
				return lsm.KeyValue{}, false, err
			}
		}
		i := v.next
		v.next++
		pos := v.first + int64(i)
		if v.data.deleted != nil && v.data.deleted.IsDeleted(pos) {
			continue
		}
		return v.record(i, pos)
	}
}

func (v *vectorRecords) fill() error {
	vectors, n, err := v.it.Next(vectorBatchRows)
	if n == 0 {
		if err == nil {
			err = io.EOF
		}
		return err
	}
	v.vectors, v.n, v.next, v.first = vectors, n, 0, v.it.Position()
	v.keys = make([]any, n*len(v.r.keyIdx))
	return nil
}

// record builds the record of row i of the batch, at file position pos.
func (v *vectorRecords) record(i int, pos int64) (lsm.KeyValue, bool, error) {
	seq, kinds := v.vectors[0], v.vectors[1]
	if seq.IsNull(i) || kinds.IsNull(i) || kinds.Int32[i] < int32(spec.RowKindInsert) || kinds.Int32[i] > int32(spec.RowKindDelete) {
		return lsm.KeyValue{}, false, fmt.Errorf("%s row %d: %w: no valid sequence number and row kind", v.data.path, pos, lakeerr.ErrCorruption)
	}
	k := len(v.r.keyIdx)
	key := v.keys[i*k : (i+1)*k : (i+1)*k]
	var value []any
	if v.userSequence {
		value = make([]any, len(v.r.schema.Fields))
	}
	// The merge columns are r.mergeColumns, the vectors after the first
	// two, in order.
	for j, c := range v.r.mergeColumns {
		x := v.vectors[2+j].Value(i)
		if value != nil {
			value[c] = x
		}
		for ki, kc := range v.r.keyIdx {
			if kc == c {
				key[ki] = x
			}
		}
	}
	return lsm.KeyValue{Key: key, Seq: seq.Int64[i], Kind: spec.RowKind(kinds.Int32[i]), Value: value, Origin: v.origin + pos}, true, nil
}

func (v *vectorRecords) Close() error {
	return errors.Join(v.it.Close(), v.data.Close())
}
