package duckplan

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation/window"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// window is a Window node: its select list over its input, where each
// window function is DuckDB's with the same OVER clause. lakesql runs
// GMS's windows with MySQL's frames (gmsfix.ExecBuilder), which DuckDB's
// are: with ORDER BY and no frame clause, RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW, the current row's peers included; without
// ORDER BY, the whole partition.
func (t *translator) window(n *plan.Window) (rel, error) {
	r, x, err := t.child(n.Child)
	if err != nil {
		return rel{}, err
	}
	cols := make([]string, len(n.SelectExprs))
	for i, e := range n.SelectExprs {
		s, err := x.windowValue(e)
		if err != nil {
			return rel{}, err
		}
		cols[i] = s + " AS " + out(i)
	}
	return rel{sql: "SELECT " + columnList(cols) + from(r), width: len(cols)}, nil
}

// windowValue is a value of a Window's select list: a window function, or
// a value of its input row.
func (x *exprs) windowValue(e sql.Expression) (string, error) {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	w, ok := e.(sql.WindowAdaptableExpression)
	if !ok || w.Window() == nil {
		s, _, err := x.value(e)
		return s, err
	}
	ranking, err := x.unframed(e)
	if err != nil {
		return "", err
	}
	over, err := x.overClause(w.Window(), ranking == "")
	if err != nil {
		return "", err
	}
	if ranking != "" {
		return ranking + over, nil
	}
	for _, arg := range e.Children() {
		if transform.InspectExpr(arg, isAggregate) {
			return "", errors.New("duckplan: a window function of an aggregate is not translated")
		}
	}
	agg := &exprs{column: x.column, width: x.width, aggregates: true, over: over}
	s, ok, err := agg.aggregate(e)
	if !ok {
		return "", notTranslated(e)
	}
	return s, err
}

// unframed is a window function that ignores the frame, in DuckDB's
// words without its OVER clause: the rankings, and LAG and LEAD of an
// offset, which both engines answer with the value offset rows before or
// after in the partition's order, NULL past its ends. A LAG or LEAD with a
// default is not translated: MySQL types it as the value's and the
// default's aggregate type, GMS as the value's. "" for another function.
func (x *exprs) unframed(e sql.Expression) (string, error) {
	switch f := e.(type) {
	case *window.RowNumber:
		return "row_number()", nil
	case *window.Rank:
		return "rank()", nil
	case *window.DenseRank:
		return "dense_rank()", nil
	case *window.Lag:
		return x.shifted("lag", f, f.ChildExpressions)
	case *window.Lead:
		return x.shifted("lead", f, f.ChildExpressions)
	}
	return "", nil
}

// shifted is DuckDB's LAG or LEAD (name) of GMS's function f over args,
// its value and default (its Children add the window's expressions).
// GMS keeps the offset unexported (window.Lag's and window.Lead's
// offset, a literal's value).
func (x *exprs) shifted(name string, f sql.Expression, args []sql.Expression) (string, error) {
	offset := reflect.ValueOf(f).Elem().FieldByName("offset")
	if len(args) != 1 || !offset.IsValid() || !offset.CanInt() || offset.Int() < 0 {
		return "", notTranslated(f)
	}
	value, _, err := x.value(args[0])
	if err != nil {
		return "", err
	}
	return name + "(" + value + ", " + strconv.FormatInt(offset.Int(), 10) + ")", nil
}

// overClause is the OVER clause of window w: its partitions, its order (NULLs
// first ascending, as GMS's sort fields ask) and, for an aggregate
// (framed), its frame.
func (x *exprs) overClause(w *sql.WindowDefinition, framed bool) (string, error) {
	var parts []string
	if len(w.PartitionBy) > 0 {
		keys := make([]string, len(w.PartitionBy))
		for i, e := range w.PartitionBy {
			s, c, err := x.value(e)
			if err != nil {
				return "", err
			}
			if c == classFloat || c == classDouble {
				return "", errors.New("duckplan: PARTITION BY a floating-point value is not translated")
			}
			keys[i] = s
		}
		parts = append(parts, "PARTITION BY "+strings.Join(keys, ", "))
	}
	if len(w.OrderBy) > 0 {
		keys, err := x.sortKeys(w.OrderBy)
		if err != nil {
			return "", err
		}
		if framed && hasRangeOffset(w.Frame) {
			// Offsets are added to the key in its own type in DuckDB, where
			// INT's and BIGINT's ends overflow; gmsfix's sums are exact.
			if _, c, err := x.value(w.OrderBy[0].Column); err == nil && c == classInt {
				keys[0] = "CAST(" + keys[0] + " AS HUGEINT)"
			}
		}
		for i, f := range w.OrderBy {
			keys[i] += direction(f)
		}
		parts = append(parts, "ORDER BY "+strings.Join(keys, ", "))
	}
	if framed {
		frame, err := x.frameOf(w)
		if err != nil {
			return "", err
		}
		if frame != "" {
			parts = append(parts, frame)
		}
	}
	return " OVER (" + strings.Join(parts, " ") + ")", nil
}

