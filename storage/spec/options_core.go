package spec

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// MergeEngine is how a primary-key table merges rows with equal keys.
// Mirrors CoreOptions.MergeEngine.
type MergeEngine string

const (
	MergeEngineDeduplicate   MergeEngine = "deduplicate"
	MergeEnginePartialUpdate MergeEngine = "partial-update"
	MergeEngineAggregation   MergeEngine = "aggregation"
	MergeEngineFirstRow      MergeEngine = "first-row"
)

// ChangelogProducer is how changelog files are produced.
// Mirrors CoreOptions.ChangelogProducer.
type ChangelogProducer string

const (
	ChangelogProducerNone           ChangelogProducer = "none"
	ChangelogProducerInput          ChangelogProducer = "input"
	ChangelogProducerFullCompaction ChangelogProducer = "full-compaction"
	ChangelogProducerLookup         ChangelogProducer = "lookup"
)

// SortOrder is the order of sequence.field. Mirrors CoreOptions.SortOrder.
type SortOrder string

const (
	SortOrderAscending  SortOrder = "ascending"
	SortOrderDescending SortOrder = "descending"
)

// StartupMode is scan.mode. Mirrors CoreOptions.StartupMode.
type StartupMode string

const (
	StartupModeDefault               StartupMode = "default"
	StartupModeLatestFull            StartupMode = "latest-full"
	StartupModeFull                  StartupMode = "full"
	StartupModeLatest                StartupMode = "latest"
	StartupModeLatestDelta           StartupMode = "latest-delta"
	StartupModeCompactedFull         StartupMode = "compacted-full"
	StartupModeFromTimestamp         StartupMode = "from-timestamp"
	StartupModeFromCreationTimestamp StartupMode = "from-creation-timestamp"
	StartupModeFromFileCreationTime  StartupMode = "from-file-creation-time"
	StartupModeFromSnapshot          StartupMode = "from-snapshot"
	StartupModeFromSnapshotFull      StartupMode = "from-snapshot-full"
	StartupModeIncremental           StartupMode = "incremental"
)

// Bucket is the bucket count: > 0 fixed, -1 dynamic (the default), -2
// postpone.
func (o CoreOptions) Bucket() (int, error) { return o.intOption(OptionBucket, -1) }

// BucketKey is the bucket-key column list, or nil when unset or blank
// (then the primary key, else the whole row, is hashed).
func (o CoreOptions) BucketKey() []string {
	v := o.options[OptionBucketKey]
	if strings.TrimSpace(v) == "" {
		return nil
	}
	return splitJavaList(v)
}

// FileFormat is the data file format, lower-cased as Java normalizes it.
func (o CoreOptions) FileFormat() string {
	return strings.ToLower(o.stringOption(OptionFileFormat, "parquet"))
}

// ManifestFormat is the manifest file format, lower-cased as Java
// normalizes it (removed after Paimon 2.0, where it is always avro).
func (o CoreOptions) ManifestFormat() string {
	return strings.ToLower(o.stringOption(OptionManifestFormat, "avro"))
}

// MergeEngine is the merge engine of a primary-key table.
func (o CoreOptions) MergeEngine() (MergeEngine, error) {
	return enumOption(o, []MergeEngine{MergeEngineDeduplicate, MergeEnginePartialUpdate,
		MergeEngineAggregation, MergeEngineFirstRow}, OptionMergeEngine)
}

// SequenceField is the trimmed sequence.field column list, or nil.
func (o CoreOptions) SequenceField() []string {
	v, ok := o.options[OptionSequenceField]
	if !ok {
		return nil
	}
	return splitTrimmedList(v)
}

// SequenceFieldSortOrder is the order of the sequence field.
func (o CoreOptions) SequenceFieldSortOrder() (SortOrder, error) {
	return enumOption(o, []SortOrder{SortOrderAscending, SortOrderDescending}, OptionSequenceFieldSortOrder)
}

// IgnoreDelete reports whether delete records are dropped; it also reads
// the older per-engine keys Java falls back to.
func (o CoreOptions) IgnoreDelete() (bool, error) {
	return o.boolOption(false, OptionIgnoreDelete,
		"first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete")
}

