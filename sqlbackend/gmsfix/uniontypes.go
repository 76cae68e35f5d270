package gmsfix

import (
	"reflect"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleSetOpTypes is the analyzer rule id of typeSetOps.
const ruleSetOpTypes analyzer.RuleId = 10_303

// typeSetOps gives each column of a UNION (INTERSECT, EXCEPT) MySQL's type,
// aggregated over the column in every SELECT of the chain
// (https://dev.mysql.com/doc/refman/8.0/en/union.html), and makes its ORDER
// BY, LIMIT and OFFSET apply to the whole result (orderSetOp).
//
// GMS v0.20.0 merges the two sides of each set operation pairwise in the
// planbuilder (planbuilder/set_op.go mergeSetOpSchemas), converting both
// to expression.GetConvertToType of the pair: CHAR (LONGTEXT) for DOUBLE
// with an integer, DECIMAL(65,30) for DOUBLE with DECIMAL, and
// DECIMAL(65,30) for an integer with a DECIMAL, whose values then print
// without their scale (22 for 22.00). typeSetOps takes those conversions
// out again and converts every SELECT's column straight to the aggregate
// type (toAggregate). When a column's types are ones aggregateType does
// not cover, the set operation keeps GMS's types.
func typeSetOps(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return newPlanRewriter(func(r *planRewriter, n sql.Node, childrenChanged bool) (sql.Node, transform.TreeIdentity, error) {
		n, same, err := r.rewriteNode(n, childrenChanged, nil)
		if err != nil {
			return nil, transform.SameTree, err
		}
		s, ok := n.(*plan.SetOp)
		if !ok || inRecursiveCte(s) {
			return n, same, nil
		}
		typed, changed, err := typeSetOp(s)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if changed {
			r.recordTableColumns(typed)
			same = transform.NewTree
		}
		ordered := orderSetOp(typed)
		if ordered != sql.Node(typed) {
			same = transform.NewTree
		}
		return ordered, same, nil
	}).walk(n)
}

// inRecursiveCte reports whether s is the union of a recursive common
// table expression, whose types GMS fixes from its first SELECT.
func inRecursiveCte(s *plan.SetOp) bool {
	found := false
	transform.Inspect(s, func(n sql.Node) bool {
		if _, ok := n.(*plan.RecursiveTable); ok {
			found = true
		}
		return !found
	})
	return found
}

// typeSetOp converts the SELECTs of the chain of set operations s heads
// to the aggregate types of their columns. changed is false when s keeps
// its types.
func typeSetOp(s *plan.SetOp) (*plan.SetOp, bool, error) {
	var leaves []sql.Node
	collectSelects(s, &leaves)
	selects := make([]sql.Node, len(leaves))
	for i, sel := range leaves {
		selects[i] = withoutConversions(sel)
	}
	typs, ok := columnAggregates(selects)
	if !ok {
		return s, false, nil
	}
	converted := make([]sql.Node, len(selects))
	for i, sel := range selects {
		converted[i] = convertedSelect(sel, typs)
	}
	if sameNodes(leaves, converted) {
		return s, false, nil
	}
	next := 0
	out, err := rebuildChain(s, converted, &next)
	if err != nil {
		return nil, false, err
	}
	return out.(*plan.SetOp), true, nil
}

// chained is the set operation that continues the chain above it in n,
// under the conversions of its columns, or nil: one without its own ORDER
// BY or LIMIT (those GMS keeps on the outermost one), whose SELECTs share
// the chain's column types.
func chained(n sql.Node) *plan.SetOp {
	s, ok := withoutConversions(n).(*plan.SetOp)
	if !ok || s.Limit != nil || s.Offset != nil || len(s.SortFields) > 0 || inRecursiveCte(s) {
		return nil
	}
	return s
}

func collectSelects(s *plan.SetOp, out *[]sql.Node) {
	for _, child := range s.Children() {
		if sub := chained(child); sub != nil {
			collectSelects(sub, out)
		} else {
			*out = append(*out, child)
		}
	}
}

// rebuildChain puts the converted SELECTs back in the chain's shape,
// without the conversions between its set operations.
func rebuildChain(s *plan.SetOp, selects []sql.Node, next *int) (sql.Node, error) {
	children := s.Children()
	out := make([]sql.Node, len(children))
	for i, child := range children {
		if sub := chained(child); sub != nil {
			sub, err := rebuildChain(sub, selects, next)
			if err != nil {
				return nil, err
			}
			out[i] = sub
			continue
		}
		out[i] = selects[*next]
		*next++
	}
	return s.WithChildren(out...)
}

// columnAggregates is the aggregate type of each column over selects.
func columnAggregates(selects []sql.Node) ([]sql.Type, bool) {
	width := len(selects[0].Schema())
	typs := make([]sql.Type, width)
	for col := range width {
		var ts []sql.Type
		for _, sel := range selects {
			schema := sel.Schema()
			if len(schema) != width {
				return nil, false
			}
			ts = append(ts, schema[col].Type)
		}
		typ, ok := aggregateType(ts)
		if !ok {
			return nil, false
		}
		if typ == types.Null {
			typ = ts[0]
		}
		typs[col] = typ
	}
	return typs, true
}

func sameNodes(a, b []sql.Node) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// convertedSelect is sel with its columns converted to typs: a Project of
// sel's columns, the converted ones aliased with the id of the column
// they convert, so that references above still find them.
func convertedSelect(sel sql.Node, typs []sql.Type) sql.Node {
	schema, ids := sel.Schema(), outputIds(sel)
	projections := make([]sql.Expression, len(schema))
	changed := false
	for i, col := range schema {
		gf := expression.NewGetFieldWithTable(int(ids[i]), 0, col.Type, col.DatabaseSource, col.Source, col.Name, col.Nullable)
		ref := sql.Expression(gf)
		if ids[i] != 0 {
			ref = gf.WithId(ids[i]).(sql.Expression)
		}
		projections[i] = ref
		// GMS's validateUnionSchemasMatch compares the sides' types with
		// reflect.DeepEqual, which tells column DECIMALs from others.
		if !reflect.DeepEqual(col.Type, typs[i]) {
			alias := expression.NewAlias(col.Name, &toAggregate{child: ref, typ: typs[i]})
			projections[i] = alias.WithId(ids[i]).(sql.Expression)
			changed = true
		}
	}
	if !changed {
		return sel
	}
	return plan.NewProject(projections, sel)
}

// outputIds are the column ids of n's output, 0 where it has none (GMS's
// planbuilder colIdsForRel).
func outputIds(n sql.Node) []sql.ColumnId {
	switch n := n.(type) {
	case *plan.Project:
		ids := make([]sql.ColumnId, len(n.Projections))
		for i, p := range n.Projections {
			if id, ok := p.(sql.IdExpression); ok {
				ids[i] = id.Id()
			}
		}
		return ids
	case plan.TableIdNode:
		var ids []sql.ColumnId
		n.Columns().ForEach(func(id sql.ColumnId) { ids = append(ids, id) })
		if len(ids) == len(n.Schema()) {
			return ids
		}
	default:
		if children := n.Children(); len(children) == 1 {
			return outputIds(children[0])
		}
	}
	return make([]sql.ColumnId, len(n.Schema()))
}

// withoutConversions is sel without the Project that converts its columns
// for a set operation: GMS's (mergeSetOpSchemas: each column a GetField or
// an id-less alias of a Convert of one) or typeSetOps' own.
func withoutConversions(sel sql.Node) sql.Node {
	p, ok := sel.(*plan.Project)
	if !ok || len(p.Projections) != len(p.Child.Schema()) {
		return sel
	}
	converts := 0
	for _, e := range p.Projections {
		switch conversionOf(e) {
		case notAConversion:
			return sel
		case conversion:
			converts++
		}
	}
	if converts == 0 {
		return sel
	}
	return p.Child
}

type conversionKind int

const (
	notAConversion conversionKind = iota
	passThrough
	conversion
)

// conversionOf classifies a projection of a set operation's converting
// Project.
func conversionOf(e sql.Expression) conversionKind {
	if isUnionField(e) {
		return passThrough
	}
	a, ok := e.(*expression.Alias)
	if !ok {
		return notAConversion
	}
	if a.Id() == 0 && isUnionField(a.Child) {
		// GMS's Convert of a column to its own type.
		return passThrough
	}
	switch x := a.Child.(type) {
	case *toAggregate:
		if isUnionField(x.child) {
			return conversion
		}
	case *expression.Convert:
		if a.Id() == 0 && isUnionField(x.Child) {
			return conversion
		}
	}
	return notAConversion
}

// isUnionField reports whether e reads a column of the SELECT below a
// converting Project, which both builders reference without a table.
func isUnionField(e sql.Expression) bool {
	gf, ok := e.(*expression.GetField)
	return ok && gf.TableId() == 0
}
