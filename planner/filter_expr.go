package planner

import (
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"

	"github.com/lakesql/lakesql/storage/predicate"
)

// translator translates engine expressions over one table's columns.
type translator struct {
	columns columnIndex
}

func (t translator) translate(e sql.Expression) translation {
	switch e := e.(type) {
	case *expression.And:
		return t.and(expression.SplitConjunction(e))
	case *expression.Or:
		return t.or(expression.SplitDisjunction(e))
	case *expression.Not:
		return t.not(e.Child)
	case *expression.Literal:
		return constant(e)
	case *expression.IsNull:
		return t.isNull(e.Child)
	case *expression.IsTrue:
		return t.isTrue(e)
	case *expression.NullSafeEquals:
		return t.nullSafeEquals(e.Left(), e.Right())
	case *expression.Equals:
		return t.comparison(e.Left(), e.Right(), predicate.OpEq)
	case *expression.LessThan:
		return t.comparison(e.Left(), e.Right(), predicate.OpLt)
	case *expression.LessThanOrEqual:
		return t.comparison(e.Left(), e.Right(), predicate.OpLe)
	case *expression.GreaterThan:
		return t.comparison(e.Left(), e.Right(), predicate.OpGt)
	case *expression.GreaterThanOrEqual:
		return t.comparison(e.Left(), e.Right(), predicate.OpGe)
	case *expression.InTuple:
		return t.in(e.Left(), e.Right())
	case *expression.HashInTuple:
		return t.in(e.Left(), e.Right())
	case *expression.Between:
		return t.between(e)
	case *expression.Like:
		return t.like(e)
	}
	return none
}

// and keeps what translates: the AND of a part of the operands holds for
// every row the whole does, so it is at least a superset.
func (t translator) and(operands []sql.Expression) translation {
	var preds []predicate.Predicate
	f := exact
	for _, o := range operands {
		tr := t.translate(o)
		f = min(f, max(tr.fit, superset))
		if tr.fit != untranslated {
			preds = append(preds, tr.pred)
		}
	}
	if len(preds) == 0 {
		return none
	}
	return translation{pred: predicate.And(preds...), fit: f}
}

// or needs every operand: a row may be TRUE through any of them.
func (t translator) or(operands []sql.Expression) translation {
	preds := make([]predicate.Predicate, 0, len(operands))
	f := exact
	for _, o := range operands {
		tr := t.translate(o)
		if tr.fit == untranslated {
			return none
		}
		f = min(f, tr.fit)
		preds = append(preds, tr.pred)
	}
	return translation{pred: predicate.Or(preds...), fit: f}
}

// not needs an exact operand: the negation of a superset is a subset.
func (t translator) not(operand sql.Expression) translation {
	tr := t.translate(operand)
	if tr.fit != exact {
		return none
	}
	return exactly(predicate.Not(tr.pred))
}

// constant translates a folded condition: TRUE, FALSE or NULL.
func constant(l *expression.Literal) translation {
	switch v := l.Value().(type) {
	case nil:
		return exactly(predicate.Constant(predicate.Unknown))
	case bool:
		if v {
			return exactly(predicate.Constant(predicate.True))
		}
		return exactly(predicate.Constant(predicate.False))
	}
	return none
}

func (t translator) isNull(operand sql.Expression) translation {
	c, ok := t.columns.column(operand)
	if !ok {
		return none
	}
	return leaf(c, predicate.OpIsNull)
}

// isTrue translates x IS TRUE as x IS NOT NULL AND x <> 0, and x IS FALSE
// as x IS NOT NULL AND x = 0: never UNKNOWN, like IS TRUE, on the numeric
// columns whose truth is being non-zero (NaN included).
func (t translator) isTrue(e *expression.IsTrue) translation {
	c, ok := t.columns.column(e.Child)
	if !ok {
		return none
	}
	switch c.kind {
	case narrowInteger, wideInteger, decimalColumn, floatColumn:
	default:
		return none
	}
	op := predicate.OpNotEq
	if isFalse(e) {
		op = predicate.OpEq
	}
	return both(leaf(c, predicate.OpIsNotNull), leaf(c, op, int64(0)))
}

// isFalse tells IS FALSE from IS TRUE; the flag is unexported, but String
// appends it last.
func isFalse(e *expression.IsTrue) bool {
	return strings.HasSuffix(e.String(), expression.IsFalseStr)
}

// nullSafeEquals translates x <=> v as x IS NOT NULL AND x = v, which is
// FALSE rather than UNKNOWN for a NULL x, and x <=> NULL as x IS NULL.
func (t translator) nullSafeEquals(left, right sql.Expression) translation {
	c, l, _, ok := t.operands(left, right)
	if !ok {
		return none
	}
	if l.kind == nullLiteral {
		return leaf(c, predicate.OpIsNull)
	}
	if !comparable(c, l) {
		return none
	}
	return both(leaf(c, predicate.OpIsNotNull), leaf(c, predicate.OpEq, l.value))
}

// comparison translates column op literal, in either order.
func (t translator) comparison(left, right sql.Expression, op predicate.Op) translation {
	c, l, flipped, ok := t.operands(left, right)
	if !ok {
		return none
	}
	if l.kind == nullLiteral {
		return exactly(predicate.Constant(predicate.Unknown))
	}
	if flipped {
		// The engine orders NaN above everything on the left of a
		// comparison and below everything on the right, while the
		// predicate orders it above everything: only = survives the swap.
		if c.kind == floatColumn && op != predicate.OpEq {
			return none
		}
		op = mirrored(op)
	}
	if !comparable(c, l) {
		return none
	}
	return leaf(c, op, l.value)
}

