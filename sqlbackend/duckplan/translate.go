package duckplan

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// Translate returns the DuckDB SQL of the subtree n and the table reads
// it reads, or why n is not translated.
//
// A node for which isLeaf is true is a lakesql table read. It becomes
// relation t<i>, i its position in leaves (in the order met, left to
// right), with columns c0, c1, … in the order of its Schema(); the caller
// applies the filter pushed into it. An IndexedTableAccess on the inner
// side of a lookup join is a leaf read whole: its lookup keys become the
// join's ON condition. q.Schema is n.Schema(): GMS's result types, which
// the executor converts DuckDB's values to.
//
// The SQL selects n's columns in order, named o0, o1, …; every node is a
// SELECT over its children's as subqueries, which DuckDB flattens. DuckDB
// keeps no order of a subquery (the executor turns insertion order off),
// so a sort's keys travel up as hidden columns k0, k1, … to the LIMIT and
// the outermost SELECT, which order by them.
func Translate(n sql.Node, isLeaf func(sql.Node) bool) (q *Query, leaves []sql.Node, err error) {
	return translate(n, isLeaf, 0)
}

// translate is Translate of a subtree on the right side of joins with
// lateral columns on their left sides.
func translate(n sql.Node, isLeaf func(sql.Node) bool, lateral int) (q *Query, leaves []sql.Node, err error) {
	t := &translator{isLeaf: isLeaf, lateral: lateral}
	r, err := t.node(n)
	if err != nil {
		return nil, nil, err
	}
	sql := r.sql
	if len(r.keys) > 0 {
		sql = visible(r) + orderBy(r)
	}
	return &Query{SQL: sql, Schema: n.Schema(), Ordered: len(r.keys) > 0, MaxRows: rowBound(n)}, t.leaves, nil
}

type translator struct {
	isLeaf func(sql.Node) bool
	leaves []sql.Node
	// wholeReads are the index reads of lookup joins, which the caller
	// reads whole and whose keys the join's condition tests.
	wholeReads map[sql.Node]bool
	// lateral is how many columns of the joins the node being translated
	// is on the right side of GMS numbers ahead of a join's own (see join).
	lateral int
}

// rel is a translated node: a SELECT of columns o0, o1, …, then the
// hidden keys k0, k1, … its rows are ordered by in GMS.
type rel struct {
	sql   string
	width int
	// keys are the directions of k0, k1, …: " ASC NULLS FIRST" and so on.
	keys []string
}

// visible is the SELECT of r's columns without its keys.
func visible(r rel) string {
	if len(r.keys) == 0 {
		return r.sql
	}
	cols := make([]string, r.width)
	for i := range cols {
		cols[i] = "q." + out(i) + " AS " + out(i)
	}
	return "SELECT " + columnList(cols) + from(r)
}

// columnList is a SELECT list of cols. A node of no columns (a join side
// GMS reads for its rows only) still needs one in SQL: an unused NULL z.
func columnList(cols []string) string {
	if len(cols) == 0 {
		return "NULL AS z"
	}
	return strings.Join(cols, ", ")
}

// orderBy is the ORDER BY of the rows of r, named q.
func orderBy(r rel) string {
	if len(r.keys) == 0 {
		return ""
	}
	keys := make([]string, len(r.keys))
	for i, k := range r.keys {
		keys[i] = "q." + key(i) + k
	}
	return " ORDER BY " + strings.Join(keys, ", ")
}

// carried is the SELECT list's tail that passes r's keys on.
func carried(r rel) string {
	var b strings.Builder
	for i := range r.keys {
		b.WriteString(", q." + key(i) + " AS " + key(i))
	}
	return b.String()
}

func key(i int) string { return "k" + strconv.Itoa(i) }

func (t *translator) node(n sql.Node) (rel, error) {
	if t.isLeaf(n) {
		return t.leaf(n)
	}
	switch n := n.(type) {
	case *plan.TableAlias:
		return t.node(n.Child)
	case *plan.SubqueryAlias:
		if err := uncorrelated(n); err != nil {
			return rel{}, err
		}
		// A derived table sees no outer columns: GMS numbers its
		// columns afresh.
		outer := t.lateral
		t.lateral = 0
		defer func() { t.lateral = outer }()
		return t.node(n.Child)
	case *plan.Project:
		return t.project(n)
	case *plan.Filter:
		return t.filter(n.Child, n.Expression)
	case *plan.Having:
		return t.filter(n.Child, n.Cond)
	case *plan.GroupBy:
		return t.groupBy(n)
	case *plan.Sort:
		return t.sort(n.Child, n.SortFields, nil)
	case *plan.TopN:
		if n.CalcFoundRows {
			return rel{}, errors.New("duckplan: SQL_CALC_FOUND_ROWS is not translated")
		}
		return t.sort(n.Child, n.Fields, n.Limit)
	case *plan.Limit:
		if n.CalcFoundRows {
			return rel{}, errors.New("duckplan: SQL_CALC_FOUND_ROWS is not translated")
		}
		return t.limit(n.Child, "LIMIT", n.Limit)
	case *plan.Offset:
		return t.limit(n.Child, "OFFSET", n.Offset)
	case *plan.Distinct:
		return t.distinct(n.Child)
	case *plan.OrderedDistinct:
		return t.distinct(n.Child)
	case *plan.JoinNode:
		return t.join(n)
	case *plan.SetOp:
		return t.setOp(n)
	case *plan.Window:
		return t.window(n)
	}
	return rel{}, fmt.Errorf("duckplan: node %s is not translated", nodeName(n))
}

