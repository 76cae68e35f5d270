package parquetio

import (
	"math/big"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Field ids of collection parts (Java SpecialFields): derived from the id
// of the enclosing field and the nesting depth.
const (
	structuredFieldIDBase    = 536870911 // Integer.MAX_VALUE / 4
	structuredFieldDepthSpan = 1024
)

func arrayElementFieldID(fieldID, depth int) int {
	return structuredFieldIDBase + fieldID*structuredFieldDepthSpan + depth
}

func mapKeyFieldID(fieldID, depth int) int {
	return structuredFieldIDBase - fieldID*structuredFieldDepthSpan - depth
}

func mapValueFieldID(fieldID, depth int) int {
	return structuredFieldIDBase + fieldID*structuredFieldDepthSpan + depth
}

// paimonMessageName is the root name Java gives every data file schema.
const paimonMessageName = "paimon_schema"

// schemaElement is format.SchemaElement with field_id optional in Go as it
// is in the thrift definition. parquet-go declares it a plain int32 and
// its encoder omits zero optional fields, so Paimon field id 0 (the first
// column of most tables) would lose its id; Java's ParquetSchemaConverter
// sets an id on every field node, 0 included, and none on the message
// root or the repeated list and key_value groups.
type schemaElement struct {
	Type           thrift.Null[format.Type]                `thrift:"1,optional"`
	TypeLength     thrift.Null[int32]                      `thrift:"2,optional"`
	RepetitionType thrift.Null[format.FieldRepetitionType] `thrift:"3,optional"`
	Name           string                                  `thrift:"4,required"`
	NumChildren    thrift.Null[int32]                      `thrift:"5,optional"`
	ConvertedType  thrift.Null[deprecated.ConvertedType]   `thrift:"6,optional"`
	Scale          thrift.Null[int32]                      `thrift:"7,optional"`
	Precision      thrift.Null[int32]                      `thrift:"8,optional"`
	FieldID        thrift.Null[int32]                      `thrift:"9,optional"`
	LogicalType    format.LogicalType                      `thrift:"10,optional"`
}

// fileMetaData is the part of format.FileMetaData the writer sets, with
// the schema elements above.
type fileMetaData struct {
	Version      int32                            `thrift:"1,required"`
	Schema       thrift.Slice[schemaElement]      `thrift:"2,required"`
	NumRows      int64                            `thrift:"3,required"`
	RowGroups    thrift.Slice[format.RowGroup]    `thrift:"4,required"`
	CreatedBy    string                           `thrift:"6,optional"`
	ColumnOrders thrift.Slice[format.ColumnOrder] `thrift:"7,optional"`
}

// newSchemaElement starts the footer element of a field as Java's
// ParquetSchemaConverter writes it.
func newSchemaElement(name string, t spec.DataType, id int) schemaElement {
	e := schemaElement{Name: name, FieldID: thrift.New(int32(id))}
	rep := format.Required
	if t.Nullable {
		rep = format.Optional
	}
	e.RepetitionType.Set(rep)
	return e
}

func groupElement(name string, rep format.FieldRepetitionType, children int) schemaElement {
	e := schemaElement{Name: name}
	e.RepetitionType.Set(rep)
	e.NumChildren.Set(int32(children))
	return e
}

func annotate(e *schemaElement, physical format.Type, logical format.LogicalTypeValue, converted deprecated.ConvertedType) {
	e.Type.Set(physical)
	e.LogicalType.Value = logical
	e.ConvertedType.Set(converted)
}

// annotatePrimitive sets the physical type and annotations of a leaf; ok
// is false for types that are not primitive in Parquet.
func annotatePrimitive(e *schemaElement, t spec.DataType) bool {
	switch t.Root {
	case spec.Char, spec.VarChar:
		annotate(e, format.ByteArray, &format.StringType{}, deprecated.UTF8)
	case spec.Boolean:
		e.Type.Set(format.Boolean)
	case spec.Binary, spec.VarBinary, spec.Blob:
		e.Type.Set(format.ByteArray)
	case spec.Decimal:
		annotateDecimal(e, t)
	case spec.TinyInt:
		annotate(e, format.Int32, &format.IntType{BitWidth: 8, IsSigned: true}, deprecated.Int8)
	case spec.SmallInt:
		annotate(e, format.Int32, &format.IntType{BitWidth: 16, IsSigned: true}, deprecated.Int16)
	case spec.Int:
		e.Type.Set(format.Int32)
	case spec.BigInt:
		e.Type.Set(format.Int64)
	case spec.Float:
		e.Type.Set(format.Float)
	case spec.Double:
		e.Type.Set(format.Double)
	case spec.Date:
		annotate(e, format.Int32, &format.DateType{}, deprecated.Date)
	case spec.Time:
		unit := format.TimeUnit{Value: &format.MilliSeconds{}}
		annotate(e, format.Int32, &format.TimeType{IsAdjustedToUTC: true, Unit: unit}, deprecated.TimeMillis)
	case spec.Timestamp, spec.TimestampLTZ:
		annotateTimestamp(e, t)
	default:
		return false
	}
	return true
}

func annotateDecimal(e *schemaElement, t spec.DataType) {
	physical := format.FixedLenByteArray
	switch {
	case t.Precision <= 9:
		physical = format.Int32
	case t.Precision <= 18:
		physical = format.Int64
	default:
		e.TypeLength.Set(int32(decimalBytes(t.Precision)))
	}
	annotate(e, physical, &format.DecimalType{Scale: int32(t.Scale), Precision: int32(t.Precision)}, deprecated.Decimal)
	e.Scale.Set(int32(t.Scale))
	e.Precision.Set(int32(t.Precision))
}

// annotateTimestamp uses Java's layouts: millis up to precision 3, micros
// up to 6, INT96 beyond; adjustedToUTC marks TIMESTAMP_LTZ.
func annotateTimestamp(e *schemaElement, t spec.DataType) {
	if t.Precision > 6 {
		e.Type.Set(format.Int96)
		return
	}
	unit, converted := format.TimeUnit{Value: &format.MicroSeconds{}}, deprecated.TimestampMicros
	if t.Precision <= 3 {
		unit, converted = format.TimeUnit{Value: &format.MilliSeconds{}}, deprecated.TimestampMillis
	}
	logical := &format.TimestampType{IsAdjustedToUTC: t.Root == spec.TimestampLTZ, Unit: unit}
	annotate(e, format.Int64, logical, converted)
}

// decimalBytes is the smallest two's-complement width holding precision
// digits (Java computeMinBytesForDecimalPrecision).
func decimalBytes(precision int) int {
	n := 1
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	for limit.BitLen() > 8*n-1 {
		n++
	}
	return n
}
