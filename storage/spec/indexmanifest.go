package spec

import (
	_ "embed"
	"fmt"
	"strings"
)

// Index types of IndexFileMeta.IndexType written by Java's bucket indexes;
// global indexes use their own names ("btree", "bitmap", ...).
const (
	IndexTypeHash            = "HASH"
	IndexTypeDeletionVectors = "DELETION_VECTORS"
)

// IndexManifestEntry is one record of an index manifest: an index file added
// to or deleted from a partition bucket.
// Mirrors org.apache.paimon.manifest.IndexManifestEntry.
type IndexManifestEntry struct {
	Kind FileKind
	// Partition is the serialized partition BinaryRow, exactly as stored.
	Partition []byte
	Bucket    int32
	IndexFile IndexFileMeta
}

// IndexFileMeta describes one file in the index/ directory.
// Mirrors org.apache.paimon.index.IndexFileMeta.
type IndexFileMeta struct {
	IndexType string
	FileName  string
	FileSize  int64
	// RowCount is the number of hashes (HASH) or of deletion vectors
	// (DELETION_VECTORS) in the file.
	RowCount int64
	// DeletionVectorRanges locates each data file's deletion vector inside
	// a DELETION_VECTORS file, in file order; nil for other index types.
	DeletionVectorRanges []DeletionVectorMeta
	// ExternalPath is the full path of a file outside the table directory.
	ExternalPath *string
	// GlobalIndex is set for global-index files (since Paimon 1.4).
	GlobalIndex *GlobalIndexMeta
}

// DeletionVectorMeta is where one data file's deletion vector lives in a
// deletion-vectors index file.
// Mirrors org.apache.paimon.index.DeletionVectorMeta.
type DeletionVectorMeta struct {
	// DataFileName is Avro field f0.
	DataFileName string
	// Offset (f1) and Length (f2) are the byte range in the index file.
	Offset int32
	Length int32
	// Cardinality is the number of deleted rows; nil before Paimon 1.0.
	Cardinality *int64
}

// GlobalIndexMeta is the row range and indexed columns of a global-index
// file. Mirrors org.apache.paimon.index.GlobalIndexMeta.
type GlobalIndexMeta struct {
	RowRangeStart int64
	RowRangeEnd   int64
	IndexFieldID  int32
	// ExtraFieldIDs are further indexed field ids; nil is null.
	ExtraFieldIDs []int32
	// IndexMeta and SourceMeta are opaque, index-type specific; nil is null.
	IndexMeta  []byte
	SourceMeta []byte
}

// indexManifestVersion is the _VERSION of index manifest records
// (IndexManifestEntrySerializer).
const indexManifestVersion = 1

// indexManifestSchemaText is Java's writer schema, verbatim from a file
// written by Paimon master (July 2026); see manifestSchemaText.
//
//go:embed avroschema/index-manifest.avsc
var indexManifestSchemaText string

func init() { indexManifestSchemaText = strings.TrimSpace(indexManifestSchemaText) }

var indexManifestDecoder = newAvroFileDecoder(indexManifestEntryFields)

// DecodeIndexManifest decodes an index-manifest file of any Paimon version.
// Records whose _VERSION is not 1 are reported as corrupt; otherwise errors
// and aliasing are as for DecodeManifestList.
func DecodeIndexManifest(data []byte) ([]IndexManifestEntry, error) {
	entries, err := indexManifestDecoder.decode(data)
	if err != nil {
		return nil, fmt.Errorf("spec: index manifest: %w", err)
	}
	return entries, nil
}

// EncodeIndexManifest encodes an index-manifest file the way Java Paimon
// does: zstandard Avro with Java's writer schema. It rejects kinds Java
// cannot read.
func EncodeIndexManifest(entries []IndexManifestEntry) ([]byte, error) {
	for i := range entries {
		if k := entries[i].Kind; k != FileKindAdd && k != FileKindDelete {
			return nil, fmt.Errorf("spec: index manifest entry %d: invalid kind %v", i, k)
		}
	}
	w := newAvroContainerWriter(indexManifestSchemaText)
	for i := range entries {
		encodeIndexManifestEntry(&w.block, &entries[i])
		w.endRecord()
	}
	return w.finish(), nil
}

// Decoding: field mappings by Avro field name (Java's
// IndexManifestEntrySerializer, IndexFileMeta, DeletionVectorMeta,
// GlobalIndexMeta schemas). The entry and its IndexFileMeta share one flat
// Avro record.

