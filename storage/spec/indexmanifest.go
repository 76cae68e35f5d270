package spec

import (
	_ "embed"
	"fmt"
	"slices"
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
	DataFileName string `avro:"f0"`
	// Offset and Length are the byte range in the index file.
	Offset int32 `avro:"f1"`
	Length int32 `avro:"f2"`
	// Cardinality is the number of deleted rows; nil before Paimon 1.0.
	Cardinality *int64 `avro:"_CARDINALITY"`
}

// GlobalIndexMeta is the row range and indexed columns of a global-index
// file. Mirrors org.apache.paimon.index.GlobalIndexMeta.
type GlobalIndexMeta struct {
	RowRangeStart int64 `avro:"_ROW_RANGE_START"`
	RowRangeEnd   int64 `avro:"_ROW_RANGE_END"`
	IndexFieldID  int32 `avro:"_INDEX_FIELD_ID"`
	// ExtraFieldIDs are further indexed field ids; nil is null.
	ExtraFieldIDs []int32 `avro:"_EXTRA_FIELD_IDS"`
	// IndexMeta and SourceMeta are opaque, index-type specific; nil is null.
	IndexMeta  []byte `avro:"_INDEX_META"`
	SourceMeta []byte `avro:"_SOURCE_META"`
}

// indexManifestVersion is the _VERSION of index manifest records
// (IndexManifestEntrySerializer).
const indexManifestVersion = 1

// index-manifest.avsc is Java's writer schema, verbatim from a file written
// by Paimon master (July 2026); see manifestListAvsc.
//
//go:embed avroschema/index-manifest.avsc
var indexManifestAvsc string

var (
	indexManifestFormat     = newAvroFormat(indexManifestAvsc)
	indexManifestSchemaText = indexManifestFormat.text
)

// DecodeIndexManifest decodes an index-manifest file of any Paimon version.
// Records whose _VERSION is not 1 are reported as corrupt; otherwise errors
// and aliasing are as for DecodeManifestList.
func DecodeIndexManifest(data []byte) ([]IndexManifestEntry, error) {
	entries, err := avroDecode(data, indexManifestFormat, (*avroIndexManifestEntry).decoded, (*avroIndexManifestEntry).reset)
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
	data, err := avroEncode(indexManifestFormat, len(entries), func(i int) *avroIndexManifestEntry {
		return newAvroIndexManifestEntry(&entries[i])
	})
	if err != nil {
		return nil, fmt.Errorf("spec: index manifest: %w", err)
	}
	return data, nil
}

// avroIndexManifestEntry mirrors Java's IndexManifestEntrySerializer
// schema, where the entry and its IndexFileMeta share one flat record. The
// ranges are pointers because Java's schema makes them nullable.
type avroIndexManifestEntry struct {
	Version              int32                 `avro:"_VERSION"`
	Kind                 int32                 `avro:"_KIND"`
	Partition            []byte                `avro:"_PARTITION"`
	Bucket               int32                 `avro:"_BUCKET"`
	IndexType            string                `avro:"_INDEX_TYPE"`
	FileName             string                `avro:"_FILE_NAME"`
	FileSize             int64                 `avro:"_FILE_SIZE"`
	RowCount             int64                 `avro:"_ROW_COUNT"`
	DeletionVectorRanges []*DeletionVectorMeta `avro:"_DELETIONS_VECTORS_RANGES"`
	ExternalPath         *string               `avro:"_EXTERNAL_PATH"`
	GlobalIndex          *GlobalIndexMeta      `avro:"_GLOBAL_INDEX"`
}

func (a *avroIndexManifestEntry) decoded() (IndexManifestEntry, error) {
	if err := avroCheckVersion(a.Version, indexManifestVersion); err != nil {
		return IndexManifestEntry{}, err
	}
	kind, err := decodedFileKind(a.Kind)
	if err != nil {
		return IndexManifestEntry{}, err
	}
	ranges, err := decodedDeletionVectorRanges(a.DeletionVectorRanges)
	if err != nil {
		return IndexManifestEntry{}, fmt.Errorf("_DELETIONS_VECTORS_RANGES: %w", err)
	}
	if g := a.GlobalIndex; g != nil {
		g.IndexMeta, g.SourceMeta = slices.Clip(g.IndexMeta), slices.Clip(g.SourceMeta)
	}
	return IndexManifestEntry{
		Kind: kind, Partition: slices.Clip(a.Partition), Bucket: a.Bucket,
		IndexFile: IndexFileMeta{
			IndexType: a.IndexType, FileName: a.FileName, FileSize: a.FileSize, RowCount: a.RowCount,
			DeletionVectorRanges: ranges, ExternalPath: a.ExternalPath, GlobalIndex: a.GlobalIndex,
		},
	}, nil
}

// reset clears the wire struct for the next record: everything in it goes
// into the decoded entry as it is.
func (a *avroIndexManifestEntry) reset() {
	*a = avroIndexManifestEntry{}
}

// decodedDeletionVectorRanges rejects null items, which Java's schema
// allows but DeletionVectorMeta cannot be.
func decodedDeletionVectorRanges(in []*DeletionVectorMeta) ([]DeletionVectorMeta, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]DeletionVectorMeta, len(in))
	for i, d := range in {
		var err error
		if out[i], err = avroRequired(d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func newAvroIndexManifestEntry(e *IndexManifestEntry) *avroIndexManifestEntry {
	f := &e.IndexFile
	var ranges []*DeletionVectorMeta
	if f.DeletionVectorRanges != nil {
		ranges = make([]*DeletionVectorMeta, len(f.DeletionVectorRanges))
		for i := range ranges {
			ranges[i] = &f.DeletionVectorRanges[i]
		}
	}
	return &avroIndexManifestEntry{
		Version: indexManifestVersion, Kind: int32(e.Kind), Partition: e.Partition, Bucket: e.Bucket,
		IndexType: f.IndexType, FileName: f.FileName, FileSize: f.FileSize, RowCount: f.RowCount,
		DeletionVectorRanges: ranges, ExternalPath: f.ExternalPath, GlobalIndex: f.GlobalIndex,
	}
}
