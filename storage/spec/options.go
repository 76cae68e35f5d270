package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Table option keys, as spelled in org.apache.paimon.CoreOptions.
const (
	OptionBucket                                = "bucket"
	OptionBucketKey                             = "bucket-key"
	OptionFileFormat                            = "file.format"
	OptionManifestFormat                        = "manifest.format"
	OptionMergeEngine                           = "merge-engine"
	OptionSequenceField                         = "sequence.field"
	OptionSequenceFieldSortOrder                = "sequence.field.sort-order"
	OptionIgnoreDelete                          = "ignore-delete"
	OptionPartialUpdateRemoveRecordOnDelete     = "partial-update.remove-record-on-delete"
	OptionFieldsDefaultAggregateFunction        = "fields.default-aggregate-function"
	OptionDeletionVectorsEnabled                = "deletion-vectors.enabled"
	OptionDeletionVectorsBitmap64               = "deletion-vectors.bitmap64"
	OptionPartitionDefaultName                  = "partition.default-name"
	OptionPartitionLegacyName                   = "partition.legacy-name"
	OptionDataFilePrefix                        = "data-file.prefix"
	OptionChangelogFilePrefix                   = "changelog-file.prefix"
	OptionChangelogProducer                     = "changelog-producer"
	OptionWriteOnly                             = "write-only"
	OptionTargetFileSize                        = "target-file-size"
	OptionWriteBufferSize                       = "write-buffer-size"
	OptionCommitMaxRetries                      = "commit.max-retries"
	OptionCommitTimeout                         = "commit.timeout"
	OptionCommitMinRetryWait                    = "commit.min-retry-wait"
	OptionCommitMaxRetryWait                    = "commit.max-retry-wait"
	OptionManifestTargetFileSize                = "manifest.target-file-size"
	OptionManifestMergeMinCount                 = "manifest.merge-min-count"
	OptionNumSortedRunCompactionTrigger         = "num-sorted-run.compaction-trigger"
	OptionNumSortedRunStopTrigger               = "num-sorted-run.stop-trigger"
	OptionNumLevels                             = "num-levels"
	OptionCompactionMaxSizeAmplificationPercent = "compaction.max-size-amplification-percent"
	OptionCompactionSizeRatio                   = "compaction.size-ratio"
	OptionSnapshotNumRetainedMin                = "snapshot.num-retained.min"
	OptionSnapshotNumRetainedMax                = "snapshot.num-retained.max"
	OptionSnapshotTimeRetained                  = "snapshot.time-retained"
	OptionSnapshotExpireLimit                   = "snapshot.expire.limit"
	OptionSourceSplitTargetSize                 = "source.split.target-size"
	OptionSourceSplitOpenFileCost               = "source.split.open-file-cost"
	OptionScanMode                              = "scan.mode"
	OptionScanSnapshotID                        = "scan.snapshot-id"
	OptionScanTagName                           = "scan.tag-name"
	OptionScanTimestamp                         = "scan.timestamp"
	OptionScanTimestampMillis                   = "scan.timestamp-millis"
	OptionScanVersion                           = "scan.version"
	OptionScanWatermark                         = "scan.watermark"
	OptionDataEvolutionEnabled                  = "data-evolution.enabled"
	OptionRowTrackingEnabled                    = "row-tracking.enabled"
	OptionDynamicPartitionOverwrite             = "dynamic-partition-overwrite"
)

// Suffixes of per-field options "fields.<field>.<suffix>"; see FieldOptionKey.
const (
	FieldOptionAggregateFunction = "aggregate-function"
	FieldOptionSequenceGroup     = "sequence-group"
	FieldOptionIgnoreRetract     = "ignore-retract"
)

// FieldOptionKey returns the key of a per-field option, e.g.
// FieldOptionKey("price", FieldOptionAggregateFunction) is
// "fields.price.aggregate-function".
func FieldOptionKey(field, suffix string) string {
	return "fields." + field + "." + suffix
}

// Option defaults that are not simple literals in the accessors below.
const (
	defaultPartitionName       = "__DEFAULT_PARTITION__"
	primaryKeyTargetFileSize   = 128 << 20
	appendOnlyTargetFileSize   = 256 << 20
	sortedRunStopTriggerMargin = 3
)

