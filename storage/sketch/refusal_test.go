package sketch

import (
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// TestMalformedImagesRefused: where Java would read past the image (its
// Memory reads are unchecked) or throw, the union refuses the image; the
// pre-2015 theta formats are refused as unsupported, not guessed at.
func TestMalformedImagesRefused(t *testing.T) {
	emptyTheta := []byte{1, 3, 3, 0, 0, 0x1e, 0, 0}
	// An exact-mode ordered compact sketch claiming 3 hashes, holding 1.
	truncated := make([]byte, 24)
	truncated[0], truncated[1], truncated[2], truncated[5] = 2, 3, 3, 0x1a
	binary.LittleEndian.PutUint16(truncated[6:], thetaSeedHash)
	binary.LittleEndian.PutUint32(truncated[8:], 3)
	binary.LittleEndian.PutUint64(truncated[16:], 7)
	negative := append([]byte(nil), truncated...)
	binary.LittleEndian.PutUint32(negative[8:], 1)
	binary.LittleEndian.PutUint64(negative[16:], 1<<63)
	serVer2 := append([]byte(nil), truncated...)
	serVer2[1] = 2

	// An HLL_4 array of lgK 4 (8 register bytes) whose slot 0 is an
	// exception (nibble 15) with no aux table, and one cut short.
	hll4 := make([]byte, hllArrayStart+8)
	hll4[0], hll4[1], hll4[2], hll4[3], hll4[5], hll4[7] = hllPreInts, 1, 7, 4, hllFlagCompact, hllModeHLL
	hll4[hllArrayStart] = 0x0f
	emptyHLL := []byte{2, 1, 7, 12, 3, 0x0c, 0, 0}
	bigK := append([]byte(nil), emptyHLL...)
	bigK[3] = 22

	cases := []struct {
		name  string
		union func(a, b []byte) ([]byte, error)
		a, b  []byte
		want  error
	}{
		{"theta truncated", ThetaUnion, emptyTheta, truncated, lakeerr.ErrCorruption},
		{"theta negative hash", ThetaUnion, negative, emptyTheta, lakeerr.ErrCorruption},
		{"theta serialization version 2", ThetaUnion, serVer2, emptyTheta, lakeerr.ErrUnsupported},
		{"hll exception without aux table", HLLUnion, hll4, emptyHLL, lakeerr.ErrCorruption},
		{"hll registers cut short", HLLUnion, hll4[:hllArrayStart+4], emptyHLL, lakeerr.ErrCorruption},
		{"hll input lgK 22", HLLUnion, emptyHLL, bigK, lakeerr.ErrCorruption},
		{"hll accumulator lgK 22", HLLUnion, bigK, emptyHLL, lakeerr.ErrCorruption},
		{"hll image of 4 bytes", HLLUnion, emptyHLL, emptyHLL[:4], lakeerr.ErrCorruption},
	}
	for _, tc := range cases {
		if got, err := tc.union(tc.a, tc.b); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %x, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestCorruptAuxCountAllocatesLittle: an updatable HLL_4 image whose aux
// count says 1.5 billion, though its aux table has one slot, is read
// without allocating for the count (a map sized by it took the server
// down).
func TestCorruptAuxCountAllocatesLittle(t *testing.T) {
	img := make([]byte, hllArrayStart+8+4)
	img[0], img[1], img[2], img[3], img[7] = hllPreInts, 1, 7, 4, hllModeHLL
	binary.LittleEndian.PutUint32(img[36:], 1_577_058_304)
	emptyHLL := []byte{2, 1, 7, 12, 3, 0x0c, 0, 0}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := HLLUnion(emptyHLL, img)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("the union allocated %d bytes (%v)", grew, err)
	}
}
