package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/spec"
)

// testColumn is one column of the test table: its storage type (Paimon's
// spelling) and, where the test needs another than the SQL layer's mapping
// (planner/sqltypes), the engine type declared for it.
type testColumn struct {
	name     string
	typ      string
	override sql.Type
}

// testColumns covers every column kind, plus columns that must stay opaque:
// a case-insensitive collation, a DECIMAL declared to the engine with
// another scale, a TIMESTAMP finer than the engine's microseconds, and TIME.
var testColumns = []testColumn{
	{name: "flag", typ: "BOOLEAN"},
	{name: "tiny", typ: "TINYINT"},
	{name: "qty", typ: "INT"},
	{name: "id", typ: "BIGINT"},
	{name: "price", typ: "DECIMAL(10, 2)"},
	{name: "ratio", typ: "FLOAT"},
	{name: "amount", typ: "DOUBLE"},
	{name: "status", typ: "VARCHAR(20)"},
	{name: "code", typ: "CHAR(4)"},
	{name: "payload", typ: "VARBINARY(8)"},
	{name: "dt", typ: "DATE"},
	{name: "ts", typ: "TIMESTAMP(3)"},
	{name: "lts", typ: "TIMESTAMP_LTZ(6)"},
	{name: "note", typ: "VARCHAR(20)", override: types.MustCreateString(sqltypes.VarChar, 20, sql.Collation_utf8mb4_0900_ai_ci)},
	{name: "odd_dec", typ: "DECIMAL(10, 2)", override: types.MustCreateColumnDecimalType(10, 4)},
	{name: "nanos", typ: "TIMESTAMP(9)"},
	{name: "t", typ: "TIME"},
}

// testTable is the test table's schema in both worlds.
type testTable struct {
	fields  []spec.DataField
	engines []sql.Type
}

func newTestTable(t testing.TB) testTable {
	t.Helper()
	var tt testTable
	for i, c := range testColumns {
		dt, err := spec.ParseDataType(c.typ)
		if err != nil {
			t.Fatalf("type %q: %v", c.typ, err)
		}
		engine := c.override
		if engine == nil {
			if engine, err = lakesqltypes.Type(dt); err != nil {
				t.Fatalf("engine type of %s: %v", c.typ, err)
			}
		}
		tt.fields = append(tt.fields, spec.DataField{ID: i + 1, Name: c.name, Type: dt})
		tt.engines = append(tt.engines, engine)
	}
	return tt
}

// col returns the engine's reference to a column, qualified by the alias
// "a" as in SELECT ... FROM sales a; name may differ in case.
func (tt testTable) col(name string) *expression.GetField {
	for i, f := range tt.fields {
		if strings.EqualFold(f.Name, name) {
			return expression.NewGetFieldWithTable(i, 1, tt.engines[i], "lake", "a", name, true)
		}
	}
	panic("no column " + name)
}

// testRow is a row in both worlds: storage values, as the predicate
// evaluates them, and the values the engine holds for them, converted as
// the SQL layer does.
type testRow struct {
	storage []any
	engine  sql.Row
}

func (tt testTable) row(t testing.TB, storage []any) testRow {
	engine := make(sql.Row, len(storage))
	for i, v := range storage {
		ev, err := lakesqltypes.ToSQL(tt.fields[i].Type, v)
		if err != nil {
			t.Fatalf("engine value of %s %v: %v", tt.fields[i].Name, v, err)
		}
		engine[i] = ev
	}
	return testRow{storage: storage, engine: engine}
}

// Literal constructors typed as the parser types them.

func intLit(v int64) *expression.Literal {
	switch {
	case v >= -128 && v <= 127:
		return expression.NewLiteral(int8(v), types.Int8)
	case v >= 0 && v <= 255:
		return expression.NewLiteral(uint8(v), types.Uint8)
	case v >= -32768 && v <= 32767:
		return expression.NewLiteral(int16(v), types.Int16)
	case v >= 0 && v <= 65535:
		return expression.NewLiteral(uint16(v), types.Uint16)
	case v >= -1<<31 && v <= 1<<31-1:
		return expression.NewLiteral(int32(v), types.Int32)
	case v >= 0 && v <= 1<<32-1:
		return expression.NewLiteral(uint32(v), types.Uint32)
	}
	return expression.NewLiteral(v, types.Int64)
}

func uintLit(v uint64) *expression.Literal { return expression.NewLiteral(v, types.Uint64) }

func floatLit(v float64) *expression.Literal { return expression.NewLiteral(v, types.Float64) }

// decLit is a decimal literal as the parser types 1.50: DECIMAL(3,2).
func decLit(s string) *expression.Literal {
	d := decimal.RequireFromString(s)
	scale := max(-d.Exponent(), 0)
	digits := int32(len(d.Coefficient().Abs(d.Coefficient()).String()))
	precision := max(digits, scale, 1)
	dt, err := types.CreateDecimalType(uint8(precision), uint8(scale))
	if err != nil {
		// The parser falls back to text for decimals DECIMAL cannot type.
		return strLit(s)
	}
	return expression.NewLiteral(d, dt)
}

// castDecLit is a decimal literal typed like CAST(s AS DECIMAL(p,s)).
func castDecLit(s string, precision, scale uint8) *expression.Literal {
	return expression.NewLiteral(decimal.RequireFromString(s), types.MustCreateColumnDecimalType(precision, scale))
}

func strLit(s string) *expression.Literal {
	return expression.NewLiteral(s, types.CreateLongText(sql.Collation_utf8mb4_0900_bin))
}

func binLit(b []byte) *expression.Literal { return expression.NewLiteral(b, types.LongBlob) }

func boolLit(b bool) *expression.Literal { return expression.NewLiteral(b, types.Boolean) }

func nullLit() *expression.Literal { return expression.NewLiteral(nil, types.Null) }

func dateLit(t time.Time) *expression.Literal { return expression.NewLiteral(t, types.Date) }

func datetimeLit(t time.Time) *expression.Literal {
	return expression.NewLiteral(t, types.DatetimeMaxPrecision)
}

func tuple(lits ...sql.Expression) expression.Tuple { return expression.NewTuple(lits...) }
