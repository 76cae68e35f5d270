package orcio

import (
	"encoding/binary"
	"math/big"
)

// The run-length encodings of ORC's streams
// (https://orc.apache.org/specification/ORCv1/, "Run Length Encoding").
// Decoders read a whole stream of one stripe, which the stripe footer
// sizes, and fail with a corruption error rather than read past it.

// stream is a cursor over one uncompressed stream. Its first error sticks:
// reads after it return zeros, and the caller checks err once per run.
type stream struct {
	b   []byte
	pos int
	err error
}

func (s *stream) fail(format string, args ...any) {
	if s.err == nil {
		s.err = corruptf(format, args...)
	}
}

func (s *stream) byte() byte {
	if s.pos >= len(s.b) {
		s.fail("stream ends early")
		return 0
	}
	c := s.b[s.pos]
	s.pos++
	return c
}

func (s *stream) bytes(n int) []byte {
	if n < 0 || n > len(s.b)-s.pos {
		s.fail("stream ends early")
		return nil
	}
	b := s.b[s.pos : s.pos+n]
	s.pos += n
	return b
}

// uvarint reads a base-128 varint, least significant group first.
func (s *stream) uvarint() uint64 {
	v, n := binary.Uvarint(s.b[s.pos:])
	if n <= 0 {
		s.fail("bad varint")
		return 0
	}
	s.pos += n
	return v
}

func (s *stream) varint(signed bool) int64 {
	v := s.uvarint()
	if signed {
		return unzigzag(v)
	}
	return int64(v)
}

// bigVarint reads an unbounded zigzag varint, the unscaled value of a
// DECIMAL: it returns the value in small when it fits in an int64,
// otherwise in big.
func (s *stream) bigVarint() (small int64, large *big.Int) {
	var acc big.Int
	var word uint64
	shift := uint(0)
	for i := 0; ; i++ {
		if i > 20 { // 38-digit decimals need 18 bytes
			s.fail("decimal varint longer than 20 bytes")
			return 0, nil
		}
		c := s.byte()
		if s.err != nil {
			return 0, nil
		}
		if shift < 56 {
			word |= uint64(c&0x7f) << shift
		} else {
			acc.Or(&acc, new(big.Int).Lsh(big.NewInt(int64(c&0x7f)), shift))
		}
		shift += 7
		if c < 0x80 {
			break
		}
	}
	if acc.Sign() == 0 {
		return unzigzag(word), nil
	}
	acc.Or(&acc, new(big.Int).SetUint64(word))
	negative := acc.Bit(0) == 1
	acc.Rsh(&acc, 1)
	if negative {
		acc.Neg(&acc).Sub(&acc, big.NewInt(1))
	}
	if acc.IsInt64() {
		return acc.Int64(), nil
	}
	return 0, &acc
}

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// runs hands out the values of a run-length encoded stream a batch at a
// time: run decodes the next run, appending its values, and what a batch
// leaves of a run waits for the next.
type runs[T any] struct {
	s    *stream
	run  func(s *stream, out []T) []T
	vals []T
	off  int
}

// next returns the next n values, fewer only with s.err set.
func (r *runs[T]) next(n int) []T {
	out := make([]T, 0, n)
	for len(out) < n && r.s.err == nil {
		if r.off == len(r.vals) {
			if r.s.pos >= len(r.s.b) {
				r.s.fail("stream ends early")
				break
			}
			r.vals, r.off = r.run(r.s, r.vals[:0]), 0
			continue
		}
		k := min(n-len(out), len(r.vals)-r.off)
		out = append(out, r.vals[r.off:r.off+k]...)
		r.off += k
	}
	return out
}

func byteRuns(s *stream) *runs[byte] { return &runs[byte]{s: s, run: byteRun} }

// intRuns reads integers of version 1 or 2 of the integer run-length
// encoding; signed streams zigzag-encode their values.
func intRuns(s *stream, v2, signed bool) *runs[int64] {
	run := func(s *stream, out []int64) []int64 { return intRunV1(s, out, signed) }
	if v2 {
		run = func(s *stream, out []int64) []int64 { return intRunV2(s, out, signed) }
	}
	return &runs[int64]{s: s, run: run}
}

