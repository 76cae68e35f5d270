package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
)

// mfLargestFixture is the largest Avro manifest among the fixtures.
func mfLargestFixture(b *testing.B) []byte {
	path := filepath.Join(fixtures.TableDir("paimon-java/pk_dv_index_in_data_with_external"), "manifest",
		"manifest-57d995c0-2b72-4a6b-aaef-e5a84124f384-1")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// mfSyntheticEntries builds n entries shaped like a partitioned PK table's:
// a 20-column value-stats row, a 2-column key, an INT partition.
func mfSyntheticEntries(n int) []ManifestEntry {
	stats := make([]byte, 4+8+20*8+64)
	stats[3] = 20
	created := time.UnixMilli(1_780_000_000_000).UTC()
	entries := make([]ManifestEntry, n)
	for i := range entries {
		counts := make([]*int64, 20)
		for c := range counts {
			counts[c] = mfPtr(int64(c))
		}
		entries[i] = ManifestEntry{
			Kind: FileKindAdd, Partition: mfIntKeyRow(byte(i % 16)), Bucket: int32(i % 8), TotalBuckets: 8,
			File: DataFileMeta{
				FileName: fmt.Sprintf("data-5e07ff5a-eeb7-49ef-8769-c73b058ae171-%d.parquet", i),
				FileSize: 128 << 20, RowCount: 1 << 20, MinKey: mfIntKeyRow(1), MaxKey: mfIntKeyRow(200),
				KeyStats:          SimpleStats{MinValues: mfIntKeyRow(1), MaxValues: mfIntKeyRow(200), NullCounts: counts[:1]},
				ValueStats:        SimpleStats{MinValues: stats, MaxValues: stats, NullCounts: counts},
				MinSequenceNumber: int64(i), MaxSequenceNumber: int64(i) + 1000, Level: int32(i % 5),
				ExtraFiles: []string{}, CreationTime: &created, DeleteRowCount: mfPtr[int64](0),
				FileSource: mfPtr(FileSourceAppend),
			},
		}
	}
	return entries
}

func BenchmarkDecodeManifestEntries(b *testing.B) {
	synthetic, err := EncodeManifestEntries(mfSyntheticEntries(10000))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"fixture=largest", mfLargestFixture(b)}, {"synthetic=10000x20cols", synthetic}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			entries := 0
			for b.Loop() {
				got, err := DecodeManifestEntries(c.data)
				if err != nil {
					b.Fatal(err)
				}
				entries += len(got)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(entries), "ns/entry")
		})
	}
}

func BenchmarkEncodeManifestEntries(b *testing.B) {
	entries := mfSyntheticEntries(10000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeManifestEntries(entries); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/entry")
}