// CoreOptions is a typed, read-only view of a table's options with Java's
// defaults. Mirrors org.apache.paimon.CoreOptions. Accessors of parsed
// values return an error naming the key when the stored value is not
// valid; it wraps lakeerr.ErrCorruption, since Java cannot read such a
// table either.
type CoreOptions struct {
	options map[string]string
}

// NewCoreOptions wraps an options map; the map is not copied.
func NewCoreOptions(options map[string]string) CoreOptions {
	return CoreOptions{options: options}
}

// CoreOptions returns the typed view of the schema's options.
func (s *TableSchema) CoreOptions() CoreOptions {
	return NewCoreOptions(s.Options)
}

// Get returns the raw value of key.
func (o CoreOptions) Get(key string) (string, bool) {
	v, ok := o.options[key]
	return v, ok
}

// lookup returns the value of key, else of the first fallback key present
// (Java's ConfigOption.withFallbackKeys), with the key it was found under.
func (o CoreOptions) lookup(key string, fallbacks ...string) (string, string, bool) {
	if v, ok := o.options[key]; ok {
		return v, key, true
	}
	for _, k := range fallbacks {
		if v, ok := o.options[k]; ok {
			return v, k, true
		}
	}
	return "", key, false
}

func invalidOption(key, value string, err error) error {
	return fmt.Errorf("%w: table option %q = %q: %v", lakeerr.ErrCorruption, key, value, err)
}

func (o CoreOptions) stringOption(key, def string) string {
	if v, ok := o.options[key]; ok {
		return v
	}
	return def
}

// intOption parses a Java int as Integer.parseInt does.
func (o CoreOptions) intOption(key string, def int) (int, error) {
	v, ok := o.options[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, invalidOption(key, v, fmt.Errorf("not a 32-bit integer"))
	}
	return int(n), nil
}

// optionalLong parses a Java long, or returns nil when the key is unset.
func (o CoreOptions) optionalLong(key string, fallbacks ...string) (*int64, error) {
	v, found, ok := o.lookup(key, fallbacks...)
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, invalidOption(found, v, fmt.Errorf("not a 64-bit integer"))
	}
	return &n, nil
}

// boolOption parses "true" or "false" in any case, as Java does.
func (o CoreOptions) boolOption(def bool, key string, fallbacks ...string) (bool, error) {
	v, found, ok := o.lookup(key, fallbacks...)
	if !ok {
		return def, nil
	}
	switch strings.ToUpper(v) {
	case "TRUE":
		return true, nil
	case "FALSE":
		return false, nil
	}
	return false, invalidOption(found, v, fmt.Errorf("not true or false"))
}

func (o CoreOptions) memoryOption(key string, def int64) (int64, error) {
	v, ok := o.options[key]
	if !ok {
		return def, nil
	}
	n, err := ParseMemorySize(v)
	if err != nil {
		return 0, invalidOption(key, v, err)
	}
	return n, nil
}

func (o CoreOptions) durationOption(key string, def time.Duration) (time.Duration, error) {
	v, ok := o.options[key]
	if !ok {
		return def, nil
	}
	d, err := ParseDuration(v)
	if err != nil {
		return 0, invalidOption(key, v, err)
	}
	return d, nil
}

// enumOption matches the value case-insensitively against the allowed
// values, as Java's OptionsUtils.convertToEnum does, and returns the
// canonical spelling. The first allowed value is the default.
func enumOption[T ~string](o CoreOptions, allowed []T, key string, fallbacks ...string) (T, error) {
	def := allowed[0]
	v, found, ok := o.lookup(key, fallbacks...)
	if !ok {
		return def, nil
	}
	for _, a := range allowed {
		if strings.EqualFold(string(a), v) {
			return a, nil
		}
	}
	return def, invalidOption(found, v, fmt.Errorf("not one of %v", allowed))
}

// splitTrimmedList splits a comma-separated field list and trims each name.
func splitTrimmedList(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// addSaturating adds like Java's MathUtils.addSafely: it stops at the int
// range instead of wrapping.
func addSaturating(a, b int) int {
	sum := int64(a) + int64(b)
	return int(max(min(sum, math.MaxInt32), math.MinInt32))
}

// sortedOptionKeys returns the keys of m in order.
func sortedOptionKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