// byteRun appends one run of byte run-length encoding: a control byte c
// of 0..127 repeats the next byte c+3 times; -1..-128 precedes -c literal
// bytes.
func byteRun(s *stream, out []byte) []byte {
	c := int8(s.byte())
	if c < 0 {
		return append(out, s.bytes(-int(c))...)
	}
	v := s.byte()
	for range int(c) + 3 {
		out = append(out, v)
	}
	return out
}

// bools reads booleans: byte run-length encoded bytes of 8 bits each,
// most significant first.
type bools struct {
	bytes *runs[byte]
	cur   byte
	left  int // bits of cur not yet read
}

func (b *bools) next(n int) []bool {
	out := make([]bool, 0, n)
	out = b.drain(out, n)
	if len(out) < n {
		for _, c := range b.bytes.next((n - len(out) + 7) / 8) {
			b.cur, b.left = c, 8
			out = b.drain(out, n)
		}
	}
	return out
}

// drain appends the unread bits of cur, up to n values in all.
func (b *bools) drain(out []bool, n int) []bool {
	for ; b.left > 0 && len(out) < n; b.left-- {
		out = append(out, b.cur&(1<<(b.left-1)) != 0)
	}
	return out
}

// intRunV1 appends one run of version 1: a control byte c of 0..127 is a
// run of c+3 values from a varint base with a signed byte delta; -1..-128
// precedes -c varint literals.
func intRunV1(s *stream, out []int64, signed bool) []int64 {
	c := int8(s.byte())
	if c < 0 {
		for range -int(c) {
			out = append(out, s.varint(signed))
		}
		return out
	}
	delta := int64(int8(s.byte()))
	base := s.varint(signed)
	for i := range int64(c) + 3 {
		out = append(out, base+i*delta)
	}
	return out
}

// Version 2 sub-encodings, the top two bits of a run's first byte.
const (
	rleShortRepeat = iota
	rleDirect
	rlePatchedBase
	rleDelta
)

func intRunV2(s *stream, out []int64, signed bool) []int64 {
	first := s.byte()
	switch first >> 6 {
	case rleShortRepeat:
		return shortRepeat(s, out, first, signed)
	case rleDirect:
		return directRun(s, out, first, signed)
	case rlePatchedBase:
		return patchedBaseRun(s, out, first)
	default:
		return deltaRun(s, out, first, signed)
	}
}

// shortRepeat: 3 bits of value width in bytes - 1, 3 bits of count - 3,
// then the value big-endian.
func shortRepeat(s *stream, out []int64, first byte, signed bool) []int64 {
	width := int(first>>3&7) + 1
	count := int(first&7) + 3
	v := bigEndian(s.bytes(width))
	value := int64(v)
	if signed {
		value = unzigzag(v)
	}
	for range count {
		out = append(out, value)
	}
	return out
}

// runLength is the 9-bit length - 1 of DIRECT, PATCHED_BASE and DELTA
// runs: the low bit of the first byte and the whole second.
func runLength(s *stream, first byte) int {
	return (int(first&1)<<8 | int(s.byte())) + 1
}

// directRun: a 5-bit width code, the run length, then the values
// bit-packed.
func directRun(s *stream, out []int64, first byte, signed bool) []int64 {
	width := decodeWidth(int(first >> 1 & 0x1f))
	n := runLength(s, first)
	start := len(out)
	out = unpack(s, out, n, width)
	if signed {
		for i := start; i < len(out); i++ {
			out[i] = unzigzag(uint64(out[i]))
		}
	}
	return out
}

