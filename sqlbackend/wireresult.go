package sqlbackend

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/planner/rewrite"
	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// ruleWireResult is the analyzer rule id of wireResultRule.
const ruleWireResult analyzer.RuleId = 10_018

type wireResultKey struct{}

// WithWireResult marks ctx as the context of a statement whose result
// rows go only to go-mysql-server's MySQL-protocol handler, which turns
// each value into the wire's text with the result schema's column types
// and hands nothing else the rows: the server's handler marks every
// statement a client sends. Only such statements get the wireResult root.
func WithWireResult(ctx context.Context) context.Context {
	return context.WithValue(ctx, wireResultKey{}, true)
}

func isWireResult(ctx context.Context) bool {
	on, _ := ctx.Value(wireResultKey{}).(bool)
	return on
}

// wireResultRule takes work off go-mysql-server's handler, which turns
// every result value into text on one goroutine while another reads the
// rows (server.Handler.resultForDefaultIter, RowToSQL): on a streamed
// table that goroutine is the bottleneck. It puts wireResult at the root
// of a read-only statement's plan whose rows go to the wire
// (WithWireResult), unless no column of its result qualifies and DuckDB
// does not compute it.
func wireResultRule(build sql.NodeExecBuilder) analyzer.Rule {
	return analyzer.Rule{Id: ruleWireResult, Apply: func(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if !isWireResult(ctx) || !wholeStatement(scope, sel) || !readOnlyStatement(ctx.Query()) || rewrite.IsExplain(ctx.Query()) {
			return n, transform.SameTree, nil
		}
		w, ok := newWireResult(n, build)
		if !ok {
			return n, transform.SameTree, nil
		}
		return w, transform.NewTree, nil
	}}
}

// wireResult is the root of a statement's plan whose rows the handler
// sends: its child's rows under its child's schema, with two kinds of
// columns changed, neither in what the client receives, column metadata
// included.
//
//   - Encoded columns (signed numbers and DATEs) are turned into the
//     wire's text here, on the goroutine that reads the rows, by their
//     own type's SQL method; their type in the schema, encodedType, only
//     copies the text. Only types whose column metadata the handler
//     derives from Type() alone qualify (no collation, not unsigned,
//     DECIMAL or DATETIME).
//   - DECIMAL columns of nonzero scale whose type is a table column's
//     keep their type minus "defines a column", and their values are
//     rounded here to the scale (other DECIMAL types GMS formats at each
//     value's own scale, and are left alone). Every
//     column type of a table's DECIMAL column defines a column, and GMS
//     v0.20.0 formats such a value at the column's scale, parses that
//     text back (DecimalType_.ConvertToNullDecimal compares the value's
//     exponent with the scale instead of its negation, so it never skips
//     the round trip) and formats it again (DecimalValueStringFixed, the
//     same comparison); the type that does not define a column formats a
//     value already at the scale once.
type wireResult struct {
	child  sql.Node
	schema sql.Schema
	// encoded are the encoded columns' positions and child types.
	encoded []column
	// decimals are the rounded columns' positions and child types.
	decimals []column
	build    sql.NodeExecBuilder
}

type column struct {
	index int
	typ   sql.Type
}

var (
	_ sql.Node          = (*wireResult)(nil)
	_ sql.ExecSourceRel = (*wireResult)(nil)
)

// newWireResult wraps n, unless no column of its result qualifies.
func newWireResult(n sql.Node, build sql.NodeExecBuilder) (*wireResult, bool) {
	schema := n.Schema().Copy()
	w := &wireResult{child: n, schema: schema, build: build}
	for i, c := range schema {
		switch t := c.Type.(type) {
		case types.DecimalType_:
			if t.Scale() > 0 && lakesqltypes.DecimalDefinesColumn(t) {
				w.decimals = append(w.decimals, column{i, t})
				schema[i].Type = types.MustCreateDecimalType(t.Precision(), t.Scale())
			}
		case types.NumberTypeImpl_:
			if !types.IsUnsigned(t) {
				typ := columnTextType(t)
				w.encoded = append(w.encoded, column{i, typ})
				schema[i].Type = encodedType{typ}
			}
		default:
			if types.IsDateType(t) {
				w.encoded = append(w.encoded, column{i, t})
				schema[i].Type = encodedType{t}
			}
		}
	}
	_, streamable := resultSource(n).(*vectorNode)
	return w, streamable || len(w.encoded)+len(w.decimals) > 0
}