// uncorrelated refuses a derived table that reads the rows around it.
func uncorrelated(n *plan.SubqueryAlias) error {
	if n.CacheableCTESource {
		return errors.New("duckplan: common table expressions are not translated yet")
	}
	if n.IsLateral || n.OuterScopeVisibility || !n.Correlated.Empty() {
		return errors.New("duckplan: a lateral or correlated derived table is not translated")
	}
	return nil
}

func nodeName(n sql.Node) string {
	return reflect.TypeOf(n).Elem().Name()
}

func (t *translator) leaf(n sql.Node) (rel, error) {
	if ita, ok := n.(*plan.IndexedTableAccess); ok && len(ita.Expressions()) > 0 && !t.wholeReads[n] {
		return rel{}, errors.New("duckplan: an index lookup outside a lookup join is not translated")
	}
	name := "t" + strconv.Itoa(len(t.leaves))
	t.leaves = append(t.leaves, n)
	cols := make([]string, len(n.Schema()))
	for i := range cols {
		cols[i] = "c" + strconv.Itoa(i) + " AS " + out(i)
	}
	return rel{sql: "SELECT " + columnList(cols) + " FROM " + name, width: len(cols)}, nil
}

// out is the name of output column i.
func out(i int) string { return "o" + strconv.Itoa(i) }

// child translates the input of a node that reads one: its FROM item, named
// q, and the expressions over its columns.
func (t *translator) child(n sql.Node) (rel, *exprs, error) {
	r, err := t.node(n)
	if err != nil {
		return rel{}, nil, err
	}
	return r, inputOf(len(n.Schema())), nil
}

// inputOf is the expressions over a FROM item q of width columns.
func inputOf(width int) *exprs {
	return &exprs{width: width, column: func(i int) string { return "q." + out(i) }}
}

func from(r rel) string { return " FROM (" + r.sql + ") AS q" }

func (t *translator) project(n *plan.Project) (rel, error) {
	r, x, err := t.child(n.Child)
	if err != nil {
		return rel{}, err
	}
	cols, err := t.selectList(x, n.Projections)
	if err != nil {
		return rel{}, err
	}
	return rel{sql: "SELECT " + cols + carried(r) + from(r), width: len(n.Projections), keys: r.keys}, nil
}

// selectList is the columns es named o0, o1, ….
func (t *translator) selectList(x *exprs, es []sql.Expression) (string, error) {
	cols := make([]string, len(es))
	for i, e := range es {
		s, _, err := x.value(e)
		if err != nil {
			return "", err
		}
		cols[i] = s + " AS " + out(i)
	}
	return strings.Join(cols, ", "), nil
}

func (t *translator) filter(child sql.Node, cond sql.Expression) (rel, error) {
	r, x, err := t.child(child)
	if err != nil {
		return rel{}, err
	}
	p, err := x.cond(cond)
	if err != nil {
		return rel{}, err
	}
	return rel{sql: "SELECT *" + from(r) + " WHERE " + p, width: r.width, keys: r.keys}, nil
}

// groupBy is GROUP BY, whose selected values that are not aggregates must
// be grouping keys: DuckDB allows nothing else, and MySQL's ANY_VALUE
// choice of other columns is GMS's first row, not DuckDB's first non-NULL.
func (t *translator) groupBy(n *plan.GroupBy) (rel, error) {
	r, x, err := t.child(n.Child)
	if err != nil {
		return rel{}, err
	}
	keys := make([]string, len(n.GroupByExprs))
	grouped := map[string]bool{}
	for i, e := range n.GroupByExprs {
		var c class
		if keys[i], c, err = x.value(e); err != nil {
			return rel{}, err
		}
		if c == classFloat || c == classDouble {
			return rel{}, errors.New("duckplan: GROUP BY a floating-point value is not translated")
		}
		grouped[keys[i]] = true
	}
	agg := &exprs{width: x.width, column: x.column, aggregates: true}
	cols := make([]string, len(n.SelectedExprs))
	for i, e := range n.SelectedExprs {
		if err := checkGrouped(e, x, grouped); err != nil {
			return rel{}, err
		}
		s, _, err := agg.value(e)
		if err != nil {
			return rel{}, err
		}
		cols[i] = s + " AS " + out(i)
	}
	s := "SELECT " + columnList(cols) + from(r)
	if len(keys) > 0 {
		s += " GROUP BY " + strings.Join(keys, ", ")
	}
	return rel{sql: s, width: len(cols)}, nil
}

