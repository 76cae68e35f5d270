package manifest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// The testdata/java-* tables were written by Java Paimon with
// manifest.format = parquet (testdata/NOTICE).

func javaSnapshot(t *testing.T, table string, id int) *spec.Snapshot {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", table, "snapshot", fmt.Sprintf("snapshot-%d", id)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.DecodeSnapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// describeEntry prints a live file the way Java's $files table shows it.
func describeEntry(t *testing.T, partitionTypes []spec.DataType, e spec.ManifestEntry) string {
	t.Helper()
	partition, err := spec.DeserializeBinaryRow(partitionTypes, e.Partition)
	if err != nil {
		t.Fatal(err)
	}
	f := e.File
	return fmt.Sprintf("%v bucket=%d/%d level=%d %s rows=%d size=%d seq=%d..%d deleted=%d %v created=%s",
		partition, e.Bucket, e.TotalBuckets, f.Level, f.FileName, f.RowCount, f.FileSize,
		f.MinSequenceNumber, f.MaxSequenceNumber, *f.DeleteRowCount, f.FileSource,
		f.CreationTime.Format("2006-01-02 15:04:05.000"))
}

// TestReadsJavaParquetSnapshots reads each table's snapshot through its
// Parquet manifest lists, manifests and index manifest; the expected live
// files are those Java's $files and $table_indexes tables listed for it.
func TestReadsJavaParquetSnapshots(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}
	cases := []struct {
		table      string
		snapshot   int
		partitions []spec.DataType
		live       []string
		index      []string
	}{{
		table: "java-1.4.2-pk-dv", snapshot: 8, partitions: []spec.DataType{str},
		live: []string{"[d1] bucket=0/2 level=5 data-4216d55d-ff7a-42a3-9ebc-c8ac5b792850-0.parquet rows=1 size=1438 seq=2..2 deleted=0 COMPACT created=2026-12-05 05:07:35.657"},
		index: []string{"DELETION_VECTORS index-54ef288c-607d-4ccf-9d50-850097f8321c-0 size=31 rows=1 " +
			"[{DataFileName:data-1ee304c8-4562-415f-b719-9f3fbee53a17-0.parquet Offset:1 Length:22 Cardinality:1}]"},
	}, {
		table: "java-1.4.2-append", snapshot: 2, partitions: []spec.DataType{{Root: spec.Int, Nullable: true}},
		live: []string{
			"[1] bucket=0/-1 level=0 data-064a1fbc-75de-443d-8bb2-52bc8622b79e-0.parquet rows=1 size=458 seq=0..0 deleted=0 APPEND created=2026-12-05 05:07:36.914",
			"[<nil>] bucket=0/-1 level=0 data-2d5af552-3c16-4a47-8a08-7e83fd321329-0.parquet rows=1 size=421 seq=0..0 deleted=0 APPEND created=2026-12-05 05:07:36.919",
			"[2] bucket=0/-1 level=0 data-88c6e2bc-996f-432a-ae91-a5f6567c67ee-0.parquet rows=1 size=458 seq=0..0 deleted=0 APPEND created=2026-12-05 05:07:37.098",
		},
	}, {
		table: "java-1.3.1-pk", snapshot: 1, partitions: []spec.DataType{},
		live: []string{"[] bucket=0/1 level=0 data-23b2b856-0c18-4375-b704-7b2bf7d63375-0.parquet rows=1 size=1109 seq=0..0 deleted=0 APPEND created=2026-12-05 05:08:01.010"},
	}}
	ctx := context.Background()
	for _, c := range cases {
		r := NewReader(localio.New(), filepath.Join("testdata", c.table))
		s := javaSnapshot(t, c.table, c.snapshot)
		entries, err := r.LiveEntries(ctx, s)
		if err != nil {
			t.Fatalf("%s: %v", c.table, err)
		}
		var live []string
		for _, e := range entries {
			live = append(live, describeEntry(t, c.partitions, e))
		}
		if !reflect.DeepEqual(live, c.live) {
			t.Errorf("%s: live files\n%s\nwant\n%s", c.table, strings.Join(live, "\n"), strings.Join(c.live, "\n"))
		}
		var index []string
		if s.IndexManifest != nil {
			entries, err := r.IndexEntries(ctx, *s.IndexManifest)
			if err != nil {
				t.Fatalf("%s: %v", c.table, err)
			}
			for _, e := range entries {
				f := e.IndexFile
				var ranges []string
				for _, d := range f.DeletionVectorRanges {
					ranges = append(ranges, fmt.Sprintf("{DataFileName:%s Offset:%d Length:%d Cardinality:%d}", d.DataFileName, d.Offset, d.Length, *d.Cardinality))
				}
				index = append(index, fmt.Sprintf("%s %s size=%d rows=%d [%s]", f.IndexType, f.FileName, f.FileSize, f.RowCount, strings.Join(ranges, " ")))
			}
		}
		if !reflect.DeepEqual(index, c.index) {
			t.Errorf("%s: index files %q, want %q", c.table, index, c.index)
		}
	}
}

