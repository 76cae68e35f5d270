package spec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func mfGoldenDir() string {
	return filepath.Join(fixtures.TableDir("paimon-java-dv-golden/test_pk_global_index_golden"), "manifest")
}

func mfReadGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(mfGoldenDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// mfIntKeyRow is the serialized BinaryRow of a single INT key (doc 5.3).
func mfIntKeyRow(v byte) []byte {
	return []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, v, 0, 0, 0, 0, 0, 0, 0}
}

// mfEmptyRow is the serialized BinaryRow of arity 0.
var mfEmptyRow = []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

func mfInt64s(vs ...int64) []*int64 {
	out := make([]*int64, len(vs))
	for i := range vs {
		out[i] = &vs[i]
	}
	return out
}

func mfPtr[V any](v V) *V { return &v }

func TestDecodeGoldenManifestEntries(t *testing.T) {
	entries, err := DecodeManifestEntries(mfReadGolden(t, "manifest-47606e25-ccef-4a80-9c04-8bd4988af3c1-0"))
	if err != nil {
		t.Fatal(err)
	}
	minValues := append([]byte{0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0},
		"name-5\x00\x86even\x00\x00\x00\x84"...)
	created := time.Date(2026, 7, 16, 22, 43, 39, 714e6, time.UTC)
	want := []ManifestEntry{{
		Kind: FileKindAdd, Partition: mfEmptyRow, Bucket: 0, TotalBuckets: 1,
		File: DataFileMeta{
			FileName: "data-247786b6-227a-4ded-acd5-85708fc3327a-0.parquet",
			FileSize: 1332, RowCount: 2, MinKey: mfIntKeyRow(5), MaxKey: mfIntKeyRow(6),
			KeyStats:          SimpleStats{MinValues: mfIntKeyRow(5), MaxValues: mfIntKeyRow(6), NullCounts: mfInt64s(0)},
			ValueStats:        SimpleStats{MinValues: minValues, MaxValues: mfGoldenValueStatsMax(), NullCounts: mfInt64s(0, 0, 0)},
			MinSequenceNumber: 4, MaxSequenceNumber: 5, SchemaID: 0, Level: 0,
			ExtraFiles: []string{}, CreationTime: &created, DeleteRowCount: mfPtr[int64](0),
			FileSource: mfPtr(FileSourceAppend),
		},
	}}
	if !reflect.DeepEqual(entries, want) {
		t.Fatalf("got  %+v\nwant %+v", entries, want)
	}
}

func mfGoldenValueStatsMax() []byte {
	return append([]byte{0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0},
		"name-6\x00\x86odd\x00\x00\x00\x00\x83"...)
}

// The full compaction of snapshot 3 deletes two files and adds their merge.
func TestDecodeGoldenCompactionManifest(t *testing.T) {
	entries, err := DecodeManifestEntries(mfReadGolden(t, "manifest-be69d15d-798b-45ec-ba50-6e9f088319c7-1"))
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		kind           FileKind
		file           string
		rows           int64
		level          int32
		minKey, maxKey byte
		source         FileSource
	}
	var got []summary
	for _, e := range entries {
		f := e.File
		got = append(got, summary{e.Kind, f.FileName, f.RowCount, f.Level, f.MinKey[12], f.MaxKey[12], *f.FileSource})
	}
	want := []summary{
		{FileKindDelete, "data-70baee15-65ce-4e4c-a961-faf94f0388cd-0.parquet", 2, 2, 1, 2, FileSourceAppend},
		{FileKindDelete, "data-aea3eab0-ac3e-4bcb-87a6-d1dd92df3d60-0.parquet", 2, 0, 3, 4, FileSourceAppend},
		{FileKindAdd, "data-1204a156-ccd1-48bf-96e6-31ac2028e91a-0.parquet", 4, 2, 1, 4, FileSourceCompact},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestDecodeGoldenManifestList(t *testing.T) {
	metas, err := DecodeManifestList(mfReadGolden(t, "manifest-list-5e07ff5a-eeb7-49ef-8769-c73b058ae171-3"))
	if err != nil {
		t.Fatal(err)
	}
	want := []ManifestFileMeta{{
		FileName: "manifest-47606e25-ccef-4a80-9c04-8bd4988af3c1-1", FileSize: 2130,
		NumAddedFiles: 1, NumDeletedFiles: 1,
		PartitionStats: SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow, NullCounts: []*int64{}},
		SchemaID:       0, MinBucket: mfPtr[int32](0), MaxBucket: mfPtr[int32](0),
		MinLevel: mfPtr[int32](0), MaxLevel: mfPtr[int32](1),
	}}
	if !reflect.DeepEqual(metas, want) {
		t.Fatalf("got  %+v\nwant %+v", metas, want)
	}
	// The first snapshot's base manifest list has no records.
	empty, err := DecodeManifestList(mfReadGolden(t, "manifest-list-fc40d98d-57e5-4aec-9cc5-7c647c40eb30-0"))
	if err != nil || len(empty) != 0 {
		t.Fatalf("empty manifest list: %v, %v", empty, err)
	}
}

