package parquetio

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// TestReadJavaLZ4 reads a file Java Paimon wrote with file.compression =
// lz4: parquet-mr's LZ4 codec frames LZ4 blocks as Hadoop's
// BlockCompressorStream does (interop finding F13).
func TestReadJavaLZ4(t *testing.T) {
	r := openFixture(t, "testdata/paimon-1.4.2-lz4.parquet")
	var requests []ColumnRequest
	for _, c := range r.Schema() {
		requests = append(requests, ColumnRequest{Name: c.Name, Type: c.Type})
	}
	rows, _, err := readAll(t, r, requests)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(rows)
	for _, want := range []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "hello", "<nil>"} {
		if !strings.Contains(got, want) {
			t.Errorf("rows %s hold no %s", got, want)
		}
	}
	if len(rows) != 3 {
		t.Errorf("%d rows, want 3: %s", len(rows), got)
	}
}

// TestDecodeHadoopLZ4 covers the framing: several blocks, several chunks
// in a block, the raw-block fallback, and malformed frames.
func TestDecodeHadoopLZ4(t *testing.T) {
	be := binary.BigEndian.AppendUint32
	compress := func(s string) []byte {
		buf := make([]byte, lz4.CompressBlockBound(len(s)))
		var c lz4.Compressor
		n, err := c.CompressBlock([]byte(s), buf)
		if err != nil || n == 0 {
			t.Fatalf("compress %q: %d %v", s, n, err)
		}
		return buf[:n]
	}
	chunk := func(s string) []byte { c := compress(s); return append(be(nil, uint32(len(c))), c...) }
	a, b := strings.Repeat("abc", 40), strings.Repeat("xyz", 30)+"tail"
	var twoBlocks []byte
	twoBlocks = append(be(twoBlocks, uint32(len(a))), chunk(a)...)
	twoBlocks = append(be(twoBlocks, uint32(len(b))), chunk(b)...)
	oneBlockTwoChunks := append(append(be(nil, uint32(len(a+b))), chunk(a)...), chunk(b)...)
	for _, tc := range []struct {
		name string
		src  []byte
		want string
		ok   bool
	}{
		{"two blocks", twoBlocks, a + b, true},
		{"one block, two chunks", oneBlockTwoChunks, a + b, true},
		{"raw block", compress(a), a, true},
		{"truncated", twoBlocks[:len(twoBlocks)-3], a + b, false},
		{"block longer than the page", append(be(nil, 1<<20), chunk(a)...), a, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := decompress(format.Lz4, nil, tc.src, len(tc.want))
			if tc.ok && (err != nil || string(out) != tc.want) {
				t.Fatalf("got %q, %v; want %q", out, err, tc.want)
			}
			if !tc.ok && err == nil {
				t.Fatalf("no error, got %q", out)
			}
		})
	}
}
