package compact

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/compact/pick"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Compaction options package spec has no accessor for, spelled as in
// org.apache.paimon.CoreOptions.
const (
	optionSmallFileRatio           = "compaction.small-file-ratio"
	optionMinFileNum               = "compaction.min.file-num"
	optionForceRewriteAllFiles     = "compaction.force-rewrite-all-files"
	optionForceUpLevel0            = "compaction.force-up-level-0"
	optionForceLookup              = "force-lookup"
	optionTotalSizeThreshold       = "compaction.total-size-threshold"
	optionIncrementalSizeThreshold = "compaction.incremental-size-threshold"
	optionOffPeakStartHour         = "compaction.offpeak.start.hour"
	optionOffPeakEndHour           = "compaction.offpeak.end.hour"
	optionOffPeakRatio             = "compaction.offpeak-ratio"
	optionRecordLevelExpireTime    = "record-level.expire-time"

	defaultSmallFileRatio = 0.7
	defaultMinFileNum     = 5
)

// tableConfig is what a compaction derives from the table's latest schema.
type tableConfig struct {
	schema     *spec.TableSchema
	primaryKey bool
	// unaware is set for bucket-unaware append tables (bucket = -1).
	unaware bool
	// deletionVectors is set for tables with deletion vectors: compacted
	// files leave their vectors behind, and primary-key tables mark the
	// records their compaction replaces (lookup.go).
	deletionVectors bool

	// uniqueKeys is set for first-row tables and primary-key tables with
	// deletion vectors, whose levels above 0 must not repeat a live key
	// (lookup.go).
	uniqueKeys bool
	// firstRow is set for first-row tables, whose compaction drops a new
	// record of a key a kept level holds, deletion vectors or not.
	firstRow bool
	// mergesKept is set for partial-update and aggregation tables with
	// deletion vectors: a key's record in a level the compaction leaves
	// in place is merged into the key's new record (lookup.go).
	mergesKept bool

	universal       pick.Universal // NumLevels is the configured minimum
	forceRewriteAll bool
	// compactionFileSize is target-file-size times
	// compaction.small-file-ratio: smaller files of a non-overlapping
	// section are rewritten with their neighbours instead of upgraded.
	compactionFileSize int64
	bucketedAppend     pick.BucketedAppend
	unawareAppend      pick.UnawareAppend
}

// newTableConfig reads the compaction options of s; now decides whether
// the off-peak size ratio applies.
func newTableConfig(s *spec.TableSchema, now time.Time) (*tableConfig, error) {
	c := &tableConfig{schema: s, primaryKey: len(s.PrimaryKeys) > 0}
	o := s.CoreOptions()
	if err := checkCompactable(o, c.primaryKey); err != nil {
		return nil, err
	}
	buckets, err := o.Bucket()
	if err != nil {
		return nil, err
	}
	c.unaware = buckets == -1 && !c.primaryKey
	if c.deletionVectors, err = o.DeletionVectorsEnabled(); err != nil {
		return nil, err
	}
	target, err := o.TargetFileSize(c.primaryKey)
	if err != nil {
		return nil, err
	}
	ratio, err := floatOption(o, optionSmallFileRatio, defaultSmallFileRatio)
	if err != nil {
		return nil, err
	}
	c.compactionFileSize = int64(float64(target) * ratio)
	if c.forceRewriteAll, err = boolOption(o, optionForceRewriteAllFiles, false); err != nil {
		return nil, err
	}
	if err := c.readAppendOptions(o, target); err != nil {
		return nil, err
	}
	if c.primaryKey {
		engine, err := o.MergeEngine()
		if err != nil {
			return nil, err
		}
		c.firstRow = engine == spec.MergeEngineFirstRow
		c.uniqueKeys = c.firstRow || c.deletionVectors
		c.mergesKept = c.deletionVectors && (engine == spec.MergeEnginePartialUpdate || engine == spec.MergeEngineAggregation)
		return c, c.readUniversalOptions(o, now)
	}
	return c, nil
}

// checkCompactable refuses tables whose compaction must produce more than
// data files, or must drop rows it cannot see.
func checkCompactable(o spec.CoreOptions, primaryKey bool) error {
	if on, err := o.RowTrackingEnabled(); err != nil || on {
		return orUnsupported(err, "a row-tracking table: its compaction must keep row ids")
	}
	if on, err := o.DataEvolutionEnabled(); err != nil || on {
		return orUnsupported(err, "a data-evolution table: its compaction must keep row ids")
	}
	if v, ok := o.Get(optionRecordLevelExpireTime); ok && v != "" {
		return unsupported("record-level.expire-time: its compaction drops expired records")
	}
	buckets, err := o.Bucket()
	if err != nil {
		return err
	}
	if buckets == -2 {
		return unsupported("a postpone-bucket table (bucket = -2)")
	}
	if !primaryKey {
		return nil
	}
	if buckets == -1 {
		return unsupported("a dynamic-bucket table (bucket = -1)")
	}
	producer, err := o.ChangelogProducer()
	if err != nil {
		return err
	}
	if producer == spec.ChangelogProducerLookup || producer == spec.ChangelogProducerFullCompaction {
		return unsupported(fmt.Sprintf("changelog-producer = %s: its compaction produces changelog files", producer))
	}
	return nil
}

