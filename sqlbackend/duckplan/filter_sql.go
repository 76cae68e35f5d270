package duckplan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// ErrFilterSQL marks a predicate FilterSQL cannot render exactly; the
// caller reads the files through lakesql's reader instead.
var ErrFilterSQL = errors.New("duckplan: predicate has no exact DuckDB rendering")

// maxDecimalPrecision is DuckDB's widest DECIMAL.
const maxDecimalPrecision = 38

// FilterSQL renders a storage predicate as a DuckDB boolean expression
// that is TRUE, FALSE or NULL exactly where p.Eval is TRUE, FALSE or
// UNKNOWN, over columns named names[i] for column index i. Literals are
// typed as their column is (DECIMAL(p,s), DATE, TIMESTAMP, FLOAT, …), so
// that DuckDB compares exactly as package predicate does: numbers by
// value, strings and bytes by unsigned bytes. Anything else, a type or a
// value DuckDB could read otherwise, is refused with an error wrapping
// ErrFilterSQL.
func FilterSQL(p predicate.Predicate, names []string) (string, error) {
	switch p := p.(type) {
	case predicate.Constant:
		return renderConstant(p), nil
	case *predicate.Compound:
		return renderCompound(p, names)
	case *predicate.LeafPredicate:
		return renderLeaf(p, names)
	}
	return "", fmt.Errorf("%w: %T", ErrFilterSQL, p)
}

func renderConstant(c predicate.Constant) string {
	switch predicate.Tri(c) {
	case predicate.True:
		return "TRUE"
	case predicate.False:
		return "FALSE"
	}
	return "CAST(NULL AS BOOLEAN)"
}

