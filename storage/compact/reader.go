package compact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sync"

	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// fileReader opens data files of a table in its latest schema: columns are
// matched by field id and cast as Java casts them, so files written under
// older schemas are rewritten in the latest one. It is safe for concurrent
// use.
type fileReader struct {
	io      fileio.FileIO
	schemas *schema.Manager
	read    *spec.TableSchema
	// keyIdx are the positions of the trimmed primary keys in a read row.
	keyIdx []int

	mu       sync.Mutex
	mappings map[int64]*schema.RowMapping
}

func newFileReader(fsys fileio.FileIO, schemas *schema.Manager, read *spec.TableSchema) *fileReader {
	r := &fileReader{io: fsys, schemas: schemas, read: read, mappings: map[int64]*schema.RowMapping{}}
	for _, k := range read.TrimmedPrimaryKeys() {
		r.keyIdx = append(r.keyIdx, read.FieldIndex(k))
	}
	return r
}

// mapping returns the mapping of files written under schema id, built once.
func (r *fileReader) mapping(ctx context.Context, id int64) (*spec.TableSchema, *schema.RowMapping, error) {
	fileSchema, err := r.schemas.Schema(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.mappings[id]; ok {
		return fileSchema, m, nil
	}
	m, err := schema.NewRowMapping(fileSchema.Fields, r.read.Fields, schema.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("schema %d: %w", id, err)
	}
	r.mappings[id] = m
	return fileSchema, m, nil
}

// openedFile is a data file open for reading.
type openedFile struct {
	path   string
	file   fileio.File
	format fileformat.Reader
}

func (d *openedFile) Close() error {
	d.format.Close()
	return d.file.Close()
}

// readableFormat is the format of a data file a compaction can read,
// taken from its name; others are refused by name. Files of every format
// a table read takes are compacted (a table whose file.format changed,
// file.format.per.level, or an orc or avro table), and rewritten as
// Parquet, which Java reads by its extension.
func readableFormat(name string) (string, error) {
	format, err := fileformat.Of(name)
	if err == nil && format == fileformat.Blob {
		err = unsupported(fmt.Sprintf("blob files (%s): compaction rewrites data files only", path.Base(name)))
	}
	return format, err
}

// open opens data file p, whose manifest entry is meta.
func (r *fileReader) open(ctx context.Context, p string, meta *spec.DataFileMeta) (*openedFile, error) {
	format, err := readableFormat(p)
	if err != nil {
		return nil, err
	}
	f, err := r.io.Open(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", p, err)
	}
	fr, err := fileformat.Open(format, f, p, meta.RowCount)
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return &openedFile{path: p, file: f, format: fr}, nil
}

// keyValues streams the records of a primary-key data file, rebuilding keys
// from the converted values so that records of every schema compare in the
// latest key types. done is called once the file is read to its end.
type keyValues struct {
	data    *openedFile
	it      fileformat.KeyValueIterator
	mapping *schema.RowMapping
	keyIdx  []int
	done    func()
	// deleted is the file's deletion vector, whose rows Next skips; nil
	// for none.
	deleted *spec.DeletionVector
	// next is the position of the record Next reads next, so lastPos is
	// that of the record it returned.
	next int64
}

// lastPos is the row position, in its file, of the record Next returned.
func (kv *keyValues) lastPos() int64 { return kv.next - 1 }

func (r *fileReader) openKeyValues(ctx context.Context, p string, meta *spec.DataFileMeta, deleted *spec.DeletionVector, done func()) (*keyValues, error) {
	fileSchema, m, err := r.mapping(ctx, meta.SchemaID)
	if err != nil {
		return nil, err
	}
	d, err := r.open(ctx, p, meta)
	if err != nil {
		return nil, err
	}
	it, err := d.format.KeyValues(fileSchema.TrimmedPrimaryKeys(), m.FileFields(), fileformat.WholeFile(d.format))
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return &keyValues{data: d, it: it, mapping: m, keyIdx: r.keyIdx, done: done, deleted: deleted}, nil
}

// Next implements lsm.RecordIterator: the file's records its deletion
// vector keeps, in order.
func (kv *keyValues) Next() (lsm.KeyValue, bool, error) {
	for {
		rec, ok, err := kv.nextStored()
		if err != nil || !ok || kv.deleted == nil || !kv.deleted.IsDeleted(kv.lastPos()) {
			return rec, ok, err
		}
	}
}

func (kv *keyValues) nextStored() (lsm.KeyValue, bool, error) {
	rec, err := kv.it.Next()
	if err == io.EOF {
		if kv.done != nil {
			kv.done()
			kv.done = nil
		}
		return lsm.KeyValue{}, false, nil
	}
	if err != nil {
		return lsm.KeyValue{}, false, err
	}
	value, err := kv.mapping.Apply(rec.Value)
	if err != nil {
		return lsm.KeyValue{}, false, fmt.Errorf("%s: %w", kv.data.path, err)
	}
	key := make([]any, len(kv.keyIdx))
	for i, j := range kv.keyIdx {
		key[i] = value[j]
	}
	kv.next++
	return lsm.KeyValue{Key: key, Seq: rec.Seq, Kind: rec.Kind, Value: value}, true, nil
}

func (kv *keyValues) Close() error { return errors.Join(kv.it.Close(), kv.data.Close()) }

// rowBatch is how many rows of an append file a compaction decodes at
// once (Parquet decodes column by column, which pays off over many rows).
const rowBatch = 256

// rows streams the rows of an append data file in the latest schema.
type rows struct {
	data    *openedFile
	it      fileformat.RowBatches
	mapping *schema.RowMapping
	// buf holds decoded rows, next indexes the next one and n counts them.
	buf     [][]any
	next, n int
}

func (r *fileReader) openRows(ctx context.Context, p string, meta *spec.DataFileMeta) (*rows, error) {
	_, m, err := r.mapping(ctx, meta.SchemaID)
	if err != nil {
		return nil, err
	}
	d, err := r.open(ctx, p, meta)
	if err != nil {
		return nil, err
	}
	columns := make([]parquetio.ColumnRequest, len(m.FileFields()))
	for i, f := range m.FileFields() {
		columns[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	it, err := d.format.Rows(columns, fileformat.WholeFile(d.format))
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return &rows{data: d, it: it, mapping: m, buf: make([][]any, rowBatch)}, nil
}

// Next returns the next row, or io.EOF.
func (r *rows) Next() ([]any, error) {
	if r.next == r.n {
		n, err := r.it.NextBatch(r.buf)
		if n == 0 && err == nil {
			err = io.EOF
		}
		if n == 0 {
			return nil, err
		}
		// Rows that come with an error (io.EOF) are returned first; the
		// next call reads the error again.
		r.next, r.n = 0, n
	}
	// The row is the caller's: the decoder must not fill it again.
	row := r.buf[r.next]
	r.buf[r.next] = nil
	r.next++
	out, err := r.mapping.Apply(row)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.data.path, err)
	}
	return out, nil
}

func (r *rows) Close() error { return errors.Join(r.it.Close(), r.data.Close()) }
