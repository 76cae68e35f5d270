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
// hands it over and converts it back, exactly. CHAR and BINARY (padded),
// TIMESTAMP (the session's time zone), TIMESTAMP WITH LOCAL TIME ZONE,
// TIME, nested types and the rest stay on go-mysql-server until each has
// a test both ways (classOf refuses them in expressions for the same
// reasons).
func Supported(t spec.DataType) bool {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt,
		spec.Float, spec.Double, spec.VarChar, spec.VarBinary, spec.Date:
		return true
	case spec.Decimal:
		return t.Precision <= maxDuckDecimal
	}
	return false
}
