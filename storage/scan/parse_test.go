package scan

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// parsePredicate reads the small WHERE syntax of the testdata files:
//
//	expr := or; or := and {OR and}; and := not {AND not}; not := NOT not | atom
//	atom := ( expr ) | TRUE | FALSE | col op lit | col [NOT] IN (lits)
//	      | col [NOT] BETWEEN lit AND lit | col IS [NOT] NULL | col [NOT] LIKE 'p'
//
// Literals are 'strings', numbers (exact rationals), NULL, TRUE and FALSE,
// converted to the column type by predicate.Leaf.
func parsePredicate(fields []spec.DataField, text string) (predicate.Predicate, error) {
	p := &parser{fields: fields, toks: tokenize(text)}
	out, err := p.or()
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	return out, err
}

type parser struct {
	fields []spec.DataField
	toks   []string
	pos    int
}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case unicode.IsSpace(rune(c)):
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) && s[j] != '\'' {
				j++
			}
			out = append(out, s[i:min(j+1, len(s))])
			i = j + 1
		case strings.ContainsRune("(),", rune(c)):
			out = append(out, string(c))
			i++
		case strings.ContainsRune("<>=!", rune(c)):
			j := i + 1
			for j < len(s) && strings.ContainsRune("<>=", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !unicode.IsSpace(rune(s[j])) && !strings.ContainsRune("(),'<>=!", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) accept(word string) bool {
	if strings.EqualFold(p.peek(), word) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(word string) error {
	if !p.accept(word) {
		return fmt.Errorf("expected %s, got %q", word, p.peek())
	}
	return nil
}

func (p *parser) or() (predicate.Predicate, error) {
	return p.junction("OR", p.and, predicate.Or)
}

func (p *parser) and() (predicate.Predicate, error) {
	return p.junction("AND", p.not, predicate.And)
}

func (p *parser) junction(word string, next func() (predicate.Predicate, error), join func(...predicate.Predicate) predicate.Predicate) (predicate.Predicate, error) {
	first, err := next()
	if err != nil {
		return nil, err
	}
	parts := []predicate.Predicate{first}
	for p.accept(word) {
		q, err := next()
		if err != nil {
			return nil, err
		}
		parts = append(parts, q)
	}
	return join(parts...), nil
}

func (p *parser) not() (predicate.Predicate, error) {
	if p.accept("NOT") {
		q, err := p.not()
		if err != nil {
			return nil, err
		}
		return predicate.Not(q), nil
	}
	return p.atom()
}

func (p *parser) atom() (predicate.Predicate, error) {
	switch {
	case p.accept("("):
		q, err := p.or()
		if err != nil {
			return nil, err
		}
		return q, p.expect(")")
	case p.accept("TRUE"):
		return predicate.Constant(predicate.True), nil
	case p.accept("FALSE"):
		return predicate.Constant(predicate.False), nil
	}
	name := p.peek()
	p.pos++
	i := fieldIndex(p.fields, name)
	if i < 0 {
		return nil, fmt.Errorf("unknown column %q", name)
	}
	return p.comparison(predicate.ColumnOf(i, p.fields[i]))
}

func fieldIndex(fields []spec.DataField, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

var comparisonOps = map[string]predicate.Op{
	"=": predicate.OpEq, "<>": predicate.OpNotEq, "!=": predicate.OpNotEq,
	"<": predicate.OpLt, "<=": predicate.OpLe, ">": predicate.OpGt, ">=": predicate.OpGe,
}

func (p *parser) comparison(col predicate.Column) (predicate.Predicate, error) {
	if op, ok := comparisonOps[p.peek()]; ok {
		p.pos++
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		return predicate.Leaf(col, op, lit)
	}
	if p.accept("IS") {
		op := predicate.OpIsNull
		if p.accept("NOT") {
			op = predicate.OpIsNotNull
		}
		if err := p.expect("NULL"); err != nil {
			return nil, err
		}
		return predicate.Leaf(col, op)
	}
	negated := p.accept("NOT")
	q, err := p.listOrRange(col)
	if err != nil || !negated {
		return q, err
	}
	return predicate.Not(q), nil
}

func (p *parser) listOrRange(col predicate.Column) (predicate.Predicate, error) {
	switch {
	case p.accept("IN"):
		lits, err := p.literalList()
		if err != nil {
			return nil, err
		}
		return predicate.Leaf(col, predicate.OpIn, lits...)
	case p.accept("BETWEEN"):
		lo, err := p.literal()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.literal()
		if err != nil {
			return nil, err
		}
		return predicate.Leaf(col, predicate.OpBetween, lo, hi)
	case p.accept("LIKE"):
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		q, ok := predicate.Like(col, fmt.Sprint(lit), '\\')
		if !ok {
			return nil, fmt.Errorf("LIKE %v is not exact as a predicate", lit)
		}
		return q, nil
	}
	return nil, fmt.Errorf("expected an operator after %s, got %q", col.Name, p.peek())
}

func (p *parser) literalList() ([]any, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var out []any
	for {
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		out = append(out, lit)
		if !p.accept(",") {
			return out, p.expect(")")
		}
	}
}

func (p *parser) literal() (any, error) {
	tok := p.peek()
	p.pos++
	switch {
	case strings.HasPrefix(tok, "'"):
		return strings.Trim(tok, "'"), nil
	case strings.EqualFold(tok, "NULL"):
		return nil, nil
	case strings.EqualFold(tok, "TRUE"):
		return true, nil
	case strings.EqualFold(tok, "FALSE"):
		return false, nil
	}
	r, ok := new(big.Rat).SetString(tok)
	if !ok {
		return nil, fmt.Errorf("bad literal %q", tok)
	}
	return r, nil
}