// PartialUpdateRemoveRecordOnDelete reports whether a -D removes the whole
// row in the partial-update engine.
func (o CoreOptions) PartialUpdateRemoveRecordOnDelete() (bool, error) {
	return o.boolOption(false, OptionPartialUpdateRemoveRecordOnDelete)
}

// FieldAggregateFunction is fields.<field>.aggregate-function.
func (o CoreOptions) FieldAggregateFunction(field string) (string, bool) {
	return o.Get(FieldOptionKey(field, FieldOptionAggregateFunction))
}

// FieldsDefaultAggregateFunction is fields.default-aggregate-function.
func (o CoreOptions) FieldsDefaultAggregateFunction() (string, bool) {
	return o.Get(OptionFieldsDefaultAggregateFunction)
}

// FieldIgnoreRetract is fields.<field>.ignore-retract.
func (o CoreOptions) FieldIgnoreRetract(field string) (bool, error) {
	return o.boolOption(false, FieldOptionKey(field, FieldOptionIgnoreRetract))
}

// SequenceGroup is one fields.<sequence fields>.sequence-group option of
// the partial-update engine: the sequence fields that order updates of
// Fields.
type SequenceGroup struct {
	SequenceFields []string
	Fields         []string
}

// SequenceGroups lists the sequence-group options, sorted by key. Names are
// split at commas without trimming, as Java's PartialUpdateMergeFunction
// does.
func (o CoreOptions) SequenceGroups() []SequenceGroup {
	const prefix, suffix = "fields.", "." + FieldOptionSequenceGroup
	var groups []SequenceGroup
	for _, k := range sortedOptionKeys(o.options) {
		if !strings.HasPrefix(k, prefix) || !strings.HasSuffix(k, suffix) || len(k) <= len(prefix)+len(suffix) {
			continue
		}
		groups = append(groups, SequenceGroup{
			SequenceFields: splitJavaList(k[len(prefix) : len(k)-len(suffix)]),
			Fields:         splitJavaList(o.options[k]),
		})
	}
	return groups
}

// DeletionVectorsEnabled reports whether deletion vectors are used.
func (o CoreOptions) DeletionVectorsEnabled() (bool, error) {
	return o.boolOption(false, OptionDeletionVectorsEnabled)
}

// DeletionVectorsBitmap64 reports whether deletion vectors use 64-bit bitmaps.
func (o CoreOptions) DeletionVectorsBitmap64() (bool, error) {
	return o.boolOption(false, OptionDeletionVectorsBitmap64)
}

// PartitionDefaultName is the directory name of a null or empty partition value.
func (o CoreOptions) PartitionDefaultName() string {
	return o.stringOption(OptionPartitionDefaultName, defaultPartitionName)
}

// PartitionLegacyName reports whether partition values are formatted with
// Java's toString (the default) rather than their SQL literal form.
func (o CoreOptions) PartitionLegacyName() (bool, error) {
	return o.boolOption(true, OptionPartitionLegacyName)
}

// DataFilePrefix is the name prefix of data files.
func (o CoreOptions) DataFilePrefix() string { return o.stringOption(OptionDataFilePrefix, "data-") }

// ChangelogFilePrefix is the name prefix of changelog files.
func (o CoreOptions) ChangelogFilePrefix() string {
	return o.stringOption(OptionChangelogFilePrefix, "changelog-")
}

// ChangelogProducer is how changelog files are produced.
func (o CoreOptions) ChangelogProducer() (ChangelogProducer, error) {
	return enumOption(o, []ChangelogProducer{ChangelogProducerNone, ChangelogProducerInput,
		ChangelogProducerFullCompaction, ChangelogProducerLookup}, OptionChangelogProducer)
}

// WriteOnly reports whether writers skip compaction and expiration.
func (o CoreOptions) WriteOnly() (bool, error) {
	return o.boolOption(false, OptionWriteOnly, "write.compaction-skip")
}

