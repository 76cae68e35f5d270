package spec

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

var avroTestSync = bytes.Repeat([]byte{0xab}, avroSyncSize)

// avroBuildContainer writes a container file by hand, one block holding the
// given encoded records, so tests can feed the decoder schemas, shapes and
// codecs our encoder never produces.
func avroBuildContainer(t testing.TB, schema, codec string, records ...[]byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := avro.NewWriter(&out, 512)
	w.Write(avroMagic[:])
	w.WriteLong(2)
	w.WriteString("avro.schema")
	w.WriteString(schema)
	w.WriteString("avro.codec")
	w.WriteString(codec)
	w.WriteLong(0)
	w.Write(avroTestSync)
	if len(records) > 0 {
		block := avroCompressBlock(t, codec, bytes.Join(records, nil))
		w.WriteLong(int64(len(records)))
		w.WriteLong(int64(len(block)))
		w.Write(block)
		w.Write(avroTestSync)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func avroCompressBlock(t testing.TB, codec string, data []byte) []byte {
	switch codec {
	case "deflate":
		var buf bytes.Buffer
		fw, err := flate.NewWriter(&buf, flate.BestSpeed)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
		fw.Close()
		return buf.Bytes()
	case "snappy":
		return binary.BigEndian.AppendUint32(snappy.Encode(nil, data), crc32.ChecksumIEEE(data))
	case "zstandard":
		enc, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		return enc.EncodeAll(data, nil)
	}
	return data
}

// avroRecord encodes a wire struct with one of Java's schemas.
func avroRecord(t testing.TB, format *avroFormat, wire any) []byte {
	t.Helper()
	data, err := avroAPI.Marshal(format.schema, wire)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// avroRawRecord writes a record by hand, for values no wire struct holds.
func avroRawRecord(t testing.TB, write func(w *avro.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := avro.NewWriter(&buf, 64)
	write(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// avroTestBlocks returns the decompressed blocks of a zstandard container
// file, read independently of the code under test.
func avroTestBlocks(t testing.TB, data []byte) [][]byte {
	t.Helper()
	r := avro.NewReader(bytes.NewReader(data), 1024)
	var h ocf.Header
	r.ReadVal(ocf.HeaderSchema, &h)
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var blocks [][]byte
	for r.Peek(); r.Error == nil; r.Peek() {
		r.ReadLong()
		block := make([]byte, r.ReadLong())
		r.Read(block)
		r.SkipNBytes(avroSyncSize)
		plain, err := dec.DecodeAll(block, nil)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, plain)
	}
	if !errors.Is(r.Error, io.EOF) {
		t.Fatal(r.Error)
	}
	return blocks
}

// avroTestHeaderEnd returns where the header of a file with at least one
// block ends, and its sync marker, which also ends the file.
func avroTestHeaderEnd(t testing.TB, data []byte) (int, []byte) {
	t.Helper()
	sync := data[len(data)-avroSyncSize:]
	i := bytes.Index(data, sync)
	if i < 0 || i == len(data)-avroSyncSize {
		t.Fatal("no block after the header")
	}
	return i + avroSyncSize, sync
}

func mfSampleMeta(i int) ManifestFileMeta {
	return ManifestFileMeta{
		FileName: fmt.Sprintf("manifest-%d", i), FileSize: int64(i), NumAddedFiles: 1,
		PartitionStats: SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow, NullCounts: []*int64{}},
		MinBucket:      mfPtr[int32](0), MaxBucket: mfPtr(int32(i)),
	}
}

func mfMetaRecord(t testing.TB, m ManifestFileMeta) []byte {
	return avroRecord(t, manifestListFormat, newAvroManifestFileMeta(&m))
}

func TestAvroCodecs(t *testing.T) {
	want := []ManifestFileMeta{mfSampleMeta(1), mfSampleMeta(2)}
	for _, codec := range []string{"null", "deflate", "snappy", "zstandard"} {
		data := avroBuildContainer(t, manifestListSchemaText, codec, mfMetaRecord(t, want[0]), mfMetaRecord(t, want[1]))
		got, err := DecodeManifestList(data)
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %+v", codec, got)
		}
	}
}

// TestAvroUnknownCodecIsUnsupported: xz, which Avro knows but Paimon's
// bundle cannot load, is refused as unsupported, not corrupt.
func TestAvroUnknownCodecIsUnsupported(t *testing.T) {
	data := avroBuildContainer(t, manifestListSchemaText, "xz", mfMetaRecord(t, mfSampleMeta(1)))
	if _, err := DecodeManifestList(data); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}

// A writer schema unlike Java's (other record names, reordered fields,
// unknown fields of every Avro type, a named-type reference, non-union
// optional fields, missing optional fields) decodes by field name, as
// Java's FieldReaderFactory does.
const mfForeignSchema = `{"type":"record","name":"ManifestEntry","namespace":"other","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_JUNK","type":{"type":"map","values":{"type":"array","items":{"type":"record","name":"Junk","fields":[
   {"name":"d","type":"double"},{"name":"f","type":{"type":"fixed","name":"F3","size":3}},
   {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},{"name":"b","type":"boolean"},
   {"name":"fl","type":"float"},{"name":"n","type":"null"}]}}}},
 {"name":"_KIND","type":"int"},
 {"name":"_PARTITION","type":"bytes"},
 {"name":"_TOTAL_BUCKETS","type":"int"},
 {"name":"_BUCKET","type":"int"},
 {"name":"_FILE","type":{"type":"record","name":"DataFileMeta","fields":[
   {"name":"_FILE_NAME","type":"string"},
   {"name":"_KEY_STATS","type":{"type":"record","name":"SimpleStats","fields":[
     {"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},
     {"name":"_NULL_COUNTS","type":{"type":"array","items":"long"}}]}},
   {"name":"_VALUE_STATS","type":"other.SimpleStats"},
   {"name":"_ROW_COUNT","type":"long"},
   {"name":"_FILE_SIZE","type":"long"},
   {"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},
   {"name":"_U","type":["null","string","long"]},
   {"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},
   {"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},
   {"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
   {"name":"_FILE_SOURCE","type":"int"},
   {"name":"_CREATION_TIME","type":{"type":"long","logicalType":"timestamp-millis"}}]}}]}`

func avroWriteLongs(w *avro.Writer, list ...int64) {
	if len(list) > 0 {
		w.WriteLong(int64(len(list)))
	}
	for _, v := range list {
		w.WriteLong(v)
	}
	w.WriteLong(0)
}

func mfWriteForeignEntry(w *avro.Writer) {
	w.WriteInt(2)
	w.WriteLong(1) // _JUNK: one map entry
	w.WriteString("k")
	var junk bytes.Buffer
	jw := avro.NewWriter(&junk, 64)
	jw.Write(make([]byte, 8)) // d
	jw.Write([]byte{1, 2, 3}) // f
	jw.WriteInt(1)            // e
	jw.WriteBool(true)        // b
	jw.Write(make([]byte, 4)) // fl
	jw.Flush()
	w.WriteLong(-1) // array block with byte size
	w.WriteLong(int64(junk.Len()))
	w.Write(junk.Bytes())
	w.WriteLong(0)
	w.WriteLong(0)
	w.WriteInt(1) // _KIND
	w.WriteBytes(mfEmptyRow)
	w.WriteInt(4) // _TOTAL_BUCKETS
	w.WriteInt(2) // _BUCKET
	w.WriteString("f.parquet")
	w.WriteBytes(mfIntKeyRow(1))
	w.WriteBytes(mfIntKeyRow(2))
	avroWriteLongs(w, 3, 4)
	w.WriteBytes(mfEmptyRow)
	w.WriteBytes(mfEmptyRow)
	avroWriteLongs(w)
	w.WriteLong(10) // _ROW_COUNT
	w.WriteLong(20) // _FILE_SIZE
	w.WriteBytes(mfIntKeyRow(1))
	w.WriteBytes(mfIntKeyRow(2))
	w.WriteLong(1) // _U: the string branch
	w.WriteString("skipped")
	w.WriteLong(5)
	w.WriteLong(6)
	w.WriteLong(0)
	w.WriteInt(3)
	w.WriteLong(1)
	w.WriteString("x")
	w.WriteLong(0)
	w.WriteInt(1) // _FILE_SOURCE
	w.WriteLong(1_780_000_000_123)
}

func TestDecodeMapsFieldsByName(t *testing.T) {
	got, err := DecodeManifestEntries(avroBuildContainer(t, mfForeignSchema, "null", avroRawRecord(t, mfWriteForeignEntry)))
	if err != nil {
		t.Fatal(err)
	}
	want := []ManifestEntry{{
		Kind: FileKindDelete, Partition: mfEmptyRow, Bucket: 2, TotalBuckets: 4,
		File: DataFileMeta{
			FileName: "f.parquet", FileSize: 20, RowCount: 10, MinKey: mfIntKeyRow(1), MaxKey: mfIntKeyRow(2),
			KeyStats:          SimpleStats{MinValues: mfIntKeyRow(1), MaxValues: mfIntKeyRow(2), NullCounts: mfInt64s(3, 4)},
			ValueStats:        SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow, NullCounts: []*int64{}},
			MinSequenceNumber: 5, MaxSequenceNumber: 6, SchemaID: 0, Level: 3,
			ExtraFiles: []string{"x"}, FileSource: mfPtr(FileSourceCompact),
			CreationTime: mfPtr(time.UnixMilli(1_780_000_000_123).UTC()),
		},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// Unknown fields are decoded generically rather than skipped, so a forged
// item count in one fails at the end of the data instead of looping once
// per claimed item (2^50 iterations: a regression shows as a test timeout).
func TestDecodeUnknownFieldWithForgedCount(t *testing.T) {
	schema := strings.TrimSuffix(manifestListSchemaText, "]}") + `,{"name":"_JUNK","type":{"type":"array","items":"int"}}]}`
	record := append(mfMetaRecord(t, mfSampleMeta(1)), avroRawRecord(t, func(w *avro.Writer) { w.WriteLong(1 << 50) })...)
	if _, err := DecodeManifestList(avroBuildContainer(t, schema, "null", record)); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("got %v", err)
	}
}

func TestDecodeRejectsUnfitSchemas(t *testing.T) {
	chain := `{"type":"record","name":"r0","fields":[]}`
	for i := 1; i < 24; i++ {
		chain = fmt.Sprintf(`{"type":"record","name":"r%d","fields":[{"name":"a","type":%s},{"name":"b","type":"r%d"}]}`, i, chain, i-1)
	}
	list := func(old, new string) string { return strings.Replace(manifestListSchemaText, old, new, 1) }
	extra := func(field string) string {
		return list(`{"name":"_SCHEMA_ID","type":"long"}`, `{"name":"_SCHEMA_ID","type":"long"},`+field)
	}
	cases := map[string]string{
		"not json":           `{"type":`,
		"not a record":       `"int"`,
		"recursive":          extra(`{"name":"x","type":["null","record"]}`),
		"exponential":        extra(`{"name":"x","type":` + chain + `}`),
		"array of nothing":   extra(`{"name":"x","type":{"type":"array","items":{"type":"record","name":"e","fields":[{"name":"n","type":"null"}]}}}`),
		"missing required":   list(`{"name":"_FILE_NAME","type":"string"},`, ``),
		"missing version":    list(`{"name":"_VERSION","type":"int"},`, ``),
		"wrong type":         list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":"string"}`),
		"long for int":       list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null","long"]`),
		"int for long":       list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":"int"}`),
		"nullable scalar":    list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":["null","long"]}`),
		"three-way union":    list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null","int","string"]`),
		"null-only union":    list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null"]`),
		"too deep":           strings.Repeat(`{"type":`, 100) + `"int"` + strings.Repeat(`}`, 100),
		"unknown reference":  list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":"nope"}`),
		"fixed without size": extra(`{"name":"x","type":{"type":"fixed","name":"f"}}`),
	}
	for name, schema := range cases {
		_, err := DecodeManifestList(avroBuildContainer(t, schema, "null"))
		if !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func mfEntryRecord(t testing.TB, source FileSource) []byte {
	e := ManifestEntry{Partition: mfEmptyRow, File: DataFileMeta{FileSource: &source}}
	return avroRecord(t, manifestFormat, newAvroManifestEntry(&e))
}

// mfBadRecords are records that do not decode with Java's manifest schema.
func mfBadRecords(t *testing.T) map[string][]byte {
	good := func() []byte { return mfEntryRecord(t, FileSourceAppend) }
	kind5, truncated, branch2 := good(), good(), good()
	kind5[1] = 5 << 1
	// The last byte is the _WRITE_COLS union index.
	branch2[len(branch2)-1] = 2 << 1
	return map[string][]byte{
		"kind 5":           kind5,
		"file source 9":    mfEntryRecord(t, 9),
		"truncated record": truncated[:len(truncated)-1],
		"union branch 2":   branch2,
		"negative length":  avroRawRecord(t, func(w *avro.Writer) { w.WriteInt(2); w.WriteInt(0); w.WriteLong(-3) }),
		"int overflow":     avroRawRecord(t, func(w *avro.Writer) { w.WriteLong(1 << 40) }),
		"varint overflow":  bytes.Repeat([]byte{0xff}, 11),
		"forged array count": avroRawRecord(t, func(w *avro.Writer) {
			w.WriteInt(2)
			w.WriteInt(0)
			w.WriteBytes(mfEmptyRow)
			w.WriteInt(0)
			w.WriteInt(1)
			w.WriteString("f")
			w.WriteLong(0)
			w.WriteLong(0)
			w.WriteBytes(nil)
			w.WriteBytes(nil)
			w.WriteBytes(nil) // _KEY_STATS
			w.WriteBytes(nil)
			w.WriteLong(1) // _NULL_COUNTS: the array branch
			w.WriteLong(1 << 40)
		}),
	}
}

func TestDecodeRejectsBadValues(t *testing.T) {
	for name, record := range mfBadRecords(t) {
		data := avroBuildContainer(t, manifestSchemaText, "null", record)
		if _, err := DecodeManifestEntries(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// A null in a required record that the <= 0.8 shape made nullable is
// corrupt: Java cannot build a DataFileMeta from it either.
func TestDecodeRejectsNullRequiredRecord(t *testing.T) {
	data := avroBuildContainer(t, mfNullableFileSchema(t), "null", avroRawRecord(t, func(w *avro.Writer) {
		w.WriteInt(2)
		w.WriteInt(0)
		w.WriteBytes(mfEmptyRow)
		w.WriteInt(0)
		w.WriteInt(1)
		w.WriteLong(0) // _FILE is null
	}))
	if _, err := DecodeManifestEntries(data); !errors.Is(err, errAvroNull) {
		t.Fatalf("got %v", err)
	}
}

// mfNullableFileSchema is Java's manifest schema with _FILE made nullable, as
// Paimon <= 0.8 wrote it.
func mfNullableFileSchema(t *testing.T) string {
	t.Helper()
	s := strings.Replace(manifestSchemaText, `"type":{"type":"record","name":"record__FILE"`, `"type":["null",{"type":"record","name":"record__FILE"`, 1)
	if !strings.HasSuffix(s, `}]}}]}`) {
		t.Fatal("unexpected end of the manifest schema")
	}
	return strings.TrimSuffix(s, `}]}}]}`) + `}]}]}]}`
}

// The <= 0.8 shape (top-level and nested records in ["null", record])
// with a field Java does not know goes through transcoding, unions and all.
func TestDecodeLegacyShapeWithUnknownField(t *testing.T) {
	schema := `["null",` + strings.TrimSuffix(mfNullableFileSchema(t), "]}") + `,{"name":"_X","type":"string"}]}]`
	source := FileSourceCompact
	entry := ManifestEntry{Kind: FileKindDelete, Partition: mfEmptyRow, Bucket: 1, TotalBuckets: 2, File: DataFileMeta{
		FileName: "f", MinKey: []byte{}, MaxKey: []byte{},
		KeyStats:   SimpleStats{MinValues: []byte{}, MaxValues: []byte{}, NullCounts: mfInt64s(1)},
		ValueStats: SimpleStats{MinValues: []byte{}, MaxValues: []byte{}, NullCounts: []*int64{}},
		ExtraFiles: []string{}, FileSource: &source,
	}}
	java := avroRecord(t, manifestFormat, newAvroManifestEntry(&entry))
	const fileStart = 17 // _VERSION, _KIND, a 12-byte _PARTITION, _BUCKET, _TOTAL_BUCKETS
	record := slices.Concat([]byte{2}, java[:fileStart], []byte{2}, java[fileStart:], []byte{2, 'x'})
	got, err := DecodeManifestEntries(avroBuildContainer(t, schema, "null", record))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []ManifestEntry{entry}) {
		t.Fatalf("got  %+v\nwant %+v", got, entry)
	}
}

func TestDecodeRejectsBrokenContainers(t *testing.T) {
	good := mfReadGolden(t, "manifest-47606e25-ccef-4a80-9c04-8bd4988af3c1-0")
	end, sync := avroTestHeaderEnd(t, good)
	badSync := bytes.Clone(good)
	badSync[len(badSync)-1] ^= 1
	block := func(b ...byte) []byte { return append(append(bytes.Clone(good[:end]), b...), sync...) }
	cases := map[string][]byte{
		"empty":          nil,
		"not avro":       []byte("XYZ1...."), // PAR1 is refused as unsupported (Parquet manifests)
		"no schema":      append(append([]byte("Obj\x01"), 0), avroTestSync...),
		"sync mismatch":  badSync,
		"zero count":     block(0, 2, 0),
		"count too high": block(100, 2, 0),
		"bad zstd":       block(2, 4, 1, 2),
		"huge block":     block(append([]byte{2}, binary.AppendVarint(nil, 1<<40)...)...),
	}
	for name, data := range cases {
		if _, err := DecodeManifestEntries(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	// A file cut right after its header is a valid empty file; every other
	// cut is corrupt (the fixture has a single block).
	for n := range len(good) {
		if n == end {
			continue
		}
		if _, err := DecodeManifestEntries(good[:n]); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Fatalf("truncated to %d bytes: got %v", n, err)
		}
	}
}

// A snappy block claiming to decompress to a gigabyte is rejected before
// anything is allocated for it.
func TestDecodeRejectsSnappyBomb(t *testing.T) {
	var block bytes.Buffer
	block.Write(binary.AppendUvarint(nil, 1<<30))
	block.Write([]byte{0, 0, 0, 0}) // checksum
	var out bytes.Buffer
	w := avro.NewWriter(&out, 512)
	w.Write(avroMagic[:])
	w.WriteLong(2)
	w.WriteString("avro.schema")
	w.WriteString(manifestListSchemaText)
	w.WriteString("avro.codec")
	w.WriteString("snappy")
	w.WriteLong(0)
	w.Write(avroTestSync)
	w.WriteLong(1)
	w.WriteLong(int64(block.Len()))
	w.Write(block.Bytes())
	w.Write(avroTestSync)
	w.Flush()
	if _, err := DecodeManifestList(out.Bytes()); !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("got %v", err)
	}
}

// Flipping bytes of a real file either still decodes or fails with a
// classified error; it never panics. Every fifth header byte (mostly schema
// text, slow to re-parse; the fuzz targets cover it more) gets one flip,
// every block byte two.
func TestDecodeSurvivesBitFlips(t *testing.T) {
	check := func(name string, decode func([]byte) error) {
		good := mfReadGolden(t, name)
		end, _ := avroTestHeaderEnd(t, good)
		for i := range good {
			masks := []byte{0x01, 0xff}
			if i < end {
				if i%5 != 0 {
					continue
				}
				masks = masks[:1]
			}
			for _, mask := range masks {
				data := bytes.Clone(good)
				data[i] ^= mask
				err := decode(data)
				if err != nil && !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
					t.Fatalf("%s byte %d ^ %#x: unclassified error %v", name, i, mask, err)
				}
			}
		}
	}
	check("manifest-be69d15d-798b-45ec-ba50-6e9f088319c7-1", func(b []byte) error { _, err := DecodeManifestEntries(b); return err })
	check("manifest-list-5e07ff5a-eeb7-49ef-8769-c73b058ae171-2", func(b []byte) error { _, err := DecodeManifestList(b); return err })
	check("index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0", func(b []byte) error { _, err := DecodeIndexManifest(b); return err })
}

// The codecs share hamba's API, a plan cache and pools of zstd coders; run
// them from several goroutines for the race detector.
func TestAvroCodecsConcurrently(t *testing.T) {
	entries := mfReadGolden(t, "manifest-be69d15d-798b-45ec-ba50-6e9f088319c7-1")
	index := mfReadGolden(t, "index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if _, err := mfReencode(DecodeManifestEntries, EncodeManifestEntries)(entries); err != nil {
					t.Error(err)
				}
				if _, err := mfReencode(DecodeIndexManifest, EncodeIndexManifest)(index); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

// Java rejects a block whose records end before its data does.
func TestDecodeRejectsTrailingBytes(t *testing.T) {
	record := mfMetaRecord(t, mfSampleMeta(1))
	for _, codec := range []string{"null", "zstandard"} {
		data := avroBuildContainer(t, manifestListSchemaText, codec, append(record, 0))
		if _, err := DecodeManifestList(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", codec, err)
		}
	}
}

func TestDecodeRejectsBadCompressedBlocks(t *testing.T) {
	record := mfMetaRecord(t, mfSampleMeta(1))
	snappyBlock := avroCompressBlock(t, "snappy", record)
	badSum := bytes.Clone(snappyBlock)
	badSum[len(badSum)-1] ^= 1
	var bomb bytes.Buffer
	fw, err := flate.NewWriter(&bomb, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(make([]byte, avroMaxBlockSize+1))
	fw.Close()
	cases := []struct {
		name, codec string
		block       []byte
	}{
		{"snappy checksum", "snappy", badSum},
		{"snappy without checksum", "snappy", snappyBlock[:3]},
		{"deflate bomb", "deflate", bomb.Bytes()},
		{"truncated deflate", "deflate", avroCompressBlock(t, "deflate", record)[:4]},
	}
	for _, c := range cases {
		data := avroBuildContainerBlock(t, manifestListSchemaText, c.codec, 1, c.block)
		if _, err := DecodeManifestList(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}

// avroBuildContainerBlock writes a container file with one block of count
// records, already compressed.
func avroBuildContainerBlock(t testing.TB, schema, codec string, count int64, block []byte) []byte {
	t.Helper()
	header := avroBuildContainer(t, schema, codec)
	var out bytes.Buffer
	w := avro.NewWriter(&out, 512)
	w.Write(header)
	w.WriteLong(count)
	w.WriteBytes(block)
	w.Write(avroTestSync)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// The header's metadata may come in blocks with a byte size, hold other
// keys, and omit the codec (null).
func TestDecodeReadsAnyMetadataLayout(t *testing.T) {
	want := mfSampleMeta(1)
	var out bytes.Buffer
	w := avro.NewWriter(&out, 512)
	w.Write(avroMagic[:])
	w.WriteLong(-2)
	w.WriteLong(int64(len("user.key") + len("value") + len("avro.schema") + len(manifestListSchemaText) + 8))
	w.WriteString("user.key")
	w.WriteBytes([]byte("value"))
	w.WriteString("avro.schema")
	w.WriteBytes([]byte(manifestListSchemaText))
	w.WriteLong(0)
	w.Write(avroTestSync)
	record := mfMetaRecord(t, want)
	w.WriteLong(1)
	w.WriteBytes(record)
	w.Write(avroTestSync)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := DecodeManifestList(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []ManifestFileMeta{want}) {
		t.Fatalf("got %+v", got)
	}
}

// Records are decoded into one reused wire struct; nothing of a record may
// leak into the next, nor be shared with it.
func TestDecodeKeepsRecordsApart(t *testing.T) {
	full := ManifestEntry{Partition: mfEmptyRow, File: DataFileMeta{
		FileName: "a", KeyStats: SimpleStats{NullCounts: mfInt64s(1, 2, 3)},
		ValueStats: SimpleStats{NullCounts: []*int64{nil, mfPtr[int64](4)}}, ExtraFiles: []string{"x", "y"},
		CreationTime: mfPtr(time.UnixMilli(1).UTC()), DeleteRowCount: mfPtr[int64](5),
		FileSource: mfPtr(FileSourceCompact), ValueStatsCols: []string{"c"}, ExternalPath: mfPtr("p"),
		FirstRowID: mfPtr[int64](6), WriteCols: []string{"w"},
	}}
	empty := ManifestEntry{Partition: mfEmptyRow, File: DataFileMeta{
		FileName: "b", KeyStats: SimpleStats{NullCounts: []*int64{}}, ExtraFiles: []string{},
	}}
	wire := func(e ManifestEntry) []byte {
		a := newAvroManifestEntry(&e)
		a.File.ValueStats.NullCounts = e.File.ValueStats.NullCounts // nil: the null branch
		return avroRecord(t, manifestFormat, a)
	}
	want := []ManifestEntry{full, empty, full, empty}
	got, err := DecodeManifestEntries(avroBuildContainer(t, manifestSchemaText, "zstandard",
		wire(full), wire(empty), wire(full), wire(empty)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		w, g := want[i].File, got[i].File
		w.MinKey, w.MaxKey, w.EmbeddedIndex = g.MinKey, g.MaxKey, g.EmbeddedIndex
		w.KeyStats.MinValues, w.KeyStats.MaxValues = g.KeyStats.MinValues, g.KeyStats.MaxValues
		w.ValueStats.MinValues, w.ValueStats.MaxValues = g.ValueStats.MinValues, g.ValueStats.MaxValues
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("entry %d:\ngot  %+v\nwant %+v", i, g, w)
		}
	}
	*got[0].File.KeyStats.NullCounts[0] = 100
	got[0].File.KeyStats.NullCounts = append(got[0].File.KeyStats.NullCounts, nil)
	*got[0].File.FileSource = FileSourceAppend
	if *got[2].File.KeyStats.NullCounts[0] != 1 || *got[2].File.FileSource != FileSourceCompact {
		t.Fatal("records share values")
	}
}