// sortKeys are the values fields order by; floating-point keys are
// refused (DuckDB orders -0 and NaN otherwise).
func (x *exprs) sortKeys(fields sql.SortFields) ([]string, error) {
	keys := make([]string, len(fields))
	for i, f := range fields {
		s, c, err := x.value(f.Column)
		if err != nil {
			return nil, err
		}
		if c == classFloat || c == classDouble {
			return nil, errors.New("duckplan: ORDER BY a floating-point value is not translated")
		}
		keys[i] = s
	}
	return keys, nil
}

// direction is the ASC or DESC of f with its NULL order: MySQL's, NULLs
// first ascending and last descending, as GMS's sort fields ask.
func direction(f sql.SortField) string {
	asc := f.Order != sql.Descending
	dir := map[bool]string{true: " ASC", false: " DESC"}[asc]
	if asc == (f.NullOrdering == sql.NullsFirst) {
		return dir + " NULLS FIRST"
	}
	return dir + " NULLS LAST"
}

// frameOf is the frame clause of w: MySQL's default (RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY; none, the whole
// partition, without), or w's own: a ROWS frame of constant offsets, or a
// RANGE frame as gmsfix computes it on GMS, MySQL's, which DuckDB's is
// too: of peers and unbounded ends over any keys, and of constant
// offsets over one integer or DECIMAL key (INTERVAL offsets stay on GMS).
func (x *exprs) frameOf(w *sql.WindowDefinition) (string, error) {
	f := w.Frame
	if f == nil {
		if len(w.OrderBy) > 0 {
			return "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", nil
		}
		return "", nil
	}
	unit := "ROWS"
	if strings.HasPrefix(f.String(), "RANGE") {
		unit = "RANGE"
		if err := x.rangeOffsetsTranslated(w); err != nil {
			return "", err
		}
	}
	start, err := bound(f.UnboundedPreceding(), "UNBOUNDED PRECEDING", f.StartCurrentRow(), f.StartNPreceding(), f.StartNFollowing())
	if err != nil {
		return "", err
	}
	end, err := bound(f.UnboundedFollowing(), "UNBOUNDED FOLLOWING", f.EndCurrentRow(), f.EndNPreceding(), f.EndNFollowing())
	if err != nil {
		return "", err
	}
	return unit + " BETWEEN " + start + " AND " + end, nil
}

// hasRangeOffset reports whether f is a RANGE frame with an n PRECEDING
// or FOLLOWING bound.
func hasRangeOffset(f sql.WindowFrame) bool {
	return f != nil && strings.HasPrefix(f.String(), "RANGE") &&
		(f.StartNPreceding() != nil || f.StartNFollowing() != nil || f.EndNPreceding() != nil || f.EndNFollowing() != nil)
}

// rangeOffsetsTranslated refuses a RANGE frame with an offset unless it
// orders by one integer or DECIMAL key, which DuckDB shifts by the offset
// exactly as gmsfix does; MySQL refuses the other keys.
func (x *exprs) rangeOffsetsTranslated(w *sql.WindowDefinition) error {
	if !hasRangeOffset(w.Frame) {
		return nil
	}
	if len(w.OrderBy) != 1 {
		return errors.New("duckplan: a RANGE frame with an offset and other than one ORDER BY key is not translated")
	}
	_, c, err := x.value(w.OrderBy[0].Column)
	if err != nil {
		return err
	}
	if c != classInt && c != classDecimal {
		return errors.New("duckplan: a RANGE frame with an offset over other than an integer or DECIMAL key is not translated")
	}
	return nil
}

// bound is one end of a frame: unbounded, the current row, or a
// constant number of rows (ROWS) or of key values (RANGE) before or after
// it.
func bound(unbounded bool, unboundedText string, current bool, preceding, following sql.Expression) (string, error) {
	switch {
	case unbounded:
		return unboundedText, nil
	case current:
		return "CURRENT ROW", nil
	case preceding != nil:
		n, err := count(preceding)
		return n + " PRECEDING", err
	case following != nil:
		n, err := count(following)
		return n + " FOLLOWING", err
	}
	return "", errors.New("duckplan: a window frame without a bound is not translated")
}
