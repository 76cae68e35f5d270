package manifest

import (
	"fmt"
	"os"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// benchEntries is n copies of the entries of a Java-written manifest,
// each file renamed.
func benchEntries(b *testing.B, n int) []spec.ManifestEntry {
	data, err := os.ReadFile("testdata/java-1.4.2-pk-dv/manifest/manifest-4e9c1309-0008-4d64-a277-f6b247f2abd7-1")
	if err != nil {
		b.Fatal(err)
	}
	java, err := DecodeEntries(data)
	if err != nil {
		b.Fatal(err)
	}
	entries := make([]spec.ManifestEntry, n)
	for i := range entries {
		entries[i] = java[i%len(java)]
		entries[i].File.FileName = fmt.Sprintf("data-%08d.parquet", i)
	}
	return entries
}

// BenchmarkDecodeEntries compares decoding a manifest of 10,000 entries
// written as Avro and as Parquet.
func BenchmarkDecodeEntries(b *testing.B) {
	entries := benchEntries(b, 10000)
	for _, format := range []Format{FormatAvro, FormatParquet} {
		data, err := EncodeEntries(format, entries)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(format.String(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := DecodeEntries(data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/entry")
		})
	}
}

// BenchmarkEncodeEntries is the same manifest encoded in each format.
func BenchmarkEncodeEntries(b *testing.B) {
	entries := benchEntries(b, 10000)
	for _, format := range []Format{FormatAvro, FormatParquet} {
		b.Run(format.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeEntries(format, entries); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/entry")
		})
	}
}
