package spec

import (
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Manifest rows are the records of manifest lists, manifests and index
// manifests as Paimon rows, the form in which Java hands them to a file
// format other than Avro: each serializer (ManifestFileMetaSerializer,
// ManifestEntrySerializer, IndexManifestEntrySerializer, all
// VersionedObjectSerializers) turns a record into an InternalRow of
// _VERSION followed by the fields of the class's SCHEMA, and the format
// writes the row. Paimon 1.x writes them as Parquet when the table sets
// manifest.format = parquet; package manifest reads and writes those
// files with these row types and conversions. A row is a []any of the
// in-memory values of package spec (see values.go); nested ROWs are
// []any too.

// The field lists below are Java's, with their field ids, which the
// Parquet writer turns into Parquet field ids.

func stringType(nullable bool) DataType {
	return DataType{Root: VarChar, Nullable: nullable, Length: MaxVarLength}
}

func bytesType(nullable bool) DataType {
	return DataType{Root: VarBinary, Nullable: nullable, Length: MaxVarLength}
}

func arrayType(nullable bool, element DataType) DataType {
	return DataType{Root: Array, Nullable: nullable, Element: &element}
}

func rowType(nullable bool, fields ...DataField) DataType {
	return DataType{Root: Row, Nullable: nullable, Fields: fields}
}

func field(id int, name string, t DataType) DataField { return DataField{ID: id, Name: name, Type: t} }

var (
	notNullInt    = DataType{Root: Int}
	nullInt       = DataType{Root: Int, Nullable: true}
	notNullBigInt = DataType{Root: BigInt}
	nullBigInt    = DataType{Root: BigInt, Nullable: true}
	notNullTiny   = DataType{Root: TinyInt}
)

// versionField is the _VERSION VersionedObjectSerializer.versionType puts
// first, with field id -1.
var versionField = field(-1, "_VERSION", notNullInt)

// simpleStatsType is SimpleStats.SCHEMA.
var simpleStatsType = rowType(false,
	field(0, "_MIN_VALUES", bytesType(false)),
	field(1, "_MAX_VALUES", bytesType(false)),
	field(2, "_NULL_COUNTS", arrayType(true, nullBigInt)))

// manifestListFields is ManifestFileMeta.SCHEMA (Paimon 1.4) with _VERSION.
var manifestListFields = []DataField{
	versionField,
	field(0, "_FILE_NAME", stringType(false)),
	field(1, "_FILE_SIZE", notNullBigInt),
	field(2, "_NUM_ADDED_FILES", notNullBigInt),
	field(3, "_NUM_DELETED_FILES", notNullBigInt),
	field(4, "_PARTITION_STATS", simpleStatsType),
	field(5, "_SCHEMA_ID", notNullBigInt),
	field(6, "_MIN_BUCKET", nullInt),
	field(7, "_MAX_BUCKET", nullInt),
	field(8, "_MIN_LEVEL", nullInt),
	field(9, "_MAX_LEVEL", nullInt),
	field(10, "_MIN_ROW_ID", nullBigInt),
	field(11, "_MAX_ROW_ID", nullBigInt),
}

// dataFileFields is DataFileMeta.SCHEMA of Paimon 1.4.
var dataFileFields = []DataField{
	field(0, "_FILE_NAME", stringType(false)),
	field(1, "_FILE_SIZE", notNullBigInt),
	field(2, "_ROW_COUNT", notNullBigInt),
	field(3, "_MIN_KEY", bytesType(false)),
	field(4, "_MAX_KEY", bytesType(false)),
	field(5, "_KEY_STATS", simpleStatsType),
	field(6, "_VALUE_STATS", simpleStatsType),
	field(7, "_MIN_SEQUENCE_NUMBER", notNullBigInt),
	field(8, "_MAX_SEQUENCE_NUMBER", notNullBigInt),
	field(9, "_SCHEMA_ID", notNullBigInt),
	field(10, "_LEVEL", notNullInt),
	field(11, "_EXTRA_FILES", arrayType(false, stringType(false))),
	field(12, "_CREATION_TIME", DataType{Root: Timestamp, Nullable: true, Precision: 3}),
	field(13, "_DELETE_ROW_COUNT", nullBigInt),
	field(14, "_EMBEDDED_FILE_INDEX", bytesType(true)),
	field(15, "_FILE_SOURCE", DataType{Root: TinyInt, Nullable: true}),
	field(16, "_VALUE_STATS_COLS", arrayType(true, stringType(false))),
	field(17, "_EXTERNAL_PATH", stringType(true)),
	field(18, "_FIRST_ROW_ID", nullBigInt),
	field(19, "_WRITE_COLS", arrayType(true, stringType(false))),
}

// writeColsSequencesField is the field Paimon adds to DataFileMeta after
// 2.0, whose manifests are always Avro; see ManifestEntryFields.
var writeColsSequencesField = field(20, "_WRITE_COLS_SEQUENCES", arrayType(true, notNullBigInt))

// deletionVectorMetaType is DeletionVectorMeta.SCHEMA, a nullable row
// (RowType.of).
var deletionVectorMetaType = rowType(true,
	field(0, "f0", stringType(false)),
	field(1, "f1", notNullInt),
	field(2, "f2", notNullInt),
	field(3, "_CARDINALITY", nullBigInt))

// globalIndexFields is GlobalIndexMeta.SCHEMA of Paimon 1.4.
var globalIndexFields = []DataField{
	field(0, "_ROW_RANGE_START", notNullBigInt),
	field(1, "_ROW_RANGE_END", notNullBigInt),
	field(2, "_INDEX_FIELD_ID", notNullInt),
	field(3, "_EXTRA_FIELD_IDS", arrayType(true, notNullInt)),
	field(4, "_INDEX_META", bytesType(true)),
}

// sourceMetaField is the field Paimon adds to GlobalIndexMeta after 2.0;
// see IndexManifestFields.
var sourceMetaField = field(5, "_SOURCE_META", bytesType(true))

// ManifestListFields is the row type of a manifest list:
// ManifestFileMeta.SCHEMA of Paimon 1.4 after _VERSION.
func ManifestListFields() []DataField { return slices.Clone(manifestListFields) }

// ManifestEntryFields is the row type of a manifest: ManifestEntry.SCHEMA
// of Paimon 1.4 after _VERSION. withSequences adds DataFileMeta's
// _WRITE_COLS_SEQUENCES, which only Paimon after 2.0 writes: readers
// request it, and writers add it only for entries that carry it, so that
// released readers get the schema they know.
func ManifestEntryFields(withSequences bool) []DataField {
	file := slices.Clone(dataFileFields)
	if withSequences {
		file = append(file, writeColsSequencesField)
	}
	return []DataField{
		versionField,
		field(0, "_KIND", notNullTiny),
		field(1, "_PARTITION", bytesType(false)),
		field(2, "_BUCKET", notNullInt),
		field(3, "_TOTAL_BUCKETS", notNullInt),
		field(4, "_FILE", rowType(false, file...)),
	}
}

// IndexManifestFields is the row type of an index manifest:
// IndexManifestEntry.SCHEMA of Paimon 1.4 after _VERSION. withSourceMeta
// adds GlobalIndexMeta's _SOURCE_META (after Paimon 2.0), as
// ManifestEntryFields adds _WRITE_COLS_SEQUENCES.
func IndexManifestFields(withSourceMeta bool) []DataField {
	global := slices.Clone(globalIndexFields)
	if withSourceMeta {
		global = append(global, sourceMetaField)
	}
	return []DataField{
		versionField,
		field(0, "_KIND", notNullTiny),
		field(1, "_PARTITION", bytesType(false)),
		field(2, "_BUCKET", notNullInt),
		field(3, "_INDEX_TYPE", stringType(false)),
		field(4, "_FILE_NAME", stringType(false)),
		field(5, "_FILE_SIZE", notNullBigInt),
		field(6, "_ROW_COUNT", notNullBigInt),
		field(7, "_DELETIONS_VECTORS_RANGES", arrayType(true, deletionVectorMetaType)),
		field(8, "_EXTERNAL_PATH", stringType(true)),
		field(9, "_GLOBAL_INDEX", rowType(true, global...)),
	}
}

// The field lists rows are read with: every field any Paimon version
// writes.
var (
	manifestEntryReadFields = ManifestEntryFields(true)
	indexManifestReadFields = IndexManifestFields(true)
)

// Writing: the rows Java's serializers produce.

// ManifestFileMetaRow is ManifestFileMetaSerializer.toRow.
func ManifestFileMetaRow(m *ManifestFileMeta) []any {
	return []any{
		int32(manifestListVersion), m.FileName, m.FileSize, m.NumAddedFiles, m.NumDeletedFiles,
		simpleStatsRow(m.PartitionStats), m.SchemaID,
		nullable(m.MinBucket), nullable(m.MaxBucket), nullable(m.MinLevel), nullable(m.MaxLevel),
		nullable(m.MinRowID), nullable(m.MaxRowID),
	}
}

// ManifestEntryRow is ManifestEntrySerializer.toRow, for a file of
// ManifestEntryFields(withSequences). It rejects kinds and file sources
// Java cannot read, and _WRITE_COLS_SEQUENCES a file without the field
// would drop.
func ManifestEntryRow(e *ManifestEntry, withSequences bool) ([]any, error) {
	if err := checkManifestEntry(e); err != nil {
		return nil, err
	}
	f := &e.File
	if f.WriteColsSequences != nil && !withSequences {
		return nil, fmt.Errorf("_WRITE_COLS_SEQUENCES of %s without the field", f.FileName)
	}
	var source any
	if f.FileSource != nil {
		source = int8(*f.FileSource)
	}
	var created any
	if f.CreationTime != nil {
		created = TimestampFromTime(*f.CreationTime)
	}
	extra := f.ExtraFiles
	if extra == nil {
		extra = []string{} // not nullable
	}
	file := []any{
		f.FileName, f.FileSize, f.RowCount, nonNilBytes(f.MinKey), nonNilBytes(f.MaxKey),
		simpleStatsRow(f.KeyStats), simpleStatsRow(f.ValueStats),
		f.MinSequenceNumber, f.MaxSequenceNumber, f.SchemaID, f.Level, listRow(extra), created,
		nullable(f.DeleteRowCount), bytesOrNull(f.EmbeddedIndex), source, listRow(f.ValueStatsCols),
		nullable(f.ExternalPath), nullable(f.FirstRowID), listRow(f.WriteCols),
	}
	if withSequences {
		file = append(file, listRow(f.WriteColsSequences))
	}
	return []any{int32(manifestEntryVersion), int8(e.Kind), nonNilBytes(e.Partition), e.Bucket, e.TotalBuckets, file}, nil
}

// IndexManifestEntryRow is IndexManifestEntrySerializer.toRow, for a file
// of IndexManifestFields(withSourceMeta).
func IndexManifestEntryRow(e *IndexManifestEntry, withSourceMeta bool) ([]any, error) {
	if e.Kind != FileKindAdd && e.Kind != FileKindDelete {
		return nil, fmt.Errorf("invalid kind %v", e.Kind)
	}
	f := &e.IndexFile
	var ranges any
	if f.DeletionVectorRanges != nil {
		items := make([]any, len(f.DeletionVectorRanges))
		for i, d := range f.DeletionVectorRanges {
			items[i] = []any{d.DataFileName, d.Offset, d.Length, nullable(d.Cardinality)}
		}
		ranges = items
	}
	var global any
	if g := f.GlobalIndex; g != nil {
		if g.SourceMeta != nil && !withSourceMeta {
			return nil, fmt.Errorf("_SOURCE_META of %s without the field", f.FileName)
		}
		row := []any{g.RowRangeStart, g.RowRangeEnd, g.IndexFieldID, listRow(g.ExtraFieldIDs), bytesOrNull(g.IndexMeta)}
		if withSourceMeta {
			row = append(row, bytesOrNull(g.SourceMeta))
		}
		global = row
	}
	return []any{
		int32(indexManifestVersion), int8(e.Kind), nonNilBytes(e.Partition), e.Bucket,
		f.IndexType, f.FileName, f.FileSize, f.RowCount, ranges, nullable(f.ExternalPath), global,
	}, nil
}

// simpleStatsRow is SimpleStats.toRow. A nil NullCounts is written as an
// empty array, as the Avro codec does: Java's SimpleStats.fromRow cannot
// read a null.
func simpleStatsRow(s SimpleStats) []any {
	counts := make([]any, len(s.NullCounts))
	for i, c := range s.NullCounts {
		counts[i] = nullable(c)
	}
	return []any{nonNilBytes(s.MinValues), nonNilBytes(s.MaxValues), counts}
}

// nullable is *p, or an untyped nil for a nil p.
func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// listRow is an ARRAY value of items, nil for a nil slice.
func listRow[T any](items []T) any {
	if items == nil {
		return nil
	}
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out
}

// bytesOrNull is a nullable BYTES value: nil slices are NULL.
func bytesOrNull(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// nonNilBytes is a NOT NULL BYTES value: a nil slice is empty.
func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Reading: Java's fromRow, over rows a reader decoded with the field
// lists above. A missing required value, or a value of another Go type
// than the field's, is corruption.

// ManifestFileMetaFromRow is ManifestFileMetaSerializer.convertFrom.
func ManifestFileMetaFromRow(row []any) (ManifestFileMeta, error) {
	r := rowReader{row: row, fields: manifestListFields}
	if err := r.version(manifestListVersion); err != nil {
		return ManifestFileMeta{}, err
	}
	m := ManifestFileMeta{
		FileName: required[string](&r, 1), FileSize: required[int64](&r, 2),
		NumAddedFiles: required[int64](&r, 3), NumDeletedFiles: required[int64](&r, 4),
		PartitionStats: r.stats(5), SchemaID: required[int64](&r, 6),
		MinBucket: optional[int32](&r, 7), MaxBucket: optional[int32](&r, 8),
		MinLevel: optional[int32](&r, 9), MaxLevel: optional[int32](&r, 10),
		MinRowID: optional[int64](&r, 11), MaxRowID: optional[int64](&r, 12),
	}
	return m, r.err
}

// ManifestEntryFromRow is ManifestEntrySerializer.convertFrom, for rows
// read with ManifestEntryFields(true).
func ManifestEntryFromRow(row []any) (ManifestEntry, error) {
	r := rowReader{row: row, fields: manifestEntryReadFields}
	if err := r.version(manifestEntryVersion); err != nil {
		return ManifestEntry{}, err
	}
	e := ManifestEntry{
		Partition: required[[]byte](&r, 2), Bucket: required[int32](&r, 3), TotalBuckets: required[int32](&r, 4),
	}
	kind := required[int8](&r, 1)
	f := r.nested(5)
	if r.err != nil {
		return ManifestEntry{}, r.err
	}
	var err error
	if e.Kind, err = decodedFileKind(int32(kind)); err != nil {
		return ManifestEntry{}, err
	}
	if e.File, err = dataFileFromRow(f); err != nil {
		return ManifestEntry{}, fmt.Errorf("_FILE: %w", err)
	}
	return e, nil
}

// dataFileFromRow is DataFileMetaSerializer.fromRow.
func dataFileFromRow(f rowReader) (DataFileMeta, error) {
	m := DataFileMeta{
		FileName: required[string](&f, 0), FileSize: required[int64](&f, 1), RowCount: required[int64](&f, 2),
		MinKey: required[[]byte](&f, 3), MaxKey: required[[]byte](&f, 4),
		KeyStats: f.stats(5), ValueStats: f.stats(6),
		MinSequenceNumber: required[int64](&f, 7), MaxSequenceNumber: required[int64](&f, 8),
		SchemaID: required[int64](&f, 9), Level: required[int32](&f, 10),
		ExtraFiles:     list[string](&f, 11, false),
		DeleteRowCount: optional[int64](&f, 13), EmbeddedIndex: optionalBytes(&f, 14),
		ValueStatsCols: list[string](&f, 16, true), ExternalPath: optional[string](&f, 17),
		FirstRowID: optional[int64](&f, 18), WriteCols: list[string](&f, 19, true),
		WriteColsSequences: list[int64](&f, 20, true),
	}
	if ts := optional[TimestampValue](&f, 12); ts != nil {
		created := ts.Time()
		m.CreationTime = &created
	}
	source := optional[int8](&f, 15)
	if f.err != nil {
		return DataFileMeta{}, f.err
	}
	if source != nil {
		var err error
		if m.FileSource, err = decodedFileSource(new(int32(*source))); err != nil {
			return DataFileMeta{}, err
		}
	}
	return m, nil
}

// IndexManifestEntryFromRow is IndexManifestEntrySerializer.convertFrom,
// for rows read with IndexManifestFields(true).
func IndexManifestEntryFromRow(row []any) (IndexManifestEntry, error) {
	r := rowReader{row: row, fields: indexManifestReadFields}
	if err := r.version(indexManifestVersion); err != nil {
		return IndexManifestEntry{}, err
	}
	kind := required[int8](&r, 1)
	e := IndexManifestEntry{
		Partition: required[[]byte](&r, 2), Bucket: required[int32](&r, 3),
		IndexFile: IndexFileMeta{
			IndexType: required[string](&r, 4), FileName: required[string](&r, 5),
			FileSize: required[int64](&r, 6), RowCount: required[int64](&r, 7),
			ExternalPath: optional[string](&r, 9),
		},
	}
	e.IndexFile.DeletionVectorRanges = deletionVectorRangesFromRow(&r, 8)
	e.IndexFile.GlobalIndex = globalIndexFromRow(&r, 10)
	if r.err != nil {
		return IndexManifestEntry{}, r.err
	}
	var err error
	if e.Kind, err = decodedFileKind(int32(kind)); err != nil {
		return IndexManifestEntry{}, err
	}
	return e, nil
}

func deletionVectorRangesFromRow(r *rowReader, i int) []DeletionVectorMeta {
	items := optional[[]any](r, i)
	if items == nil || r.err != nil {
		return nil
	}
	element := *r.fields[i].Type.Element
	out := make([]DeletionVectorMeta, len(*items))
	for k, item := range *items {
		values, ok := item.([]any)
		if !ok {
			r.fail(i, "item %d is %T", k, item)
			return nil
		}
		d := rowReader{row: values, fields: element.Fields, path: r.path + r.fields[i].Name + "."}
		out[k] = DeletionVectorMeta{
			DataFileName: required[string](&d, 0), Offset: required[int32](&d, 1), Length: required[int32](&d, 2),
			Cardinality: optional[int64](&d, 3),
		}
		if d.err != nil {
			r.err = d.err
			return nil
		}
	}
	return out
}

func globalIndexFromRow(r *rowReader, i int) *GlobalIndexMeta {
	values := optional[[]any](r, i)
	if values == nil || r.err != nil {
		return nil
	}
	g := rowReader{row: *values, fields: r.fields[i].Type.Fields, path: r.path + r.fields[i].Name + "."}
	meta := &GlobalIndexMeta{
		RowRangeStart: required[int64](&g, 0), RowRangeEnd: required[int64](&g, 1),
		IndexFieldID: required[int32](&g, 2), ExtraFieldIDs: list[int32](&g, 3, true),
		IndexMeta: optionalBytes(&g, 4), SourceMeta: optionalBytes(&g, 5),
	}
	r.err = g.err
	return meta
}

// rowReader reads the values of a row decoded with fields; the first
// error sticks, and then every read returns a zero value.
type rowReader struct {
	row    []any
	fields []DataField
	path   string // of the enclosing row, ending in "."
	err    error
}

func (r *rowReader) fail(i int, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s%s: %s: %w", r.path, r.fields[i].Name, fmt.Sprintf(format, args...), lakeerr.ErrCorruption)
	}
}

func (r *rowReader) value(i int) any {
	if r.err != nil {
		return nil
	}
	if len(r.row) != len(r.fields) {
		r.err = fmt.Errorf("%srow of %d values for %d fields: %w", r.path, len(r.row), len(r.fields), lakeerr.ErrCorruption)
		return nil
	}
	return r.row[i]
}

func (r *rowReader) version(want int32) error {
	if v := required[int32](r, 0); r.err == nil && v != want {
		return fmt.Errorf("unsupported _VERSION %d (want %d): %w", v, want, lakeerr.ErrCorruption)
	}
	return r.err
}

// required reads a NOT NULL value of field i.
func required[T any](r *rowReader, i int) T {
	var zero T
	v := r.value(i)
	if r.err != nil {
		return zero
	}
	if v == nil {
		r.fail(i, "null in a required field")
		return zero
	}
	t, ok := v.(T)
	if !ok {
		r.fail(i, "value of Go type %T, want %T", v, zero)
	}
	return t
}

// optional reads a nullable value of field i; nil is NULL.
func optional[T any](r *rowReader, i int) *T {
	if r.value(i) == nil {
		return nil
	}
	return new(required[T](r, i))
}

// optionalBytes reads a nullable BYTES field: nil is NULL.
func optionalBytes(r *rowReader, i int) []byte {
	if b := optional[[]byte](r, i); b != nil {
		return *b
	}
	return nil
}

// list reads an ARRAY of T, nil for NULL; a NOT NULL array (nullable
// false) reads as a non-nil slice.
func list[T any](r *rowReader, i int, nullable bool) []T {
	var items []any
	if nullable {
		p := optional[[]any](r, i)
		if p == nil {
			return nil
		}
		items = *p
	} else {
		items = required[[]any](r, i)
	}
	out := make([]T, len(items))
	for k, item := range items {
		v, ok := item.(T)
		if !ok {
			r.fail(i, "item %d of Go type %T", k, item)
			return nil
		}
		out[k] = v
	}
	return out
}

// nested reads the NOT NULL ROW of field i.
func (r *rowReader) nested(i int) rowReader {
	values := required[[]any](r, i)
	return rowReader{row: values, fields: r.fields[i].Type.Fields, path: r.path + r.fields[i].Name + "."}
}

// stats reads the NOT NULL SimpleStats of field i. A NULL _NULL_COUNTS
// reads as nil, as from Avro.
func (r *rowReader) stats(i int) SimpleStats {
	s := r.nested(i)
	counts := optional[[]any](&s, 2)
	stats := SimpleStats{MinValues: required[[]byte](&s, 0), MaxValues: required[[]byte](&s, 1)}
	if counts != nil && s.err == nil {
		values := make([]int64, len(*counts))
		stats.NullCounts = make([]*int64, len(*counts))
		for k, c := range *counts {
			switch c := c.(type) {
			case nil:
			case int64:
				values[k] = c
				stats.NullCounts[k] = &values[k]
			default:
				s.fail(2, "item %d of Go type %T", k, c)
			}
		}
	}
	if r.err == nil {
		r.err = s.err
	}
	return stats
}
