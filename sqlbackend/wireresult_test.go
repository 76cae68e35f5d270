package sqlbackend

import (
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// A statement whose rows go to the wire gets the wireResult root, and
// the handler then sends exactly what it sends without it: the same text
// and type of every value (GMS's RowToSQL over each schema) and the same
// column metadata (every property GMS's schemaToFields derives from a
// column's type). DOUBLE and FLOAT values are the exception: their text
// is laid out as MySQL's (1234567, 1e15) where GMS's is Go's
// (1.234567e+06, 1e+15).
func TestWireResultSendsWhatGMSSends(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id BIGINT NOT NULL, dt DATE, ts DATETIME(3), s VARCHAR(20), n INT, u INT UNSIGNED,
			tiny TINYINT, flag BOOLEAN, f FLOAT, x DOUBLE, d DECIMAL(10,2), w DECIMAL(30,5), z DECIMAL(8,0),
			PRIMARY KEY (id))`,
		`INSERT INTO t VALUES
		(1, '2024-01-02', '2024-01-02 10:30:00.125', 'a', -5, 7, -128, true, 1.5, 0.30000000000000004, -0.01, 12345678901234567890.12345, 99999999),
		(2, '1000-01-01', '1970-01-01 00:00:00', '', 2147483647, 4294967295, 127, false, -0.0, 1e300, 99999999.99, -0.00001, -1),
		(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(4, '2024-02-29', '2024-02-29 23:59:59.999', 'ü', 0, 0, 0, NULL, 3.4e38, -2.5e-300, 7, 1.5, 0),
		(5, '2024-03-01', '2024-03-01 00:00:00', 'x', 1, 1, 1, true, 123456.7, 1234567, 1, 1, 1)`)
	ctx := c.context()
	if schema, _ := wireValues(t, c, "SELECT * FROM t", true); !isEncoded(schema[1].Type) || isEncoded(schema[3].Type) {
		t.Fatalf("the wire path's schema is %v: no wireResult root", schema)
	}
	for _, q := range []string{
		"SELECT * FROM t",
		"SELECT * FROM t WHERE dt = '2024-01-02'",
		"SELECT d, id FROM t ORDER BY d",
		"SELECT d * 2, d + w, SUM(d), AVG(n), MAX(dt) FROM t GROUP BY d, w",
		"SELECT id, CAST(n AS DECIMAL(12,4)), DATE_ADD(dt, INTERVAL 1 DAY) FROM t",
		"SELECT COUNT(*), SUM(w) FROM t",
		"SELECT CAST(id AS UNSIGNED), CAST(n AS UNSIGNED) + 1, u, -n FROM t",
		// Expression DECIMALs GMS formats at the value's own scale, not
		// the type's.
		"SELECT ROUND(d / 7, 7), d / 3, ROUND(d, 1) FROM t",
	} {
		plain, plainRows := wireValues(t, c, q, false)
		wired, wiredRows := wireValues(t, c, q, true)
		if len(plain) != len(wired) {
			t.Fatalf("%s: %d columns, %d on the wire path", q, len(plain), len(wired))
		}
		for i := range plain {
			if got, want := fieldOf(ctx, wired[i].Type), fieldOf(ctx, plain[i].Type); got != want {
				t.Errorf("%s: column %s is sent as %+v, want %+v", q, plain[i].Name, got, want)
			}
		}
		if len(plainRows) != len(wiredRows) {
			t.Fatalf("%s: %d rows, %d on the wire path", q, len(plainRows), len(wiredRows))
		}
		for r := range plainRows {
			for i := range plainRows[r] {
				p, w := plainRows[r][i], wiredRows[r][i]
				if want := mysqlText(t, p); p.Type() != w.Type() || w.ToString() != want {
					t.Errorf("%s: row %d column %s is sent as %v %q, want %v %q", q, r, plain[i].Name, w.Type(), w.ToString(), p.Type(), want)
				}
			}
		}
	}
	_, rows := wireValues(t, c, "SELECT d, w FROM t WHERE id = 1", true)
	if got := rows[0][0].ToString() + " " + rows[0][1].ToString(); got != "-0.01 12345678901234567890.12345" {
		t.Errorf("decimals are sent as %s", got)
	}
	_, rows = wireValues(t, c, "SELECT f, x FROM t WHERE id IN (2, 5) ORDER BY id", true)
	if got := rows[0][1].ToString() + " " + rows[1][0].ToString() + " " + rows[1][1].ToString(); got != "1e300 123456.7 1234567" {
		t.Errorf("floats are sent as %s, want MySQL's 1e300, 123456.7 and 1234567", got)
	}
}

// mysqlText is the text MySQL sends for the value GMS sent as v: the same,
// but for DOUBLE and FLOAT values.
func mysqlText(t *testing.T, v sqltypes.Value) string {
	bits := map[querypb.Type]int{sqltypes.Float64: 64, sqltypes.Float32: 32}[v.Type()]
	if bits == 0 || v.IsNull() {
		return v.ToString()
	}
	f, err := strconv.ParseFloat(v.ToString(), bits)
	if err != nil {
		t.Fatal(err)
	}
	if bits == 32 {
		return lakesqltypes.FloatText(float32(f))
	}
	return lakesqltypes.DoubleText(f)
}

// A DECIMAL value wireResult rounds and formats with the type that does
// not define a column reads as GMS formats the value itself with the
// column's type, whatever its exponent or Go type.
func TestRoundedDecimalsFormatAsGMSFormats(t *testing.T) {
	ctx := sql.NewEmptyContext()
	column := types.MustCreateColumnDecimalType(12, 3).(types.DecimalType_)
	plain := types.MustCreateDecimalType(12, 3)
	for _, v := range []any{
		decimal.New(15, -1), decimal.New(-123456, -5), decimal.New(7, 0), decimal.New(25, -4), decimal.New(-25, -4),
		decimal.New(1999, -3), decimal.New(3, 2), decimal.NullDecimal{}, decimal.NullDecimal{Decimal: decimal.New(5, -1), Valid: true},
		int64(-42), int8(3), uint64(18446744073709551615), 2.0005, float32(0.1), "12.34567", "-0.0004", []byte("9.9995"), true,
	} {
		want, err := column.SQL(ctx, nil, v)
		if err != nil {
			t.Fatalf("%T %v: %v", v, v, err)
		}
		rounded, err := roundDecimal(v, column)
		if err != nil {
			t.Fatalf("%T %v: %v", v, v, err)
		}
		got, err := plain.SQL(ctx, nil, rounded)
		if err != nil {
			t.Fatalf("%T %v: %v", v, v, err)
		}
		if got.ToString() != want.ToString() {
			t.Errorf("%T %v is sent as %s, GMS sends %s", v, v, got.ToString(), want.ToString())
		}
	}
}

func isEncoded(t sql.Type) bool {
	_, ok := t.(encodedType)
	return ok
}

// field is what GMS's handler tells a client about a column of type t
// (server.schemaToFields), but the names.
type field struct {
	typ                        string
	length                     uint32
	collation                  sql.CollationID
	collated, binary, unsigned bool
	decimals                   int
}

func fieldOf(ctx *sql.Context, t sql.Type) field {
	f := field{typ: t.Type().String(), length: t.MaxTextResponseByteLength(ctx), binary: types.IsBinaryType(t), unsigned: types.IsUnsigned(t)}
	if c, ok := t.(sql.TypeWithCollation); ok {
		f.collated, f.collation = true, c.Collation()
	}
	if types.IsDecimal(t) {
		f.decimals = int(t.(sql.DecimalType).Scale())
	} else if types.IsDatetimeType(t) {
		f.decimals = t.(sql.DatetimeType).Precision()
	}
	return f
}

// wireValues runs q, with its rows marked for the wire or not, and
// returns its schema and each row as GMS's handler converts it.
func wireValues(t *testing.T, c *conn, q string, wire bool) (sql.Schema, [][]sqltypes.Value) {
	t.Helper()
	ctx := c.context().WithQuery(q)
	if wire {
		ctx = ctx.WithContext(WithWireResult(ctx.Context))
	}
	schema, iter, _, err := c.h.engine.Query(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out [][]sqltypes.Value
	for {
		row, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		values, err := server.RowToSQL(ctx, schema, row, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, values)
	}
	if err := iter.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return schema, out
}