var indexManifestEntryFields = []avroFieldSpec[IndexManifestEntry]{
	avroVersionField[IndexManifestEntry](indexManifestVersion),
	avroRequiredField("_KIND", fileKindValue, func(e *IndexManifestEntry) *FileKind { return &e.Kind }),
	avroRequiredField("_PARTITION", avroBytesValue, func(e *IndexManifestEntry) *[]byte { return &e.Partition }),
	avroRequiredField("_BUCKET", avroIntValue, func(e *IndexManifestEntry) *int32 { return &e.Bucket }),
	avroRequiredField("_INDEX_TYPE", avroStringValue, func(e *IndexManifestEntry) *string { return &e.IndexFile.IndexType }),
	avroRequiredField("_FILE_NAME", avroStringValue, func(e *IndexManifestEntry) *string { return &e.IndexFile.FileName }),
	avroRequiredField("_FILE_SIZE", avroLongValue, func(e *IndexManifestEntry) *int64 { return &e.IndexFile.FileSize }),
	avroRequiredField("_ROW_COUNT", avroLongValue, func(e *IndexManifestEntry) *int64 { return &e.IndexFile.RowCount }),
	avroOptionalField("_DELETIONS_VECTORS_RANGES", avroArrayValue(avroRequired(avroRecordValue(deletionVectorMetaFields))),
		func(e *IndexManifestEntry) *[]DeletionVectorMeta { return &e.IndexFile.DeletionVectorRanges }),
	avroOptionalField("_EXTERNAL_PATH", avroPointer(avroStringValue), func(e *IndexManifestEntry) **string { return &e.IndexFile.ExternalPath }),
	avroOptionalField("_GLOBAL_INDEX", avroPointer(avroRecordValue(globalIndexMetaFields)),
		func(e *IndexManifestEntry) **GlobalIndexMeta { return &e.IndexFile.GlobalIndex }),
}

var deletionVectorMetaFields = []avroFieldSpec[DeletionVectorMeta]{
	avroRequiredField("f0", avroStringValue, func(d *DeletionVectorMeta) *string { return &d.DataFileName }),
	avroRequiredField("f1", avroIntValue, func(d *DeletionVectorMeta) *int32 { return &d.Offset }),
	avroRequiredField("f2", avroIntValue, func(d *DeletionVectorMeta) *int32 { return &d.Length }),
	avroOptionalField("_CARDINALITY", avroPointer(avroLongValue), func(d *DeletionVectorMeta) **int64 { return &d.Cardinality }),
}

var globalIndexMetaFields = []avroFieldSpec[GlobalIndexMeta]{
	avroRequiredField("_ROW_RANGE_START", avroLongValue, func(g *GlobalIndexMeta) *int64 { return &g.RowRangeStart }),
	avroRequiredField("_ROW_RANGE_END", avroLongValue, func(g *GlobalIndexMeta) *int64 { return &g.RowRangeEnd }),
	avroRequiredField("_INDEX_FIELD_ID", avroIntValue, func(g *GlobalIndexMeta) *int32 { return &g.IndexFieldID }),
	avroOptionalField("_EXTRA_FIELD_IDS", avroArrayValue(avroIntValue), func(g *GlobalIndexMeta) *[]int32 { return &g.ExtraFieldIDs }),
	avroOptionalField("_INDEX_META", avroBytesValue, func(g *GlobalIndexMeta) *[]byte { return &g.IndexMeta }),
	avroOptionalField("_SOURCE_META", avroBytesValue, func(g *GlobalIndexMeta) *[]byte { return &g.SourceMeta }),
}

// Encoding: fields in exactly the order of indexManifestSchemaText.

func encodeIndexManifestEntry(w *avroWriter, e *IndexManifestEntry) {
	f := &e.IndexFile
	w.int(indexManifestVersion)
	w.int(int32(e.Kind))
	w.bytes(e.Partition)
	w.int(e.Bucket)
	w.string(f.IndexType)
	w.string(f.FileName)
	w.long(f.FileSize)
	w.long(f.RowCount)
	avroWriteNullableSlice(w, f.DeletionVectorRanges, encodeDeletionVectorRanges)
	avroWriteNullable(w, f.ExternalPath, (*avroWriter).string)
	avroWriteNullable(w, f.GlobalIndex, encodeGlobalIndexMeta)
}

// encodeDeletionVectorRanges writes the array; its items are ["null",
// record] unions in Java's schema and are never null.
func encodeDeletionVectorRanges(w *avroWriter, ranges []DeletionVectorMeta) {
	w.arrayStart(len(ranges))
	for i := range ranges {
		d := &ranges[i]
		w.long(1)
		w.string(d.DataFileName)
		w.int(d.Offset)
		w.int(d.Length)
		avroWriteNullable(w, d.Cardinality, (*avroWriter).long)
	}
	w.arrayEnd()
}

func encodeGlobalIndexMeta(w *avroWriter, g GlobalIndexMeta) {
	w.long(g.RowRangeStart)
	w.long(g.RowRangeEnd)
	w.int(g.IndexFieldID)
	avroWriteNullableSlice(w, g.ExtraFieldIDs, func(w *avroWriter, ids []int32) {
		w.arrayStart(len(ids))
		for _, id := range ids {
			w.int(id)
		}
		w.arrayEnd()
	})
	avroWriteNullableSlice(w, g.IndexMeta, (*avroWriter).bytes)
	avroWriteNullableSlice(w, g.SourceMeta, (*avroWriter).bytes)
}
