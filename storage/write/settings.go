package write

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// Options the writer reads that package spec has no accessor for, spelled
// as in org.apache.paimon.CoreOptions.
const (
	optionWriteBufferSpillable   = "write-buffer-spillable"
	optionBucketFunctionType     = "bucket-function.type"
	optionIgnoreUpdateBefore     = "ignore-update-before"
	optionSequenceNumberInitMode = "write.sequence-number-init-mode"
	// maxSpillRuns is local-sort.max-num-file-handles: the most sorted runs
	// one merge reads. More spills than this force a flush to data files.
	maxSpillRuns = 128
)

// tableSettings is everything the write path derives from the schema,
// parsed once when the TableWriter opens.
type tableSettings struct {
	schema     *spec.TableSchema
	primaryKey bool
	numBuckets int // the bucket option: > 0 fixed, -1 unaware (append only)

	partition columnSet // partition keys, types made nullable
	bucketKey columnSet
	key       columnSet // trimmed primary key (PK tables)
	// fileFields are the physical columns of a data file.
	fileFields []spec.DataField

	targetFileSize int64
	bufferSize     int64
	spillable      bool

	ignoreDelete       bool // drop -U and -D rows (RowKindFilter)
	ignoreUpdateBefore bool // drop -U rows
	defaultPartition   string
	legacyPartition    bool
	dataFilePrefix     string
	// parquet lays out the data files (parquet.* options).
	parquet parquetio.WriterOptions

	engine *lsm.Engine // PK tables
	// valueColumnTypes are the types of all table columns.
	valueTypes []spec.DataType
	// keyPrefix derives sort prefixes from the first key column.
	keyPrefix     keyPrefixer
	keyComparator func(a, b []any) int
	// columnCheckers validate and normalize each column's values.
	columnCheckers []valueChecker
	// stats are the stats modes of the files written.
	stats fileStatsModes
	// fileIndexes are the data-file indexes the options declare, and
	// indexInManifest the largest index embedded in the manifest.
	fileIndexes     []spec.FileIndexColumn
	indexInManifest int64
}

// fileStatsModes are the stats modes of the columns of a data file.
type fileStatsModes struct {
	// key are the modes of the _KEY_ columns (primary-key tables).
	key []spec.StatsMode
	// value are the modes of the table columns.
	value []spec.StatsMode
	// dense is metadata.stats-dense-store.
	dense bool
}

// parseStats resolves the stats modes of the files written at level, as
// Java's writers of append and key-value files do
// (StatsCollectorFactories): per physical file column, so that the
// _KEY_ columns get the mode of system columns.
func (ts *tableSettings) parseStats(level int) error {
	o := ts.schema.CoreOptions()
	def, err := o.DataFileStatsMode(ts.primaryKey, level)
	if err != nil {
		return err
	}
	names := make([]string, len(ts.fileFields))
	for i, f := range ts.fileFields {
		names[i] = f.Name
	}
	modes, err := o.ColumnStatsModes(names, def)
	if err != nil {
		return err
	}
	if ts.primaryKey {
		// _KEY_ columns, _SEQUENCE_NUMBER and _VALUE_KIND precede the values.
		ts.stats.key, modes = modes[:len(ts.key.indexes)], modes[len(ts.key.indexes)+2:]
	}
	ts.stats.value = modes
	ts.stats.dense, err = o.StatsDenseStore()
	return err
}

// compareKeys orders trimmed primary keys as Paimon's key comparator does.
func (ts *tableSettings) compareKeys(a, b []any) int { return ts.keyComparator(a, b) }

// columnSet is a projection of the table's columns.
type columnSet struct {
	names   []string
	indexes []int
	types   []spec.DataType
}

func (c columnSet) project(row []any, dst []any) []any {
	dst = dst[:0]
	for _, i := range c.indexes {
		dst = append(dst, row[i])
	}
	return dst
}

