package predicate

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// String renders the leaf as SQL: dt = DATE '2026-04-16',
// status IN ('SUCCESS', 'PAID'), name LIKE 'abc%'.
func (l *LeafPredicate) String() string {
	name := quoteIdent(l.col.Name)
	switch l.op {
	case OpIsNull, OpIsNotNull:
		return name + " " + l.op.String()
	case OpIn, OpNotIn:
		return fmt.Sprintf("%s %s (%s)", name, l.op, l.literalList())
	case OpBetween, OpNotBetween:
		return fmt.Sprintf("%s %s %s AND %s", name, l.op, l.literal(0), l.literal(1))
	case OpStartsWith, OpNotStartsWith:
		return fmt.Sprintf("%s %s %s", name, l.op, quoteString(escapeLike(l.literals[0].(string))+"%"))
	}
	return fmt.Sprintf("%s %s %s", name, l.op, l.literal(0))
}

func (l *LeafPredicate) literal(i int) string { return formatLiteral(l.col.Type, l.literals[i]) }

func (l *LeafPredicate) literalList() string {
	parts := make([]string, 0, len(l.literals)+1)
	for i := range l.literals {
		parts = append(parts, l.literal(i))
	}
	if l.nullLiteral {
		parts = append(parts, "NULL")
	}
	return strings.Join(parts, ", ")
}

// String joins the children with AND or OR, parenthesising compounds.
func (c *Compound) String() string {
	sep := " OR "
	if c.and {
		sep = " AND "
	}
	parts := make([]string, len(c.children))
	for i, child := range c.children {
		parts[i] = child.String()
		if _, ok := child.(*Compound); ok {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, sep)
}

// formatLiteral prints a value of type t as a SQL literal.
func formatLiteral(t spec.DataType, v any) string {
	switch x := v.(type) {
	case bool:
		return strings.ToUpper(strconv.FormatBool(x))
	case string:
		return quoteString(x)
	case []byte:
		return "X'" + strings.ToUpper(hex.EncodeToString(x)) + "'"
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case spec.DateValue:
		return "DATE " + quoteString(x.String())
	case spec.TimeValue:
		return "TIME " + quoteString(formatTime(x, t.Precision))
	case spec.TimestampValue:
		if t.Root == spec.TimestampLTZ {
			return "TIMESTAMP_LTZ " + quoteString(x.Format(t.Precision)+" UTC")
		}
		return "TIMESTAMP " + quoteString(x.Format(t.Precision))
	}
	return fmt.Sprint(v)
}

func formatTime(v spec.TimeValue, precision int) string {
	s := time.UnixMilli(int64(v)).UTC().Format("15:04:05.000")
	if precision <= 0 {
		return s[:8]
	}
	return s[:9+min(precision, 3)]
}

// quoteString quotes s as a MySQL string literal.
func quoteString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// escapeLike makes the LIKE wildcards and the escape character of a prefix
// literal.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// quoteIdent back-quotes a column name unless it is a plain identifier.
// Keywords stay bare: the text is for people reading EXPLAIN.
func quoteIdent(name string) string {
	if plainIdent.MatchString(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// describeLiteral prints a literal as received, for error messages.
func describeLiteral(lit any) string {
	switch v := lit.(type) {
	case string:
		return quoteString(v)
	case []byte:
		return "X'" + hex.EncodeToString(v) + "'"
	}
	return fmt.Sprintf("%v (%T)", lit, lit)
}
