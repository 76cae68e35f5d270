package spec

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// expect returns a checker for the (value, error) result of an accessor.
func expectOption[T comparable](t *testing.T, name string, want T) func(T, error) {
	return func(got T, err error) {
		t.Helper()
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", name, got, err, want)
		}
	}
}

// TestCoreOptionsDefaults checks the Java defaults of an empty option map.
func TestCoreOptionsDefaults(t *testing.T) {
	o := NewCoreOptions(nil)
	expectOption(t, "Bucket", -1)(o.Bucket())
	expectOption(t, "CommitMaxRetries", 10)(o.CommitMaxRetries())
	expectOption(t, "ManifestMergeMinCount", 30)(o.ManifestMergeMinCount())
	expectOption(t, "NumSortedRunCompactionTrigger", 5)(o.NumSortedRunCompactionTrigger())
	expectOption(t, "NumSortedRunStopTrigger", 8)(o.NumSortedRunStopTrigger())
	expectOption(t, "NumLevels", 6)(o.NumLevels())
	expectOption(t, "CompactionMaxSizeAmplificationPercent", 200)(o.CompactionMaxSizeAmplificationPercent())
	expectOption(t, "CompactionSizeRatio", 1)(o.CompactionSizeRatio())
	expectOption(t, "SnapshotNumRetainedMin", 10)(o.SnapshotNumRetainedMin())
	expectOption(t, "SnapshotNumRetainedMax", math.MaxInt32)(o.SnapshotNumRetainedMax())
	expectOption(t, "SnapshotExpireLimit", 50)(o.SnapshotExpireLimit())
	expectOption(t, "TargetFileSize(pk)", int64(128<<20))(o.TargetFileSize(true))
	expectOption(t, "TargetFileSize(append)", int64(256<<20))(o.TargetFileSize(false))
	expectOption(t, "WriteBufferSize", int64(256<<20))(o.WriteBufferSize())
	expectOption(t, "ManifestTargetFileSize", int64(8<<20))(o.ManifestTargetFileSize())
	expectOption(t, "SourceSplitTargetSize", int64(128<<20))(o.SourceSplitTargetSize())
	expectOption(t, "SourceSplitOpenFileCost", int64(4<<20))(o.SourceSplitOpenFileCost())
	expectOption(t, "CommitMinRetryWait", 10*time.Millisecond)(o.CommitMinRetryWait())
	expectOption(t, "CommitMaxRetryWait", 10*time.Second)(o.CommitMaxRetryWait())
	expectOption(t, "SnapshotTimeRetained", time.Hour)(o.SnapshotTimeRetained())
	if _, limited, err := o.CommitTimeout(); limited || err != nil {
		t.Errorf("CommitTimeout default limited=%v err=%v", limited, err)
	}
	expectOption(t, "MergeEngine", MergeEngineDeduplicate)(o.MergeEngine())
	expectOption(t, "ChangelogProducer", ChangelogProducerNone)(o.ChangelogProducer())
	expectOption(t, "SequenceFieldSortOrder", SortOrderAscending)(o.SequenceFieldSortOrder())
	expectOption(t, "ScanMode", StartupModeDefault)(o.ScanMode())
}

func TestCoreOptionsStringAndBoolDefaults(t *testing.T) {
	o := NewCoreOptions(map[string]string{})
	strs := []string{o.FileFormat(), o.ManifestFormat(), o.PartitionDefaultName(), o.DataFilePrefix(), o.ChangelogFilePrefix()}
	if !reflect.DeepEqual(strs, []string{"parquet", "avro", "__DEFAULT_PARTITION__", "data-", "changelog-"}) {
		t.Errorf("string defaults = %v", strs)
	}
	expectOption(t, "IgnoreDelete", false)(o.IgnoreDelete())
	expectOption(t, "PartialUpdateRemoveRecordOnDelete", false)(o.PartialUpdateRemoveRecordOnDelete())
	expectOption(t, "DeletionVectorsEnabled", false)(o.DeletionVectorsEnabled())
	expectOption(t, "DeletionVectorsBitmap64", false)(o.DeletionVectorsBitmap64())
	expectOption(t, "PartitionLegacyName", true)(o.PartitionLegacyName())
	expectOption(t, "WriteOnly", false)(o.WriteOnly())
	expectOption(t, "DataEvolutionEnabled", false)(o.DataEvolutionEnabled())
	expectOption(t, "RowTrackingEnabled", false)(o.RowTrackingEnabled())
	expectOption(t, "DynamicPartitionOverwrite", true)(o.DynamicPartitionOverwrite())
	expectOption(t, "FieldIgnoreRetract", false)(o.FieldIgnoreRetract("f"))
	if o.BucketKey() != nil || o.SequenceField() != nil || o.SequenceGroups() != nil {
		t.Error("list options must default to nil")
	}
	if id, err := o.ScanSnapshotID(); id != nil || err != nil {
		t.Errorf("ScanSnapshotID = %v, %v", id, err)
	}
}