// The Paimon <= 0.8 shape: snappy, ["null", record] top level and nullable
// nested records, no _FILE_SOURCE. Values as asserted by paimon-rust.
func TestDecodeLegacyManifest(t *testing.T) {
	data, err := os.ReadFile("testdata/manifest-legacy/manifest-8ded1f09-fcda-489e-9167-582ac0f9f846-0")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := DecodeManifestEntries(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("got %d entries", len(entries))
	}
	stats := []byte{0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 49, 0, 0, 0, 0, 0, 0, 129, 1, 0, 0, 0, 0, 0, 0, 0}
	created := time.Date(2024, 9, 6, 7, 45, 55, 39e6, time.UTC)
	want := ManifestEntry{
		Kind: FileKindDelete, Partition: mfIntKeyRow(1), Bucket: 1, TotalBuckets: 10,
		File: DataFileMeta{
			FileName: "f1.parquet", FileSize: 10, RowCount: 100, MinKey: mfIntKeyRow(1), MaxKey: mfIntKeyRow(1),
			KeyStats:          SimpleStats{MinValues: stats, MaxValues: stats, NullCounts: mfInt64s(1, 2)},
			ValueStats:        SimpleStats{MinValues: stats, MaxValues: stats, NullCounts: mfInt64s(1, 2)},
			MinSequenceNumber: 1, MaxSequenceNumber: 100, SchemaID: 0, Level: 1,
			ExtraFiles: []string{}, CreationTime: &created, DeleteRowCount: mfPtr[int64](0),
		},
	}
	if !reflect.DeepEqual(entries[0], want) {
		t.Fatalf("got  %+v\nwant %+v", entries[0], want)
	}
	if e := entries[1]; e.Kind != FileKindAdd || e.Bucket != 2 || e.File.FileName != "f2.parquet" {
		t.Fatalf("second entry: %+v", e)
	}
}

func TestDecodeLegacyManifestList(t *testing.T) {
	data, err := os.ReadFile("testdata/manifest-legacy/manifest-list-5c7399a0-46ae-4a5e-9c13-3ab07212cdb6-0")
	if err != nil {
		t.Fatal(err)
	}
	metas, err := DecodeManifestList(data)
	if err != nil {
		t.Fatal(err)
	}
	stats := []byte{0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 49, 0, 0, 0, 0, 0, 0, 129}
	want := []ManifestFileMeta{
		{FileName: "manifest-19d138df-233f-46f7-beb6-fadaf4741c0e", FileSize: 10, NumAddedFiles: 10, NumDeletedFiles: 10,
			PartitionStats: SimpleStats{MinValues: stats, MaxValues: stats, NullCounts: mfInt64s(1, 2)}, SchemaID: 1},
		{FileName: "manifest-a703ee48-c411-413e-b84e-c03bdb179631", FileSize: 11, NumAddedFiles: 0, NumDeletedFiles: 10,
			PartitionStats: SimpleStats{MinValues: stats, MaxValues: stats, NullCounts: mfInt64s(1, 2)}, SchemaID: 2},
	}
	if !reflect.DeepEqual(metas, want) {
		t.Fatalf("got  %+v\nwant %+v", metas, want)
	}
}

// mfAvroHeader returns a container's magic and metadata, without the random
// sync marker that ends the header.
func mfAvroHeader(t *testing.T, data []byte) []byte {
	t.Helper()
	end, _ := avroTestHeaderEnd(t, data)
	return data[:end-avroSyncSize]
}

