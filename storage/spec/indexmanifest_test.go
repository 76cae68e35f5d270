package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
)

func TestDecodeDeletionVectorIndexManifest(t *testing.T) {
	path := filepath.Join(fixtures.TableDir("paimon-java/pk_table_with_dv_cardinality"), "manifest",
		"index-manifest-8ed1d9a0-f19d-498f-bfdc-41fc3f8ab506-0")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := DecodeIndexManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	partition := []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0}
	want := []IndexManifestEntry{
		{Kind: FileKindAdd, Partition: partition, Bucket: 1, IndexFile: IndexFileMeta{
			IndexType: IndexTypeDeletionVectors, FileName: "index-62372b7b-d1cf-4dde-a162-c9d9d35006b4-1", FileSize: 33, RowCount: 1,
			DeletionVectorRanges: []DeletionVectorMeta{{
				DataFileName: "data-ed5d7184-cf42-4f4a-bf83-1e3080d9012d-0.parquet", Offset: 1, Length: 24, Cardinality: mfPtr[int64](2),
			}},
		}},
		{Kind: FileKindAdd, Partition: partition, Bucket: 0, IndexFile: IndexFileMeta{
			IndexType: IndexTypeDeletionVectors, FileName: "index-62372b7b-d1cf-4dde-a162-c9d9d35006b4-0", FileSize: 31, RowCount: 1,
			DeletionVectorRanges: []DeletionVectorMeta{{
				DataFileName: "data-3061fa63-6ed0-422c-9169-5c3e4b25485e-0.parquet", Offset: 1, Length: 22, Cardinality: mfPtr[int64](1),
			}},
		}},
	}
	if !reflect.DeepEqual(entries, want) {
		t.Fatalf("got  %+v\nwant %+v", entries, want)
	}
}

func TestDecodeGoldenGlobalIndexManifest(t *testing.T) {
	entries, err := DecodeIndexManifest(mfReadGolden(t, "index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("got %d entries", len(entries))
	}
	bitmap := entries[0]
	if bitmap.Kind != FileKindAdd || !reflect.DeepEqual(bitmap.Partition, mfEmptyRow) || bitmap.IndexFile.IndexType != "bitmap" ||
		bitmap.IndexFile.FileName != "index-f63ec4ec-4df1-436b-89c8-55dbc50a82af-1" || bitmap.IndexFile.RowCount != 4 ||
		bitmap.IndexFile.DeletionVectorRanges != nil {
		t.Fatalf("bitmap entry: %+v", bitmap)
	}
	g := bitmap.IndexFile.GlobalIndex
	if g == nil || g.RowRangeStart != 0 || g.RowRangeEnd != 3 || g.IndexFieldID != 2 || g.ExtraFieldIDs != nil ||
		string(g.IndexMeta) != "\x04\x00\x00\x00even\x03\x00\x00\x00odd\x00\x01\x00" ||
		!bytes.Contains(g.SourceMeta, []byte("\x00\x33data-1204a156-ccd1-48bf-96e6-31ac2028e91a-0.parquet")) {
		t.Fatalf("bitmap global index: %+v", g)
	}
	if btree := entries[1].IndexFile; btree.IndexType != "btree" || btree.GlobalIndex.IndexFieldID != 1 {
		t.Fatalf("btree entry: %+v", btree)
	}
}

func TestEncodeIndexManifestFullyPopulated(t *testing.T) {
	entries := []IndexManifestEntry{
		{Kind: FileKindDelete, Partition: mfIntKeyRow(3), Bucket: 7, IndexFile: IndexFileMeta{
			IndexType: IndexTypeHash, FileName: "index-1", FileSize: 10, RowCount: 2, ExternalPath: mfPtr("oss://x/index-1"),
		}},
		{Kind: FileKindAdd, Partition: mfEmptyRow, IndexFile: IndexFileMeta{
			IndexType: IndexTypeDeletionVectors, FileName: "index-2", DeletionVectorRanges: []DeletionVectorMeta{
				{DataFileName: "a", Offset: 1, Length: 2},
				{DataFileName: "b", Offset: 3, Length: 4, Cardinality: mfPtr[int64](5)},
			},
		}},
		{Kind: FileKindAdd, Partition: mfEmptyRow, IndexFile: IndexFileMeta{
			IndexType: "btree", FileName: "index-3", DeletionVectorRanges: []DeletionVectorMeta{},
			GlobalIndex: &GlobalIndexMeta{RowRangeStart: 5, RowRangeEnd: 9, IndexFieldID: 1, ExtraFieldIDs: []int32{2, 3},
				IndexMeta: []byte{}, SourceMeta: []byte{1}},
		}},
	}
	data, err := EncodeIndexManifest(entries)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeIndexManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatalf("got  %+v\nwant %+v", got, entries)
	}
}
