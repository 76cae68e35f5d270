// Package sqltypes maps Paimon data types and values to the types and values
// go-mysql-server v0.20.0 works with, and back.
//
// The mapping follows what a MySQL user expects to see for each Paimon type:
//
//	BOOLEAN                      tinyint(1)
//	TINYINT … BIGINT             tinyint … bigint
//	FLOAT, DOUBLE                float, double
//	DECIMAL(p,s)                 decimal(p,s)
//	CHAR(n), VARCHAR(n)          char(n) / varchar(n), or text / longtext when longer
//	STRING                       longtext
//	BINARY(n), VARBINARY(n)      binary(n) / varbinary(n), or blob / longblob
//	BYTES                        longblob
//	DATE                         date
//	TIME(p)                      time(p)
//	TIMESTAMP(p)                 datetime(p), p capped at 6
//	TIMESTAMP_LTZ(p)             datetime(p) in UTC, p capped at 6 (declared as timestamp(p))
//	ARRAY, MAP, MULTISET, ROW    json
//
// Values cross in the Go types GMS uses for each SQL type (int8 for
// tinyint, decimal.Decimal, time.Time, types.Timespan, types.JSONDocument …)
// and the Go types of storage/spec on the other side.
//
// TIMESTAMP WITH LOCAL TIME ZONE is an instant; MySQL's TIMESTAMP type
// holds only instants from 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC,
// and go-mysql-server fails every read of a value outside that range,
// while Paimon's range (and what Flink and Spark jobs write: far-future
// sentinels, historic dates) is years 0001 to 9999. So a
// TIMESTAMP_LTZ column is shown, read, compared and written as DATETIME
// holding the instant's UTC wall clock, whatever the session's time_zone
// (MySQL never converts DATETIME values between zones). DDL keeps the
// other direction: a column declared TIMESTAMP(p) is created as
// TIMESTAMP(p) WITH LOCAL TIME ZONE, and SHOW CREATE TABLE declares it so
// again (DeclaredType).
package sqltypes

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// MySQL's limits decide when a long Paimon string or binary type is shown as
// a TEXT or BLOB type instead of a VARCHAR or VARBINARY one.
const (
	maxCharLength        = 255
	maxVarCharLength     = 16383 // 65,535 bytes of utf8mb4
	maxVarBinaryLength   = 65535
	maxTextLength        = 65535
	maxMediumLength      = 16777215
	maxDatetimePrecision = 6
)

// Collation is the collation of every string column: binary comparison of
// UTF-8, which is how Paimon compares strings in stats and merges.
const Collation = sql.Collation_utf8mb4_0900_bin

// Type returns the GMS type a column of Paimon type t is shown and read as.
// Types GMS has no counterpart for (VARIANT) fail with
// lakeerr.ErrUnsupported.
func Type(t spec.DataType) (sql.Type, error) {
	switch t.Root {
	case spec.Boolean:
		return types.Boolean, nil
	case spec.TinyInt:
		return types.Int8, nil
	case spec.SmallInt:
		return types.Int16, nil
	case spec.Int:
		return types.Int32, nil
	case spec.BigInt:
		return types.Int64, nil
	case spec.Float:
		return types.Float32, nil
	case spec.Double:
		return types.Float64, nil
	case spec.Decimal:
		return types.CreateColumnDecimalType(uint8(t.Precision), uint8(t.Scale))
	case spec.Char, spec.VarChar:
		return stringType(t), nil
	case spec.Binary, spec.VarBinary:
		return binaryType(t), nil
	case spec.Blob:
		// Paimon's BLOB holds objects of any size (images, video),
		// stored apart in .blob files.
		return types.LongBlob, nil
	case spec.Date:
		return types.Date, nil
	case spec.Time:
		return types.Time, nil
	case spec.Timestamp:
		return types.CreateDatetimeType(sqltypes.Datetime, datetimePrecision(t))
	case spec.TimestampLTZ:
		return types.CreateDatetimeType(sqltypes.Datetime, datetimePrecision(t))
	case spec.Array, spec.Map, spec.Multiset, spec.Row:
		return types.JSON, nil
	}
	return nil, fmt.Errorf("%w: column type %v", lakeerr.ErrUnsupported, typeName(t))
}

// DeclaredType returns the GMS type a column of Paimon type t is declared
// with in DDL: Type, except that TIMESTAMP_LTZ(p), shown as datetime(p), is
// declared timestamp(p), which PaimonType maps back to it.
func DeclaredType(t spec.DataType) (sql.Type, error) {
	if t.Root == spec.TimestampLTZ {
		return types.CreateDatetimeType(sqltypes.Timestamp, datetimePrecision(t))
	}
	return Type(t)
}

func stringType(t spec.DataType) sql.Type {
	switch {
	case t.Root == spec.Char && t.Length <= maxCharLength:
		return types.MustCreateString(sqltypes.Char, int64(t.Length), Collation)
	case t.Length <= maxVarCharLength:
		return types.MustCreateString(sqltypes.VarChar, int64(t.Length), Collation)
	case t.Length <= maxTextLength/4:
		return types.CreateText(Collation)
	case t.Length <= maxMediumLength/4:
		return types.CreateMediumText(Collation)
	}
	return types.CreateLongText(Collation)
}

func binaryType(t spec.DataType) sql.Type {
	switch {
	case t.Root == spec.Binary && t.Length <= maxCharLength:
		return types.MustCreateBinary(sqltypes.Binary, int64(t.Length))
	case t.Length <= maxVarBinaryLength:
		return types.MustCreateBinary(sqltypes.VarBinary, int64(t.Length))
	case t.Length <= maxMediumLength:
		return types.MediumBlob
	}
	return types.LongBlob
}

// datetimePrecision caps Paimon's nanosecond precisions at MySQL's six
// digits; the extra digits are truncated when values are read.
func datetimePrecision(t spec.DataType) int {
	return min(t.Precision, maxDatetimePrecision)
}

// Schema returns the GMS schema of a table's fields; source names the table
// (or alias) the columns belong to. primaryKeys marks the key columns.
func Schema(source string, fields []spec.DataField, primaryKeys []string) (sql.Schema, error) {
	isKey := make(map[string]bool, len(primaryKeys))
	for _, k := range primaryKeys {
		isKey[k] = true
	}
	schema := make(sql.Schema, len(fields))
	for i, f := range fields {
		typ, err := Type(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		schema[i] = &sql.Column{
			Name:       f.Name,
			Type:       typ,
			Nullable:   f.Type.Nullable,
			Source:     source,
			PrimaryKey: isKey[f.Name],
			Comment:    f.Description,
		}
	}
	return schema, nil
}

func typeName(t spec.DataType) string {
	names := map[spec.TypeRoot]string{spec.Variant: "VARIANT", spec.Blob: "BLOB",
		spec.Array: "ARRAY", spec.Map: "MAP", spec.Multiset: "MULTISET", spec.Row: "ROW"}
	if n, ok := names[t.Root]; ok {
		return n
	}
	return fmt.Sprintf("type root %d", t.Root)
}
