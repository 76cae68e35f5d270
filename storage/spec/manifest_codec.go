package spec

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
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
	manifestListSchemaText string
	//go:embed avroschema/manifest.avsc
	manifestSchemaText string
	// manifestWithSequencesSchemaText adds _WRITE_COLS_SEQUENCES, which Paimon
	// writes after 2.0. It is used only when an entry carries that field, so
	// that readers of released versions get the schema they know.
	//go:embed avroschema/manifest-write-cols-sequences.avsc
	manifestWithSequencesSchemaText string
)

func init() {
	manifestListSchemaText = strings.TrimSpace(manifestListSchemaText)
	manifestSchemaText = strings.TrimSpace(manifestSchemaText)
	manifestWithSequencesSchemaText = strings.TrimSpace(manifestWithSequencesSchemaText)
}

var (
	manifestListDecoder  = newAvroFileDecoder(manifestFileMetaFields)
	manifestEntryDecoder = newAvroFileDecoder(manifestEntryFields)
)

// DecodeManifestList decodes a manifest-list file of any Paimon version.
// Records whose _VERSION is not 2 are reported as corrupt (ErrCorruption),
// ORC files (manifest.format=orc) as ErrUnsupported. Byte slices in the
// result alias one buffer per Avro block.
func DecodeManifestList(data []byte) ([]ManifestFileMeta, error) {
	metas, err := manifestListDecoder.decode(data)
	if err != nil {
		return nil, fmt.Errorf("spec: manifest list: %w", err)
	}
	return metas, nil
}

// DecodeManifestEntries decodes a manifest file of any Paimon version, with
// the same error classes and aliasing as DecodeManifestList.
func DecodeManifestEntries(data []byte) ([]ManifestEntry, error) {
	entries, err := manifestEntryDecoder.decode(data)
	if err != nil {
		return nil, fmt.Errorf("spec: manifest: %w", err)
	}
	return entries, nil
}

// EncodeManifestList encodes a manifest-list file the way Java Paimon does:
// zstandard Avro with Java's writer schema. It cannot fail today; the error
// keeps the encoders alike.
func EncodeManifestList(metas []ManifestFileMeta) ([]byte, error) {
	w := newAvroContainerWriter(manifestListSchemaText)
	for i := range metas {
		encodeManifestFileMeta(&w.block, &metas[i])
		w.endRecord()
	}
	return w.finish(), nil
}

