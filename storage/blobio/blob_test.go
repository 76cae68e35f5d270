package blobio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// blobFile lays values out as Java's BlobFormatWriter does: nil is NULL,
// and lengths overrides the index (for placeholders).
func blobFile(values [][]byte, lengths ...int64) []byte {
	var out bytes.Buffer
	var index []int64
	for _, v := range values {
		if v == nil {
			index = append(index, nullLength)
			continue
		}
		start := out.Len()
		binary.Write(&out, binary.LittleEndian, uint32(magic))
		out.Write(v)
		binary.Write(&out, binary.LittleEndian, int64(len(v)+recordOverhead))
		binary.Write(&out, binary.LittleEndian, crc32.ChecksumIEEE(out.Bytes()[start:]))
		index = append(index, int64(len(v)+recordOverhead))
	}
	if lengths != nil {
		index = lengths
	}
	var idx []byte
	var prev int64
	for _, l := range index {
		d := l - prev
		prev = l
		idx = binary.AppendUvarint(idx, uint64(d<<1)^uint64(d>>63))
	}
	out.Write(idx)
	binary.Write(&out, binary.LittleEndian, uint32(len(idx)))
	out.WriteByte(version)
	return out.Bytes()
}

func open(t *testing.T, data []byte) (*File, error) {
	t.Helper()
	return Open(bytes.NewReader(data), int64(len(data)), "t.blob")
}

func TestValuesAndNulls(t *testing.T) {
	values := [][]byte{[]byte("Lily"), nil, {}, bytes.Repeat([]byte{7}, 5000), []byte("Alice")}
	f, err := open(t, blobFile(values))
	if err != nil {
		t.Fatal(err)
	}
	if f.NumRows() != int64(len(values)) {
		t.Fatalf("%d rows", f.NumRows())
	}
	for i, want := range values {
		got, err := f.Value(int64(i))
		if err != nil || !bytes.Equal(got, want) || (want == nil) != (got == nil) {
			t.Errorf("row %d: %q, %v; want %q", i, got, err, want)
		}
	}
}

// TestJavaFile reads the blob file Java wrote for a fixture.
func TestJavaFile(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtures.TableDir("paimon-java/blob_data_evolution_with_dense_stats"), "bucket-0", "*.blob"))
	if len(paths) != 1 {
		t.Fatalf("blob files %v", paths)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := open(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"Lily", "Alice"} {
		if got, err := f.Value(int64(i)); err != nil || string(got) != want {
			t.Errorf("row %d: %q, %v", i, got, err)
		}
	}
}

func TestDamageIsCorruption(t *testing.T) {
	good := blobFile([][]byte{[]byte("Lily"), []byte("Alice")})
	flipped := bytes.Clone(good)
	flipped[5] ^= 1 // a data byte: the checksum no longer matches
	if f, err := open(t, flipped); err != nil {
		t.Fatal(err)
	} else if _, err := f.Value(0); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("flipped byte: %v", err)
	}
	for n := range len(good) - 1 {
		if _, err := open(t, good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	if _, err := open(t, blobFile(nil, 30)); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("index beyond the records: %v", err)
	}
	f, err := open(t, blobFile(nil, placeholder))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Value(0); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("placeholder: %v", err)
	}
}

// FuzzRead opens arbitrary bytes as a blob file and reads every value: no
// panic, and every failure a corruption or unsupported error.
func FuzzRead(f *testing.F) {
	f.Add(blobFile([][]byte{[]byte("Lily"), nil, []byte("Alice")}))
	f.Add(blobFile(nil, placeholder, nullLength))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Open(bytes.NewReader(data), int64(len(data)), "fuzz.blob")
		for i := int64(0); err == nil && i < file.NumRows(); i++ {
			_, err = file.Value(i)
		}
		if err != nil && !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Fatalf("unclassified error: %v", err)
		}
	})
}