func newColumnSet(s *spec.TableSchema, names []string, nullable bool) (columnSet, error) {
	c := columnSet{names: names}
	for _, name := range names {
		i := s.FieldIndex(name)
		if i < 0 {
			return columnSet{}, fmt.Errorf("%w: column %q named by the table options does not exist", lakeerr.ErrCorruption, name)
		}
		t := s.Fields[i].Type
		if nullable {
			t = t.WithNullable(true)
		}
		c.indexes = append(c.indexes, i)
		c.types = append(c.types, t)
	}
	return c, nil
}

// parseSettings reads the schema and refuses tables lakesql cannot write
// the way Java would, with errors wrapping lakeerr.ErrUnsupported.
func parseSettings(s *spec.TableSchema) (*tableSettings, error) {
	ts := &tableSettings{schema: s, primaryKey: len(s.PrimaryKeys) > 0}
	steps := []func() error{ts.checkSupported, ts.parseBuckets, ts.parseColumns, ts.parseSizes, ts.parseBehaviour,
		func() error { return ts.parseStats(0) }, ts.parseFileIndexes}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: lakesql cannot write "+format, append([]any{lakeerr.ErrUnsupported}, args...)...)
}

// checkSupported refuses the features whose files Java would read
// differently from what lakesql writes. lakesql writes Parquet data files
// only; into a file.format = orc or avro table too, since Java picks each
// file's reader by its extension (integration/interop javawrites_orc_*
// and javawrites_avro_* cases read such mixed tables with Java 1.4.2 and
// 1.3.1). Its compaction of such a table, which Java would write in the
// table's format, is refused.
func (ts *tableSettings) checkSupported() error {
	o := ts.schema.CoreOptions()
	if f := o.FileFormat(); f != "parquet" && f != "orc" && f != "avro" {
		return unsupportedf("file.format %s (only parquet, orc and avro)", f)
	}
	if fn, ok := o.Get(optionBucketFunctionType); ok && !strings.EqualFold(fn, "default") {
		return unsupportedf("%s = %s (only the default bucket function)", optionBucketFunctionType, fn)
	}
	if mode, ok := o.Get(optionSequenceNumberInitMode); ok && !strings.EqualFold(mode, "scan") {
		return unsupportedf("%s = %s: the committer does not maintain the snapshot's sequence number", optionSequenceNumberInitMode, mode)
	}
	if on, err := o.RowTrackingEnabled(); err != nil || on {
		return orUnsupported(err, "row tracking (row-tracking.enabled)")
	}
	if on, err := o.DataEvolutionEnabled(); err != nil || on {
		return orUnsupported(err, "data evolution (data-evolution.enabled)")
	}
	for _, f := range ts.schema.Fields {
		if f.DefaultValue != nil {
			return unsupportedf("column %s with a default value: Java replaces NULLs by it on write", f.Name)
		}
		if hasVector(f.Type) {
			return unsupportedf("column %s of a VECTOR type: its length is not checked on write", f.Name)
		}
	}
	if ts.primaryKey {
		return ts.checkPrimaryKeySupported(o)
	}
	return nil
}

func (ts *tableSettings) checkPrimaryKeySupported(o spec.CoreOptions) error {
	if len(ts.schema.TrimmedPrimaryKeys()) == 0 {
		return fmt.Errorf("%w: the primary key %v consists of partition keys only", lakeerr.ErrCorruption, ts.schema.PrimaryKeys)
	}
	for _, p := range ts.schema.PartitionKeys {
		if !slices.Contains(ts.schema.PrimaryKeys, p) {
			return unsupportedf("a primary key %v without partition key %s (cross-partition upsert needs dynamic buckets)", ts.schema.PrimaryKeys, p)
		}
	}
	producer, err := o.ChangelogProducer()
	if err != nil {
		return err
	}
	if producer == spec.ChangelogProducerInput {
		return unsupportedf("changelog-producer = input: lakesql writes no changelog files")
	}
	return nil
}

func orUnsupported(err error, feature string) error {
	if err != nil {
		return err
	}
	return unsupportedf("%s", feature)
}

