package sketch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// javaVector is one line of a golden file the interop tool's
// sketch-vectors subcommand wrote: Paimon's aggregator applied to an
// accumulator and an input, and its result (nil when Java threw).
type javaVector struct {
	name          string
	acc, in, want []byte
}

func readVectors(t *testing.T, path string) []javaVector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 64<<20)
	var out []javaVector
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("bad line %.80q", line)
		}
		v := javaVector{name: f[0], acc: unhex(t, f[1]), in: unhex(t, f[2])}
		if !strings.HasPrefix(f[3], "error:") {
			v.want = unhex(t, f[3])
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("read %d vectors: %v", len(out), err)
	}
	return out
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkVectors(t *testing.T, path string, union func(a, b []byte) ([]byte, error)) {
	for _, v := range readVectors(t, path) {
		got, err := union(v.acc, v.in)
		switch {
		case v.want == nil && err == nil:
			t.Errorf("%s: Java throws, got %x", v.name, got)
		case v.want != nil && err != nil:
			t.Errorf("%s: %v", v.name, err)
		case !bytes.Equal(got, v.want):
			t.Errorf("%s: got %d bytes, want %d; first difference at byte %d", v.name, len(got), len(v.want), firstDiff(got, v.want))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestThetaUnionMatchesJava(t *testing.T) {
	checkVectors(t, "testdata/theta_java.txt.gz", ThetaUnion)
}

func TestHLLUnionMatchesJava(t *testing.T) {
	checkVectors(t, "testdata/hll_java.txt.gz", HLLUnion)
}