func (n *wireResult) Resolved() bool       { return n.child.Resolved() }
func (n *wireResult) Schema() sql.Schema   { return n.schema }
func (n *wireResult) Children() []sql.Node { return []sql.Node{n.child} }
func (n *wireResult) IsReadOnly() bool     { return n.child.IsReadOnly() }
func (n *wireResult) String() string       { return n.child.String() }

func (n *wireResult) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	w, ok := newWireResult(children[0], n.build)
	if !ok {
		return children[0], nil
	}
	return w, nil
}

// RowIter implements sql.ExecSourceRel. A Project that only passes its
// child's columns on (SELECT * keeps one) is left out: its rows are its
// child's, copied. A result DuckDB computes whole goes to the client from
// DuckDB's batches when the statement came with the client's callback
// (streamedResult).
func (n *wireResult) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	source := resultSource(n.child)
	if iter, ok, err := streamedResult(ctx, source, n.schema); ok || err != nil {
		return iter, err
	}
	iter, err := n.build.Build(ctx, source, row)
	if err != nil {
		return nil, err
	}
	return &wireResultIter{RowIter: iter, node: n}, nil
}

// resultSource is the node whose rows are n's: n, or the child of a
// Project that only passes its child's columns on.
func resultSource(n sql.Node) sql.Node {
	if p, ok := n.(*plan.Project); ok && passesColumnsOn(p) {
		return p.Child
	}
	return n
}

// passesColumnsOn reports whether p's expressions are its child's columns
// in their order.
func passesColumnsOn(p *plan.Project) bool {
	if len(p.Projections) != len(p.Child.Schema()) {
		return false
	}
	for i, e := range p.Projections {
		if f, ok := e.(*expression.GetField); !ok || f.Index() != i {
			return false
		}
	}
	return true
}

// wireResultIter encodes and rounds its rows' values of the node's
// columns.
type wireResultIter struct {
	sql.RowIter
	node *wireResult
}

func (it *wireResultIter) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := it.RowIter.Next(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range it.node.encoded {
		if row[c.index] == nil {
			continue
		}
		v, err := c.typ.SQL(ctx, nil, row[c.index])
		if err != nil {
			return nil, err
		}
		row[c.index] = v
	}
	for _, c := range it.node.decimals {
		if row[c.index] == nil {
			continue
		}
		if row[c.index], err = roundDecimal(row[c.index], c.typ.(types.DecimalType_)); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// encodedType is the type of a column wireResultIter encodes: its SQL
// copies the encoded text, and any other value (none reaches it) is
// converted by the column's own type.
type encodedType struct{ columnType }

// columnType names sql.Type for embedding: a field named Type would hide
// the method Type.
type columnType interface{ sql.Type }

func (t encodedType) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if e, ok := v.(sqltypes.Value); ok {
		return sqltypes.MakeTrusted(e.Type(), append(dest, e.Raw()...)), nil
	}
	return t.columnType.SQL(ctx, dest, v)
}

// roundDecimal is v, a value of a DECIMAL column of type t, as a decimal
// of exactly t's scale of digits after the point: the value GMS formats.
// A value of another Go type converts as GMS's DecimalType_.SQL converts
// it, an invalid NullDecimal included (to zero).
func roundDecimal(v any, t types.DecimalType_) (any, error) {
	scale := int32(t.Scale())
	d, ok := v.(decimal.Decimal)
	if !ok {
		nd, err := t.ConvertToNullDecimal(v)
		if err != nil {
			return nil, err
		}
		d = nd.Decimal
	}
	if d.Exponent() == -scale {
		return d, nil
	}
	return d.Round(scale), nil
}

// columnTextType is t, or for a DOUBLE or FLOAT t that writes its values
// as MySQL does.
func columnTextType(t types.NumberTypeImpl_) sql.Type {
	if types.IsFloat(t) {
		return mysqlFloat{t}
	}
	return t
}

// mysqlFloat is a DOUBLE or FLOAT column type whose values are written as
// MySQL writes them (planner/sqltypes.DoubleText and FloatText): GMS
// writes a DOUBLE 1234567 as 1.234567e+06 and 1e15 as 1e+15, where MySQL
// writes 1234567 and 1e15.
type mysqlFloat struct{ columnType }

func (t mysqlFloat) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if v == nil {
		return sqltypes.NULL, nil
	}
	converted, _, err := t.Convert(ctx, v)
	if err != nil {
		return sqltypes.Value{}, err
	}
	if text, ok := lakesqltypes.FloatValueText(converted); ok {
		return sqltypes.MakeTrusted(t.Type(), append(dest, text...)), nil
	}
	return t.columnType.SQL(ctx, dest, v)
}