func (ts *tableSettings) parseBuckets() error {
	n, err := ts.schema.CoreOptions().Bucket()
	if err != nil {
		return err
	}
	ts.numBuckets = n
	switch {
	case n > 0:
		return nil
	case n == -1 && !ts.primaryKey:
		return nil
	case n == -1:
		return unsupportedf("a dynamic-bucket table (bucket = -1): set a fixed bucket count")
	case n == -2:
		return unsupportedf("a postpone-bucket table (bucket = -2): its files are invisible to batch reads until compacted")
	}
	return unsupportedf("bucket = %d", n)
}

func (ts *tableSettings) parseColumns() error {
	s := ts.schema
	var err error
	if ts.partition, err = newColumnSet(s, s.PartitionKeys, true); err != nil {
		return err
	}
	if err := ts.checkPartitionTypes(); err != nil {
		return err
	}
	bucketKeys := s.CoreOptions().BucketKey()
	if bucketKeys == nil {
		bucketKeys = s.TrimmedPrimaryKeys()
	}
	if ts.bucketKey, err = newColumnSet(s, bucketKeys, false); err != nil {
		return err
	}
	if ts.key, err = newColumnSet(s, s.TrimmedPrimaryKeys(), false); err != nil {
		return err
	}
	return ts.parseFileColumns()
}

// parseFileColumns derives the physical file columns, the value checkers
// and the key ordering helpers.
func (ts *tableSettings) parseFileColumns() error {
	s := ts.schema
	for _, f := range s.Fields {
		if t, ok := unwritableType(f.Type); ok {
			return unsupportedf("column %s: values of type %s", f.Name, t)
		}
		ts.valueTypes = append(ts.valueTypes, f.Type)
		ts.columnCheckers = append(ts.columnCheckers, newValueChecker(f.Type))
	}
	ts.fileFields = s.Fields
	if !ts.primaryKey {
		return nil
	}
	ts.keyPrefix = newKeyPrefixer(ts.key.types[0])
	ts.keyComparator = newRowComparator(ts.key.types)
	layout, err := parquetio.NewKeyValueLayout(ts.key.names, s.Fields, false)
	if err != nil {
		return err
	}
	ts.fileFields = layout.Fields()
	return nil
}

// unwritableType finds a type lakesql does not write inside t: VARIANT
// (no Parquet mapping in the writer) and BLOB (Java stores blobs in
// separate .blob files).
func unwritableType(t spec.DataType) (spec.DataType, bool) {
	switch t.Root {
	case spec.Variant, spec.Blob:
		return t, true
	case spec.Array, spec.Multiset:
		if t.Element != nil {
			return unwritableType(*t.Element)
		}
	case spec.Map:
		if t.Key != nil && t.Value != nil {
			if bad, ok := unwritableType(*t.Key); ok {
				return bad, true
			}
			return unwritableType(*t.Value)
		}
	case spec.Row:
		for _, f := range t.Fields {
			if bad, ok := unwritableType(f.Type); ok {
				return bad, true
			}
		}
	}
	return spec.DataType{}, false
}

// checkPartitionTypes refuses partition keys without a directory name:
// composite types, and binary ones under partition.legacy-name, where Java
// prints an object identity.
func (ts *tableSettings) checkPartitionTypes() error {
	legacy, err := ts.schema.CoreOptions().PartitionLegacyName()
	if err != nil {
		return err
	}
	for i, t := range ts.partition.types {
		switch {
		case t.Root == spec.Array || t.Root == spec.Map || t.Root == spec.Multiset || t.Root == spec.Row:
			return unsupportedf("partition key %s of type %s", ts.partition.names[i], t)
		case legacy && t.IsBinary():
			return unsupportedf("binary partition key %s with partition.legacy-name = true", ts.partition.names[i])
		}
	}
	return nil
}

