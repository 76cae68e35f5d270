package spec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// FuzzDeletionVector: arbitrary bytes never panic and only fail as
// corruption; with fixCRC the checksum is repaired first so that mutations
// reach the bitmap parser. Whatever decodes re-encodes to a stable form.
func FuzzDeletionVector(f *testing.F) {
	addDeletionVectorSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, length int64, fixCRC bool) {
		if fixCRC {
			data = withRepairedCRC(data)
		}
		dv, err := DecodeDeletionVector(data, length)
		if err != nil {
			if !errors.Is(err, lakeerr.ErrCorruption) {
				t.Fatalf("error without corruption class: %v", err)
			}
			return
		}
		// Java's writer (and so Encode) emits every bitmap below the highest
		// key; a corrupt-but-checksummed key in the millions would make the
		// round trip below allocate gigabytes for no extra coverage.
		for key := range dv.bitmaps {
			if key > 1<<10 {
				return
			}
		}
		encoded, encodedLength, err := dv.Encode()
		if err != nil {
			t.Fatalf("decoded vector does not encode: %v", err)
		}
		again, err := DecodeDeletionVector(encoded, int64(encodedLength))
		if err != nil || again.Cardinality() != dv.Cardinality() || again.Bitmap64() != dv.Bitmap64() {
			t.Fatalf("re-encoded vector decodes as %v, %v", again, err)
		}
		if reencoded, _, _ := again.Encode(); !bytes.Equal(reencoded, encoded) {
			t.Fatalf("encoding is not stable")
		}
	})
}

// addDeletionVectorSeeds seeds the Java compatibility vectors (each with
// both candidate range lengths) and vectors with several container kinds.
func addDeletionVectorSeeds(f *testing.F) {
	for _, name := range []string{"dvindex-32", "dvindex-64"} {
		file := readDVTestFile(f, filepath.Join("testdata", "dvindex", name))
		f.Add(file[1:], int64(binary.BigEndian.Uint32(file[1:])), true)
		f.Add(file[1:], int64(binary.BigEndian.Uint32(file[1:]))+8, false)
	}
	for _, dv := range []*DeletionVector{dvOf(f, false, 0, 9, 70_000), dvOf(f, true, 3, 1<<32)} {
		data, length, err := dv.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, int64(length), false)
	}
}

// withRepairedCRC recomputes the CRC32 of a serialized vector whose size
// field fits in data.
func withRepairedCRC(data []byte) []byte {
	if len(data) < 8 {
		return data
	}
	size := int64(int32(binary.BigEndian.Uint32(data)))
	if size < 0 || 8+size > int64(len(data)) {
		return data
	}
	out := append([]byte{}, data...)
	binary.BigEndian.PutUint32(out[4+size:], crc32.ChecksumIEEE(out[4:4+size]))
	return out
}
