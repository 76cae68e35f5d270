package vector

import (
	"bytes"
	"math"

	"github.com/lakesql/lakesql/storage/predicate"
)

// Bounds are the values of one column for which every comparison,
// equality and BETWEEN among the conjuncts of a predicate on that column
// can be TRUE, in the column's vector representation. On rows sorted by
// the column, as a primary-key table's data file is by its first key
// field, the rows within the bounds are one stretch that a binary search
// finds: a point read then compares a few dozen values of a page instead
// of every value of it. The other conjuncts still decide each row of the
// stretch.
type Bounds struct {
	// Kind is Int32s, Int64s or Bytes.
	Kind Kind
	// Integer bounds are inclusive; an exclusive literal bound moved by
	// one.
	hasLower, hasUpper bool
	lowerInt, upperInt int64
	// Byte bounds keep their inclusiveness.
	lowerBytes, upperBytes []byte
	lowerOpen, upperOpen   bool
	// empty marks bounds that no value satisfies.
	empty bool
}

// BoundsOf returns the bounds the conjuncts of p put on column (an index
// into the rows p evaluates); ok is false when none of them bounds it, or
// its type has no integer or byte representation.
func BoundsOf(p predicate.Predicate, column int) (b Bounds, ok bool) {
	for _, c := range predicate.Conjuncts(p) {
		leaf, isLeaf := c.(*predicate.LeafPredicate)
		if !isLeaf || leaf.Column().Index != column {
			continue
		}
		kind, typed := KindOf(leaf.Column().Type)
		if !typed || (kind != Int32s && kind != Int64s && kind != Bytes) {
			return Bounds{}, false
		}
		b.Kind = kind
		ok = b.add(leaf) || ok
	}
	return b, ok
}

// add narrows b by l; false when l is no bound it can represent.
func (b *Bounds) add(l *predicate.LeafPredicate) bool {
	// The compiled leaf holds the literals in the vector representation;
	// its operator is the positive one of l's pair.
	lf := compileLeaf(l).(*leaf)
	if lf.kind == 0 {
		return false
	}
	switch op := l.Op(); op {
	case predicate.OpEq:
		b.lower(lf, 0, false)
		b.upper(lf, 0, false)
	case predicate.OpBetween:
		b.lower(lf, 0, false)
		b.upper(lf, 1, false)
	case predicate.OpGt, predicate.OpGe:
		b.lower(lf, 0, op == predicate.OpGt)
	case predicate.OpLt, predicate.OpLe:
		b.upper(lf, 0, op == predicate.OpLt)
	default:
		return false
	}
	return true
}

// lower raises the lower bound to literal i of lf, excluded when open.
func (b *Bounds) lower(lf *leaf, i int, open bool) {
	if b.Kind == Bytes {
		x := lf.bytes[i]
		if c := bytes.Compare(x, b.lowerBytes); !b.hasLower || c > 0 || (c == 0 && open) {
			b.lowerBytes, b.lowerOpen = x, open
		}
		b.hasLower = true
		return
	}
	x := lf.ints[i]
	if open {
		if x == math.MaxInt64 {
			b.empty = true
			return
		}
		x++
	}
	if !b.hasLower || x > b.lowerInt {
		b.lowerInt = x
	}
	b.hasLower = true
}

// upper lowers the upper bound to literal i of lf, excluded when open.
func (b *Bounds) upper(lf *leaf, i int, open bool) {
	if b.Kind == Bytes {
		x := lf.bytes[i]
		if c := bytes.Compare(x, b.upperBytes); !b.hasUpper || c < 0 || (c == 0 && open) {
			b.upperBytes, b.upperOpen = x, open
		}
		b.hasUpper = true
		return
	}
	x := lf.ints[i]
	if open {
		if x == math.MinInt64 {
			b.empty = true
			return
		}
		x--
	}
	if !b.hasUpper || x < b.upperInt {
		b.upperInt = x
	}
	b.hasUpper = true
}

// Empty reports bounds no value satisfies.
func (b *Bounds) Empty() bool {
	switch {
	case b.empty:
		return true
	case !b.hasLower || !b.hasUpper:
		return false
	case b.Kind == Bytes:
		c := bytes.Compare(b.lowerBytes, b.upperBytes)
		return c > 0 || (c == 0 && (b.lowerOpen || b.upperOpen))
	}
	return b.lowerInt > b.upperInt
}

// Single reports bounds at most one value satisfies: an equality, or
// bounds that met.
func (b *Bounds) Single() bool {
	switch {
	case b.Empty():
		return true
	case !b.hasLower || !b.hasUpper:
		return false
	case b.Kind == Bytes:
		return bytes.Equal(b.lowerBytes, b.upperBytes)
	}
	return b.lowerInt == b.upperInt
}

// IntPlace places x against the bounds: -1 when it precedes them (every
// later value of a sorted column may still be within them), +1 when it
// follows them, 0 within.
func (b *Bounds) IntPlace(x int64) int {
	switch {
	case b.hasLower && x < b.lowerInt:
		return -1
	case b.hasUpper && x > b.upperInt:
		return 1
	}
	return 0
}

// BytesPlace is IntPlace for the Bytes kind, in byte order.
func (b *Bounds) BytesPlace(x []byte) int {
	if b.hasLower {
		if c := bytes.Compare(x, b.lowerBytes); c < 0 || (c == 0 && b.lowerOpen) {
			return -1
		}
	}
	if b.hasUpper {
		if c := bytes.Compare(x, b.upperBytes); c > 0 || (c == 0 && b.upperOpen) {
			return 1
		}
	}
	return 0
}