// operands finds a column of the table on one side and a literal on the
// other; flipped says the column is on the right.
func (t translator) operands(left, right sql.Expression) (c column, l literal, flipped, ok bool) {
	if c, ok = t.columns.column(left); ok {
		l, ok = literalOf(right)
		return c, l, false, ok
	}
	if c, ok = t.columns.column(right); ok {
		l, ok = literalOf(left)
		return c, l, true, ok
	}
	return column{}, literal{}, false, false
}

// mirrored is the operator with its operands swapped: a < b is b > a.
func mirrored(op predicate.Op) predicate.Op {
	switch op {
	case predicate.OpLt:
		return predicate.OpGt
	case predicate.OpLe:
		return predicate.OpGe
	case predicate.OpGt:
		return predicate.OpLt
	case predicate.OpGe:
		return predicate.OpLe
	}
	return op
}

// in translates x IN (literals); NOT IN arrives as NOT over it. Every
// element must be exactly a value of the column: the engine's IN converts
// elements to the column type, clamping numbers out of its range to its
// bounds, where the predicate's IN drops them.
func (t translator) in(left, right sql.Expression) translation {
	c, ok := t.columns.column(left)
	if !ok {
		return none
	}
	tuple, ok := right.(expression.Tuple)
	if !ok || len(tuple) == 0 {
		return none
	}
	values := make([]any, len(tuple))
	for i, e := range tuple {
		l, ok := literalOf(e)
		if !ok {
			return none
		}
		if l.kind != nullLiteral && !(inElementComparable(c, l) && isColumnValue(c, l.value)) {
			return none
		}
		values[i] = l.value
	}
	return leaf(c, predicate.OpIn, values...)
}

// isColumnValue reports whether v converts to exactly one value of the
// column rather than falling between two.
func isColumnValue(c column, v any) bool {
	p, err := predicate.Leaf(c.ref, predicate.OpEq, v)
	l, ok := p.(*predicate.LeafPredicate)
	return err == nil && ok && l.Op() == predicate.OpEq
}

// between translates x BETWEEN lo AND hi, which the engine evaluates as
// lo <= x AND hi >= x. NULL bounds are not comparable and stay with the
// engine: on a float column its NaN ordering makes lo <= NaN FALSE but
// hi >= NaN TRUE, which agrees with the predicate only when both bounds are
// known.
func (t translator) between(b *expression.Between) translation {
	c, ok := t.columns.column(b.Val)
	if !ok {
		return none
	}
	lo, okLo := literalOf(b.Lower)
	hi, okHi := literalOf(b.Upper)
	if !okLo || !okHi || !comparable(c, lo) || !comparable(c, hi) {
		return none
	}
	return leaf(c, predicate.OpBetween, lo.value, hi.value)
}

// like translates LIKE on a string column: exactly for a pattern that is a
// prefix followed by '%' (or no wildcard at all), else as the superset
// "starts with the literal prefix" when there is one.
func (t translator) like(e *expression.Like) translation {
	c, ok := t.columns.column(e.LeftChild)
	if !ok || c.kind != stringColumn {
		return none
	}
	pattern, ok := literalOf(e.RightChild)
	if !ok || pattern.kind != textLiteral {
		return none
	}
	escape, ok := likeEscape(e.Escape)
	if !ok || !wellFormedPattern(pattern.value.(string), escape) {
		return none
	}
	if p, ok := predicate.Like(c.ref, pattern.value.(string), escape); ok {
		return exactly(p)
	}
	prefix := likePrefix(pattern.value.(string), escape)
	if prefix == "" {
		return none
	}
	tr := leaf(c, predicate.OpStartsWith, prefix)
	tr.fit = min(tr.fit, superset)
	return tr
}

// likeEscape reads the ESCAPE clause; the engine defaults it to '\'. An
// escape that is itself a wildcard loses to the wildcard in the engine, so
// it is not translated.
func likeEscape(e sql.Expression) (rune, bool) {
	if e == nil {
		return '\\', true
	}
	l, ok := literalOf(e)
	if !ok {
		return 0, false
	}
	if l.kind == nullLiteral {
		return '\\', true
	}
	s, ok := l.value.(string)
	if !ok || utf8.RuneCountInString(s) != 1 {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, r != '%' && r != '_'
}

// wellFormedPattern rejects what the engine refuses to match with: invalid
// UTF-8 and a pattern ending in an escape with nothing to escape.
func wellFormedPattern(pattern string, escape rune) bool {
	if !utf8.ValidString(pattern) {
		return false
	}
	runes := []rune(pattern)
	for i := 0; i < len(runes); i++ {
		if runes[i] == escape {
			if i+1 == len(runes) {
				return false
			}
			i++
		}
	}
	return true
}

// likePrefix returns the literal characters before the first wildcard.
func likePrefix(pattern string, escape rune) string {
	runes := []rune(pattern)
	var prefix []rune
	for i := 0; i < len(runes); i++ {
		switch r := runes[i]; {
		case r == escape:
			i++
			prefix = append(prefix, runes[i])
		case r == '%' || r == '_':
			return string(prefix)
		default:
			prefix = append(prefix, r)
		}
	}
	return string(prefix)
}

// leaf builds one predicate leaf; a literal the storage cannot convert
// (predicate.ErrLiteral) or an operator the type has no order for
// (lakeerr.ErrUnsupported) leaves the expression to the engine.
func leaf(c column, op predicate.Op, literals ...any) translation {
	p, err := predicate.Leaf(c.ref, op, literals...)
	if err != nil {
		return none
	}
	return exactly(p)
}

// both is the AND of two exact translations.
func both(a, b translation) translation {
	if a.fit != exact || b.fit != exact {
		return none
	}
	return exactly(predicate.And(a.pred, b.pred))
}
