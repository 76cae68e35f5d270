package predicate

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Leaf builds `col op literals`, converting each literal to the column type
// as the package documentation describes; a nil literal is SQL NULL. BETWEEN
// and NOT BETWEEN take the lower and the upper bound, IN and NOT IN one or
// more values, IS NULL and IS NOT NULL none, and OpStartsWith the prefix of
// a LIKE 'prefix%' (see Like). The result may be an equivalent rewrite
// (x < 1.5 on an INT column is x <= 1) or a Constant (x = NULL).
//
// An unconvertible literal fails with an error wrapping ErrLiteral; an
// operator the column type has no order for fails with
// lakeerr.ErrUnsupported.
func Leaf(col Column, op Op, literals ...any) (Predicate, error) {
	if err := checkArity(col, op, len(literals)); err != nil {
		return nil, err
	}
	if ops[op].negative {
		p, err := Leaf(col, ops[op].negation, literals...)
		if err != nil {
			return nil, err
		}
		return Not(p), nil
	}
	switch op {
	case OpIsNull:
		return &LeafPredicate{col: col, op: OpIsNull}, nil
	case OpStartsWith:
		return startsWith(col, literals[0])
	}
	d, err := domainOf(col.Type)
	if err != nil {
		return nil, fmt.Errorf("%w (column %s)", err, quoteIdent(col.Name))
	}
	b := builder{col: col, domain: d}
	switch op {
	case OpEq:
		return b.eq(literals[0])
	case OpLt:
		return b.lt(literals[0])
	case OpLe:
		return b.le(literals[0])
	case OpIn:
		return b.in(literals)
	}
	return b.between(literals[0], literals[1])
}

func checkArity(col Column, op Op, n int) error {
	if op == 0 || int(op) >= len(ops) {
		return fmt.Errorf("predicate: unknown operator %d: %w", op, lakeerr.ErrUnsupported)
	}
	want := ops[op].arity
	if want == n || (want < 0 && n > 0) {
		return nil
	}
	return fmt.Errorf("predicate: %s %s takes %d literals, got %d: %w",
		quoteIdent(col.Name), op, want, n, lakeerr.ErrUnsupported)
}

// Like builds `col LIKE pattern` when it is exact as a predicate: a pattern
// without wildcards (an equality) or a prefix followed only by '%'
// (StartsWith). Other patterns, and columns that are not strings, give
// ok=false and stay with the caller as residual filters. escape is the
// pattern's escape character, '\\' unless the query says otherwise.
func Like(col Column, pattern string, escape rune) (p Predicate, ok bool) {
	if !col.Type.IsString() || !utf8.ValidString(pattern) {
		return nil, false
	}
	prefix, wildcard, ok := likePrefix(pattern, escape)
	if !ok {
		return nil, false
	}
	op := OpStartsWith
	if !wildcard {
		op = OpEq
	}
	p, err := Leaf(col, op, prefix)
	return p, err == nil
}

// likePrefix reads a pattern made of literal characters followed by zero or
// more '%'. An escape before the last character makes it literal; a
// trailing escape is itself literal, as in MySQL.
func likePrefix(pattern string, escape rune) (prefix string, wildcard, ok bool) {
	var b strings.Builder
	runes := []rune(pattern)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r == escape && i+1 < len(runes):
			i++
			b.WriteRune(runes[i])
		case r == '_':
			return "", false, false
		case r == '%':
			if strings.Trim(string(runes[i:]), "%") != "" {
				return "", false, false
			}
			return b.String(), true, true
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), false, true
}

func startsWith(col Column, lit any) (Predicate, error) {
	if !col.Type.IsString() {
		return nil, fmt.Errorf("predicate: LIKE on %s column %s: %w", col.Type, quoteIdent(col.Name), lakeerr.ErrUnsupported)
	}
	if lit == nil {
		return Constant(Unknown), nil
	}
	prefix, ok := stringOf(lit)
	if !ok {
		return nil, literalError(col, lit)
	}
	return &LeafPredicate{col: col, op: OpStartsWith, literals: []any{prefix}}, nil
}

