package spec

import (
	"math"
	"time"
)

// This file holds the CoreOptions accessors for manifest merging,
// compaction, snapshot expiration, scan planning, time travel and row
// tracking.

// ManifestTargetFileSize is the suggested manifest file size in bytes.
func (o CoreOptions) ManifestTargetFileSize() (int64, error) {
	return o.memoryOption(OptionManifestTargetFileSize, 8<<20)
}

// ManifestMergeMinCount is the number of small manifests that triggers a
// merge of the manifest list.
func (o CoreOptions) ManifestMergeMinCount() (int, error) {
	return o.intOption(OptionManifestMergeMinCount, 30)
}

// NumSortedRunCompactionTrigger is the sorted-run count that triggers compaction.
func (o CoreOptions) NumSortedRunCompactionTrigger() (int, error) {
	return o.intOption(OptionNumSortedRunCompactionTrigger, 5)
}

// NumSortedRunStopTrigger is the sorted-run count that stalls writes:
// compaction trigger + 3 unless set, and never below the compaction trigger.
func (o CoreOptions) NumSortedRunStopTrigger() (int, error) {
	trigger, err := o.NumSortedRunCompactionTrigger()
	if err != nil {
		return 0, err
	}
	stop, err := o.intOption(OptionNumSortedRunStopTrigger, addSaturating(trigger, sortedRunStopTriggerMargin))
	return max(trigger, stop), err
}

// NumLevels is the number of LSM levels: compaction trigger + 1 unless set,
// so that compaction never has to write to level 0.
func (o CoreOptions) NumLevels() (int, error) {
	trigger, err := o.NumSortedRunCompactionTrigger()
	if err != nil {
		return 0, err
	}
	return o.intOption(OptionNumLevels, addSaturating(trigger, 1))
}

// CompactionMaxSizeAmplificationPercent bounds the extra storage, in
// percent, before a full compaction is forced.
func (o CoreOptions) CompactionMaxSizeAmplificationPercent() (int, error) {
	return o.intOption(OptionCompactionMaxSizeAmplificationPercent, 200)
}

// CompactionSizeRatio is the percentage flexibility when comparing sorted
// run sizes.
func (o CoreOptions) CompactionSizeRatio() (int, error) {
	return o.intOption(OptionCompactionSizeRatio, 1)
}

// SnapshotNumRetainedMin is the number of snapshots expiration always keeps.
func (o CoreOptions) SnapshotNumRetainedMin() (int, error) {
	return o.intOption(OptionSnapshotNumRetainedMin, 10)
}

// SnapshotNumRetainedMax is the number of snapshots beyond which expiration
// ignores snapshot.time-retained (unbounded by default).
func (o CoreOptions) SnapshotNumRetainedMax() (int, error) {
	return o.intOption(OptionSnapshotNumRetainedMax, math.MaxInt32)
}

// SnapshotTimeRetained is how long completed snapshots are kept.
func (o CoreOptions) SnapshotTimeRetained() (time.Duration, error) {
	return o.durationOption(OptionSnapshotTimeRetained, time.Hour)
}

// SnapshotExpireLimit is the most snapshots one expiration removes.
func (o CoreOptions) SnapshotExpireLimit() (int, error) {
	return o.intOption(OptionSnapshotExpireLimit, 50)
}

// SourceSplitTargetSize is the target size of a scan split in bytes.
func (o CoreOptions) SourceSplitTargetSize() (int64, error) {
	return o.memoryOption(OptionSourceSplitTargetSize, 128<<20)
}

// SourceSplitOpenFileCost is the size in bytes each file counts for at
// least when packing splits.
func (o CoreOptions) SourceSplitOpenFileCost() (int64, error) {
	return o.memoryOption(OptionSourceSplitOpenFileCost, 4<<20)
}

// ScanMode is scan.mode, read also from the legacy key log.scan.
func (o CoreOptions) ScanMode() (StartupMode, error) {
	return enumOption(o, []StartupMode{StartupModeDefault, StartupModeLatestFull, StartupModeFull,
		StartupModeLatest, StartupModeLatestDelta, StartupModeCompactedFull, StartupModeFromTimestamp,
		StartupModeFromCreationTimestamp, StartupModeFromFileCreationTime, StartupModeFromSnapshot,
		StartupModeFromSnapshotFull, StartupModeIncremental}, OptionScanMode, "log.scan")
}

// ScanSnapshotID is the snapshot a scan reads (time travel), or nil.
func (o CoreOptions) ScanSnapshotID() (*int64, error) { return o.optionalLong(OptionScanSnapshotID) }

// ScanTagName is the tag a scan reads (time travel).
func (o CoreOptions) ScanTagName() (string, bool) { return o.Get(OptionScanTagName) }

// ScanTimestamp is the timestamp string a scan travels to, e.g.
// "2024-01-02 03:04:05".
func (o CoreOptions) ScanTimestamp() (string, bool) { return o.Get(OptionScanTimestamp) }

// ScanTimestampMillis is the epoch-millisecond time a scan travels to, or
// nil; the legacy key log.scan.timestamp-millis is read too.
func (o CoreOptions) ScanTimestampMillis() (*int64, error) {
	return o.optionalLong(OptionScanTimestampMillis, "log.scan.timestamp-millis")
}

// ScanVersion is a tag name, snapshot id or timestamp to travel to, tried
// in that order by the reader.
func (o CoreOptions) ScanVersion() (string, bool) { return o.Get(OptionScanVersion) }

// ScanWatermark is the watermark a scan travels to, or nil.
func (o CoreOptions) ScanWatermark() (*int64, error) { return o.optionalLong(OptionScanWatermark) }

// DataEvolutionEnabled reports whether row-tracking tables may evolve
// columns by writing partial files.
func (o CoreOptions) DataEvolutionEnabled() (bool, error) {
	return o.boolOption(false, OptionDataEvolutionEnabled)
}

// RowTrackingEnabled reports whether append tables assign row ids.
func (o CoreOptions) RowTrackingEnabled() (bool, error) {
	return o.boolOption(false, OptionRowTrackingEnabled)
}

// DynamicPartitionOverwrite reports whether INSERT OVERWRITE of a
// partitioned table replaces only the partitions it writes.
func (o CoreOptions) DynamicPartitionOverwrite() (bool, error) {
	return o.boolOption(true, OptionDynamicPartitionOverwrite)
}