// metadataFile is one Java-written file of testdata with its codec.
type metadataFile struct {
	path string
	data []byte
	// decode decodes a file of its kind, of either format; encode encodes
	// what decode returned in the given format.
	decode func([]byte) (any, error)
	encode func(Format, any) ([]byte, error)
}

// javaMetadataFiles returns the manifest lists, manifests and index
// manifests of Java-written tables under root; ORC ones, which lakesql
// does not read, are left out.
func javaMetadataFiles(t *testing.T, root string) []metadataFile {
	t.Helper()
	var files []metadataFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "manifest" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || bytes.HasPrefix(data, []byte("ORC")) {
			return err
		}
		f := metadataFile{path: p, data: data}
		switch name := d.Name(); {
		case strings.HasPrefix(name, "manifest-list-"):
			f.decode = func(b []byte) (any, error) { return DecodeList(b) }
			f.encode = func(ft Format, v any) ([]byte, error) { return EncodeList(ft, v.([]spec.ManifestFileMeta)) }
		case strings.HasPrefix(name, "index-manifest-"):
			f.decode = func(b []byte) (any, error) { return DecodeIndex(b) }
			f.encode = func(ft Format, v any) ([]byte, error) { return EncodeIndex(ft, v.([]spec.IndexManifestEntry)) }
		case strings.HasPrefix(name, "manifest-"):
			f.decode = func(b []byte) (any, error) { return DecodeEntries(b) }
			f.encode = func(ft Format, v any) ([]byte, error) { return EncodeEntries(ft, v.([]spec.ManifestEntry)) }
		default:
			return nil
		}
		files = append(files, f)
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures under %s: %v", root, err)
	}
	return files
}

// TestParquetManifestsDecodeAsAvro: every Java-written Parquet file
// decodes to the structs its contents decode to from Avro (nil and empty
// slices, nulls and pointers alike), and lakesql's Parquet encoding of
// them decodes back to the same; so do the Avro files of the bundled
// Java-written tables (testdata/fixtures: every table kind, statistics,
// deletion vectors, branches).
func TestParquetManifestsDecodeAsAvro(t *testing.T) {
	files := append(javaMetadataFiles(t, "testdata"), javaMetadataFiles(t, fixtures.Root())...)
	for _, f := range files {
		java, err := f.decode(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		for _, format := range []Format{FormatAvro, FormatParquet} {
			data, err := f.encode(format, java)
			if err != nil {
				t.Fatalf("%s as %v: %v", f.path, format, err)
			}
			if isParquet(data) != (format == FormatParquet) {
				t.Fatalf("%s as %v: wrote %q…", f.path, format, data[:4])
			}
			back, err := f.decode(data)
			if err != nil {
				t.Fatalf("%s as %v: decode: %v", f.path, format, err)
			}
			if !reflect.DeepEqual(back, java) {
				t.Errorf("%s as %v: decoded\n%+v\nwant\n%+v", f.path, format, back, java)
			}
		}
	}
}

// TestParquetManifestsHaveJavasSchema: lakesql writes the Parquet schema
// Java 1.4.2 writes, node for node: names, physical and logical types,
// repetition, and field ids (those of list elements included).
func TestParquetManifestsHaveJavasSchema(t *testing.T) {
	for _, f := range javaMetadataFiles(t, "testdata") {
		if !strings.Contains(f.path, "1.4.2") {
			continue // Paimon 1.3 lacks fields lakesql writes
		}
		java, err := f.decode(f.data)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := f.encode(FormatParquet, java)
		if err != nil {
			t.Fatal(err)
		}
		want, got := footerSchema(t, f.data), footerSchema(t, ours)
		if len(want) < 10 {
			t.Fatalf("%s: a schema of %d nodes", f.path, len(want))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: schema\n%+v\nwant\n%+v", f.path, got, want)
		}
	}
}

// footerSchema is the schema of a Parquet file's footer, every node with
// its name, types, repetition and field id.
func footerSchema(t *testing.T, data []byte) []format.SchemaElement {
	t.Helper()
	size := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var meta format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-size:len(data)-8], &meta); err != nil {
		t.Fatal(err)
	}
	return meta.Schema
}

