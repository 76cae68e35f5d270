package sqlbackend

import (
	"strconv"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/planner/ingest"
	"github.com/lakesql/lakesql/storage/spec"
)

// literalInserts builds an INSERT … VALUES of literals into a lakesql
// table as a literalInsertNode: its values are converted into Paimon
// values once and written straight into the table's writer, without GMS's
// per-row projection, conversion and editor calls. Only values whose
// conversion is exact qualify (planner/ingest's exact converters: text of
// an integer in range, a decimal within its scale, a string within its
// length, a real date); with any other value, DEFAULT, an expression, a
// bound parameter, IGNORE, REPLACE, ON DUPLICATE KEY UPDATE or a column
// left to its default, the statement runs on GMS as before. Setting
// lakesql_planner_rewrites to OFF turns it off, for differential tests.
//
// It works at build time, not as an analyzer rule: GMS analyzes an
// INSERT of literal values with a fixed set of rules of its own
// (getBatchesForNode, LiteralValueSource).
type literalInserts struct{}

// Build implements sql.NodeExecBuilder: nil unless n is such an INSERT.
func (literalInserts) Build(ctx *sql.Context, n sql.Node, _ sql.Row) (sql.RowIter, error) {
	insert, ok := n.(*plan.InsertInto)
	if !ok {
		return nil, nil
	}
	if s, ok := ctx.Session.(*Session); ok {
		if pending := s.takePendingValues(ctx.Query()); pending != nil {
			node, err := newBulkInsertNode(insert, pending)
			if err != nil {
				return nil, err
			}
			return &writeOnceIter{write: node.write}, nil
		}
	}
	if !rewritesOn(ctx) {
		return nil, nil
	}
	if node, ok := newLiteralInsertNode(insert); ok {
		return &writeOnceIter{write: node.write}, nil
	}
	return nil, nil
}

// literalInsertNode is an INSERT of rows already converted.
type literalInsertNode struct {
	table *Table
	rows  [][]any
}

func newLiteralInsertNode(insert *plan.InsertInto) (*literalInsertNode, bool) {
	if insert.IsReplace || insert.Ignore || len(insert.OnDupExprs) > 0 || len(insert.Checks()) > 0 || len(insert.Returning) > 0 {
		return nil, false
	}
	table, ok := destinationTable(insert.Destination)
	if !ok || table.timeTravel || table.readsItself || table.duplicates != nil {
		return nil, false
	}
	fields := table.schema.Fields
	child, columnOf, ok := projectedSource(insert.Source, len(fields))
	if !ok {
		return nil, false
	}
	values, ok := child.(*plan.Values)
	if !ok {
		return nil, false
	}
	converters := make([]ingest.Converter, len(fields))
	for i, f := range fields {
		if converters[i], ok = ingest.ExactConverterFor(f.Type); !ok {
			return nil, false
		}
	}
	rows := make([][]any, len(values.ExpressionTuples))
	for r, tuple := range values.ExpressionTuples {
		if rows[r], ok = literalRow(tuple, fields, columnOf, converters); !ok {
			return nil, false
		}
	}
	return &literalInsertNode{table: table, rows: rows}, true
}

// literalRow converts one tuple of literals into a row of the table.
func literalRow(tuple []sql.Expression, fields []spec.DataField, columnOf []int, converters []ingest.Converter) ([]any, bool) {
	if len(tuple) != len(fields) {
		return nil, false
	}
	row := make([]any, len(fields))
	for i, e := range tuple {
		lit, ok := e.(*expression.Literal)
		if !ok {
			return nil, false
		}
		col := columnOf[i]
		v := lit.Value()
		if v == nil {
			if !fields[col].Type.Nullable {
				return nil, false
			}
			continue
		}
		text, ok := literalText(v, fields[col].Type)
		if !ok {
			return nil, false
		}
		if row[col], ok = convertExactly(converters[col], text); !ok {
			return nil, false
		}
	}
	return row, true
}

func convertExactly(convert ingest.Converter, text []byte) (any, bool) {
	v, err := convert(text)
	return v, err == nil
}

// literalText is the text of a literal GMS parsed, when the column reads
// it as MySQL does: a string for any column; an integer for a numeric
// column, a decimal for a DECIMAL or floating-point one and a double for
// a floating-point one, where its digits are its value.
func literalText(v any, t spec.DataType) ([]byte, bool) {
	if s, ok := v.(string); ok {
		return []byte(s), true
	}
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Decimal, spec.Float, spec.Double:
	default:
		return nil, false
	}
	switch n := v.(type) {
	case int8:
		return strconv.AppendInt(nil, int64(n), 10), true
	case int16:
		return strconv.AppendInt(nil, int64(n), 10), true
	case int32:
		return strconv.AppendInt(nil, int64(n), 10), true
	case int64:
		return strconv.AppendInt(nil, n, 10), true
	case uint8:
		return strconv.AppendUint(nil, uint64(n), 10), true
	case uint16:
		return strconv.AppendUint(nil, uint64(n), 10), true
	case uint32:
		return strconv.AppendUint(nil, uint64(n), 10), true
	case uint64:
		return strconv.AppendUint(nil, n, 10), true
	case decimal.Decimal:
		if t.Root != spec.Decimal && t.Root != spec.Float && t.Root != spec.Double {
			return nil, false
		}
		return []byte(n.String()), true
	case float64:
		if t.Root != spec.Float && t.Root != spec.Double {
			return nil, false
		}
		return strconv.AppendFloat(nil, n, 'g', -1, 64), true
	}
	return nil, false
}

// write writes the rows as one statement of the transaction.
func (n *literalInsertNode) write(ctx *sql.Context) (int64, error) {
	e := n.table.editor(ctx, false)
	if e.err != nil {
		return 0, e.err
	}
	var err error
	for _, row := range n.rows {
		if err = e.w.writer.Write(ctx, row, spec.RowKindInsert); err != nil {
			break
		}
	}
	return int64(len(n.rows)), e.finishStatement(ctx, err)
}
