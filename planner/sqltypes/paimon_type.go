package sqltypes

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// maxDecimalPrecision is Paimon's DecimalType.MAX_PRECISION; MySQL allows 65.
const maxDecimalPrecision = 38

// PaimonType returns the Paimon type a new column of GMS type t is stored
// as: the reverse of Type for the column types CREATE TABLE and ALTER TABLE
// accept.
//
//	tinyint(1), boolean, bool          BOOLEAN
//	tinyint, smallint, int, bigint     TINYINT, SMALLINT, INT, BIGINT
//	mediumint                          INT
//	tinyint unsigned                   SMALLINT
//	smallint unsigned                  INT
//	mediumint unsigned, int unsigned   BIGINT
//	bigint unsigned                    DECIMAL(20, 0)
//	decimal(p,s)                       DECIMAL(p,s), p <= 38
//	float, double                      FLOAT, DOUBLE
//	char(n), varchar(n)                CHAR(n), VARCHAR(n)
//	tinytext … longtext                STRING (VARCHAR(2147483647))
//	binary(n), varbinary(n)            BINARY(n), VARBINARY(n)
//	tinyblob … longblob                BYTES (VARBINARY(2147483647))
//	date                               DATE
//	time                               TIME(0)
//	datetime(p)                        TIMESTAMP(p)
//	timestamp(p)                       TIMESTAMP(p) WITH LOCAL TIME ZONE
//	json                               STRING
//
// Unsigned integers widen to the next signed Paimon type that holds every
// value, as Flink CDC maps MySQL's unsigned columns, so lakesql-created
// tables look like the ones CDC pipelines create. The unsigned flag itself
// is lost: the column reads back as the signed type.
//
// TIME maps to TIME(0), MySQL's and Paimon's default precision. GMS has a
// single TIME type (shown as time(6)); Paimon stores milliseconds of the
// day whatever the declared precision.
//
// Paimon has no JSON type. A json column is stored as STRING holding the
// document text and reads back as longtext; sqltypes.Type uses json only to
// show Paimon's nested types.
//
// year, enum, set, bit and the spatial types have no Paimon counterpart and
// fail with lakeerr.ErrUnsupported, as do column types GMS creates only
// internally.
func PaimonType(t sql.Type, nullable bool) (spec.DataType, error) {
	dt, err := paimonRoot(t)
	if err != nil {
		return spec.DataType{}, err
	}
	return dt.WithNullable(nullable), nil
}

func paimonRoot(t sql.Type) (spec.DataType, error) {
	switch t.Type() {
	case sqltypes.Int8:
		if isBoolean(t) {
			return spec.DataType{Root: spec.Boolean}, nil
		}
		return spec.DataType{Root: spec.TinyInt}, nil
	case sqltypes.Int16, sqltypes.Uint8:
		return spec.DataType{Root: spec.SmallInt}, nil
	case sqltypes.Int24, sqltypes.Int32, sqltypes.Uint16:
		return spec.DataType{Root: spec.Int}, nil
	case sqltypes.Int64, sqltypes.Uint24, sqltypes.Uint32:
		return spec.DataType{Root: spec.BigInt}, nil
	case sqltypes.Uint64:
		// 20 digits hold 18446744073709551615, the largest bigint unsigned.
		return spec.DataType{Root: spec.Decimal, Precision: 20}, nil
	case sqltypes.Float32:
		return spec.DataType{Root: spec.Float}, nil
	case sqltypes.Float64:
		return spec.DataType{Root: spec.Double}, nil
	case sqltypes.Decimal:
		return decimalType(t)
	case sqltypes.Char, sqltypes.VarChar, sqltypes.Binary, sqltypes.VarBinary:
		return sizedStringType(t)
	case sqltypes.Text:
		return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}, nil
	case sqltypes.Blob:
		return spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength}, nil
	case sqltypes.Date:
		return spec.DataType{Root: spec.Date}, nil
	case sqltypes.Time:
		return spec.DataType{Root: spec.Time}, nil
	case sqltypes.Datetime:
		return spec.DataType{Root: spec.Timestamp, Precision: precisionOf(t)}, nil
	case sqltypes.Timestamp:
		return spec.DataType{Root: spec.TimestampLTZ, Precision: precisionOf(t)}, nil
	case sqltypes.TypeJSON:
		return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}, nil
	}
	return spec.DataType{}, unsupportedType(t)
}

// isBoolean reports whether t is tinyint(1), the type GMS gives BOOLEAN and
// BOOL columns and the one MySQL drivers read as a boolean.
func isBoolean(t sql.Type) bool {
	n, ok := t.(sql.NumberType)
	return ok && n.DisplayWidth() == 1
}

func decimalType(t sql.Type) (spec.DataType, error) {
	d, ok := t.(sql.DecimalType)
	if !ok {
		return spec.DataType{}, unsupportedType(t)
	}
	if d.Precision() > maxDecimalPrecision {
		return spec.DataType{}, fmt.Errorf("%w: column type %s: Paimon's DECIMAL holds at most %d digits",
			lakeerr.ErrUnsupported, t, maxDecimalPrecision)
	}
	return spec.DataType{Root: spec.Decimal, Precision: int(d.Precision()), Scale: int(d.Scale())}, nil
}

// sizedStringType maps char, varchar, binary and varbinary, whose length
// Paimon keeps. Paimon's lengths start at 1; MySQL also allows 0.
func sizedStringType(t sql.Type) (spec.DataType, error) {
	s, ok := t.(sql.StringType)
	if !ok {
		return spec.DataType{}, unsupportedType(t)
	}
	if s.MaxCharacterLength() < 1 {
		return spec.DataType{}, fmt.Errorf("%w: column type %s: Paimon's string and binary lengths start at 1",
			lakeerr.ErrUnsupported, t)
	}
	roots := map[query.Type]spec.TypeRoot{
		sqltypes.Char: spec.Char, sqltypes.VarChar: spec.VarChar,
		sqltypes.Binary: spec.Binary, sqltypes.VarBinary: spec.VarBinary,
	}
	return spec.DataType{Root: roots[t.Type()], Length: int(s.MaxCharacterLength())}, nil
}

func precisionOf(t sql.Type) int {
	if d, ok := t.(sql.DatetimeType); ok {
		return d.Precision()
	}
	return 0
}

// unsupportedType names the MySQL type and, where one exists, the column
// type to declare instead.
func unsupportedType(t sql.Type) error {
	alternatives := map[query.Type]string{
		sqltypes.Year:     "smallint",
		sqltypes.Enum:     "varchar",
		sqltypes.Set:      "varchar",
		sqltypes.Bit:      "bigint or varbinary",
		sqltypes.Geometry: "varbinary or blob holding WKB",
	}
	if alt, ok := alternatives[t.Type()]; ok {
		return fmt.Errorf("%w: column type %s has no Paimon counterpart; declare it as %s",
			lakeerr.ErrUnsupported, t, alt)
	}
	return fmt.Errorf("%w: column type %s has no Paimon counterpart", lakeerr.ErrUnsupported, t)
}