func TestFormatOfFollowsManifestFormat(t *testing.T) {
	for _, c := range []struct {
		options map[string]string
		want    Format
		err     string
	}{
		{options: nil, want: FormatAvro},
		{options: map[string]string{"manifest.format": "avro"}, want: FormatAvro},
		{options: map[string]string{"manifest.format": "PARQUET"}, want: FormatParquet},
		{options: map[string]string{"manifest.format": "orc"}, err: "manifest.format=orc"},
		{options: map[string]string{"manifest.format": "csv"}, err: "manifest.format=csv"},
	} {
		got, err := FormatOf(spec.NewCoreOptions(c.options))
		switch {
		case c.err != "" && (!errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: got %v, want an unsupported error naming %s", c.options, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%v: got %v, %v, want %v", c.options, got, err, c.want)
		}
	}
}

// TestParquetManifestDamage: damaged or foreign Parquet files fail as a
// whole, never with a panic or a partly decoded list.
func TestParquetManifestDamage(t *testing.T) {
	list, err := os.ReadFile("testdata/java-1.4.2-pk-dv/manifest/manifest-list-59cc6cf8-a50e-4432-b503-b879aaf011e0-0")
	if err != nil {
		t.Fatal(err)
	}
	writeRows := func(fields []spec.DataField, row []any) []byte {
		var out bytes.Buffer
		w, err := parquetio.NewWriter(&out, fields, parquetio.WriterOptions{})
		if err == nil {
			err = w.Write(row)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	meta := spec.ManifestFileMeta{FileName: "m", PartitionStats: spec.EmptyStats()}
	future := spec.ManifestFileMetaRow(&meta)
	future[0] = int32(3)
	notManifest := []spec.DataField{{ID: 0, Name: "_FILE_NAME", Type: spec.DataType{Root: spec.BigInt}}}
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", list[:len(list)-100], lakeerr.ErrCorruption},
		{"footer only", list[len(list)-20:], lakeerr.ErrCorruption},
		{"magic and garbage", append([]byte("PAR1"), make([]byte, 64)...), lakeerr.ErrCorruption},
		{"another _VERSION", writeRows(spec.ManifestListFields(), future), lakeerr.ErrCorruption},
		{"a manifest read as a list", mustRead(t, "testdata/java-1.3.1-pk/manifest/manifest-bd47cffb-5592-444c-a16f-b2ef09c4614f-0"), lakeerr.ErrCorruption},
		// the Parquet reader classifies a column it cannot read as the
		// type asked for
		{"a column of another type", writeRows(notManifest, []any{int64(1)}), lakeerr.ErrUnsupported},
	} {
		metas, err := DecodeList(c.data)
		if !errors.Is(err, c.want) || metas != nil {
			t.Errorf("%s: got %d records, %v, want %v", c.name, len(metas), err, c.want)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestParquetEncodingRefusesWhatJavaCannotRead mirrors the Avro
// encoder's checks.
func TestParquetEncodingRefusesWhatJavaCannotRead(t *testing.T) {
	bad := spec.ManifestEntry{Kind: 7, File: spec.DataFileMeta{FileName: "f"}}
	if _, err := EncodeEntries(FormatParquet, []spec.ManifestEntry{bad}); err == nil || !strings.Contains(err.Error(), "invalid kind") {
		t.Errorf("manifest entry of kind 7: got %v", err)
	}
	badIndex := spec.IndexManifestEntry{Kind: 7}
	if _, err := EncodeIndex(FormatParquet, []spec.IndexManifestEntry{badIndex}); err == nil || !strings.Contains(err.Error(), "invalid kind") {
		t.Errorf("index entry of kind 7: got %v", err)
	}
}