// TargetFileSize is the target data file size in bytes: 128 MiB for
// primary-key tables and 256 MiB for append tables unless set.
func (o CoreOptions) TargetFileSize(hasPrimaryKey bool) (int64, error) {
	def := int64(appendOnlyTargetFileSize)
	if hasPrimaryKey {
		def = primaryKeyTargetFileSize
	}
	return o.memoryOption(OptionTargetFileSize, def)
}

// WriteBufferSize is the in-memory sort buffer size in bytes.
func (o CoreOptions) WriteBufferSize() (int64, error) {
	return o.memoryOption(OptionWriteBufferSize, 256<<20)
}

// CommitMaxRetries is the number of commit retries after a conflict.
func (o CoreOptions) CommitMaxRetries() (int, error) { return o.intOption(OptionCommitMaxRetries, 10) }

// CommitTimeout is the time limit for retrying a commit; limited is false
// when unset (Java's Long.MAX_VALUE).
func (o CoreOptions) CommitTimeout() (timeout time.Duration, limited bool, err error) {
	if _, ok := o.options[OptionCommitTimeout]; !ok {
		return time.Duration(math.MaxInt64), false, nil
	}
	timeout, err = o.durationOption(OptionCommitTimeout, 0)
	return timeout, err == nil, err
}

// CommitMinRetryWait is the shortest wait between commit retries.
func (o CoreOptions) CommitMinRetryWait() (time.Duration, error) {
	return o.durationOption(OptionCommitMinRetryWait, 10*time.Millisecond)
}

// CommitMaxRetryWait is the longest wait between commit retries.
func (o CoreOptions) CommitMaxRetryWait() (time.Duration, error) {
	return o.durationOption(OptionCommitMaxRetryWait, 10*time.Second)
}

// ParquetLayout is how Java's Parquet writer lays data files out, from
// the table's parquet.* options, which Paimon hands to parquet-mr with
// their prefix (ParquetFileFormat.getParquetConfiguration,
// RowDataParquetBuilder), and file.compression.zstd-level. A zero field
// is unset: the writer's default applies.
type ParquetLayout struct {
	// PageSize is parquet.page.size, in bytes.
	PageSize int
	// PageRowLimit is parquet.page.row.count.limit.
	PageRowLimit int
	// RowGroupSize is parquet.block.size, in bytes.
	RowGroupSize int64
	// ZstdLevel is file.compression.zstd-level.
	ZstdLevel int
}

// Parquet layout options, read as parquet-mr reads them from its Hadoop
// configuration: plain integers.
const (
	OptionParquetPageSize     = "parquet.page.size"
	OptionParquetPageRowLimit = "parquet.page.row.count.limit"
	OptionParquetBlockSize    = "parquet.block.size"
	OptionZstdLevel           = "file.compression.zstd-level"
)

// ParquetLayout returns the table's Parquet layout options. Sizes and the
// row limit must be positive when set, as parquet-mr requires.
func (o CoreOptions) ParquetLayout() (ParquetLayout, error) {
	var l ParquetLayout
	var err error
	if l.PageSize, err = o.positiveInt(OptionParquetPageSize); err != nil {
		return ParquetLayout{}, err
	}
	if l.PageRowLimit, err = o.positiveInt(OptionParquetPageRowLimit); err != nil {
		return ParquetLayout{}, err
	}
	if l.ZstdLevel, err = o.intOption(OptionZstdLevel, 0); err != nil {
		return ParquetLayout{}, err
	}
	block, err := o.optionalLong(OptionParquetBlockSize)
	if err != nil || block == nil {
		return l, err
	}
	if l.RowGroupSize = *block; l.RowGroupSize <= 0 {
		return ParquetLayout{}, notPositive(OptionParquetBlockSize, *block)
	}
	return l, nil
}

// positiveInt parses an optional int option that must be positive; 0 is
// unset.
func (o CoreOptions) positiveInt(key string) (int, error) {
	n, err := o.intOption(key, 0)
	if _, set := o.Get(key); err == nil && set && n <= 0 {
		return 0, notPositive(key, int64(n))
	}
	return n, err
}

func notPositive(key string, n int64) error {
	return invalidOption(key, strconv.FormatInt(n, 10), errors.New("not positive"))
}
