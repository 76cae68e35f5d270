package write

import (
	"slices"
	"unicode/utf8"
)

// The bound truncation of Java's truncate(N) stats mode
// (org.apache.paimon.statistics.TruncateSimpleColStatsCollector): string
// bounds keep N code points, binary bounds N bytes; other values are kept
// whole.

// truncateMin cuts v to its first n code points or bytes. A prefix sorts
// before the value, so it is still a lower bound.
func truncateMin(v any, n int) any {
	switch x := v.(type) {
	case string:
		return x[:codePointPrefix(x, n)]
	case []byte:
		if len(x) > n {
			return x[:n]
		}
	}
	return v
}

// truncateMax cuts v as truncateMin does and, when that shortened it,
// increments the last code point (byte) that can be incremented and drops
// what follows it: the result sorts after every value with the cut
// prefix, so it is still an upper bound. ok is false when v is nil or no
// code point (byte) can be incremented; Java then keeps no bounds.
func truncateMax(v any, n int) (hi any, ok bool) {
	switch x := v.(type) {
	case nil:
		return nil, false
	case string:
		return roundUpString(x, n)
	case []byte:
		if len(x) <= n {
			return x, true
		}
		return roundUpBytes(x[:n])
	}
	return v, true
}

func roundUpString(s string, n int) (any, bool) {
	prefix := s[:codePointPrefix(s, n)]
	if len(prefix) == len(s) {
		return s, true
	}
	// Java increments the code points it decoded, and decodes invalid
	// UTF-8 as U+FFFD: no upper bound of the bytes it replaced.
	if !utf8.ValidString(prefix) {
		return nil, false
	}
	runes := []rune(prefix)
	for i := len(runes) - 1; i >= 0; i-- {
		if next, ok := nextCodePoint(runes[i]); ok {
			return string(append(runes[:i], next)), true
		}
	}
	return nil, false
}

// nextCodePoint is the smallest code point above r that UTF-8 can encode.
// Java increments U+D7FF to the lone surrogate U+D800, which its UTF-8
// encoder writes as '?': a "maximum" below the value it should bound.
// lakesql skips the surrogates to U+E000 instead.
func nextCodePoint(r rune) (rune, bool) {
	switch r {
	case utf8.MaxRune:
		return 0, false
	case 0xD7FF:
		return 0xE000, true
	}
	return r + 1, true
}

func roundUpBytes(b []byte) (any, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			out := slices.Clone(b[:i+1])
			out[i]++
			return out, true
		}
	}
	return nil, false
}

// codePointPrefix is the byte length of the first n characters of s,
// counted as Java's BinaryString.substring counts them: each step skips
// the length the lead byte of a UTF-8 sequence announces, or one byte for
// a byte that leads none.
func codePointPrefix(s string, n int) int {
	i := 0
	for c := 0; c < n && i < len(s); c++ {
		i += utf8SequenceLength(s[i])
	}
	return min(i, len(s))
}

// utf8SequenceLength is BinaryString.numBytesForFirstByte.
func utf8SequenceLength(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b>>5 == 0b110 && b&0x1e != 0:
		return 2
	case b>>4 == 0b1110:
		return 3
	case b>>3 == 0b11110:
		return 4
	}
	return 1
}
