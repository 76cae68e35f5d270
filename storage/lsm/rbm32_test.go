package lsm

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

var bytesType = spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength, Nullable: true}

// TestRBM32MatchesJava unions the bitmaps Java serialized and expects Java's
// bytes: same containers (array, bitmap, run after runOptimize), same
// portable format. The cases cover runs, arrays overflowing into bitmaps,
// several high keys, an empty bitmap and inputs Java never run-optimized.
func TestRBM32MatchesJava(t *testing.T) {
	runHexCases(t, "testdata/rbm32_java.txt", rbm32Agg{}.agg)
}

// runHexCases reads lines of a name and three hex values, an accumulator,
// an input and Java's result, and expects agg to give Java's bytes.
func runHexCases(t *testing.T, file string, agg func(acc, in any) (any, error)) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 4 {
			t.Fatalf("bad line %q", line)
		}
		acc, in, want := unhex(t, fields[1]), unhex(t, fields[2]), unhex(t, fields[3])
		got, err := agg(acc, in)
		if err != nil {
			t.Fatalf("%s: %v", fields[0], err)
		}
		if !bytes.Equal(got.([]byte), want) {
			t.Errorf("%s:\n got %x\nwant %x", fields[0], got, want)
		}
		n++
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("read %d cases: %v", n, err)
	}
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAggregateRBM32(t *testing.T) {
	// A null side returns the other unparsed, as Java does.
	a, b := []byte("acc"), []byte("x")
	cases := []aggCase{
		{name: "null input keeps", typ: bytesType, inputs: []aggInput{add(a), add(nil)}, want: a},
		{name: "first kept as is", typ: bytesType, inputs: []aggInput{add(nil), add(b)}, want: b},
		{name: "not a bitmap", typ: bytesType, inputs: []aggInput{add(b), add(b)}, wantErr: lakeerr.ErrCorruption},
		{name: "retract refused", typ: bytesType, inputs: []aggInput{add(b), retract(b)}, wantErr: ErrRejectedRecord},
		{name: "not varbinary", typ: spec.DataType{Root: spec.Binary, Length: 8, Nullable: true}, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggRBM32
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}