func (ts *tableSettings) parseSizes() error {
	o := ts.schema.CoreOptions()
	var err error
	if ts.targetFileSize, err = o.TargetFileSize(ts.primaryKey); err != nil {
		return err
	}
	if ts.bufferSize, err = o.WriteBufferSize(); err != nil {
		return err
	}
	ts.spillable, err = boolOption(o, optionWriteBufferSpillable, true)
	return err
}

// parseFileIndexes reads the declared data-file indexes. An index Java
// could not write either (a missing column, a type its bloom filter cannot
// hash) makes the table unwritable here too, rather than writing files
// without it.
func (ts *tableSettings) parseFileIndexes() error {
	o := ts.schema.CoreOptions()
	var err error
	if ts.fileIndexes, err = o.FileIndexColumns(); err != nil {
		return err
	}
	if ts.indexInManifest, err = o.FileIndexInManifestThreshold(); err != nil {
		return err
	}
	_, err = fileindex.NewBuilder(ts.schema.Fields, ts.fileIndexes)
	return err
}

func (ts *tableSettings) parseBehaviour() error {
	o := ts.schema.CoreOptions()
	var err error
	if ts.ignoreDelete, err = o.IgnoreDelete(); err != nil {
		return err
	}
	if ts.ignoreUpdateBefore, err = boolOption(o, optionIgnoreUpdateBefore, false); err != nil {
		return err
	}
	ts.defaultPartition = o.PartitionDefaultName()
	if ts.legacyPartition, err = o.PartitionLegacyName(); err != nil {
		return err
	}
	ts.dataFilePrefix = o.DataFilePrefix()
	layout, err := o.ParquetLayout()
	if err != nil {
		return err
	}
	ts.parquet = parquetio.WriterOptions{PageSize: layout.PageSize, PageRowLimit: layout.PageRowLimit,
		RowGroupSize: layout.RowGroupSize, ZstdLevel: layout.ZstdLevel}
	if ts.primaryKey {
		ts.engine, err = lsm.NewEngine(ts.schema, spec.CompareValues)
	}
	return err
}

// checkKind refuses the rows Java's merge function would refuse when the
// bucket is merged: a first-row table takes no -D or -U (its
// FirstRowMergeFunction fails on them unless ignore-delete drops them,
// which acceptsKind does first). Refused here, the write fails at the row
// rather than at a later flush or compaction.
func (ts *tableSettings) checkKind(kind spec.RowKind) error {
	if kind.IsRetract() && ts.engine != nil && ts.engine.Name() == lsm.EngineFirstRow {
		return unsupportedf("%s rows into a first-row table: it keeps the first row of each key (set first-row.ignore-delete to drop them)", kind)
	}
	return nil
}

// boolOption parses a Java boolean option ("true"/"false" in any case).
func boolOption(o spec.CoreOptions, key string, def bool) (bool, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: table option %q = %q is not true or false", lakeerr.ErrCorruption, key, v)
}

// acceptsKind mirrors Java's RowKindFilter: with ignore-delete every
// retraction is dropped, with ignore-update-before only -U.
func (ts *tableSettings) acceptsKind(kind spec.RowKind) bool {
	switch kind {
	case spec.RowKindDelete:
		return !ts.ignoreDelete
	case spec.RowKindUpdateBefore:
		return !ts.ignoreDelete && !ts.ignoreUpdateBefore
	}
	return true
}

// totalBuckets is what Java records as _TOTAL_BUCKETS for new files: the
// bucket option itself, -1 for bucket-unaware append tables
// (AbstractFileStoreWrite.numBuckets = options.bucket()).
func (ts *tableSettings) totalBuckets() int32 { return int32(ts.numBuckets) }

// hasVector reports whether t is or holds a VECTOR.
func hasVector(t spec.DataType) bool {
	switch {
	case t.Vector:
		return true
	case t.Element != nil:
		return hasVector(*t.Element)
	case t.Key != nil:
		return hasVector(*t.Key) || hasVector(*t.Value)
	}
	for _, f := range t.Fields {
		if hasVector(f.Type) {
			return true
		}
	}
	return false
}