func renderCompound(c *predicate.Compound, names []string) (string, error) {
	children := c.Children()
	parts := make([]string, len(children))
	for i, child := range children {
		s, err := FilterSQL(child, names)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	op := " OR "
	if c.IsAnd() {
		op = " AND "
	}
	return "(" + strings.Join(parts, op) + ")", nil
}

func renderLeaf(l *predicate.LeafPredicate, names []string) (string, error) {
	col := l.Column()
	if col.Index < 0 || col.Index >= len(names) {
		return "", fmt.Errorf("%w: column %d has no name", ErrFilterSQL, col.Index)
	}
	ident := QuoteIdent(names[col.Index])
	lits, err := renderLiterals(col.Type, l.Literals())
	if err != nil {
		return "", fmt.Errorf("column %s: %w", ident, err)
	}
	switch op := l.Op(); op {
	case predicate.OpEq, predicate.OpNotEq, predicate.OpLt, predicate.OpGe, predicate.OpLe, predicate.OpGt:
		return "(" + ident + " " + op.String() + " " + lits[0] + ")", nil
	case predicate.OpBetween, predicate.OpNotBetween:
		return "(" + ident + " " + op.String() + " " + lits[0] + " AND " + lits[1] + ")", nil
	case predicate.OpIn, predicate.OpNotIn:
		return renderIn(ident, op == predicate.OpNotIn, lits, l.HasNullLiteral()), nil
	case predicate.OpStartsWith:
		return "starts_with(" + ident + ", " + lits[0] + ")", nil
	case predicate.OpNotStartsWith:
		return "(NOT starts_with(" + ident + ", " + lits[0] + "))", nil
	case predicate.OpIsNull:
		return "(" + ident + " IS NULL)", nil
	case predicate.OpIsNotNull:
		return "(" + ident + " IS NOT NULL)", nil
	default:
		return "", fmt.Errorf("%w: operator %v", ErrFilterSQL, op)
	}
}

// renderIn is SQL's IN, whose three-valued result is predicate's; only an
// empty list needs spelling out, as SQL has no empty IN: FALSE (TRUE for
// NOT IN) for a value, NULL for NULL.
func renderIn(ident string, not bool, lits []string, null bool) string {
	if null {
		lits = append(lits, "NULL")
	}
	if len(lits) == 0 {
		return "(CASE WHEN " + ident + " IS NULL THEN NULL ELSE " + strings.ToUpper(strconv.FormatBool(not)) + " END)"
	}
	op := " IN "
	if not {
		op = " NOT IN "
	}
	return "(" + ident + op + "(" + strings.Join(lits, ", ") + "))"
}

// QuoteIdent quotes a DuckDB identifier.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func renderLiterals(t spec.DataType, values []any) ([]string, error) {
	out := make([]string, len(values))
	for i, v := range values {
		s, err := renderLiteralErr(t, v)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// renderLiteralErr renders a value of spec type t (its Go type per spec)
// as a DuckDB literal of the DuckDB type that reads t, or refuses it with
// an error wrapping ErrFilterSQL.
func renderLiteralErr(t spec.DataType, v any) (string, error) {
	s, ok := renderLiteral(t, v)
	if !ok {
		return "", fmt.Errorf("%w: %v literal %#v", ErrFilterSQL, t, v)
	}
	return s, nil
}

func renderLiteral(t spec.DataType, v any) (string, bool) {
	switch x := v.(type) {
	case bool:
		return strings.ToUpper(strconv.FormatBool(x)), t.Root == spec.Boolean
	case int8, int16, int32, int64:
		return renderInteger(t, x)
	case float32:
		return renderFloat(float64(x), 32, "FLOAT"), t.Root == spec.Float
	case float64:
		return renderFloat(x, 64, "DOUBLE"), t.Root == spec.Double
	case spec.DecimalValue:
		return renderDecimal(t, x)
	case string:
		s, ok := renderString(x)
		return s, ok && t.IsString()
	case []byte:
		return renderBlob(x), t.Root == spec.Binary || t.Root == spec.VarBinary
	case spec.DateValue:
		return renderDate(x)
	case spec.TimeValue:
		return renderTime(t, x)
	case spec.TimestampValue:
		return renderTimestamp(t, x)
	}
	return "", false
}

func renderInteger(t spec.DataType, v any) (string, bool) {
	name, ok := map[spec.TypeRoot]string{spec.TinyInt: "TINYINT", spec.SmallInt: "SMALLINT", spec.Int: "INTEGER", spec.BigInt: "BIGINT"}[t.Root]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("CAST(%d AS %s)", v, name), true
}

// renderFloat prints the shortest decimal that parses back to v, which
// DuckDB's correctly rounded parser reads as exactly v; NaN and the
// infinities by name.
func renderFloat(v float64, bits int, name string) string {
	var s string
	switch {
	case math.IsNaN(v):
		s = "NaN"
	case math.IsInf(v, 1):
		s = "Infinity"
	case math.IsInf(v, -1):
		s = "-Infinity"
	default:
		s = strconv.FormatFloat(v, 'g', -1, bits)
	}
	return "CAST('" + s + "' AS " + name + ")"
}

func renderDecimal(t spec.DataType, d spec.DecimalValue) (string, bool) {
	if t.Root != spec.Decimal || t.Precision > maxDecimalPrecision || d.Scale() != t.Scale || !d.FitsPrecision(t.Precision) {
		return "", false
	}
	return fmt.Sprintf("CAST('%s' AS DECIMAL(%d,%d))", d.String(), t.Precision, t.Scale), true
}

// renderString renders a string literal; DuckDB's VARCHAR holds valid UTF-8
// without NUL, so anything else is refused (ok false).
func renderString(s string) (string, bool) {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return "", false
	}
	return QuoteString(s), true
}

// QuoteString quotes s as a DuckDB string literal (backslashes are not
// escapes in DuckDB's standard strings).
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// renderBlob renders bytes as a BLOB literal, every byte escaped.
func renderBlob(b []byte) string {
	var sb strings.Builder
	sb.WriteString("CAST('")
	for _, c := range b {
		fmt.Fprintf(&sb, `\x%02X`, c)
	}
	sb.WriteString("' AS BLOB)")
	return sb.String()
}

// renderableYear keeps literals to years 1..9999, which both Go's formatting
// and DuckDB's parsing spell the same way.
func renderableYear(t time.Time) bool { return t.Year() >= 1 && t.Year() <= 9999 }

func renderDate(d spec.DateValue) (string, bool) {
	if !renderableYear(time.Unix(int64(d)*86400, 0).UTC()) {
		return "", false
	}
	return "DATE '" + d.String() + "'", true
}

func renderTime(t spec.DataType, v spec.TimeValue) (string, bool) {
	if t.Root != spec.Time || v < 0 || v >= 86_400_000 {
		return "", false
	}
	ts := time.UnixMilli(int64(v)).UTC()
	return "TIME '" + ts.Format("15:04:05.000") + "'", true
}

// renderTimestamp renders a TIMESTAMP(p≤6) literal, and a
// TIMESTAMP_LTZ(p≤6) one as the instant with an explicit UTC offset: the
// files' column is then a TIMESTAMPTZ, and instants compare without
// DuckDB's TimeZone. Finer precisions would need DuckDB's nanosecond
// type, so they are refused.
func renderTimestamp(t spec.DataType, v spec.TimestampValue) (string, bool) {
	if t.Precision > 6 || v.NanoOfMilli%1000 != 0 || !renderableYear(v.Time()) {
		return "", false
	}
	switch t.Root {
	case spec.Timestamp:
		return "TIMESTAMP '" + v.Format(6) + "'", true
	case spec.TimestampLTZ:
		return "TIMESTAMPTZ '" + v.Format(6) + "+00'", true
	}
	return "", false
}