// patchedBaseRun: values stored as offsets from a base in a narrow width,
// with a list of patches that supply the high bits of the few values that
// need more. The values are never zigzag-encoded; the base is
// sign-magnitude.
func patchedBaseRun(s *stream, out []int64, first byte) []int64 {
	width := decodeWidth(int(first >> 1 & 0x1f))
	n := runLength(s, first)
	third, fourth := s.byte(), s.byte()
	baseBytes := int(third>>5&7) + 1
	patchWidth := decodeWidth(int(third & 0x1f))
	gapWidth := int(fourth>>5&7) + 1
	patchCount := int(fourth & 0x1f)
	if patchWidth+gapWidth > 64 {
		s.fail("patch of %d bits", patchWidth+gapWidth)
		return out
	}
	base := int64(bigEndian(s.bytes(baseBytes)))
	if sign := int64(1) << (baseBytes*8 - 1); base&sign != 0 {
		base = -(base &^ sign)
	}
	start := len(out)
	out = unpack(s, out, n, width)
	patches := unpack(s, nil, patchCount, closestFixedWidth(patchWidth+gapWidth))
	if s.err != nil {
		return out
	}
	applyPatches(s, out[start:], patches, width, patchWidth)
	for i := start; i < len(out); i++ {
		out[i] += base
	}
	return out
}

// applyPatches ors each patch's bits above width into the value its gap
// reaches. A gap wider than the gap field is spelled as entries of gap
// 255 with patch 0.
func applyPatches(s *stream, values, patches []int64, width, patchWidth int) {
	mask := int64(1)<<patchWidth - 1
	if patchWidth == 64 {
		mask = -1
	}
	at := 0
	for _, p := range patches {
		gap := int(uint64(p) >> patchWidth)
		patch := p & mask
		at += gap
		if gap == 255 && patch == 0 {
			continue
		}
		if at >= len(values) || width >= 64 {
			s.fail("patch beyond its run")
			return
		}
		values[at] |= patch << width
	}
}

// deltaRun: a width code (0: every delta is the base delta), the run
// length, the first value as a varint, the base delta as a signed varint,
// then the absolute values of the remaining deltas bit-packed, all with
// the base delta's sign.
func deltaRun(s *stream, out []int64, first byte, signed bool) []int64 {
	code := int(first >> 1 & 0x1f)
	n := runLength(s, first)
	value := s.varint(signed)
	delta := s.varint(true)
	out = append(out, value)
	if code == 0 {
		for range n - 1 {
			value += delta
			out = append(out, value)
		}
		return out
	}
	if n < 2 {
		return out
	}
	value += delta
	out = append(out, value)
	start := len(out)
	out = unpack(s, out, n-2, decodeWidth(code))
	for i := start; i < len(out); i++ {
		if delta < 0 {
			value -= out[i]
		} else {
			value += out[i]
		}
		out[i] = value
	}
	return out
}

// unpack appends n values of width bits, packed big-endian from a byte
// boundary; the run ends at the next byte boundary.
func unpack(s *stream, out []int64, n, width int) []int64 {
	if n*width > 8*(len(s.b)-s.pos) {
		s.fail("bit-packed run ends beyond its stream")
		return out
	}
	var cur uint64
	bits := 0
	for range n {
		var v uint64
		for need := width; need > 0; {
			if bits == 0 {
				cur = uint64(s.b[s.pos])
				s.pos++
				bits = 8
			}
			take := min(need, bits)
			v = v<<take | cur>>(bits-take)&(1<<take-1)
			bits -= take
			need -= take
		}
		out = append(out, int64(v))
	}
	return out
}

func bigEndian(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// decodeWidth maps a 5-bit width code to bits: 0..23 are 1..24, then
// 26, 28, 30, 32, 40, 48, 56, 64.
func decodeWidth(code int) int {
	if code < 24 {
		return code + 1
	}
	return [...]int{26, 28, 30, 32, 40, 48, 56, 64}[code-24]
}

// closestFixedWidth rounds a width up to one decodeWidth can express.
func closestFixedWidth(bits int) int {
	switch {
	case bits <= 1:
		return 1
	case bits <= 24:
		return bits
	}
	for _, w := range [...]int{26, 28, 30, 32, 40, 48, 56, 64} {
		if bits <= w {
			return w
		}
	}
	return 64
}
