package spec

import "maps"

// CommitKind is the kind of change a snapshot records.
// Mirrors org.apache.paimon.Snapshot.CommitKind.
type CommitKind string

const (
	CommitKindAppend    CommitKind = "APPEND"
	CommitKindCompact   CommitKind = "COMPACT"
	CommitKindOverwrite CommitKind = "OVERWRITE"
	CommitKindAnalyze   CommitKind = "ANALYZE"
)

// CurrentSnapshotVersion is Snapshot.CURRENT_VERSION.
const CurrentSnapshotVersion = 3

// BatchCommitIdentifier is the identifier Java batch writes commit with
// (BatchWriteBuilder.COMMIT_IDENTIFIER = Long.MAX_VALUE).
const BatchCommitIdentifier int64 = 9223372036854775807

// Snapshot is the content of snapshot/snapshot-<ID>, and the snapshot part
// of a tag file. Mirrors org.apache.paimon.Snapshot.
//
// Pointer fields are optional keys: nil means the key is absent (Java's
// JsonInclude NON_NULL) so that a decoded file re-encodes to the same keys.
type Snapshot struct {
	Version                   int
	UUID                      *string
	ID                        int64
	SchemaID                  int64
	BaseManifestList          string
	BaseManifestListSize      *int64
	DeltaManifestList         string
	DeltaManifestListSize     *int64
	ChangelogManifestList     *string
	ChangelogManifestListSize *int64
	IndexManifest             *string
	CommitUser                string
	WriterVersion             *string
	CommitIdentifier          int64
	CommitKind                CommitKind
	TimeMillis                int64
	// LogOffsets is written by Paimon <= 1.3 (always "{ }" in practice).
	LogOffsets           map[int32]int64
	TotalRecordCount     *int64
	DeltaRecordCount     *int64
	ChangelogRecordCount *int64
	Watermark            *int64
	Statistics           *string
	Properties           map[string]string
	NextRowID            *int64
	Operation            *string
}

// Clone returns a copy of s whose maps are its own. The pointer fields are
// shared: nothing assigns through them.
func (s *Snapshot) Clone() *Snapshot {
	c := *s
	c.LogOffsets = maps.Clone(s.LogOffsets)
	c.Properties = maps.Clone(s.Properties)
	return &c
}
