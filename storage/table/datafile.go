package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// dataFile is one open data file, read in the read schema: its columns are
// matched to the read schema by field id and cast where the type changed.
type dataFile struct {
	path    string
	file    fileio.File
	parquet *parquetio.Reader
	mapping *schema.RowMapping
	// fileSchema is the schema the file was written with.
	fileSchema *spec.TableSchema
	deleted    deletionVector // nil when no row is deleted
}

// deletionVector tells which row positions of a data file are deleted.
type deletionVector interface {
	IsDeleted(position int64) bool
}

func (r *reader) openDataFile(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta) (*dataFile, error) {
	if _, err := dataFileFormat(f.FileName); err != nil {
		return nil, err
	}
	fileSchema, err := r.table.schemas.Schema(ctx, f.SchemaID)
	if err != nil {
		return nil, err
	}
	mapping, err := schema.NewRowMapping(fileSchema.Fields, r.schema.Fields, schema.Options{})
	if err != nil {
		return nil, fmt.Errorf("data file %s (schema %d): %w", f.FileName, f.SchemaID, err)
	}
	dv, err := r.deletionVector(ctx, b, f.FileName)
	if err != nil {
		return nil, err
	}
	p := b.DataFilePath(f)
	file, err := r.table.io.Open(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", p, err)
	}
	pq, err := parquetio.Open(file, p)
	if err != nil {
		file.Close()
		return nil, err
	}
	return &dataFile{path: p, file: file, parquet: pq, mapping: mapping, fileSchema: fileSchema, deleted: dv}, nil
}

func (d *dataFile) Close() error { return d.file.Close() }

// rowIterator streams the live rows of an append-table data file, or the
// values of a primary-key data file read without merging.
type rowIterator struct {
	data *dataFile
	// next returns the next file row and its position.
	next  func() ([]any, int64, error)
	close func() error
}

func (d *dataFile) appendRows() (*rowIterator, error) {
	requests := columnRequests(d.mapping.FileFields())
	it, err := d.parquet.NewRowIterator(requests)
	if err != nil {
		return nil, err
	}
	next := func() ([]any, int64, error) {
		row, err := it.Next()
		return row, it.Position(), err
	}
	return &rowIterator{data: d, next: next, close: it.Close}, nil
}

// Next returns the next live row in the read schema, or io.EOF.
func (it *rowIterator) Next() ([]any, error) {
	for {
		row, pos, err := it.next()
		if err != nil {
			return nil, err
		}
		if it.data.deleted != nil && it.data.deleted.IsDeleted(pos) {
			continue
		}
		return it.data.mapping.Apply(row)
	}
}

func (it *rowIterator) Close() error {
	err := it.close()
	return errors.Join(err, it.data.Close())
}

func columnRequests(fields []spec.DataField) []parquetio.ColumnRequest {
	out := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		out[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	return out
}

// keyValues streams the records of a primary-key data file as merge input.
// Keys are rebuilt from the mapped values, so records of files written
// under different schemas compare in the read schema's key types.
type keyValues struct {
	data   *dataFile
	it     *parquetio.KeyValueIterator
	keyIdx []int // positions of the trimmed primary keys in the read row
}

func (d *dataFile) keyValues(keyIdx []int) (*keyValues, error) {
	it, err := d.parquet.NewKeyValueIterator(d.fileSchema.TrimmedPrimaryKeys(), d.mapping.FileFields())
	if err != nil {
		return nil, err
	}
	return &keyValues{data: d, it: it, keyIdx: keyIdx}, nil
}

// Next implements lsm.RecordIterator.
func (kv *keyValues) Next() (lsm.KeyValue, bool, error) {
	for {
		rec, err := kv.it.Next()
		if err == io.EOF {
			return lsm.KeyValue{}, false, nil
		}
		if err != nil {
			return lsm.KeyValue{}, false, err
		}
		if kv.data.deleted != nil && kv.data.deleted.IsDeleted(rec.Position) {
			continue
		}
		value, err := kv.data.mapping.Apply(rec.Value)
		if err != nil {
			return lsm.KeyValue{}, false, fmt.Errorf("%s: %w", kv.data.path, err)
		}
		key := make([]any, len(kv.keyIdx))
		for i, j := range kv.keyIdx {
			key[i] = value[j]
		}
		return lsm.KeyValue{Key: key, Seq: rec.Seq, Kind: rec.Kind, Value: value}, true, nil
	}
}

func (kv *keyValues) Close() error {
	return errors.Join(kv.it.Close(), kv.data.Close())
}