// Our headers are byte-identical to Java's: same schema text (defaults
// included), same codec, same metadata order.
func TestEncoderHeaderMatchesJava(t *testing.T) {
	cases := []struct {
		file   string
		encode func([]byte) ([]byte, error)
	}{
		{"manifest-list-5e07ff5a-eeb7-49ef-8769-c73b058ae171-2", mfReencode(DecodeManifestList, EncodeManifestList)},
		{"manifest-47606e25-ccef-4a80-9c04-8bd4988af3c1-0", mfReencode(DecodeManifestEntries, EncodeManifestEntries)},
		{"index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0", mfReencode(DecodeIndexManifest, EncodeIndexManifest)},
	}
	for _, c := range cases {
		java := mfReadGolden(t, c.file)
		ours, err := c.encode(java)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mfAvroHeader(t, java), mfAvroHeader(t, ours)) {
			t.Errorf("%s: header differs:\njava: %q\nours: %q", c.file, mfAvroHeader(t, java), mfAvroHeader(t, ours))
		}
		if mfCanonicalJSON(t, mfWriterSchema(t, java)) != mfCanonicalJSON(t, mfWriterSchema(t, ours)) {
			t.Errorf("%s: schemas differ after normalisation", c.file)
		}
	}
}

// Our records are byte-identical to Java's too: nullable fields are
// ["null", T] unions written with branch 0 or 1, arrays one block of items.
func TestEncoderRecordsMatchJava(t *testing.T) {
	cases := []struct {
		file   string
		encode func([]byte) ([]byte, error)
	}{
		{"manifest-list-5e07ff5a-eeb7-49ef-8769-c73b058ae171-3", mfReencode(DecodeManifestList, EncodeManifestList)},
		{"manifest-be69d15d-798b-45ec-ba50-6e9f088319c7-1", mfReencode(DecodeManifestEntries, EncodeManifestEntries)},
		{"index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0", mfReencode(DecodeIndexManifest, EncodeIndexManifest)},
	}
	for _, c := range cases {
		java := mfReadGolden(t, c.file)
		ours, err := c.encode(java)
		if err != nil {
			t.Fatal(err)
		}
		blocks := avroTestBlocks(t, java)
		if len(blocks) == 0 || !reflect.DeepEqual(blocks, avroTestBlocks(t, ours)) {
			t.Errorf("%s: blocks differ", c.file)
		}
	}
}

func mfReencode[T any](decode func([]byte) ([]T, error), encode func([]T) ([]byte, error)) func([]byte) ([]byte, error) {
	return func(data []byte) ([]byte, error) {
		v, err := decode(data)
		if err != nil {
			return nil, err
		}
		return encode(v)
	}
}

