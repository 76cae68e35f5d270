package spec

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

var avroTestSync = bytes.Repeat([]byte{0xab}, avroSyncSize)

// avroBuildContainer writes a container file by hand, one block holding the
// given records, so tests can feed the decoder shapes and codecs our
// encoder never produces.
func avroBuildContainer(t testing.TB, schema, codec string, records ...func(w *avroWriter)) []byte {
	t.Helper()
	var block, out avroWriter
	for _, record := range records {
		record(&block)
	}
	out.buf = append(out.buf, avroMagic...)
	out.long(2)
	out.string("avro.schema")
	out.string(schema)
	out.string("avro.codec")
	out.string(codec)
	out.long(0)
	out.buf = append(out.buf, avroTestSync...)
	if len(records) > 0 {
		compressed := avroCompressBlock(t, codec, block.buf)
		out.long(int64(len(records)))
		out.long(int64(len(compressed)))
		out.buf = append(out.buf, compressed...)
		out.buf = append(out.buf, avroTestSync...)
	}
	return out.buf
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
	case avroCodecZstd:
		return avroZstdEncoder().EncodeAll(data, nil)
	}
	return data
}

func mfSampleMeta(i int) ManifestFileMeta {
	return ManifestFileMeta{
		FileName: fmt.Sprintf("manifest-%d", i), FileSize: int64(i), NumAddedFiles: 1,
		PartitionStats: SimpleStats{MinValues: mfEmptyRow, MaxValues: mfEmptyRow, NullCounts: []*int64{}},
		MinBucket:      mfPtr[int32](0), MaxBucket: mfPtr(int32(i)),
	}
}

func TestAvroCodecs(t *testing.T) {
	want := []ManifestFileMeta{mfSampleMeta(1), mfSampleMeta(2)}
	for _, codec := range []string{"null", "deflate", "snappy", avroCodecZstd} {
		data := avroBuildContainer(t, manifestListSchemaText, codec,
			func(w *avroWriter) { encodeManifestFileMeta(w, &want[0]) },
			func(w *avroWriter) { encodeManifestFileMeta(w, &want[1]) })
		got, err := DecodeManifestList(data)
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %+v", codec, got)
		}
	}
}

func TestAvroUnknownCodecIsUnsupported(t *testing.T) {
	meta := mfSampleMeta(1)
	data := avroBuildContainer(t, manifestListSchemaText, "bzip2", func(w *avroWriter) { encodeManifestFileMeta(w, &meta) })
	if _, err := DecodeManifestList(data); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}

