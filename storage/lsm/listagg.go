package lsm

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// listAgg mirrors FieldListaggAgg: non-blank strings joined by the column's
// delimiter (fields.<f>.list-agg-delimiter, default ","); with
// fields.<f>.distinct, tokens already present are not appended again.
type listAgg struct {
	retractRefusal
	stateless
	delimiter string
	distinct  bool
}

func newListAgg(col spec.DataField, opts tableOptions, refuse retractRefusal) (aggregatorFactory, error) {
	// Java takes any VarCharType (FieldListaggAggFactory), VARCHAR(n)
	// too, and does not cut the joined value to n.
	if col.Type.Root != spec.VarChar {
		return nil, fmt.Errorf("%w: data type for listagg column %s must be VARCHAR or STRING",
			ErrInvalidOptions, col.Name)
	}
	delimiter, ok := opts[fieldOption(col.Name, listAggDelimiterName)]
	if !ok {
		delimiter = defaultListAggDelimiter
	}
	distinct, err := opts.boolean(fieldOption(col.Name, distinctName))
	if err != nil {
		return nil, err
	}
	agg := listAgg{retractRefusal: refuse, delimiter: delimiter, distinct: distinct}
	return func() fieldAggregator { return agg }, nil
}

func (l listAgg) agg(acc, in any) (any, error) {
	if in == nil {
		return acc, nil
	}
	s, err := stringOperand(in)
	if err != nil || isJavaBlank(s) {
		return acc, err
	}
	if acc == nil {
		return in, nil
	}
	a, err := stringOperand(acc)
	switch {
	case err != nil:
		return nil, err
	case isJavaBlank(a):
		return in, nil
	case l.distinct:
		return l.appendDistinct(a, s), nil
	}
	return a + l.delimiter + s, nil
}

func stringOperand(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%w: listagg expected a string, got %T", lakeerr.ErrCorruption, v)
	}
	return s, nil
}

func (l listAgg) appendDistinct(acc, in string) string {
	seen := map[string]bool{}
	for _, tok := range splitTokens(acc, l.delimiter) {
		seen[tok] = true
	}
	var b strings.Builder
	b.WriteString(acc)
	for _, tok := range splitTokens(in, l.delimiter) {
		if isJavaBlank(tok) || seen[tok] {
			continue
		}
		seen[tok] = true
		b.WriteString(l.delimiter)
		b.WriteString(tok)
	}
	return b.String()
}

// splitTokens mirrors BinaryStringUtils.splitByWholeSeparatorPreserveAllTokens:
// empty tokens are kept, an empty string has none, and an empty delimiter
// splits on a single space.
func splitTokens(s, delimiter string) []string {
	if s == "" {
		return nil
	}
	if delimiter == "" {
		delimiter = " "
	}
	return strings.Split(s, delimiter)
}

// isJavaBlank mirrors StringUtils.isBlank, which tests every char with
// Character.isWhitespace: the Unicode space separators except the
// non-breaking ones, plus the ASCII and information-separator controls.
func isJavaBlank(s string) bool {
	for _, r := range s {
		if !isJavaWhitespace(r) {
			return false
		}
	}
	return true
}

func isJavaWhitespace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1C && r <= 0x1F:
		return true
	case r == 0x00A0 || r == 0x2007 || r == 0x202F:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}