func orUnsupported(err error, feature string) error {
	if err != nil {
		return err
	}
	return unsupported(feature)
}

func unsupported(feature string) error {
	return fmt.Errorf("%w: lakesql cannot compact %s", lakeerr.ErrUnsupported, feature)
}

func (c *tableConfig) readAppendOptions(o spec.CoreOptions, target int64) error {
	minFiles, err := intOption(o, optionMinFileNum, defaultMinFileNum)
	if err != nil {
		return err
	}
	openCost, err := o.SourceSplitOpenFileCost()
	if err != nil {
		return err
	}
	c.bucketedAppend = pick.BucketedAppend{MinFileNum: minFiles, TargetFileSize: target}
	c.unawareAppend = pick.UnawareAppend{TargetFileSize: target, CompactionFileSize: c.compactionFileSize,
		OpenFileCost: openCost, MinFileNum: minFiles}
	return nil
}

func (c *tableConfig) readUniversalOptions(o spec.CoreOptions, now time.Time) error {
	u := &c.universal
	var err error
	if u.NumLevels, err = o.NumLevels(); err != nil {
		return err
	}
	if u.Trigger, err = o.NumSortedRunCompactionTrigger(); err != nil {
		return err
	}
	if u.MaxSizeAmplificationPercent, err = o.CompactionMaxSizeAmplificationPercent(); err != nil {
		return err
	}
	if u.SizeRatio, err = o.CompactionSizeRatio(); err != nil {
		return err
	}
	if u.OffPeakRatio, err = offPeakRatio(o, now.Hour()); err != nil {
		return err
	}
	if u.ForceUpLevel0, err = forceUpLevel0(o); err != nil {
		return err
	}
	if u.TotalSizeThreshold, err = memoryOption(o, optionTotalSizeThreshold); err != nil {
		return err
	}
	u.IncrementalSizeThreshold, err = memoryOption(o, optionIncrementalSizeThreshold)
	return err
}

// forceUpLevel0 mirrors CoreOptions.needLookup for the tables lakesql
// compacts (first-row, deletion vectors, force-lookup) plus
// compaction.force-up-level-0:
// their level-0 files are moved up even when no size rule fires. Java's
// lookup-compact = gentle does this only every few triggers, which needs
// state across compactions; lakesql does it every time.
func forceUpLevel0(o spec.CoreOptions) (bool, error) {
	engine, err := o.MergeEngine()
	if err != nil {
		return false, err
	}
	if engine == spec.MergeEngineFirstRow {
		return true, nil
	}
	if dv, err := o.DeletionVectorsEnabled(); err != nil || dv {
		return dv, err
	}
	for _, key := range []string{optionForceLookup, optionForceUpLevel0} {
		on, err := boolOption(o, key, false)
		if err != nil || on {
			return on, err
		}
	}
	return false, nil
}

// offPeakRatio is compaction.offpeak-ratio during the off-peak hours
// [start, end) of the local clock, which may wrap past midnight; 0 outside
// them or when the hours are unset or equal (OffPeakHours).
func offPeakRatio(o spec.CoreOptions, hour int) (int, error) {
	start, err := intOption(o, optionOffPeakStartHour, -1)
	if err != nil {
		return 0, err
	}
	end, err := intOption(o, optionOffPeakEndHour, -1)
	if err != nil {
		return 0, err
	}
	if start < 0 || end < 0 || start == end {
		return 0, nil
	}
	ratio, err := intOption(o, optionOffPeakRatio, 0)
	if err != nil {
		return 0, err
	}
	inside := start <= hour && hour < end
	if start > end {
		inside = hour >= start || hour < end
	}
	if inside {
		return ratio, nil
	}
	return 0, nil
}

func intOption(o spec.CoreOptions, key string, def int) (int, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, optionError(key, v, "an integer")
	}
	return n, nil
}

func floatOption(o spec.CoreOptions, key string, def float64) (float64, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, optionError(key, v, "a number")
	}
	return f, nil
}

func boolOption(o spec.CoreOptions, key string, def bool) (bool, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, optionError(key, v, "true or false")
}

// memoryOption reads an optional memory size; 0 when unset.
func memoryOption(o spec.CoreOptions, key string) (int64, error) {
	v, ok := o.Get(key)
	if !ok {
		return 0, nil
	}
	n, err := spec.ParseMemorySize(v)
	if err != nil {
		return 0, optionError(key, v, "a memory size")
	}
	return n, nil
}

func optionError(key, value, want string) error {
	return fmt.Errorf("%w: table option %q = %q is not %s", lakeerr.ErrCorruption, key, value, want)
}
