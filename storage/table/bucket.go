package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// reader reads the buckets of one plan. Everything it derives from the
// read schema (merge engine, key positions and types) is computed once.
type reader struct {
	ctx    context.Context
	table  *Table
	plan   *Plan
	schema *spec.TableSchema
	// Primary-key tables only.
	engine   *lsm.Engine
	keyIdx   []int
	keyTypes []spec.DataType
	dvFiles  map[string][]byte // deletion-vector index files read so far
	// toOutput converts rows to the schema of the read, for a fallback
	// branch whose schema differs; nil when rows are already in it.
	toOutput *schema.RowMapping
}

func (r *reader) toRead(row []any) ([]any, error) {
	if r.toOutput == nil {
		return row, nil
	}
	return r.toOutput.Apply(row)
}

func newReader(ctx context.Context, t *Table, plan *Plan) (*reader, error) {
	r := &reader{ctx: ctx, table: t, plan: plan, schema: plan.Schema, dvFiles: map[string][]byte{}}
	if len(r.schema.PrimaryKeys) == 0 {
		return r, nil
	}
	for _, name := range r.schema.TrimmedPrimaryKeys() {
		i := r.schema.FieldIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("schema %d: primary key %q is not a column", r.schema.ID, name)
		}
		r.keyIdx = append(r.keyIdx, i)
		r.keyTypes = append(r.keyTypes, r.schema.Fields[i].Type)
	}
	var err error
	r.engine, err = lsm.NewEngine(r.schema, spec.CompareValues)
	return r, err
}

func (r *reader) buckets() []BucketPlan { return r.plan.Buckets }

func (r *reader) openBucket(b *BucketPlan) (rowSource, error) {
	if r.engine == nil {
		return r.appendBucket(b), nil
	}
	if r.rawConvertible(b.Files) {
		return r.rawBucket(b), nil
	}
	return r.mergeBucket(b)
}

// appendBucket reads the files of an append-table bucket in write order.
func (r *reader) appendBucket(b *BucketPlan) rowSource {
	files := sortedBySequence(b.Files)
	return &fileChain{files: files, open: func(f *spec.DataFileMeta) (rowSource, error) {
		d, err := r.openDataFile(r.ctx, b, f)
		if err != nil {
			return nil, err
		}
		it, err := d.appendRows()
		if err != nil {
			d.Close()
		}
		return it, err
	}}
}

func sortedBySequence(files []spec.DataFileMeta) []spec.DataFileMeta {
	out := append([]spec.DataFileMeta(nil), files...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].MinSequenceNumber != out[j].MinSequenceNumber {
			return out[i].MinSequenceNumber < out[j].MinSequenceNumber
		}
		return out[i].FileName < out[j].FileName
	})
	return out
}

// rawConvertible mirrors MergeTreeSplitGenerator's raw-convertible case: no
// file is at level 0 or holds retractions, and either keys are unique across
// levels (deletion vectors, first-row) or all files form one sorted run.
// Such a bucket is read file by file without merging.
func (r *reader) rawConvertible(files []spec.DataFileMeta) bool {
	for _, f := range files {
		if f.Level == 0 || f.DeleteRowCount == nil || *f.DeleteRowCount > 0 {
			return false
		}
	}
	opts := r.schema.CoreOptions()
	if dv, _ := opts.DeletionVectorsEnabled(); dv {
		return true
	}
	if engine, _ := opts.MergeEngine(); engine == spec.MergeEngineFirstRow {
		return true
	}
	for _, f := range files {
		if f.Level != files[0].Level {
			return false
		}
	}
	return true
}

func (r *reader) rawBucket(b *BucketPlan) rowSource {
	return &fileChain{files: b.Files, open: func(f *spec.DataFileMeta) (rowSource, error) {
		d, err := r.openDataFile(r.ctx, b, f)
		if err != nil {
			return nil, err
		}
		kv, err := d.keyValues(r.keyIdx)
		if err != nil {
			d.Close()
			return nil, err
		}
		return &valuesOf{records: kv, close: kv.Close}, nil
	}}
}

// mergeBucket merges the bucket's sorted runs, section by section: sections
// never share a key, so only one section's files are open at a time.
func (r *reader) mergeBucket(b *BucketPlan) (rowSource, error) {
	metas, err := r.fileKeyRanges(b.Files)
	if err != nil {
		return nil, err
	}
	compareKeys := r.compareKeys
	sections := lsm.PartitionIntervals(metas, compareKeys)
	return &sectionChain{r: r, bucket: b, sections: sections}, nil
}

func (r *reader) compareKeys(a, b []any) int { return spec.CompareRows(r.keyTypes, a, b) }

// fileKeyRanges decodes each file's min and max key into the read schema's
// key types, which IntervalPartition orders files by.
func (r *reader) fileKeyRanges(files []spec.DataFileMeta) ([]lsm.FileMeta[*spec.DataFileMeta], error) {
	out := make([]lsm.FileMeta[*spec.DataFileMeta], len(files))
	for i := range files {
		f := &files[i]
		minKey, maxKey, err := r.decodeKeyRange(f)
		if err != nil {
			return nil, fmt.Errorf("data file %s: %w", f.FileName, err)
		}
		out[i] = lsm.FileMeta[*spec.DataFileMeta]{
			FileName: f.FileName, Level: int(f.Level), MinKey: minKey, MaxKey: maxKey,
			MinSeq: f.MinSequenceNumber, MaxSeq: f.MaxSequenceNumber, Payload: f,
		}
	}
	return out, nil
}

