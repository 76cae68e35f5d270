// Package fileindex reads and writes Paimon's data-file indexes: per data
// file, small indexes of chosen columns (file-index.<type>.columns) that let
// a read skip a file a filter cannot match. The container is Java's
// FileIndexFormat; the bloom filter is BloomFilterFileIndex with
// BloomFilter64 and FastHash, bit for bit, so Java Paimon and lakesql read
// each other's indexes. Other index types (bitmap, bsi, range-bitmap) are
// carried but not evaluated: a file whose index cannot answer is read.
//
// An index lives in the manifest entry (_EMBEDDED_FILE_INDEX) when its
// bytes do not exceed file-index.in-manifest-threshold, and otherwise
// beside the data file as <data file>.index, listed in _EXTRA_FILES.
package fileindex
