package lsm

import (
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestRBM64MatchesJava unions the Roaring64Bitmaps Java serialized and
// expects Java's bytes. The cases grow every ART node kind into the next
// (Node4 to Node256), split compressed prefixes, pair every kind of
// container with every other (arrays adding up past 4096, bitmaps, runs,
// full containers, a run that ends up an array), and read bitmaps Java never
// run-optimized or whose keys were removed (shrunk nodes with stale key
// bytes, freed container slots); chain_* folds each result into the next.
func TestRBM64MatchesJava(t *testing.T) {
	runHexCases(t, "testdata/rbm64_java.txt", rbm64Agg{}.agg)
}

func TestAggregateRBM64(t *testing.T) {
	a, b := []byte("acc"), []byte("x")
	cases := []aggCase{
		{name: "null input keeps", typ: bytesType, inputs: []aggInput{add(a), add(nil)}, want: a},
		{name: "first kept as is", typ: bytesType, inputs: []aggInput{add(nil), add(b)}, want: b},
		{name: "not a bitmap", typ: bytesType, inputs: []aggInput{add(b), add(b)}, wantErr: lakeerr.ErrCorruption},
		{name: "truncated", typ: bytesType, inputs: []aggInput{add([]byte{1, 1, 0}), add([]byte{0})}, wantErr: lakeerr.ErrCorruption},
		{name: "retract refused", typ: bytesType, inputs: []aggInput{add(b), retract(b)}, wantErr: ErrRejectedRecord},
		{name: "not varbinary", typ: spec.DataType{Root: spec.Binary, Length: 8, Nullable: true}, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggRBM64
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

// rbm64Image is a serialized Roaring64Bitmap of one leaf whose container
// is the one container given (mark, kind and contents), followed by the
// container count and the last slot handed out.
func rbm64Image(container []byte, first, second int32) []byte {
	b := []byte{1}
	b = binary.LittleEndian.AppendUint64(b, 1) // key size
	b = append(b, artLeaf, 0, 0, 0)            // a leaf, no children, no prefix
	b = append(b, make([]byte, artKeyLen)...)  // its key
	b = binary.LittleEndian.AppendUint64(b, 0) // its container
	b = binary.LittleEndian.AppendUint32(b, 1) // one container array
	b = append(b, 0)                           // trim mark
	b = binary.LittleEndian.AppendUint32(b, 1) // of one slot
	b = append(b, container...)                // the container
	b = binary.LittleEndian.AppendUint64(b, 1) // containers in all
	b = binary.LittleEndian.AppendUint32(b, uint32(first))
	return binary.LittleEndian.AppendUint32(b, uint32(second))
}

// TestRBM64CorruptLengthAllocatesLittle: an array container claiming 2^31
// values in a value cut short is refused without allocating what it
// claims (a 4 GB buffer per container took the server down).
func TestRBM64CorruptLengthAllocatesLittle(t *testing.T) {
	array := binary.LittleEndian.AppendUint32([]byte{1, containerArray}, math.MaxInt32)
	b := rbm64Image(array, 0, 0)
	b = b[:len(b)-16] // cut after the container's header
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := rbm64Agg{}.agg(b, b)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("got %v, want a corruption error", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("refusing the value allocated %d bytes", grew)
	}
}

// TestRBM64CorruptStructureRefused: values that parse but could not come
// from Java, found by mutating Java's values, are refused rather than
// panicking in the union.
func TestRBM64CorruptStructureRefused(t *testing.T) {
	run := func(start, length uint16) []byte {
		c := binary.LittleEndian.AppendUint32([]byte{1, containerRun}, 1)
		c = binary.LittleEndian.AppendUint16(c, 1)
		c = binary.LittleEndian.AppendUint16(c, start)
		return binary.LittleEndian.AppendUint16(c, length)
	}
	valid := rbm64Image(run(10, 5), 0, 0)
	if _, err := (rbm64Agg{}).agg(valid, valid); err != nil {
		t.Fatalf("the valid image: %v", err)
	}
	for name, b := range map[string][]byte{
		"run past 65535":           rbm64Image(run(65530, 10), 0, 0),
		"last slot in no array":    rbm64Image(run(10, 5), 3, 0),
		"last slot past its array": rbm64Image(run(10, 5), 0, 7),
	} {
		if _, err := (rbm64Agg{}).agg(valid, b); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: %v, want a corruption error", name, err)
		}
	}
}
