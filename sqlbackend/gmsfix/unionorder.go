package gmsfix

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// orderSetOp makes the ORDER BY, LIMIT and OFFSET written after the last
// SELECT of a set operation apply to its whole result, as in MySQL
// (https://dev.mysql.com/doc/refman/8.0/en/union.html). GMS v0.20.0 keeps
// them on the SetOp node, and its executor (rowexec/rel.go buildSetOp)
// skips the OFFSET rows before it sorts: the offset iterator wraps the
// union and the sort or top-N wraps the offset, so … ORDER BY c0 DESC
// LIMIT 4 OFFSET 1 dropped an arbitrary row instead of the first. Its sort
// fields also keep the type of the first SELECT's column (planbuilder
// buildSetOp), so a column that is a DECIMAL only in a later SELECT sorted
// as an integer (62.25 before 61.75). The set operation becomes
// Limit(Offset(Sort(s))), the plan GMS builds for a SELECT's ORDER BY …
// LIMIT … OFFSET, its sort fields reading s's columns in their types.
func orderSetOp(s *plan.SetOp) sql.Node {
	if s.Limit == nil && s.Offset == nil && len(s.SortFields) == 0 {
		return s
	}
	bare := *s
	bare.Limit, bare.Offset, bare.SortFields = nil, nil, nil
	var n sql.Node = &bare
	if len(s.SortFields) > 0 {
		n = plan.NewSort(setOpSortFields(s), n)
	}
	if s.Offset != nil {
		n = plan.NewOffset(s.Offset, n)
	}
	if s.Limit != nil {
		n = plan.NewLimit(s.Limit, n)
	}
	return n
}

// setOpSortFields are the sort fields of s with each column they read
// typed as s's output column.
func setOpSortFields(s *plan.SetOp) sql.SortFields {
	schema := s.Schema()
	var ids []sql.ColumnId
	s.Columns().ForEach(func(id sql.ColumnId) { ids = append(ids, id) })
	fields := make(sql.SortFields, len(s.SortFields))
	for i, f := range s.SortFields {
		col, _, _ := transform.Expr(f.Column, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			gf, ok := e.(*expression.GetField)
			if !ok {
				return e, transform.SameTree, nil
			}
			pos := setOpColumn(gf, schema, ids)
			if pos < 0 {
				return e, transform.SameTree, nil
			}
			return retypedField(gf, schema[pos].Type), transform.NewTree, nil
		})
		fields[i] = f
		fields[i].Column = col
	}
	return fields
}

// setOpColumn is the position among s's output columns of the one gf
// reads: by column id (GMS's planbuilder puts the id in the index of the
// fields it makes for aliases), else by name; -1 when none matches.
func setOpColumn(gf *expression.GetField, schema sql.Schema, ids []sql.ColumnId) int {
	for _, id := range []sql.ColumnId{gf.Id(), sql.ColumnId(gf.Index())} {
		for pos, colId := range ids {
			if id != 0 && id == colId && pos < len(schema) {
				return pos
			}
		}
	}
	for pos, col := range schema {
		if strings.EqualFold(col.Name, gf.Name()) {
			return pos
		}
	}
	return -1
}
