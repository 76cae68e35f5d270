package spec

import (
	"fmt"
	"time"
)

// FileKind says whether a manifest entry adds or deletes a file.
// Mirrors org.apache.paimon.manifest.FileKind.
type FileKind int8

const (
	FileKindAdd    FileKind = 0
	FileKindDelete FileKind = 1
)

func (k FileKind) String() string {
	switch k {
	case FileKindAdd:
		return "ADD"
	case FileKindDelete:
		return "DELETE"
	}
	return fmt.Sprintf("FileKind(%d)", int8(k))
}

// FileSource says how a data file was produced.
// Mirrors org.apache.paimon.manifest.FileSource.
type FileSource int8

const (
	FileSourceAppend  FileSource = 0
	FileSourceCompact FileSource = 1
)

func (s FileSource) String() string {
	switch s {
	case FileSourceAppend:
		return "APPEND"
	case FileSourceCompact:
		return "COMPACT"
	}
	return fmt.Sprintf("FileSource(%d)", int8(s))
}

// ManifestFileMeta is one record of a manifest list: a manifest file and a
// summary used to skip it while planning.
// Mirrors org.apache.paimon.manifest.ManifestFileMeta.
//
// Pointer fields are nullable columns that older writers omit; nil means
// "unknown", so readers must not prune with them.
type ManifestFileMeta struct {
	FileName        string
	FileSize        int64
	NumAddedFiles   int64
	NumDeletedFiles int64
	// PartitionStats covers the partition rows of all entries in the file.
	PartitionStats SimpleStats
	SchemaID       int64
	// Bucket and level ranges, since Paimon 1.1.
	MinBucket, MaxBucket *int32
	MinLevel, MaxLevel   *int32
	// Row-id range of the files added, since Paimon 1.4 (row tracking).
	MinRowID, MaxRowID *int64
}

// ManifestEntry is one record of a manifest file: a data file added to or
// deleted from a partition bucket.
// Mirrors org.apache.paimon.manifest.ManifestEntry.
type ManifestEntry struct {
	Kind FileKind
	// Partition is the serialized partition BinaryRow (4-byte big-endian
	// arity, then the row), exactly as stored.
	Partition []byte
	Bucket    int32
	// TotalBuckets is the bucket count of the partition when the file was
	// written; readers treat <= 0 as "no bucket pruning".
	TotalBuckets int32
	File         DataFileMeta
}

// DataFileMeta describes one data file.
// Mirrors org.apache.paimon.io.DataFileMeta.
//
// In the nullable fields (from CreationTime on), nil pointers and nil
// slices are Avro nulls or fields an older writer did not have; empty
// non-nil slices are present but empty, which matters for ValueStatsCols and
// WriteCols where null means "all columns".
type DataFileMeta struct {
	// FileName is relative to the bucket directory.
	FileName string
	FileSize int64
	// RowCount counts all rows, retractions included.
	RowCount int64
	// MinKey and MaxKey are serialized key BinaryRows; empty rows for append
	// tables.
	MinKey, MaxKey    []byte
	KeyStats          SimpleStats
	ValueStats        SimpleStats
	MinSequenceNumber int64
	MaxSequenceNumber int64
	SchemaID          int64
	Level             int32
	// ExtraFiles are sidecar file names, e.g. a ".index" file index. The
	// field is not nullable: nil is written as an empty array.
	ExtraFiles []string
	// CreationTime is Java's TIMESTAMP(3) _CREATION_TIME, which Java fills
	// with LocalDateTime.now(): the writer's local wall-clock reading stored
	// as if it were UTC. It is decoded as that UTC time.Time unchanged, so
	// its instant is off by the writer's UTC offset; use it for display
	// only. LocalWallClockAsUTC produces the value Java would write.
	CreationTime   *time.Time
	DeleteRowCount *int64
	// EmbeddedIndex is a small file index inlined into the manifest.
	EmbeddedIndex []byte
	FileSource    *FileSource
	// ValueStatsCols lists the columns present in ValueStats; nil means all
	// columns of the file's schema (since Paimon 1.0).
	ValueStatsCols []string
	// ExternalPath is the full path of a file outside the table directory.
	ExternalPath *string
	FirstRowID   *int64
	// WriteCols lists the columns the file holds; nil means all (data
	// evolution, since Paimon 1.3).
	WriteCols []string
	// WriteColsSequences is written only by Paimon after 2.0.
	WriteColsSequences []int64
}

// LocalWallClockAsUTC returns the _CREATION_TIME Java would write for the
// instant t: t's wall-clock reading in its own location, relabelled as UTC
// (Java's LocalDateTime.now() stored as epoch milliseconds), truncated to
// milliseconds.
func LocalWallClockAsUTC(t time.Time) time.Time {
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return wall.Truncate(time.Millisecond)
}