// builder builds the positive comparisons of one column. Each rewrites a
// literal that is not a column value to the exact equivalent over its
// neighbours, or to x IN (), which is FALSE for every value and UNKNOWN for
// NULL, just like the comparison it replaces.
type builder struct {
	col    Column
	domain domain
}

func (b builder) eq(lit any) (Predicate, error) {
	return b.build(lit, func(p placement) Predicate {
		return b.leafOrNever(OpEq, p.exact)
	})
}

func (b builder) lt(lit any) (Predicate, error) {
	return b.build(lit, func(p placement) Predicate {
		if p.exact != nil {
			return b.leaf(OpLt, p.exact)
		}
		return b.leafOrNever(OpLe, p.below)
	})
}

func (b builder) le(lit any) (Predicate, error) {
	return b.build(lit, func(p placement) Predicate {
		if p.exact != nil {
			return b.leaf(OpLe, p.exact)
		}
		return b.leafOrNever(OpLe, p.below)
	})
}

// build places a non-null literal and rewrites the comparison; a NULL
// literal makes every comparison UNKNOWN.
func (b builder) build(lit any, rewrite func(placement) Predicate) (Predicate, error) {
	if lit == nil {
		return Constant(Unknown), nil
	}
	p, err := b.place(lit)
	if err != nil {
		return nil, err
	}
	return rewrite(p), nil
}

func (b builder) in(lits []any) (Predicate, error) {
	in := &LeafPredicate{col: b.col, op: OpIn}
	for _, lit := range lits {
		if lit == nil {
			in.nullLiteral = true
			continue
		}
		p, err := b.place(lit)
		if err != nil {
			return nil, err
		}
		if p.exact != nil {
			in.literals = append(in.literals, p.exact)
		}
	}
	in.literals = sortedDistinct(in.literals, in.compare)
	return in, nil
}

// between is x >= lo AND x <= hi, kept in one leaf for display.
func (b builder) between(lo, hi any) (Predicate, error) {
	if lo == nil || hi == nil {
		lower, err := b.lt(lo)
		if err != nil {
			return nil, err
		}
		upper, err := b.le(hi)
		if err != nil {
			return nil, err
		}
		return And(Not(lower), upper), nil
	}
	from, err := b.place(lo)
	if err != nil {
		return nil, err
	}
	to, err := b.place(hi)
	if err != nil {
		return nil, err
	}
	low, high := firstNonNil(from.exact, from.above), firstNonNil(to.exact, to.below)
	if low == nil || high == nil || compareValues(b.col.Type, low, high) > 0 {
		return b.never(), nil
	}
	return b.leaf(OpBetween, low, high), nil
}

func (b builder) place(lit any) (placement, error) {
	p, err := b.domain.place(lit)
	if err != nil {
		return placement{}, literalError(b.col, lit)
	}
	return p, nil
}

func (b builder) leaf(op Op, literals ...any) Predicate {
	return &LeafPredicate{col: b.col, op: op, literals: literals}
}

func (b builder) leafOrNever(op Op, v any) Predicate {
	if v == nil {
		return b.never()
	}
	return b.leaf(op, v)
}

// never is x IN (): FALSE for every value, UNKNOWN for NULL.
func (b builder) never() Predicate { return &LeafPredicate{col: b.col, op: OpIn} }

func firstNonNil(a, b any) any {
	if a != nil {
		return a
	}
	return b
}

func sortedDistinct(values []any, compare func(a, b any) int) []any {
	slices.SortFunc(values, compare)
	return slices.CompactFunc(values, func(a, b any) bool { return compare(a, b) == 0 })
}

func literalError(col Column, lit any) error {
	return fmt.Errorf("predicate: cannot compare %s column %s with %s: %w",
		col.Type, quoteIdent(col.Name), describeLiteral(lit), ErrLiteral)
}