// checkGrouped refuses a selected value of a GROUP BY that reads a column
// outside an aggregate without being a grouping key.
func checkGrouped(e sql.Expression, x *exprs, grouped map[string]bool) error {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	if isAggregate(e) {
		return nil
	}
	if s, _, err := x.value(e); err == nil && grouped[s] {
		return nil
	}
	if _, ok := e.(*expression.GetField); ok {
		return errors.New("duckplan: a selected column that is neither grouped nor aggregated is not translated")
	}
	for _, c := range e.Children() {
		if err := checkGrouped(c, x, grouped); err != nil {
			return err
		}
	}
	return nil
}

// sort is ORDER BY, with MySQL's NULL order (first ascending, last
// descending, as GMS's sort field asks), and limit for TopN.
func (t *translator) sort(child sql.Node, fields sql.SortFields, limit sql.Expression) (rel, error) {
	r, err := t.node(child)
	if err != nil {
		return rel{}, err
	}
	return t.sortRel(r, len(child.Schema()), fields, limit)
}

// sortRel is r, of width columns, with fields as its keys, and limited
// to limit rows if there is one.
func (t *translator) sortRel(r rel, width int, fields sql.SortFields, limit sql.Expression) (rel, error) {
	x := inputOf(width)
	cols := make([]string, width, width+len(fields))
	for i := range cols {
		cols[i] = "q." + out(i) + " AS " + out(i)
	}
	keys, err := x.sortKeys(fields)
	if err != nil {
		return rel{}, err
	}
	dirs := make([]string, len(fields))
	for i, f := range fields {
		dirs[i] = direction(f)
		cols = append(cols, keys[i]+" AS "+key(i))
	}
	sorted := rel{sql: "SELECT " + strings.Join(cols, ", ") + from(r), width: width, keys: dirs}
	if limit == nil {
		return sorted, nil
	}
	return limitRel(sorted, "LIMIT", limit)
}

// limit is LIMIT or OFFSET of a constant.
func (t *translator) limit(child sql.Node, clause string, e sql.Expression) (rel, error) {
	r, err := t.node(child)
	if err != nil {
		return rel{}, err
	}
	return limitRel(r, clause, e)
}

func limitRel(r rel, clause string, e sql.Expression) (rel, error) {
	n, err := count(e)
	if err != nil {
		return rel{}, err
	}
	return rel{sql: "SELECT *" + from(r) + orderBy(r) + " " + clause + " " + n, width: r.width, keys: r.keys}, nil
}

// count is the row count of LIMIT or OFFSET: a non-negative integer
// literal (GMS binds ? before analysis), or a sum of them, as GMS's LIMIT
// of a LIMIT … OFFSET is.
func count(e sql.Expression) (string, error) {
	n, ok := constantCount(e)
	if !ok {
		return "", fmt.Errorf("duckplan: LIMIT or OFFSET %s is not translated", e)
	}
	return strconv.FormatInt(n, 10), nil
}

func constantCount(e sql.Expression) (int64, bool) {
	switch e := e.(type) {
	case *expression.Literal:
		s, err := intLiteral(e.Value())
		if err != nil {
			return 0, false
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	case *expression.Arithmetic:
		l, lok := constantCount(e.LeftChild)
		r, rok := constantCount(e.RightChild)
		if e.Operator() == "+" && lok && rok && l <= math.MaxInt64-r {
			return l + r, true
		}
	}
	return 0, false
}

// distinct is DISTINCT. GMS keeps the first of equal rows in input order,
// so its DISTINCT of sorted rows is sorted; DuckDB's is not.
func (t *translator) distinct(child sql.Node) (rel, error) {
	r, _, err := t.child(child)
	if err != nil {
		return rel{}, err
	}
	if len(r.keys) > 0 {
		return rel{}, errors.New("duckplan: DISTINCT of sorted rows is not translated")
	}
	if err := distinctColumns(child.Schema()); err != nil {
		return rel{}, err
	}
	return rel{sql: "SELECT DISTINCT *" + from(r), width: r.width}, nil
}

// distinctColumns refuses to compare rows whose columns DuckDB and GMS
// would call equal otherwise (floating point: -0 and NaN).
func distinctColumns(s sql.Schema) error {
	for _, c := range s {
		cl, err := classOf(c.Type)
		if err != nil {
			return err
		}
		if cl == classFloat || cl == classDouble {
			return errors.New("duckplan: DISTINCT or UNION of floating-point values is not translated")
		}
	}
	return nil
}