// Java's schema generation names nested records <parent>_<field> in one
// namespace and writes nullable types as null-first unions with a null
// default; check the embedded texts have that shape.
func TestEmbeddedSchemasFollowJavaConventions(t *testing.T) {
	for _, text := range []string{manifestListSchemaText, manifestSchemaText, manifestWithSequencesSchemaText, indexManifestSchemaText} {
		for _, want := range []string{`"name":"record","namespace":"org.apache.paimon.avro.generated"`, `"type":["null",`, `"default":null`} {
			if !strings.Contains(text, want) {
				t.Errorf("schema lacks %s: %s", want, text)
			}
		}
		if strings.Contains(text, `,"null"]`) {
			t.Errorf("schema has a null-last union: %s", text)
		}
		if _, err := avro.ParseWithCache(text, "", &avro.SchemaCache{}); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{"record__FILE", "record__FILE__KEY_STATS", "record__FILE__VALUE_STATS", `"logicalType":"timestamp-millis"`} {
		if !strings.Contains(manifestSchemaText, name) {
			t.Errorf("manifest schema lacks %s", name)
		}
	}
	with := strings.Replace(manifestSchemaText, `"default":null}]}}]}`,
		`"default":null},{"name":"_WRITE_COLS_SEQUENCES","type":["null",{"type":"array","items":"long"}],"default":null}]}}]}`, 1)
	if with != manifestWithSequencesSchemaText {
		t.Errorf("_WRITE_COLS_SEQUENCES schema is not the Java schema plus that field:\n%s", manifestWithSequencesSchemaText)
	}
}

func TestEncodeManifestEntriesFullyPopulated(t *testing.T) {
	created := LocalWallClockAsUTC(time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.FixedZone("CET", 3600)))
	entry := ManifestEntry{
		Kind: FileKindDelete, Partition: mfIntKeyRow(7), Bucket: 3, TotalBuckets: 4,
		File: DataFileMeta{
			FileName: "data-x.parquet", FileSize: 1 << 40, RowCount: -1, MinKey: []byte{}, MaxKey: mfIntKeyRow(9),
			KeyStats:          SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow},
			ValueStats:        SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow, NullCounts: []*int64{nil, mfPtr[int64](3)}},
			MinSequenceNumber: -5, MaxSequenceNumber: 1 << 62, SchemaID: 2, Level: 5,
			ExtraFiles: []string{"a.index", ""}, CreationTime: &created, DeleteRowCount: mfPtr[int64](1),
			EmbeddedIndex: []byte{}, FileSource: mfPtr(FileSourceCompact), ValueStatsCols: []string{},
			ExternalPath: mfPtr("s3://b/x"), FirstRowID: mfPtr[int64](100), WriteCols: []string{"a", "b"},
			WriteColsSequences: []int64{7, 8},
		},
	}
	data, err := EncodeManifestEntries([]ManifestEntry{entry})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(mfWriterSchema(t, data)); got != manifestWithSequencesSchemaText {
		t.Fatalf("schema %s", got)
	}
	got, err := DecodeManifestEntries(data)
	if err != nil {
		t.Fatal(err)
	}
	entry.File.KeyStats.NullCounts = []*int64{} // nil is written as an empty array
	if !reflect.DeepEqual(got, []ManifestEntry{entry}) {
		t.Fatalf("got  %+v\nwant %+v", got, entry)
	}
}

// Many records span several Avro blocks.
func TestEncodeManifestListManyBlocks(t *testing.T) {
	metas := make([]ManifestFileMeta, 5000)
	for i := range metas {
		metas[i] = ManifestFileMeta{
			FileName: strings.Repeat("m", 40), FileSize: int64(i), NumAddedFiles: int64(i * 2),
			PartitionStats: SimpleStats{MinValues: mfIntKeyRow(byte(i)), MaxValues: mfIntKeyRow(byte(i + 1)), NullCounts: mfInt64s(0)},
			MinRowID:       mfPtr(int64(i)),
		}
	}
	data, err := EncodeManifestList(metas)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, data[len(data)-avroSyncSize:]); n < 3 {
		t.Fatalf("expected several blocks, found %d sync markers", n)
	}
	got, err := DecodeManifestList(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, metas) {
		t.Fatal("round trip changed the records")
	}
}

func TestEncodeRejectsInvalidEnums(t *testing.T) {
	bad := []ManifestEntry{
		{Kind: 2},
		{File: DataFileMeta{FileSource: mfPtr(FileSource(7))}},
	}
	for _, e := range bad {
		if _, err := EncodeManifestEntries([]ManifestEntry{e}); err == nil {
			t.Errorf("encoded %+v", e)
		}
	}
	if _, err := EncodeIndexManifest([]IndexManifestEntry{{Kind: -1}}); err == nil {
		t.Error("encoded index entry of kind -1")
	}
}

func TestLocalWallClockAsUTC(t *testing.T) {
	in := time.Date(2026, 7, 16, 22, 43, 39, 714_999_999, time.FixedZone("UTC+8", 8*3600))
	got := LocalWallClockAsUTC(in)
	want := time.Date(2026, 7, 16, 22, 43, 39, 714e6, time.UTC)
	if !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestDecodeRejectsOtherVersions(t *testing.T) {
	for _, version := range []int32{1, 3} {
		record := mfMetaRecord(t, ManifestFileMeta{PartitionStats: SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow}})
		record[0] = byte(version << 1) // zig-zag _VERSION, first byte of the record
		data := avroBuildContainer(t, manifestListSchemaText, "null", record)
		_, err := DecodeManifestList(data)
		if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), "_VERSION") {
			t.Errorf("version %d: got %v", version, err)
		}
	}
}
