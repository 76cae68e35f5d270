package spec

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// The Java-parity vector asserted in paimon-python's
// java_py_read_write_test.py: INT key 1 with 4 buckets lands in bucket 2.
func TestBucketJavaParityVector(t *testing.T) {
	row, err := EncodeBinaryRow([]DataType{{Root: Int}}, []any{int32(1)}, RowKindInsert)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Bucket(row, 4); got != 2 || err != nil {
		t.Fatalf("Bucket = %d, %v; want 2", got, err)
	}
}

func TestBucketRejectsNonHashModes(t *testing.T) {
	for _, n := range []int{0, -1, -2} {
		if _, err := Bucket(nil, n); !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("Bucket(_, %d) err = %v", n, err)
		}
	}
}

// Java's Math.abs over a truncated remainder: a negative hash must not be
// floor-modded.
func TestBucketNegativeHash(t *testing.T) {
	for key := int32(0); key < 100; key++ {
		row, _ := EncodeBinaryRow([]DataType{{Root: Int}}, []any{key}, RowKindInsert)
		h := BucketHash(row)
		if h >= 0 {
			continue
		}
		got, _ := Bucket(row, 7)
		if want := int(-(h % 7)); got != want {
			t.Fatalf("hash %d: bucket %d, want %d", h, got, want)
		}
		return
	}
	t.Fatal("no key with a negative hash")
}

// Every row of every data file of every fixed-bucket fixture table hashes
// to the bucket-<N> directory Java put the file in.
func TestBucketMatchesJavaPlacement(t *testing.T) {
	rowsPerBucket := map[int]int{}
	tables := map[string]bool{}
	for _, info := range fxAllTables(t) {
		tb := fxLoadTable(t, info, 0)
		numBuckets, _ := strconv.Atoi(tb.Options["bucket"])
		if numBuckets <= 0 {
			continue
		}
		keys := tb.trimmedPrimaryKeys()
		if bk := tb.Options["bucket-key"]; bk != "" {
			keys = strings.Split(bk, ",")
		}
		types := tb.types(t, keys)
		for path, dirBucket := range tb.dataFiles(t) {
			for _, values := range fxParquetRows(t, path, keys, types) {
				row, err := EncodeBinaryRow(types, values, RowKindInsert)
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := Bucket(row, numBuckets); got != dirBucket {
					t.Errorf("%s: key %v hashes to bucket %d", path, values, got)
				}
				rowsPerBucket[dirBucket]++
				tables[info] = true
			}
		}
	}
	if rowsPerBucket[0] < 10 || rowsPerBucket[1] < 10 || len(tables) < 10 {
		t.Fatalf("too little evidence: rows per bucket %v from %d tables", rowsPerBucket, len(tables))
	}
	t.Logf("checked rows per bucket %v from %d tables", rowsPerBucket, len(tables))
}
