package planner

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// columnKind groups column types by how the engine compares them with
// literals. It is derived from the storage type and checked against the
// engine type of the GetField, because the engine picks its comparison from
// the latter: a column whose engine type does not match its storage type is
// opaque.
type columnKind uint8

const (
	// opaque columns take only IS [NOT] NULL, and comparisons with NULL,
	// which are UNKNOWN whatever the type.
	opaque columnKind = iota
	// narrowInteger: BOOLEAN, TINYINT, SMALLINT, INT; every value is
	// exactly a double.
	narrowInteger
	// wideInteger: BIGINT; values beyond 2^53 are not exactly doubles.
	wideInteger
	decimalColumn
	floatColumn
	// stringColumn: VARCHAR under a collation that orders by code
	// point without padding, as the predicate compares strings.
	stringColumn
	binaryColumn
	dateColumn
	// timestampColumn: TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE of
	// precision at most 6. The engine rounds date-times to microseconds when
	// it converts them, which is exact only on a microsecond grid.
	timestampColumn
)

// maxEngineDecimalScale and maxEngineDecimalDigits bound the decimals the
// engine converts exactly: it compares numbers through its internal
// DECIMAL(65,30), which rounds values to 30 fraction digits and turns values
// of 10^65 or more into 0. maxEngineTimePrecision is the finest date-time
// the engine holds, microseconds.
const (
	maxEngineDecimalScale  = 30
	maxEngineDecimalDigits = 65
	maxEngineTimePrecision = 6
)

// column is one table column as a comparison sees it.
type column struct {
	ref  predicate.Column
	kind columnKind
	// scale is the scale of a DECIMAL column.
	scale int
}

// columnIndex finds table columns by name.
type columnIndex struct {
	fields []spec.DataField
	byName map[string]int
}

func newColumnIndex(fields []spec.DataField) columnIndex {
	byName := make(map[string]int, len(fields))
	ambiguous := map[string]bool{}
	for i, f := range fields {
		name := strings.ToLower(f.Name)
		if _, dup := byName[name]; dup {
			ambiguous[name] = true
		}
		byName[name] = i
	}
	for name := range ambiguous {
		delete(byName, name)
	}
	return columnIndex{fields: fields, byName: byName}
}

// column resolves e when it is a bare column reference of this table.
func (ci columnIndex) column(e sql.Expression) (column, bool) {
	gf, ok := e.(*expression.GetField)
	if !ok {
		return column{}, false
	}
	i, ok := ci.byName[strings.ToLower(gf.Name())]
	if !ok {
		return column{}, false
	}
	f := ci.fields[i]
	return column{
		ref:   predicate.ColumnOf(i, f),
		kind:  kindOf(f.Type, gf.Type()),
		scale: f.Type.Scale,
	}, true
}

// kindOf classifies a column from its storage type t and its engine type e.
func kindOf(t spec.DataType, e sql.Type) columnKind {
	k := storageKind(t)
	if !engineAgrees(k, t, e) {
		return opaque
	}
	return k
}

// storageKind is the kind of a column of storage type t. A CHAR column is
// opaque: its stored values may keep trailing spaces (Flink pads CHARs)
// that SQL strips (sqltypes.TrimCharPadding), so a stored value's
// comparisons and statistics are not the SQL value's.
func storageKind(t spec.DataType) columnKind {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int:
		return narrowInteger
	case spec.BigInt:
		return wideInteger
	case spec.Decimal:
		return decimalColumn
	case spec.Float, spec.Double:
		return floatColumn
	case spec.VarChar:
		return stringColumn
	case spec.Binary, spec.VarBinary:
		return binaryColumn
	case spec.Date:
		return dateColumn
	case spec.Timestamp, spec.TimestampLTZ:
		if t.Precision > maxEngineTimePrecision {
			return opaque
		}
		return timestampColumn
	}
	return opaque
}

func engineAgrees(k columnKind, t spec.DataType, e sql.Type) bool {
	switch k {
	case narrowInteger, wideInteger:
		return types.IsSigned(e)
	case decimalColumn:
		// The engine has no DECIMAL finer than its internal scale of 30,
		// so matching scales also keeps out what it would round.
		d, ok := e.(sql.DecimalType)
		return ok && types.IsDecimal(e) && int(d.Scale()) == t.Scale
	case floatColumn:
		return types.IsFloat(e)
	case stringColumn:
		return types.IsTextOnly(e) && ordersByCodePoint(e)
	case binaryColumn:
		return isBinaryString(e)
	case dateColumn:
		return types.IsDateType(e)
	case timestampColumn:
		return types.IsDatetimeType(e) || types.IsTimestampType(e)
	}
	return false
}

// ordersByCodePoint reports whether the engine compares strings of type e
// rune by rune on code points without padding, which is the predicate's
// byte-wise order on UTF-8. utf8mb4_bin is not: its weights move the
// supplementary planes below U+E000.
func ordersByCodePoint(e sql.Type) bool {
	c, ok := e.(sql.TypeWithCollation)
	if !ok {
		return false
	}
	switch c.Collation() {
	case sql.Collation_utf8mb4_0900_bin, sql.Collation_binary:
		return true
	}
	return false
}

// isBinaryString reports BINARY, VARBINARY and BLOB types, which the engine
// compares byte-wise (types.IsBinaryType also admits JSON and geometry).
func isBinaryString(e sql.Type) bool {
	if e == nil {
		return false
	}
	switch e.Type() {
	case sqltypes.Binary, sqltypes.VarBinary, sqltypes.Blob:
		return true
	}
	return false
}
