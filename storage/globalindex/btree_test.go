package globalindex

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaBTreeFilesDecode opens every btree index file Java wrote in
// testdata/globalindex (NOTICE there) and decodes every block, whichever
// its compression: uncompressed, zstd and LZ4 blocks all occur, and each
// file holds the row ids of its column's non-NULL values: 188 of k's 200
// rows, all 200 of n and s. The keys' order against filter values is
// TestBTreeGlobalIndexesFindTheirRows's (storage/table).
func TestJavaBTreeFilesDecode(t *testing.T) {
	var files []string
	for _, table := range []string{"btree_none", "btree_zstd", "btree_lz4"} {
		found, err := filepath.Glob(filepath.Join("..", "..", "testdata", "globalindex", "gi.db", table, "index", "*.index"))
		if err != nil || len(found) != 3 {
			t.Fatalf("%s: %d btree index files (%v), want 3", table, len(found), err)
		}
		files = append(files, found...)
	}
	compressions := map[byte]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := OpenBTree(data, spec.DataType{Root: spec.VarChar})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rows := roaring64.New()
		for _, ref := range tree.blocks {
			compressions[data[ref.offset+int64(ref.size)]]++
			block, err := tree.block(ref.offset, ref.size)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if err := eachEntry(block, func(_, value []byte) error { return addRowIDs(rows, value) }); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		if n := rows.GetCardinality(); n != 188 && n != 200 || rows.Maximum() != 199 {
			t.Errorf("%s: %d row ids up to %d, want 188 or 200 up to 199", f, n, rows.Maximum())
		}
	}
	for _, c := range []byte{compressionNone, compressionZstd, compressionLZ4} {
		if compressions[c] == 0 {
			t.Errorf("no block of compression %d among %v", c, compressions)
		}
	}
}

// TestCorruptBTreeFiles: a flipped byte anywhere in a block or its
// trailer, a short file and a bad magic number are corruption errors,
// never a panic or a wrong answer.
func TestCorruptBTreeFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "globalindex", "gi.db", "btree_none", "index", "*.index"))
	if len(files) != 3 {
		t.Fatalf("%d btree index files, want 3", len(files))
	}
	varchar := spec.DataType{Root: spec.VarChar}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range [][]byte{data[:40], append(slices.Clone(data[:len(data)-1]), 0)} {
			if _, err := OpenBTree(bad, varchar); !errors.Is(err, lakeerr.ErrCorruption) {
				t.Errorf("%s cut to %d bytes or without its magic number: %v", f, len(bad), err)
			}
		}
		tree, err := OpenBTree(data, varchar)
		if err != nil {
			t.Fatal(err)
		}
		footer := data[len(data)-footerLength:]
		index := blockRef{offset: int64(binary.LittleEndian.Uint64(footer[20:])), size: int(binary.LittleEndian.Uint32(footer[28:]))}
		for _, ref := range append(tree.blocks, index) {
			for i := ref.offset; i < ref.offset+int64(ref.size)+blockTrailerLen; i++ {
				flipped := slices.Clone(data)
				flipped[i] ^= 0x5a
				tree, err := OpenBTree(flipped, varchar)
				if err == nil {
					_, err = tree.Range(Bound{Open: true}, Bound{Open: true})
				}
				if !errors.Is(err, lakeerr.ErrCorruption) {
					t.Fatalf("%s, byte %d flipped: %v, want a corruption error", f, i, err)
				}
			}
		}
	}
}

// FuzzBTree: no input makes OpenBTree or a lookup panic; the seeds are
// Java's files.
func FuzzBTree(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "globalindex", "gi.db", "*", "index", "*.index"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "k050")
	}
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		for _, typ := range []spec.DataType{{Root: spec.VarChar}, {Root: spec.BigInt}} {
			tree, err := OpenBTree(data, typ)
			if err != nil {
				continue
			}
			var literal any = key
			if typ.Root == spec.BigInt {
				literal = int64(len(key))
			}
			_, _ = tree.Range(Bound{Key: literal, Inclusive: true}, Bound{Open: true})
			_, _ = tree.Range(Bound{Open: true}, Bound{Key: literal})
		}
	})
}