// EncodeManifestEntries encodes a manifest file the way Java Paimon does:
// zstandard Avro with Java's writer schema. It rejects kinds and file
// sources Java cannot read.
func EncodeManifestEntries(entries []ManifestEntry) ([]byte, error) {
	schema, withSequences := manifestSchemaText, false
	for i := range entries {
		if err := checkManifestEntry(&entries[i]); err != nil {
			return nil, fmt.Errorf("spec: manifest entry %d: %w", i, err)
		}
		if entries[i].File.WriteColsSequences != nil {
			schema, withSequences = manifestWithSequencesSchemaText, true
		}
	}
	w := newAvroContainerWriter(schema)
	for i := range entries {
		encodeManifestEntry(&w.block, &entries[i], withSequences)
		w.endRecord()
	}
	return w.finish(), nil
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

// Decoding: field mappings by Avro field name (Java's DataFileMeta.SCHEMA,
// ManifestEntry.SCHEMA, ManifestFileMeta.SCHEMA, SimpleStats.SCHEMA).

var simpleStatsFields = []avroFieldSpec[SimpleStats]{
	avroRequiredField("_MIN_VALUES", avroBytesValue, func(s *SimpleStats) *[]byte { return &s.MinValues }),
	avroRequiredField("_MAX_VALUES", avroBytesValue, func(s *SimpleStats) *[]byte { return &s.MaxValues }),
	avroOptionalField("_NULL_COUNTS", avroNullCountsValue, func(s *SimpleStats) *[]*int64 { return &s.NullCounts }),
}

var manifestFileMetaFields = []avroFieldSpec[ManifestFileMeta]{
	avroVersionField[ManifestFileMeta](manifestListVersion),
	avroRequiredField("_FILE_NAME", avroStringValue, func(m *ManifestFileMeta) *string { return &m.FileName }),
	avroRequiredField("_FILE_SIZE", avroLongValue, func(m *ManifestFileMeta) *int64 { return &m.FileSize }),
	avroRequiredField("_NUM_ADDED_FILES", avroLongValue, func(m *ManifestFileMeta) *int64 { return &m.NumAddedFiles }),
	avroRequiredField("_NUM_DELETED_FILES", avroLongValue, func(m *ManifestFileMeta) *int64 { return &m.NumDeletedFiles }),
	avroRequiredField("_PARTITION_STATS", avroRecordValue(simpleStatsFields), func(m *ManifestFileMeta) *SimpleStats { return &m.PartitionStats }),
	avroRequiredField("_SCHEMA_ID", avroLongValue, func(m *ManifestFileMeta) *int64 { return &m.SchemaID }),
	avroOptionalField("_MIN_BUCKET", avroPointer(avroIntValue), func(m *ManifestFileMeta) **int32 { return &m.MinBucket }),
	avroOptionalField("_MAX_BUCKET", avroPointer(avroIntValue), func(m *ManifestFileMeta) **int32 { return &m.MaxBucket }),
	avroOptionalField("_MIN_LEVEL", avroPointer(avroIntValue), func(m *ManifestFileMeta) **int32 { return &m.MinLevel }),
	avroOptionalField("_MAX_LEVEL", avroPointer(avroIntValue), func(m *ManifestFileMeta) **int32 { return &m.MaxLevel }),
	avroOptionalField("_MIN_ROW_ID", avroPointer(avroLongValue), func(m *ManifestFileMeta) **int64 { return &m.MinRowID }),
	avroOptionalField("_MAX_ROW_ID", avroPointer(avroLongValue), func(m *ManifestFileMeta) **int64 { return &m.MaxRowID }),
}

var manifestEntryFields = []avroFieldSpec[ManifestEntry]{
	avroVersionField[ManifestEntry](manifestEntryVersion),
	avroRequiredField("_KIND", fileKindValue, func(e *ManifestEntry) *FileKind { return &e.Kind }),
	avroRequiredField("_PARTITION", avroBytesValue, func(e *ManifestEntry) *[]byte { return &e.Partition }),
	avroRequiredField("_BUCKET", avroIntValue, func(e *ManifestEntry) *int32 { return &e.Bucket }),
	avroRequiredField("_TOTAL_BUCKETS", avroIntValue, func(e *ManifestEntry) *int32 { return &e.TotalBuckets }),
	avroRequiredField("_FILE", avroRecordValue(dataFileMetaFields), func(e *ManifestEntry) *DataFileMeta { return &e.File }),
}

var dataFileMetaFields = []avroFieldSpec[DataFileMeta]{
	avroRequiredField("_FILE_NAME", avroStringValue, func(f *DataFileMeta) *string { return &f.FileName }),
	avroRequiredField("_FILE_SIZE", avroLongValue, func(f *DataFileMeta) *int64 { return &f.FileSize }),
	avroRequiredField("_ROW_COUNT", avroLongValue, func(f *DataFileMeta) *int64 { return &f.RowCount }),
	avroRequiredField("_MIN_KEY", avroBytesValue, func(f *DataFileMeta) *[]byte { return &f.MinKey }),
	avroRequiredField("_MAX_KEY", avroBytesValue, func(f *DataFileMeta) *[]byte { return &f.MaxKey }),
	avroRequiredField("_KEY_STATS", avroRecordValue(simpleStatsFields), func(f *DataFileMeta) *SimpleStats { return &f.KeyStats }),
	avroRequiredField("_VALUE_STATS", avroRecordValue(simpleStatsFields), func(f *DataFileMeta) *SimpleStats { return &f.ValueStats }),
	avroRequiredField("_MIN_SEQUENCE_NUMBER", avroLongValue, func(f *DataFileMeta) *int64 { return &f.MinSequenceNumber }),
	avroRequiredField("_MAX_SEQUENCE_NUMBER", avroLongValue, func(f *DataFileMeta) *int64 { return &f.MaxSequenceNumber }),
	avroRequiredField("_SCHEMA_ID", avroLongValue, func(f *DataFileMeta) *int64 { return &f.SchemaID }),
	avroRequiredField("_LEVEL", avroIntValue, func(f *DataFileMeta) *int32 { return &f.Level }),
	avroRequiredField("_EXTRA_FILES", avroArrayValue(avroStringValue), func(f *DataFileMeta) *[]string { return &f.ExtraFiles }),
	avroOptionalField("_CREATION_TIME", avroPointer(avroTimestampValue), func(f *DataFileMeta) **time.Time { return &f.CreationTime }),
	avroOptionalField("_DELETE_ROW_COUNT", avroPointer(avroLongValue), func(f *DataFileMeta) **int64 { return &f.DeleteRowCount }),
	avroOptionalField("_EMBEDDED_FILE_INDEX", avroBytesValue, func(f *DataFileMeta) *[]byte { return &f.EmbeddedIndex }),
	avroOptionalField("_FILE_SOURCE", avroPointer(fileSourceValue), func(f *DataFileMeta) **FileSource { return &f.FileSource }),
	avroOptionalField("_VALUE_STATS_COLS", avroArrayValue(avroStringValue), func(f *DataFileMeta) *[]string { return &f.ValueStatsCols }),
	avroOptionalField("_EXTERNAL_PATH", avroPointer(avroStringValue), func(f *DataFileMeta) **string { return &f.ExternalPath }),
	avroOptionalField("_FIRST_ROW_ID", avroPointer(avroLongValue), func(f *DataFileMeta) **int64 { return &f.FirstRowID }),
	avroOptionalField("_WRITE_COLS", avroArrayValue(avroStringValue), func(f *DataFileMeta) *[]string { return &f.WriteCols }),
	avroOptionalField("_WRITE_COLS_SEQUENCES", avroArrayValue(avroLongValue), func(f *DataFileMeta) *[]int64 { return &f.WriteColsSequences }),
}

// fileKindValue reads a TINYINT _KIND and rejects values Java's
// FileKind.fromByteValue rejects.
func fileKindValue(t *avroType) (avroDecodeFn[FileKind], error) {
	if t.kind != avroInt {
		return nil, avroTypeError(t, "int")
	}
	return func(r *avroReader, dst *FileKind) error {
		v, err := r.int()
		if err == nil && v != int32(FileKindAdd) && v != int32(FileKindDelete) {
			err = fmt.Errorf("invalid file kind %d: %w", v, lakeerr.ErrCorruption)
		}
		*dst = FileKind(v)
		return err
	}, nil
}

// fileSourceValue reads a TINYINT _FILE_SOURCE and rejects values Java's
// FileSource.fromByteValue rejects.
func fileSourceValue(t *avroType) (avroDecodeFn[FileSource], error) {
	if t.kind != avroInt {
		return nil, avroTypeError(t, "int")
	}
	return func(r *avroReader, dst *FileSource) error {
		v, err := r.int()
		if err == nil && v != int32(FileSourceAppend) && v != int32(FileSourceCompact) {
			err = fmt.Errorf("invalid file source %d: %w", v, lakeerr.ErrCorruption)
		}
		*dst = FileSource(v)
		return err
	}, nil
}

// avroNullCountsValue decodes _NULL_COUNTS, an array of nullable longs. The
// counts of one array block share one backing array, which saves an
// allocation per column on the planning hot path.
func avroNullCountsValue(t *avroType) (avroDecodeFn[[]*int64], error) {
	if t.kind != avroArray {
		return nil, avroTypeError(t, "array")
	}
	shape, err := avroOptionalShapeOf(t.items)
	if err != nil {
		return nil, err
	}
	count, err := avroLongValue(shape.value)
	if err != nil {
		return nil, err
	}
	return func(r *avroReader, dst *[]*int64) error {
		out := []*int64{}
		for {
			n, err := r.blockCount()
			if err != nil || n == 0 {
				*dst = out
				return err
			}
			backing := make([]int64, n)
			out = slices.Grow(out, n)
			for i := range backing {
				present, err := shape.readPresent(r)
				var c *int64
				if present {
					c = &backing[i]
					err = count(r, c)
				}
				if err != nil {
					return err
				}
				out = append(out, c)
			}
		}
	}, nil
}

// Encoding: fields in exactly the order of the embedded schemas; nullable
// fields are ["null", T] unions with null first, as Java writes them.

func encodeManifestFileMeta(w *avroWriter, m *ManifestFileMeta) {
	w.int(manifestListVersion)
	w.string(m.FileName)
	w.long(m.FileSize)
	w.long(m.NumAddedFiles)
	w.long(m.NumDeletedFiles)
	encodeSimpleStats(w, &m.PartitionStats)
	w.long(m.SchemaID)
	avroWriteNullable(w, m.MinBucket, (*avroWriter).int)
	avroWriteNullable(w, m.MaxBucket, (*avroWriter).int)
	avroWriteNullable(w, m.MinLevel, (*avroWriter).int)
	avroWriteNullable(w, m.MaxLevel, (*avroWriter).int)
	avroWriteNullable(w, m.MinRowID, (*avroWriter).long)
	avroWriteNullable(w, m.MaxRowID, (*avroWriter).long)
}

func encodeManifestEntry(w *avroWriter, e *ManifestEntry, withSequences bool) {
	w.int(manifestEntryVersion)
	w.int(int32(e.Kind))
	w.bytes(e.Partition)
	w.int(e.Bucket)
	w.int(e.TotalBuckets)
	encodeDataFileMeta(w, &e.File, withSequences)
}

func encodeDataFileMeta(w *avroWriter, f *DataFileMeta, withSequences bool) {
	w.string(f.FileName)
	w.long(f.FileSize)
	w.long(f.RowCount)
	w.bytes(f.MinKey)
	w.bytes(f.MaxKey)
	encodeSimpleStats(w, &f.KeyStats)
	encodeSimpleStats(w, &f.ValueStats)
	w.long(f.MinSequenceNumber)
	w.long(f.MaxSequenceNumber)
	w.long(f.SchemaID)
	w.int(f.Level)
	w.strings(f.ExtraFiles)
	avroWriteNullable(w, f.CreationTime, func(w *avroWriter, t time.Time) { w.long(t.UnixMilli()) })
	avroWriteNullable(w, f.DeleteRowCount, (*avroWriter).long)
	avroWriteNullableSlice(w, f.EmbeddedIndex, (*avroWriter).bytes)
	avroWriteNullable(w, f.FileSource, func(w *avroWriter, s FileSource) { w.int(int32(s)) })
	avroWriteNullableSlice(w, f.ValueStatsCols, (*avroWriter).strings)
	avroWriteNullable(w, f.ExternalPath, (*avroWriter).string)
	avroWriteNullable(w, f.FirstRowID, (*avroWriter).long)
	avroWriteNullableSlice(w, f.WriteCols, (*avroWriter).strings)
	if withSequences {
		avroWriteNullableSlice(w, f.WriteColsSequences, (*avroWriter).longs)
	}
}

// encodeSimpleStats writes nil NullCounts as an empty array, never as the
// null the schema allows: Java's SimpleStats.fromRow cannot read a null.
func encodeSimpleStats(w *avroWriter, s *SimpleStats) {
	w.bytes(s.MinValues)
	w.bytes(s.MaxValues)
	w.long(1)
	w.arrayStart(len(s.NullCounts))
	for _, c := range s.NullCounts {
		avroWriteNullable(w, c, (*avroWriter).long)
	}
	w.arrayEnd()
}