// TestCoreOptionsFromFixture reads the options of Java-written schemas.
func TestCoreOptionsFromFixture(t *testing.T) {
	s, err := DecodeSchema(readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "schema/schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	o := s.CoreOptions()
	if bucket, err := o.Bucket(); bucket != 2 || err != nil {
		t.Errorf("Bucket = %d, %v", bucket, err)
	}
	if !reflect.DeepEqual(o.BucketKey(), []string{"f2"}) || o.FileFormat() != "parquet" || o.ManifestFormat() != "avro" {
		t.Errorf("bucket-key %v, formats %s %s", o.BucketKey(), o.FileFormat(), o.ManifestFormat())
	}
	golden, err := DecodeSchema(readTableFixture(t, "paimon-java-dv-golden/test_pk_global_index_golden", "schema/schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	g := golden.CoreOptions()
	dv, _ := g.DeletionVectorsEnabled()
	trigger, _ := g.NumSortedRunCompactionTrigger()
	stop, _ := g.NumSortedRunStopTrigger()
	levels, _ := g.NumLevels()
	if !dv || trigger != 2 || stop != 5 || levels != 3 {
		t.Errorf("golden: dv=%v trigger=%d stop=%d levels=%d", dv, trigger, stop, levels)
	}
}

func TestCoreOptionsParsedValues(t *testing.T) {
	o := NewCoreOptions(map[string]string{
		OptionMergeEngine:             "PARTIAL-UPDATE",
		OptionChangelogProducer:       "lookup",
		OptionSequenceField:           "ts, seq",
		OptionSequenceFieldSortOrder:  "Descending",
		"deduplicate.ignore-delete":   "TRUE",
		"write.compaction-skip":       "true",
		OptionTargetFileSize:          "64 kb",
		OptionCommitTimeout:           "30 min",
		OptionNumSortedRunStopTrigger: "3",
		OptionFileFormat:              "ORC",
		"fields.price.ignore-retract": "true",
		"log.scan.timestamp-millis":   "1700000000000",
		"log.scan":                    "from-snapshot",
	})
	expectOption(t, "MergeEngine", MergeEnginePartialUpdate)(o.MergeEngine())
	expectOption(t, "ChangelogProducer", ChangelogProducerLookup)(o.ChangelogProducer())
	expectOption(t, "SequenceFieldSortOrder", SortOrderDescending)(o.SequenceFieldSortOrder())
	expectOption(t, "IgnoreDelete (fallback key)", true)(o.IgnoreDelete())
	expectOption(t, "WriteOnly (fallback key)", true)(o.WriteOnly())
	expectOption(t, "TargetFileSize", int64(64<<10))(o.TargetFileSize(true))
	expectOption(t, "NumSortedRunStopTrigger (never below the trigger)", 5)(o.NumSortedRunStopTrigger())
	expectOption(t, "FieldIgnoreRetract", true)(o.FieldIgnoreRetract("price"))
	expectOption(t, "ScanMode (fallback key)", StartupModeFromSnapshot)(o.ScanMode())
	if timeout, limited, err := o.CommitTimeout(); timeout != 30*time.Minute || !limited || err != nil {
		t.Errorf("CommitTimeout = %v, %v, %v", timeout, limited, err)
	}
	if millis, err := o.ScanTimestampMillis(); err != nil || *millis != 1700000000000 {
		t.Errorf("ScanTimestampMillis = %v, %v", millis, err)
	}
	if o.FileFormat() != "orc" || !reflect.DeepEqual(o.SequenceField(), []string{"ts", "seq"}) {
		t.Errorf("FileFormat %q, SequenceField %q", o.FileFormat(), o.SequenceField())
	}
}

func TestCoreOptionsPerFieldAndScanKeys(t *testing.T) {
	o := NewCoreOptions(map[string]string{
		"fields.g_1,g_2.sequence-group":      "a,b",
		"fields.g_3.sequence-group":          "c",
		"fields.price.aggregate-function":    "sum",
		OptionFieldsDefaultAggregateFunction: "last_value",
		OptionScanSnapshotID:                 "4",
		OptionScanTagName:                    "t1",
		OptionScanVersion:                    "t1",
		OptionScanTimestamp:                  "2024-01-02 03:04:05",
		OptionScanWatermark:                  "77",
	})
	wantGroups := []SequenceGroup{{[]string{"g_1", "g_2"}, []string{"a", "b"}}, {[]string{"g_3"}, []string{"c"}}}
	if !reflect.DeepEqual(o.SequenceGroups(), wantGroups) {
		t.Errorf("SequenceGroups = %v", o.SequenceGroups())
	}
	expectSet := expectOption[string]
	present := func(v string, ok bool) (string, error) {
		if !ok {
			return "", errors.New("unset")
		}
		return v, nil
	}
	expectSet(t, "FieldAggregateFunction", "sum")(present(o.FieldAggregateFunction("price")))
	expectSet(t, "FieldsDefaultAggregateFunction", "last_value")(present(o.FieldsDefaultAggregateFunction()))
	expectSet(t, "ScanTagName", "t1")(present(o.ScanTagName()))
	expectSet(t, "ScanVersion", "t1")(present(o.ScanVersion()))
	expectSet(t, "ScanTimestamp", "2024-01-02 03:04:05")(present(o.ScanTimestamp()))
	id, err := o.ScanSnapshotID()
	watermark, werr := o.ScanWatermark()
	if err != nil || werr != nil || *id != 4 || *watermark != 77 {
		t.Errorf("ScanSnapshotID = %v, %v; ScanWatermark = %v, %v", id, err, watermark, werr)
	}
}

func TestCoreOptionsInvalidValues(t *testing.T) {
	tests := []struct {
		key, value string
		read       func(CoreOptions) error
	}{
		{OptionBucket, "four", func(o CoreOptions) error { _, err := o.Bucket(); return err }},
		{OptionBucket, "4294967296", func(o CoreOptions) error { _, err := o.Bucket(); return err }},
		{OptionDeletionVectorsEnabled, "yes", func(o CoreOptions) error { _, err := o.DeletionVectorsEnabled(); return err }},
		{OptionMergeEngine, "partial_update", func(o CoreOptions) error { _, err := o.MergeEngine(); return err }},
		{OptionWriteBufferSize, "256 megabytes", func(o CoreOptions) error { _, err := o.WriteBufferSize(); return err }},
		{OptionSnapshotTimeRetained, "1 fortnight", func(o CoreOptions) error { _, err := o.SnapshotTimeRetained(); return err }},
		{OptionScanSnapshotID, "latest", func(o CoreOptions) error { _, err := o.ScanSnapshotID(); return err }},
		{OptionNumSortedRunCompactionTrigger, "x", func(o CoreOptions) error { _, err := o.NumLevels(); return err }},
		{"first-row.ignore-delete", "maybe", func(o CoreOptions) error { _, err := o.IgnoreDelete(); return err }},
	}
	for _, tt := range tests {
		err := tt.read(NewCoreOptions(map[string]string{tt.key: tt.value}))
		if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), `"`+tt.key+`"`) {
			t.Errorf("%s=%s: err = %v, want corruption naming the key", tt.key, tt.value, err)
		}
	}
}

func TestParseMemorySize(t *testing.T) {
	good := map[string]int64{
		"128 mb": 128 << 20, "256mb": 256 << 20, "64 kb": 64 << 10, "1024": 1024, "7b": 7, "3 bytes": 3,
		" 2 GB ": 2 << 30, "1t": 1 << 40, "5 mebibytes": 5 << 20, "0": 0, "8m": 8 << 20,
	}
	for in, want := range good {
		if got, err := ParseMemorySize(in); err != nil || got != want {
			t.Errorf("ParseMemorySize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "mb", "-1 mb", "1.5 mb", "12 pb", "9223372036854775807 kb", "99999999999999999999"} {
		if _, err := ParseMemorySize(in); err == nil {
			t.Errorf("ParseMemorySize(%q) succeeded", in)
		}
	}
}

func TestParseDuration(t *testing.T) {
	good := map[string]time.Duration{
		"1 h": time.Hour, "10 s": 10 * time.Second, "10 ms": 10 * time.Millisecond, "1 d": 24 * time.Hour,
		"30 min": 30 * time.Minute, "5m": 5 * time.Minute, "250": 250 * time.Millisecond, "2 Hours": 2 * time.Hour,
		"7 days": 7 * 24 * time.Hour, "3 µs": 3 * time.Microsecond, "9ns": 9, "1 seconds": time.Second,
	}
	for in, want := range good {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "h", "1.5 h", "-1 s", "1 week", "106752 d", "PT1H"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", in)
		}
	}
}