func (r *reader) decodeKeyRange(f *spec.DataFileMeta) (minKey, maxKey []any, err error) {
	fileSchema, err := r.table.schemas.Schema(r.ctx, f.SchemaID)
	if err != nil {
		return nil, nil, err
	}
	fileKeys, readKeys := keyFields(fileSchema), keyFields(r.schema)
	mapping, err := schema.NewRowMapping(fileKeys, readKeys, schema.Options{})
	if err != nil {
		return nil, nil, err
	}
	if minKey, err = decodeKey(fileKeys, mapping, f.MinKey); err != nil {
		return nil, nil, err
	}
	maxKey, err = decodeKey(fileKeys, mapping, f.MaxKey)
	return minKey, maxKey, err
}

func keyFields(s *spec.TableSchema) []spec.DataField {
	var out []spec.DataField
	for _, name := range s.TrimmedPrimaryKeys() {
		out = append(out, s.Fields[s.FieldIndex(name)])
	}
	return out
}

func decodeKey(fields []spec.DataField, mapping *schema.RowMapping, serialized []byte) ([]any, error) {
	types := make([]spec.DataType, len(fields))
	for i, f := range fields {
		types[i] = f.Type
	}
	values, err := spec.DeserializeBinaryRow(types, serialized)
	if err != nil {
		return nil, err
	}
	return mapping.Apply(values)
}

// fileChain reads files one after another.
type fileChain struct {
	files   []spec.DataFileMeta
	open    func(*spec.DataFileMeta) (rowSource, error)
	current rowSource
}

func (c *fileChain) Next() ([]any, error) {
	for {
		if c.current == nil {
			if len(c.files) == 0 {
				return nil, io.EOF
			}
			var err error
			if c.current, err = c.open(&c.files[0]); err != nil {
				return nil, err
			}
			c.files = c.files[1:]
		}
		row, err := c.current.Next()
		if err != io.EOF {
			return row, err
		}
		err = c.current.Close()
		c.current = nil
		if err != nil {
			return nil, err
		}
	}
}

func (c *fileChain) Close() error {
	if c.current == nil {
		return nil
	}
	err := c.current.Close()
	c.current = nil
	return err
}

// valuesOf turns records into rows, dropping retractions.
type valuesOf struct {
	records lsm.RecordIterator
	close   func() error
}

func (v *valuesOf) Next() ([]any, error) {
	for {
		kv, ok, err := v.records.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, io.EOF
		}
		if !kv.Kind.IsRetract() {
			return kv.Value, nil
		}
	}
}

func (v *valuesOf) Close() error { return v.close() }

// sectionChain merges the sections of a bucket one after another.
type sectionChain struct {
	r        *reader
	bucket   *BucketPlan
	sections [][]lsm.SortedRun[*spec.DataFileMeta]
	current  *valuesOf
}

func (s *sectionChain) Next() ([]any, error) {
	for {
		if s.current == nil {
			if len(s.sections) == 0 {
				return nil, io.EOF
			}
			var err error
			if s.current, err = s.openSection(s.sections[0]); err != nil {
				return nil, err
			}
			s.sections = s.sections[1:]
		}
		row, err := s.current.Next()
		if err != io.EOF {
			return row, err
		}
		err = s.current.Close()
		s.current = nil
		if err != nil {
			return nil, err
		}
	}
}

func (s *sectionChain) Close() error {
	if s.current == nil {
		return nil
	}
	err := s.current.Close()
	s.current = nil
	return err
}

// openSection opens every file of a section: one concatenated iterator per
// sorted run, merged by key.
func (s *sectionChain) openSection(runs []lsm.SortedRun[*spec.DataFileMeta]) (*valuesOf, error) {
	var opened []*keyValues
	closeAll := func() error {
		var errs []error
		for _, kv := range opened {
			errs = append(errs, kv.Close())
		}
		return errors.Join(errs...)
	}
	iters := make([]lsm.RecordIterator, 0, len(runs))
	for _, run := range runs {
		files := make([]lsm.RecordIterator, 0, len(run))
		for _, f := range run {
			kv, err := s.openRecords(f.Payload)
			if err != nil {
				return nil, errors.Join(err, closeAll())
			}
			opened = append(opened, kv)
			files = append(files, kv)
		}
		iters = append(iters, lsm.Concat(files...))
	}
	merged, err := s.r.engine.NewMergeReader(iters, s.r.compareKeys, false)
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	return &valuesOf{records: merged, close: closeAll}, nil
}

func (s *sectionChain) openRecords(f *spec.DataFileMeta) (*keyValues, error) {
	d, err := s.r.openDataFile(s.r.ctx, s.bucket, f)
	if err != nil {
		return nil, err
	}
	kv, err := d.keyValues(s.r.keyIdx)
	if err != nil {
		d.Close()
	}
	return kv, err
}