// A writer schema unlike Java's (other record names, reordered fields,
// unknown fields of every Avro type, a named-type reference, int where long
// is read, non-union optional fields, missing optional fields) decodes by
// field name, as Java's FieldReaderFactory does.
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
   {"name":"_ROW_COUNT","type":"int"},
   {"name":"_FILE_SIZE","type":"long"},
   {"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},
   {"name":"_U","type":["null","string","long"]},
   {"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},
   {"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},
   {"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
   {"name":"_FILE_SOURCE","type":"int"}]}}]}`

func mfWriteForeignEntry(w *avroWriter) {
	w.int(2)
	w.long(1) // _JUNK: one map entry
	w.string("k")
	var junk avroWriter
	junk.buf = append(junk.buf, make([]byte, 8)...) // d
	junk.buf = append(junk.buf, 1, 2, 3)            // f
	junk.long(1)                                    // e
	junk.buf = append(junk.buf, 1)                  // b
	junk.buf = append(junk.buf, make([]byte, 4)...) // fl
	w.long(-1)                                      // array block with byte size
	w.long(int64(len(junk.buf)))
	w.buf = append(w.buf, junk.buf...)
	w.long(0)
	w.long(0)
	w.int(1) // _KIND
	w.bytes(mfEmptyRow)
	w.int(4) // _TOTAL_BUCKETS
	w.int(2) // _BUCKET
	w.string("f.parquet")
	w.bytes(mfIntKeyRow(1))
	w.bytes(mfIntKeyRow(2))
	w.longs([]int64{3, 4})
	w.bytes(mfEmptyRow)
	w.bytes(mfEmptyRow)
	w.longs(nil)
	w.int(10)  // _ROW_COUNT
	w.long(20) // _FILE_SIZE
	w.bytes(mfIntKeyRow(1))
	w.bytes(mfIntKeyRow(2))
	w.long(1) // _U: the string branch
	w.string("skipped")
	w.long(5)
	w.long(6)
	w.long(0)
	w.int(3)
	w.strings([]string{"x"})
	w.int(1) // _FILE_SOURCE
}

func TestDecodeMapsFieldsByName(t *testing.T) {
	got, err := DecodeManifestEntries(avroBuildContainer(t, mfForeignSchema, "null", mfWriteForeignEntry))
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
		},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestDecodeRejectsUnfitSchemas(t *testing.T) {
	chain := `{"type":"record","name":"r0","fields":[]}`
	for i := 1; i < 24; i++ {
		chain = fmt.Sprintf(`{"type":"record","name":"r%d","fields":[{"name":"a","type":%s},{"name":"b","type":"r%d"}]}`, i, chain, i-1)
	}
	list := func(old, new string) string { return strings.Replace(manifestListSchemaText, old, new, 1) }
	cases := map[string]string{
		"not json":          `{"type":`,
		"not a record":      `"int"`,
		"recursive":         list(`{"name":"_SCHEMA_ID","type":"long"}`, `{"name":"_SCHEMA_ID","type":"long"},{"name":"x","type":["null","record"]}`),
		"exponential":       list(`{"name":"_SCHEMA_ID","type":"long"}`, `{"name":"_SCHEMA_ID","type":"long"},{"name":"x","type":`+chain+`}`),
		"missing required":  list(`{"name":"_FILE_NAME","type":"string"},`, ``),
		"missing version":   list(`{"name":"_VERSION","type":"int"},`, ``),
		"wrong type":        list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":"string"}`),
		"long for int":      list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null","long"]`),
		"three-way union":   list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null","int","string"]`),
		"null-only union":   list(`{"name":"_MIN_BUCKET","type":["null","int"]`, `{"name":"_MIN_BUCKET","type":["null"]`),
		"too deep":          strings.Repeat(`{"type":`, 100) + `"int"` + strings.Repeat(`}`, 100),
		"unknown reference": list(`{"name":"_FILE_SIZE","type":"long"}`, `{"name":"_FILE_SIZE","type":"nope"}`),
		"fixed without size": list(`{"name":"_SCHEMA_ID","type":"long"}`,
			`{"name":"_SCHEMA_ID","type":"long"},{"name":"x","type":{"type":"fixed","name":"f"}}`),
	}
	for name, schema := range cases {
		_, err := DecodeManifestList(avroBuildContainer(t, schema, "null"))
		if !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func mfWriteEntry(w *avroWriter, source FileSource) {
	e := ManifestEntry{Partition: mfEmptyRow, File: DataFileMeta{FileSource: &source}}
	encodeManifestEntry(w, &e, false)
}

// mfBadRecords write records that do not decode with Java's manifest schema.
var mfBadRecords = map[string]func(w *avroWriter){
	"kind 5":           func(w *avroWriter) { mfWriteEntry(w, FileSourceAppend); w.buf[1] = 5 << 1 },
	"file source 9":    func(w *avroWriter) { mfWriteEntry(w, 9) },
	"trailing bytes":   func(w *avroWriter) { mfWriteEntry(w, FileSourceAppend); w.buf = append(w.buf, 0) },
	"truncated record": func(w *avroWriter) { mfWriteEntry(w, FileSourceAppend); w.buf = w.buf[:len(w.buf)-1] },
	// The last byte is the _WRITE_COLS union index.
	"union branch 2":  func(w *avroWriter) { mfWriteEntry(w, FileSourceAppend); w.buf[len(w.buf)-1] = 2 << 1 },
	"negative length": func(w *avroWriter) { w.int(2); w.int(0); w.long(-3) },
	"int overflow":    func(w *avroWriter) { w.long(1 << 40) },
	"varint overflow": func(w *avroWriter) { w.buf = append(w.buf, bytes.Repeat([]byte{0xff}, 11)...) },
}

func TestDecodeRejectsBadValues(t *testing.T) {
	for name, record := range mfBadRecords {
		data := avroBuildContainer(t, manifestSchemaText, "null", record)
		if _, err := DecodeManifestEntries(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// A null in a required record that the <= 0.8 shape made nullable is
// corrupt: Java cannot build a DataFileMeta from it either.
func TestDecodeRejectsNullRequiredRecord(t *testing.T) {
	data := avroBuildContainer(t, mfNullableFileSchema(t), "null", func(w *avroWriter) {
		w.int(2)
		w.int(0)
		w.bytes(mfEmptyRow)
		w.int(0)
		w.int(1)
		w.long(0) // _FILE is null
	})
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

func TestDecodeRejectsBrokenContainers(t *testing.T) {
	good := mfReadGolden(t, "manifest-47606e25-ccef-4a80-9c04-8bd4988af3c1-0")
	c, err := avroOpenContainer(good)
	if err != nil {
		t.Fatal(err)
	}
	badSync := bytes.Clone(good)
	badSync[len(badSync)-1] ^= 1
	cases := map[string][]byte{
		"empty":          nil,
		"not avro":       []byte("PAR1...."),
		"no schema":      append(append([]byte("Obj\x01"), 0), avroTestSync...),
		"sync mismatch":  badSync,
		"zero count":     append(bytes.Clone(good[:c.body.pos]), append([]byte{0, 2, 0}, c.sync...)...),
		"count too high": append(bytes.Clone(good[:c.body.pos]), append([]byte{100, 2, 0}, c.sync...)...),
		"bad zstd":       append(bytes.Clone(good[:c.body.pos]), append([]byte{2, 4, 1, 2}, c.sync...)...),
	}
	for name, data := range cases {
		if _, err := DecodeManifestEntries(data); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	// A file cut right after its header is a valid empty file; every other
	// cut is corrupt (the fixture has a single block).
	for n := range len(good) {
		if n == c.body.pos {
			continue
		}
		if _, err := DecodeManifestEntries(good[:n]); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Fatalf("truncated to %d bytes: got %v", n, err)
		}
	}
}

// Flipping any byte of a real file either still decodes or fails with a
// classified error; it never panics. Header bytes (mostly schema text, slow
// to re-parse) get one flip each, the blocks two.
func TestDecodeSurvivesBitFlips(t *testing.T) {
	check := func(name string, decode func([]byte) error) {
		good := mfReadGolden(t, name)
		c, err := avroOpenContainer(good)
		if err != nil {
			t.Fatal(err)
		}
		for i := range good {
			masks := []byte{0x01}
			if i >= c.body.pos {
				masks = append(masks, 0xff)
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

// Skipping an array of zero-byte items costs nothing per item, so a few
// bytes claiming 2^50 items cannot stall the decoder.
func TestSkipArrayOfEmptyItems(t *testing.T) {
	schema := strings.TrimSuffix(manifestListSchemaText, "]}") +
		`,{"name":"_JUNK","type":{"type":"array","items":{"type":"array","items":{"type":"record","name":"e","fields":[{"name":"n","type":"null"}]}}}}]}`
	meta := mfSampleMeta(1)
	data := avroBuildContainer(t, schema, "null", func(w *avroWriter) {
		encodeManifestFileMeta(w, &meta)
		w.long(500)
		for range 500 {
			w.long(1 << 50)
			w.long(0)
		}
		w.long(0)
	})
	got, err := DecodeManifestList(data)
	if err != nil || !reflect.DeepEqual(got, []ManifestFileMeta{meta}) {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestAvroLongRoundTrip(t *testing.T) {
	values := []int64{0, -1, 1, -64, 63, 64, -65, 1 << 40, -(1 << 40), math.MaxInt64, math.MinInt64}
	var w avroWriter
	for _, v := range values {
		w.long(v)
	}
	r := avroReader{buf: w.buf}
	for _, want := range values {
		if got, err := r.long(); err != nil || got != want {
			t.Fatalf("got %d, %v; want %d", got, err, want)
		}
	}
	if r.remaining() != 0 {
		t.Fatalf("%d bytes left", r.remaining())
	}
}
