package spec

import (
	_ "embed"
	"fmt"
	"slices"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Format identifiers written in every record's _VERSION
// (ManifestEntrySerializer / ManifestFileMetaSerializer).
const (
	manifestEntryVersion = 2
	manifestListVersion  = 2
)

// The writer schemas are Java's, byte for byte, taken from the avro.schema
// header of files written by Paimon master (July 2026). Writing Java's text
// verbatim (rather than a re-serialized schema, which would drop the
// "default" attributes) makes our headers byte-identical to Java's.
var (
	//go:embed avroschema/manifest-list.avsc
	manifestListAvsc string
	//go:embed avroschema/manifest.avsc
	manifestAvsc string
	// manifest-write-cols-sequences.avsc adds _WRITE_COLS_SEQUENCES, which
	// Paimon writes after 2.0. It is used only when an entry carries that
	// field, so that readers of released versions get the schema they know;
	// files of either schema are read against it.
	//go:embed avroschema/manifest-write-cols-sequences.avsc
	manifestWithSequencesAvsc string
)

var (
	manifestListFormat          = newAvroFormat(manifestListAvsc)
	manifestFormat              = newAvroFormat(manifestAvsc)
	manifestWithSequencesFormat = newAvroFormat(manifestWithSequencesAvsc)

	manifestListSchemaText          = manifestListFormat.text
	manifestSchemaText              = manifestFormat.text
	manifestWithSequencesSchemaText = manifestWithSequencesFormat.text
)

// DecodeManifestList decodes a manifest-list file of any Paimon version.
// Records whose _VERSION is not 2 are reported as corrupt (ErrCorruption),
// ORC and Parquet files (manifest.format=orc, parquet) as ErrUnsupported:
// this is the Avro codec, and package manifest reads Parquet and ORC files
// with the rows of manifest_rows.go. Byte slices in the
// result may share backing arrays, clipped to their length.
func DecodeManifestList(data []byte) ([]ManifestFileMeta, error) {
	metas, err := avroDecode(data, manifestListFormat, (*avroManifestFileMeta).decoded, (*avroManifestFileMeta).reset)
	if err != nil {
		return nil, fmt.Errorf("spec: manifest list: %w", err)
	}
	return metas, nil
}

// DecodeManifestEntries decodes a manifest file of any Paimon version, with
// the same error classes and aliasing as DecodeManifestList.
func DecodeManifestEntries(data []byte) ([]ManifestEntry, error) {
	entries, err := avroDecode(data, manifestWithSequencesFormat, (*avroManifestEntry).decoded, (*avroManifestEntry).reset)
	if err != nil {
		return nil, fmt.Errorf("spec: manifest: %w", err)
	}
	return entries, nil
}

// EncodeManifestList encodes a manifest-list file the way Java Paimon does:
// zstandard Avro with Java's writer schema.
func EncodeManifestList(metas []ManifestFileMeta) ([]byte, error) {
	data, err := avroEncode(manifestListFormat, len(metas), func(i int) *avroManifestFileMeta {
		return newAvroManifestFileMeta(&metas[i])
	})
	if err != nil {
		return nil, fmt.Errorf("spec: manifest list: %w", err)
	}
	return data, nil
}

// EncodeManifestEntries encodes a manifest file the way Java Paimon does:
// zstandard Avro with Java's writer schema. It rejects kinds and file
// sources Java cannot read.
func EncodeManifestEntries(entries []ManifestEntry) ([]byte, error) {
	format := manifestFormat
	for i := range entries {
		if err := checkManifestEntry(&entries[i]); err != nil {
			return nil, fmt.Errorf("spec: manifest entry %d: %w", i, err)
		}
		if entries[i].File.WriteColsSequences != nil {
			format = manifestWithSequencesFormat
		}
	}
	data, err := avroEncode(format, len(entries), func(i int) *avroManifestEntry {
		return newAvroManifestEntry(&entries[i])
	})
	if err != nil {
		return nil, fmt.Errorf("spec: manifest: %w", err)
	}
	return data, nil
}

// checkManifestEntry rejects enum values Java cannot read back.
func checkManifestEntry(e *ManifestEntry) error {
	if e.Kind != FileKindAdd && e.Kind != FileKindDelete {
		return fmt.Errorf("invalid kind %v", e.Kind)
	}
	if s := e.File.FileSource; s != nil && *s != FileSourceAppend && *s != FileSourceCompact {
		return fmt.Errorf("invalid file source %v", *s)
	}
	return nil
}

// The wire structs mirror Java's schemas (ManifestFileMeta.SCHEMA,
// ManifestEntry.SCHEMA, DataFileMeta.SCHEMA, SimpleStats.SCHEMA). Nested
// records are pointers because Paimon <= 0.8 wrote them as nullable; nil
// pointers and slices are nulls or fields an older writer did not have.

// avroSimpleStats has SimpleStats's fields, so that the two convert.
type avroSimpleStats struct {
	MinValues  []byte   `avro:"_MIN_VALUES"`
	MaxValues  []byte   `avro:"_MAX_VALUES"`
	NullCounts []*int64 `avro:"_NULL_COUNTS"`
}

type avroManifestFileMeta struct {
	Version         int32            `avro:"_VERSION"`
	FileName        string           `avro:"_FILE_NAME"`
	FileSize        int64            `avro:"_FILE_SIZE"`
	NumAddedFiles   int64            `avro:"_NUM_ADDED_FILES"`
	NumDeletedFiles int64            `avro:"_NUM_DELETED_FILES"`
	PartitionStats  *avroSimpleStats `avro:"_PARTITION_STATS"`
	SchemaID        int64            `avro:"_SCHEMA_ID"`
	MinBucket       *int32           `avro:"_MIN_BUCKET"`
	MaxBucket       *int32           `avro:"_MAX_BUCKET"`
	MinLevel        *int32           `avro:"_MIN_LEVEL"`
	MaxLevel        *int32           `avro:"_MAX_LEVEL"`
	MinRowID        *int64           `avro:"_MIN_ROW_ID"`
	MaxRowID        *int64           `avro:"_MAX_ROW_ID"`
}

type avroManifestEntry struct {
	Version      int32             `avro:"_VERSION"`
	Kind         int32             `avro:"_KIND"`
	Partition    []byte            `avro:"_PARTITION"`
	Bucket       int32             `avro:"_BUCKET"`
	TotalBuckets int32             `avro:"_TOTAL_BUCKETS"`
	File         *avroDataFileMeta `avro:"_FILE"`
}

type avroDataFileMeta struct {
	FileName           string           `avro:"_FILE_NAME"`
	FileSize           int64            `avro:"_FILE_SIZE"`
	RowCount           int64            `avro:"_ROW_COUNT"`
	MinKey             []byte           `avro:"_MIN_KEY"`
	MaxKey             []byte           `avro:"_MAX_KEY"`
	KeyStats           *avroSimpleStats `avro:"_KEY_STATS"`
	ValueStats         *avroSimpleStats `avro:"_VALUE_STATS"`
	MinSequenceNumber  int64            `avro:"_MIN_SEQUENCE_NUMBER"`
	MaxSequenceNumber  int64            `avro:"_MAX_SEQUENCE_NUMBER"`
	SchemaID           int64            `avro:"_SCHEMA_ID"`
	Level              int32            `avro:"_LEVEL"`
	ExtraFiles         []string         `avro:"_EXTRA_FILES"`
	CreationTime       *time.Time       `avro:"_CREATION_TIME"` // timestamp-millis, read as UTC
	DeleteRowCount     *int64           `avro:"_DELETE_ROW_COUNT"`
	EmbeddedIndex      []byte           `avro:"_EMBEDDED_FILE_INDEX"`
	FileSource         *int32           `avro:"_FILE_SOURCE"`
	ValueStatsCols     []string         `avro:"_VALUE_STATS_COLS"`
	ExternalPath       *string          `avro:"_EXTERNAL_PATH"`
	FirstRowID         *int64           `avro:"_FIRST_ROW_ID"`
	WriteCols          []string         `avro:"_WRITE_COLS"`
	WriteColsSequences []int64          `avro:"_WRITE_COLS_SEQUENCES"`
}

// Decoding.

func (a *avroManifestFileMeta) decoded() (ManifestFileMeta, error) {
	if err := avroCheckVersion(a.Version, manifestListVersion); err != nil {
		return ManifestFileMeta{}, err
	}
	stats, err := a.PartitionStats.decoded()
	if err != nil {
		return ManifestFileMeta{}, fmt.Errorf("_PARTITION_STATS: %w", err)
	}
	return ManifestFileMeta{
		FileName: a.FileName, FileSize: a.FileSize, NumAddedFiles: a.NumAddedFiles,
		NumDeletedFiles: a.NumDeletedFiles, PartitionStats: stats, SchemaID: a.SchemaID,
		MinBucket: a.MinBucket, MaxBucket: a.MaxBucket, MinLevel: a.MinLevel, MaxLevel: a.MaxLevel,
		MinRowID: a.MinRowID, MaxRowID: a.MaxRowID,
	}, nil
}

func (a *avroManifestEntry) decoded() (ManifestEntry, error) {
	if err := avroCheckVersion(a.Version, manifestEntryVersion); err != nil {
		return ManifestEntry{}, err
	}
	kind, err := decodedFileKind(a.Kind)
	if err != nil {
		return ManifestEntry{}, err
	}
	file, err := avroRequired(a.File)
	if err != nil {
		return ManifestEntry{}, fmt.Errorf("_FILE: %w", err)
	}
	meta, err := file.decoded()
	if err != nil {
		return ManifestEntry{}, fmt.Errorf("_FILE: %w", err)
	}
	return ManifestEntry{
		Kind: kind, Partition: slices.Clip(a.Partition), Bucket: a.Bucket, TotalBuckets: a.TotalBuckets, File: meta,
	}, nil
}

func (a *avroDataFileMeta) decoded() (DataFileMeta, error) {
	keyStats, err := a.KeyStats.decoded()
	if err != nil {
		return DataFileMeta{}, fmt.Errorf("_KEY_STATS: %w", err)
	}
	valueStats, err := a.ValueStats.decoded()
	if err != nil {
		return DataFileMeta{}, fmt.Errorf("_VALUE_STATS: %w", err)
	}
	source, err := decodedFileSource(a.FileSource)
	if err != nil {
		return DataFileMeta{}, err
	}
	return DataFileMeta{
		FileName: a.FileName, FileSize: a.FileSize, RowCount: a.RowCount,
		MinKey: slices.Clip(a.MinKey), MaxKey: slices.Clip(a.MaxKey), KeyStats: keyStats, ValueStats: valueStats,
		MinSequenceNumber: a.MinSequenceNumber, MaxSequenceNumber: a.MaxSequenceNumber, SchemaID: a.SchemaID,
		Level: a.Level, ExtraFiles: a.ExtraFiles, CreationTime: a.CreationTime, DeleteRowCount: a.DeleteRowCount,
		EmbeddedIndex: slices.Clip(a.EmbeddedIndex), FileSource: source, ValueStatsCols: a.ValueStatsCols,
		ExternalPath: a.ExternalPath, FirstRowID: a.FirstRowID, WriteCols: a.WriteCols,
		WriteColsSequences: a.WriteColsSequences,
	}, nil
}

// decoded clips the byte slices, which hamba cuts from larger buffers, so
// that appending to one cannot overwrite the next.
func (a *avroSimpleStats) decoded() (SimpleStats, error) {
	s, err := avroRequired(a)
	return SimpleStats{
		MinValues: slices.Clip(s.MinValues), MaxValues: slices.Clip(s.MaxValues), NullCounts: copiedNullCounts(s.NullCounts),
	}, err
}

// copiedNullCounts copies null counts out of the wire struct, which is
// reused from record to record, into one allocation for the values rather
// than hamba's one per value.
func copiedNullCounts(in []*int64) []*int64 {
	if in == nil {
		return nil
	}
	values := make([]int64, len(in))
	out := make([]*int64, len(in))
	for i, p := range in {
		if p != nil {
			values[i] = *p
			out[i] = &values[i]
		}
	}
	return out
}

// The reset methods ready a wire struct for decoding the next record into
// it. They keep what decoded copies out (null counts, with the values
// their pointers hold, and _FILE_SOURCE) and the records holding it, which
// hamba then decodes into rather than allocating anew. Everything else is
// cleared, because hamba decodes into whatever it finds: it overwrites
// pointed-to values in place, and leaves a slice as it was if the next
// record's array is empty.

func (a *avroManifestFileMeta) reset() {
	*a = avroManifestFileMeta{PartitionStats: a.PartitionStats.reset()}
}

func (a *avroManifestEntry) reset() {
	*a = avroManifestEntry{File: a.File.reset()}
}

func (a *avroDataFileMeta) reset() *avroDataFileMeta {
	if a != nil {
		*a = avroDataFileMeta{KeyStats: a.KeyStats.reset(), ValueStats: a.ValueStats.reset(), FileSource: a.FileSource}
	}
	return a
}

func (a *avroSimpleStats) reset() *avroSimpleStats {
	if a != nil {
		*a = avroSimpleStats{NullCounts: a.NullCounts[:0]}
	}
	return a
}

// decodedFileKind rejects the TINYINT _KIND values Java's
// FileKind.fromByteValue rejects.
func decodedFileKind(v int32) (FileKind, error) {
	if v != int32(FileKindAdd) && v != int32(FileKindDelete) {
		return 0, fmt.Errorf("invalid file kind %d: %w", v, lakeerr.ErrCorruption)
	}
	return FileKind(v), nil
}

// decodedFileSource rejects the TINYINT _FILE_SOURCE values Java's
// FileSource.fromByteValue rejects.
func decodedFileSource(v *int32) (*FileSource, error) {
	switch {
	case v == nil:
		return nil, nil
	case *v != int32(FileSourceAppend) && *v != int32(FileSourceCompact):
		return nil, fmt.Errorf("invalid file source %d: %w", *v, lakeerr.ErrCorruption)
	}
	s := FileSource(*v)
	return &s, nil
}

// Encoding. hamba writes the fields in the order of the format's schema,
// and nil pointers and slices as the null branch of its ["null", T] unions.

func newAvroManifestFileMeta(m *ManifestFileMeta) *avroManifestFileMeta {
	return &avroManifestFileMeta{
		Version: manifestListVersion, FileName: m.FileName, FileSize: m.FileSize,
		NumAddedFiles: m.NumAddedFiles, NumDeletedFiles: m.NumDeletedFiles,
		PartitionStats: newAvroSimpleStats(m.PartitionStats), SchemaID: m.SchemaID,
		MinBucket: m.MinBucket, MaxBucket: m.MaxBucket, MinLevel: m.MinLevel, MaxLevel: m.MaxLevel,
		MinRowID: m.MinRowID, MaxRowID: m.MaxRowID,
	}
}

func newAvroManifestEntry(e *ManifestEntry) *avroManifestEntry {
	f := &e.File
	var source *int32
	if f.FileSource != nil {
		source = new(int32(*f.FileSource))
	}
	return &avroManifestEntry{
		Version: manifestEntryVersion, Kind: int32(e.Kind), Partition: e.Partition,
		Bucket: e.Bucket, TotalBuckets: e.TotalBuckets,
		File: &avroDataFileMeta{
			FileName: f.FileName, FileSize: f.FileSize, RowCount: f.RowCount, MinKey: f.MinKey, MaxKey: f.MaxKey,
			KeyStats: newAvroSimpleStats(f.KeyStats), ValueStats: newAvroSimpleStats(f.ValueStats),
			MinSequenceNumber: f.MinSequenceNumber, MaxSequenceNumber: f.MaxSequenceNumber, SchemaID: f.SchemaID,
			Level: f.Level, ExtraFiles: f.ExtraFiles, CreationTime: f.CreationTime, DeleteRowCount: f.DeleteRowCount,
			EmbeddedIndex: f.EmbeddedIndex, FileSource: source, ValueStatsCols: f.ValueStatsCols,
			ExternalPath: f.ExternalPath, FirstRowID: f.FirstRowID, WriteCols: f.WriteCols,
			WriteColsSequences: f.WriteColsSequences,
		},
	}
}

// newAvroSimpleStats writes nil NullCounts as an empty array, never as the
// null the schema allows: Java's SimpleStats.fromRow cannot read a null.
func newAvroSimpleStats(s SimpleStats) *avroSimpleStats {
	if s.NullCounts == nil {
		s.NullCounts = []*int64{}
	}
	a := avroSimpleStats(s)
	return &a
}
