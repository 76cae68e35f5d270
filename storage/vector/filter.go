package vector

import (
	"bytes"
	"slices"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Filter evaluates a predicate over batches with exactly the three-valued
// result predicate.Predicate.Eval gives on each row. Leaves on integer,
// DECIMAL, float and string columns compare the vector slices directly;
// other leaves box one value at a time and call the leaf's Eval, so they
// are exact by construction. A Filter is not safe for concurrent use (it
// keeps scratch buffers); compile one per worker.
type Filter struct {
	root node
	// tmp holds the results of the children of compounds, one buffer per
	// nesting depth.
	tmp [][]predicate.Tri
	out []predicate.Tri
}

// Compile prepares p for evaluation over batches laid out like the rows p
// evaluates.
func Compile(p predicate.Predicate) *Filter {
	return &Filter{root: compile(p)}
}

type node interface {
	eval(f *Filter, depth int, b *Batch, out []predicate.Tri)
}

func compile(p predicate.Predicate) node {
	switch x := p.(type) {
	case predicate.Constant:
		return constant(predicate.Tri(x))
	case *predicate.Compound:
		c := &compound{and: x.IsAnd()}
		for _, child := range x.Children() {
			c.children = append(c.children, compile(child))
		}
		return c
	case *predicate.LeafPredicate:
		return compileLeaf(x)
	}
	return newGeneric(p)
}

// Eval writes the value of the predicate for each row of b to out, which
// must hold b.Len values.
func (f *Filter) Eval(b *Batch, out []predicate.Tri) {
	f.root.eval(f, 0, b, out[:b.Len])
}

// Select appends to sel the rows of b, among candidates (all rows when
// nil), for which the predicate is TRUE, in increasing order.
func (f *Filter) Select(b *Batch, candidates []int32, sel []int32) []int32 {
	f.out = grow(f.out, b.Len)
	f.Eval(b, f.out)
	if candidates == nil {
		for i, t := range f.out {
			if t == predicate.True {
				sel = append(sel, int32(i))
			}
		}
		return sel
	}
	for _, i := range candidates {
		if f.out[i] == predicate.True {
			sel = append(sel, i)
		}
	}
	return sel
}

func (f *Filter) scratch(depth, n int) []predicate.Tri {
	for len(f.tmp) <= depth {
		f.tmp = append(f.tmp, nil)
	}
	f.tmp[depth] = grow(f.tmp[depth], n)
	return f.tmp[depth]
}

type constant predicate.Tri

func (c constant) eval(_ *Filter, _ int, _ *Batch, out []predicate.Tri) {
	fill(out, predicate.Tri(c))
}

func fill(out []predicate.Tri, t predicate.Tri) {
	for i := range out {
		out[i] = t
	}
}

// compound is AND (the minimum of its children) or OR (the maximum).
type compound struct {
	and      bool
	children []node
}

func (c *compound) eval(f *Filter, depth int, b *Batch, out []predicate.Tri) {
	c.children[0].eval(f, depth+1, b, out)
	tmp := f.scratch(depth, len(out))
	for _, child := range c.children[1:] {
		child.eval(f, depth+1, b, tmp)
		if c.and {
			for i, t := range tmp {
				out[i] = min(out[i], t)
			}
		} else {
			for i, t := range tmp {
				out[i] = max(out[i], t)
			}
		}
	}
}

// generic evaluates any predicate row by row on boxed values.
type generic struct {
	p       predicate.Predicate
	columns []int
	row     []any
}

func newGeneric(p predicate.Predicate) *generic {
	g := &generic{p: p, columns: predicate.Columns(p)}
	if n := len(g.columns); n > 0 {
		g.row = make([]any, g.columns[n-1]+1)
	}
	return g
}

func (g *generic) eval(_ *Filter, _ int, b *Batch, out []predicate.Tri) {
	for i := range out {
		for _, c := range g.columns {
			g.row[c] = valueAt(b, c, i)
		}
		out[i] = g.p.Eval(g.row)
	}
}

func valueAt(b *Batch, column, i int) any {
	if column >= len(b.Columns) || b.Columns[column] == nil {
		return nil
	}
	return b.Columns[column].Value(i)
}

// positiveOp returns the positive operator of op's pair and whether op is
// its negation, as LeafPredicate.Eval evaluates it.
func positiveOp(op predicate.Op) (predicate.Op, bool) {
	switch op {
	case predicate.OpNotEq, predicate.OpGe, predicate.OpGt, predicate.OpNotIn,
		predicate.OpNotBetween, predicate.OpNotStartsWith, predicate.OpIsNotNull:
		return op.Negation(), true
	}
	return op, false
}

// leaf is a leaf compiled for typed evaluation: the positive operator of
// its pair is decided on the vector's slice, then NULL rows become
// UNKNOWN and a negative operator negates the result. A leaf whose column
// or literals have no exact typed form (kind 0) uses the fallback.
type leaf struct {
	column   int
	op       predicate.Op
	negative bool
	kind     Kind
	// nullLiteral is an IN list's NULL.
	nullLiteral bool
	// Literals converted to the vector's representation, sorted for IN.
	ints   []int64
	floats []float64
	bytes  [][]byte
	// fallback evaluates a leaf the typed path cannot represent exactly.
	fallback *generic
}

func compileLeaf(l *predicate.LeafPredicate) node {
	op, negative := positiveOp(l.Op())
	lf := &leaf{column: l.Column().Index, op: op, negative: negative,
		nullLiteral: l.HasNullLiteral(), fallback: newGeneric(l)}
	kind, ok := KindOf(l.Column().Type)
	if !ok {
		return lf
	}
	lf.kind = kind
	if op == predicate.OpIsNull {
		return lf
	}
	for _, lit := range l.Literals() {
		if !lf.addLiteral(l.Column().Type, lit) {
			lf.kind = 0
			return lf
		}
	}
	if op == predicate.OpIn {
		slices.Sort(lf.ints)
		slices.SortFunc(lf.floats, predicate.CompareFloats)
		slices.SortFunc(lf.bytes, bytes.Compare)
	}
	return lf
}

// addLiteral converts a literal to the vector representation; false when
// it has another Go type than the column's values (the row path would
// then compare across types) or does not fit.
func (lf *leaf) addLiteral(t spec.DataType, lit any) bool {
	switch lf.kind {
	case Int32s, Int64s:
		x, ok := intLiteral(t, lit)
		lf.ints = append(lf.ints, x)
		return ok
	case Float32s:
		x, ok := lit.(float32)
		lf.floats = append(lf.floats, float64(x))
		return ok
	case Float64s:
		x, ok := lit.(float64)
		lf.floats = append(lf.floats, x)
		return ok
	case Bytes:
		if lf.op == predicate.OpStartsWith {
			s, ok := lit.(string)
			lf.bytes = append(lf.bytes, []byte(s))
			return ok
		}
		if t.IsString() {
			s, ok := lit.(string)
			lf.bytes = append(lf.bytes, []byte(s))
			return ok
		}
		b, ok := lit.([]byte)
		lf.bytes = append(lf.bytes, b)
		return ok
	}
	return false
}

// intLiteral returns the int64 representation of a literal whose Go type
// is the one Vector.Value gives for t.
func intLiteral(t spec.DataType, lit any) (int64, bool) {
	switch x := lit.(type) {
	case int8:
		return int64(x), t.Root == spec.TinyInt
	case int16:
		return int64(x), t.Root == spec.SmallInt
	case int32:
		return int64(x), t.Root == spec.Int
	case spec.DateValue:
		return int64(x), t.Root == spec.Date
	case spec.TimeValue:
		return int64(x), t.Root == spec.Time
	case int64:
		return x, t.Root == spec.BigInt
	case spec.DecimalValue:
		u, ok := x.UnscaledInt64()
		return u, ok && t.Root == spec.Decimal && x.Scale() == t.Scale
	}
	return 0, false
}

func (lf *leaf) eval(f *Filter, depth int, b *Batch, out []predicate.Tri) {
	var v *Vector
	if lf.column < len(b.Columns) {
		v = b.Columns[lf.column]
	}
	if v == nil || lf.kind == 0 || v.Kind != lf.kind {
		lf.fallback.eval(f, depth, b, out)
		return
	}
	if lf.op == predicate.OpIsNull {
		for i := range out {
			out[i] = tri(v.IsNull(i))
		}
		lf.negate(out)
		return
	}
	switch lf.kind {
	case Int32s:
		matchInts(lf, v.Int32[:len(out)], out)
	case Int64s:
		matchInts(lf, v.Int64[:len(out)], out)
	case Float32s:
		matchFloats(lf, v.Float32[:len(out)], out)
	case Float64s:
		matchFloats(lf, v.Float64[:len(out)], out)
	case Bytes:
		lf.matchBytes(v, out)
	default:
		lf.fallback.eval(f, depth, b, out)
		return
	}
	lf.finish(v, out)
}

// finish applies NULL semantics (a comparison with NULL is UNKNOWN) and
// the negation of the negative operators.
func (lf *leaf) finish(v *Vector, out []predicate.Tri) {
	if v.HasNulls {
		for i := range out {
			if v.Nulls[i] {
				out[i] = predicate.Unknown
			}
		}
	}
	lf.negate(out)
}

func (lf *leaf) negate(out []predicate.Tri) {
	if lf.negative {
		for i, t := range out {
			out[i] = t.Not()
		}
	}
}

func tri(b bool) predicate.Tri {
	if b {
		return predicate.True
	}
	return predicate.False
}

// matchInts decides the positive operator on integer values; NULL slots
// hold garbage that finish overwrites.
func matchInts[T int32 | int64](lf *leaf, values []T, out []predicate.Tri) {
	lits := lf.ints
	switch lf.op {
	case predicate.OpEq:
		for i, x := range values {
			out[i] = tri(int64(x) == lits[0])
		}
	case predicate.OpLt:
		for i, x := range values {
			out[i] = tri(int64(x) < lits[0])
		}
	case predicate.OpLe:
		for i, x := range values {
			out[i] = tri(int64(x) <= lits[0])
		}
	case predicate.OpBetween:
		for i, x := range values {
			out[i] = tri(int64(x) >= lits[0] && int64(x) <= lits[1])
		}
	case predicate.OpIn:
		for i, x := range values {
			_, found := slices.BinarySearch(lits, int64(x))
			out[i] = lf.inResult(found)
		}
	default:
		fill(out, predicate.Unknown)
	}
}

// inResult is SQL's IN for a non-null value: TRUE on a match, else
// UNKNOWN when the list held a NULL, else FALSE.
func (lf *leaf) inResult(found bool) predicate.Tri {
	switch {
	case found:
		return predicate.True
	case lf.nullLiteral:
		return predicate.Unknown
	}
	return predicate.False
}

func matchFloats[T float32 | float64](lf *leaf, values []T, out []predicate.Tri) {
	lits := lf.floats
	switch lf.op {
	case predicate.OpEq:
		for i, x := range values {
			out[i] = tri(predicate.CompareFloats(float64(x), lits[0]) == 0)
		}
	case predicate.OpLt:
		for i, x := range values {
			out[i] = tri(predicate.CompareFloats(float64(x), lits[0]) < 0)
		}
	case predicate.OpLe:
		for i, x := range values {
			out[i] = tri(predicate.CompareFloats(float64(x), lits[0]) <= 0)
		}
	case predicate.OpBetween:
		for i, x := range values {
			out[i] = tri(predicate.CompareFloats(float64(x), lits[0]) >= 0 && predicate.CompareFloats(float64(x), lits[1]) <= 0)
		}
	case predicate.OpIn:
		for i, x := range values {
			_, found := slices.BinarySearchFunc(lits, float64(x), predicate.CompareFloats)
			out[i] = lf.inResult(found)
		}
	default:
		fill(out, predicate.Unknown)
	}
}

func (lf *leaf) matchBytes(v *Vector, out []predicate.Tri) {
	lits := lf.bytes
	switch lf.op {
	case predicate.OpEq:
		for i := range out {
			out[i] = tri(bytes.Equal(v.Bytes(i), lits[0]))
		}
	case predicate.OpLt:
		for i := range out {
			out[i] = tri(bytes.Compare(v.Bytes(i), lits[0]) < 0)
		}
	case predicate.OpLe:
		for i := range out {
			out[i] = tri(bytes.Compare(v.Bytes(i), lits[0]) <= 0)
		}
	case predicate.OpBetween:
		for i := range out {
			x := v.Bytes(i)
			out[i] = tri(bytes.Compare(x, lits[0]) >= 0 && bytes.Compare(x, lits[1]) <= 0)
		}
	case predicate.OpIn:
		for i := range out {
			_, found := slices.BinarySearchFunc(lits, v.Bytes(i), bytes.Compare)
			out[i] = lf.inResult(found)
		}
	case predicate.OpStartsWith:
		// LeafPredicate only matches string values: on a binary column a
		// non-null value is never LIKE the prefix.
		isString := v.Type.IsString()
		for i := range out {
			out[i] = tri(isString && bytes.HasPrefix(v.Bytes(i), lits[0]))
		}
	default:
		fill(out, predicate.Unknown)
	}
}
