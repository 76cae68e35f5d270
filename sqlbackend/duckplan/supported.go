package duckplan

import (
	"errors"

	"github.com/lakesql/lakesql/storage/spec"
)

// ErrUnsupported marks a statement the executor cannot run exactly (a
// type it does not convert, a value outside what both engines share): the
// backend then runs the statement on go-mysql-server.
var ErrUnsupported = errors.New("duckplan: not supported by the vectorized executor")

// Supported reports whether a column of type t can be a column of a
// relation: DuckDB reads it from Paimon's Parquet files, and the executor
// hands it over and converts it back, exactly. CHAR is shown as stored,
// compared without padding like VARCHAR (utf8mb4_0900_bin is NO PAD), so
// it is a VARCHAR here. TIMESTAMP(p) and TIMESTAMP_LTZ(p) are both shown
// as DATETIME(p), the LTZ one holding the instant's UTC wall clock
// whatever the session's time_zone (planner/sqltypes), for p up to
// DuckDB's microseconds; finer ones are shown truncated to microseconds,
// which DuckDB's reads of Java's INT96 values are not proven to match.
// BINARY(n) stays on go-mysql-server: GMS pads its values with NULs when
// it compares and sends them but not in functions (LENGTH of a shorter
// stored value), which DuckDB's BLOB cannot follow both ways. TIME,
// nested types and the rest stay on go-mysql-server until each has a
// test both ways (classOf refuses them in expressions for the same
// reasons).
func Supported(t spec.DataType) bool {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt,
		spec.Float, spec.Double, spec.Char, spec.VarChar, spec.VarBinary, spec.Date:
		return true
	case spec.Decimal:
		return t.Precision <= maxDuckDecimal
	case spec.Timestamp, spec.TimestampLTZ:
		return t.Precision <= maxDuckTimestampPrecision
	}
	return false
}

// maxDuckTimestampPrecision is the finest TIMESTAMP precision the
// executor takes: DuckDB's TIMESTAMP holds microseconds.
const maxDuckTimestampPrecision = 6
