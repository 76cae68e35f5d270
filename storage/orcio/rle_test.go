package orcio

import (
	"errors"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func byteRLE(s *stream, n int) []byte { return byteRuns(s).next(n) }

func boolRLE(s *stream, n int) []bool { return (&bools{bytes: byteRuns(s)}).next(n) }

func intRLE(s *stream, n int, v2, signed bool) []int64 { return intRuns(s, v2, signed).next(n) }

// The cases are the worked examples of the ORC v1 specification
// (https://orc.apache.org/specification/ORCv1/, "Run Length Encoding").

func TestByteRLE(t *testing.T) {
	cases := []struct {
		in   []byte
		want []byte
	}{
		{[]byte{0x61, 0x00}, make([]byte, 100)},
		{[]byte{0xfe, 0x44, 0x45}, []byte{0x44, 0x45}},
	}
	for _, c := range cases {
		s := &stream{b: c.in}
		if got := byteRLE(s, len(c.want)); s.err != nil || !slices.Equal(got, c.want) {
			t.Errorf("byteRLE(% x) = % x, %v; want % x", c.in, got, s.err, c.want)
		}
	}
}

func TestBoolRLE(t *testing.T) {
	// 0xff then 0x80 as a literal pair: eight trues, then one true, seven
	// falses; a 9-value read stops after the first bit of the second byte.
	s := &stream{b: []byte{0xfe, 0xff, 0x80}}
	got := boolRLE(s, 9)
	want := []bool{true, true, true, true, true, true, true, true, true}
	if s.err != nil || !slices.Equal(got, want) {
		t.Fatalf("boolRLE = %v, %v; want %v", got, s.err, want)
	}
}

func TestIntRLEv1(t *testing.T) {
	hundredSevens := make([]int64, 100)
	for i := range hundredSevens {
		hundredSevens[i] = 7
	}
	countdown := make([]int64, 100)
	for i := range countdown {
		countdown[i] = int64(100 - i)
	}
	cases := []struct {
		in   []byte
		want []int64
	}{
		{[]byte{0x61, 0x00, 0x07}, hundredSevens},
		{[]byte{0x61, 0xff, 0x64}, countdown},
		{[]byte{0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}, []int64{2, 3, 6, 7, 11}},
	}
	for _, c := range cases {
		s := &stream{b: c.in}
		if got := intRLE(s, len(c.want), false, false); s.err != nil || !slices.Equal(got, c.want) {
			t.Errorf("v1 % x = %v, %v; want %v", c.in, got, s.err, c.want)
		}
	}
}

func TestIntRLEv2(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want []int64
	}{
		{"short repeat", []byte{0x0a, 0x27, 0x10}, []int64{10000, 10000, 10000, 10000, 10000}},
		{"direct", []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef},
			[]int64{23713, 43806, 57005, 48879}},
		{"patched base", []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c,
			0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120,
				2130, 2140, 2150, 2160, 2170, 2180, 2190}},
		{"delta", []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}},
	}
	for _, c := range cases {
		s := &stream{b: c.in}
		if got := intRLE(s, len(c.want), true, false); s.err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: v2 = %v, %v; want %v", c.name, got, s.err, c.want)
		}
		if s.pos != len(c.in) {
			t.Errorf("%s: consumed %d of %d bytes", c.name, s.pos, len(c.in))
		}
	}
}

// TestTruncatedRunsAreCorrupt cuts each v2 example short: the decoder
// must report corruption, not read past the stream or panic.
func TestTruncatedRunsAreCorrupt(t *testing.T) {
	full := []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}
	for n := range len(full) {
		s := &stream{b: full[:n]}
		intRLE(s, 4, true, false)
		if !errors.Is(s.err, lakeerr.ErrCorruption) {
			t.Errorf("%d bytes: err %v; want corruption", n, s.err)
		}
	}
}

func TestBigVarint(t *testing.T) {
	cases := []struct {
		in   []byte
		want string
	}{
		{[]byte{0x00}, "0"},
		{[]byte{0x01}, "-1"},
		{[]byte{0x02}, "1"},
		{[]byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "9223372036854775807"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "-9223372036854775808"},
		// 2^64 zigzagged is 2^65: beyond int64.
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x04}, "18446744073709551616"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03}, "-18446744073709551616"},
	}
	for _, c := range cases {
		s := &stream{b: c.in}
		small, large := s.bigVarint()
		got := rescale(small, large, 0, 0).String()
		if s.err != nil || got != c.want {
			t.Errorf("bigVarint(% x) = %s, %v; want %s", c.in, got, s.err, c.want)
		}
	}
}

// TestRunsSpanBatches reads the spec's examples in batches of every size:
// a run a batch cuts short continues in the next, and booleans continue
// within their byte.
func TestRunsSpanBatches(t *testing.T) {
	patched := []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c,
		0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8}
	twoRuns := append([]byte{0x0a, 0x27, 0x10}, patched...)
	whole := intRLE(&stream{b: twoRuns}, 25, true, false)
	boolBytes := []byte{0xfd, 0xa5, 0x0f, 0xf0, 0x02, 0x55} // three literals, then a run of five 0x55
	allBools := boolRLE(&stream{b: boolBytes}, 64)
	for batch := 1; batch <= 25; batch++ {
		r := intRuns(&stream{b: twoRuns}, true, false)
		var got []int64
		for len(got) < len(whole) {
			got = append(got, r.next(min(batch, len(whole)-len(got)))...)
		}
		if r.s.err != nil || !slices.Equal(got, whole) {
			t.Fatalf("ints in batches of %d: %v, %v; want %v", batch, got, r.s.err, whole)
		}
		b := &bools{bytes: byteRuns(&stream{b: boolBytes})}
		var bits []bool
		for len(bits) < len(allBools) {
			bits = append(bits, b.next(min(batch, len(allBools)-len(bits)))...)
		}
		if b.bytes.s.err != nil || !slices.Equal(bits, allBools) {
			t.Fatalf("booleans in batches of %d differ", batch)
		}
	}
}
