package parquetio

import (
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// timeUnit is the resolution of a Parquet TIME or TIMESTAMP value.
type timeUnit int

const (
	unitMillis timeUnit = iota + 1
	unitMicros
	unitNanos
)

// precision is the Paimon precision matching the unit.
func (u timeUnit) precision() int {
	switch u {
	case unitMillis:
		return 3
	case unitMicros:
		return 6
	}
	return 9
}

func unitOf(u format.TimeUnit) timeUnit {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return unitMillis
	case *format.MicroSeconds:
		return unitMicros
	}
	return unitNanos
}

func (n *schemaNode) isString() bool {
	switch n.elem.LogicalType.Value.(type) {
	case *format.StringType, *format.EnumType, *format.JsonType:
		return true
	}
	ct, ok := n.convertedType()
	return ok && (ct == deprecated.UTF8 || ct == deprecated.Enum || ct == deprecated.Json)
}

func (n *schemaNode) isDate() bool {
	if _, ok := n.elem.LogicalType.Value.(*format.DateType); ok {
		return true
	}
	ct, ok := n.convertedType()
	return ok && ct == deprecated.Date
}

// decimal returns the DECIMAL annotation of n.
func (n *schemaNode) decimal() (precision, scale int, ok bool) {
	if d, isDecimal := n.elem.LogicalType.Value.(*format.DecimalType); isDecimal {
		return int(d.Precision), int(d.Scale), true
	}
	ct, hasCT := n.convertedType()
	if hasCT && ct == deprecated.Decimal && n.elem.Precision.Valid {
		return int(n.elem.Precision.V), int(n.elem.Scale.V), true
	}
	return 0, 0, false
}

// integer returns the INT annotation of n.
func (n *schemaNode) integer() (bits int, signed, ok bool) {
	if t, isInt := n.elem.LogicalType.Value.(*format.IntType); isInt {
		return int(t.BitWidth), t.IsSigned, true
	}
	ct, hasCT := n.convertedType()
	if !hasCT || ct < deprecated.Uint8 || ct > deprecated.Int64 {
		return 0, false, false
	}
	widths := [...]int{8, 16, 32, 64}
	if ct >= deprecated.Int8 {
		return widths[ct-deprecated.Int8], true, true
	}
	return widths[ct-deprecated.Uint8], false, true
}

// timestamp returns the TIMESTAMP annotation of n.
func (n *schemaNode) timestamp() (unit timeUnit, adjustedToUTC, ok bool) {
	if t, isTS := n.elem.LogicalType.Value.(*format.TimestampType); isTS {
		return unitOf(t.Unit), t.IsAdjustedToUTC, true
	}
	switch ct, _ := n.convertedType(); {
	case !n.elem.ConvertedType.Valid:
	case ct == deprecated.TimestampMillis:
		return unitMillis, true, true
	case ct == deprecated.TimestampMicros:
		return unitMicros, true, true
	}
	return 0, false, false
}

// timeOfDay returns the TIME annotation of n.
func (n *schemaNode) timeOfDay() (unit timeUnit, ok bool) {
	if t, isTime := n.elem.LogicalType.Value.(*format.TimeType); isTime {
		return unitOf(t.Unit), true
	}
	switch ct, _ := n.convertedType(); {
	case !n.elem.ConvertedType.Valid:
	case ct == deprecated.TimeMillis:
		return unitMillis, true
	case ct == deprecated.TimeMicros:
		return unitMicros, true
	}
	return 0, false
}

// inferType derives the Paimon type that Java's ParquetSchemaConverter
// would have written as n; ok is false when there is none.
func inferType(n *schemaNode) (spec.DataType, bool) {
	var t spec.DataType
	var ok bool
	switch {
	case n.isLeaf():
		t, ok = inferPrimitive(n)
	case n.isList():
		t, ok = inferList(n)
	case n.isMap():
		t, ok = inferMap(n)
	default:
		t, ok = inferRow(n)
	}
	t.Nullable = n.repetition() == format.Optional
	if ok && n.isRepeated() {
		// A repeated field outside a LIST group is a list of required elements.
		elem := t
		t = spec.DataType{Root: spec.Array, Element: &elem}
	}
	return t, ok
}

func inferList(n *schemaNode) (spec.DataType, bool) {
	repeated, element, ok := n.listParts()
	if !ok {
		return spec.DataType{}, false
	}
	elem, ok := inferElement(repeated, element)
	return spec.DataType{Root: spec.Array, Element: &elem}, ok
}

// inferElement infers the type of a list element or map entry part, which
// for legacy layouts is the repeated node itself and then not a list.
func inferElement(repeated, element *schemaNode) (spec.DataType, bool) {
	if element != repeated {
		return inferType(element)
	}
	var t spec.DataType
	var ok bool
	switch {
	case element.isLeaf():
		t, ok = inferPrimitive(element)
	default:
		t, ok = inferRow(element)
	}
	return t, ok
}

func inferMap(n *schemaNode) (spec.DataType, bool) {
	_, keyNode, valueNode, ok := n.mapParts()
	if !ok || valueNode == nil {
		return spec.DataType{}, false
	}
	key, keyOK := inferType(keyNode)
	value, valueOK := inferType(valueNode)
	return spec.DataType{Root: spec.Map, Key: &key, Value: &value}, keyOK && valueOK
}

func inferRow(n *schemaNode) (spec.DataType, bool) {
	t := spec.DataType{Root: spec.Row}
	for _, c := range n.children {
		ft, ok := inferType(c)
		if !ok {
			return spec.DataType{}, false
		}
		t.Fields = append(t.Fields, spec.DataField{ID: c.fieldID(), Name: c.name(), Type: ft})
	}
	return t, len(t.Fields) > 0
}

func inferPrimitive(n *schemaNode) (spec.DataType, bool) {
	if precision, scale, ok := n.decimal(); ok {
		return spec.DataType{Root: spec.Decimal, Precision: precision, Scale: scale}, precision <= 38
	}
	switch n.physical() {
	case format.Boolean:
		return spec.DataType{Root: spec.Boolean}, true
	case format.Int32:
		return inferInt32(n)
	case format.Int64:
		return inferInt64(n)
	case format.Int96:
		return spec.DataType{Root: spec.Timestamp, Precision: 9}, true
	case format.Float:
		return spec.DataType{Root: spec.Float}, true
	case format.Double:
		return spec.DataType{Root: spec.Double}, true
	case format.ByteArray:
		if n.isString() {
			return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}, true
		}
		return spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength}, true
	case format.FixedLenByteArray:
		if n.isString() {
			return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}, true
		}
		return spec.DataType{Root: spec.Binary, Length: int(n.elem.TypeLength.V)}, true
	}
	return spec.DataType{}, false
}

func inferInt32(n *schemaNode) (spec.DataType, bool) {
	if n.isDate() {
		return spec.DataType{Root: spec.Date}, true
	}
	if unit, ok := n.timeOfDay(); ok {
		// Java writes every TIME(p) as milliseconds and reads them as TIME(0).
		return spec.DataType{Root: spec.Time}, unit == unitMillis
	}
	bits, signed, ok := n.integer()
	switch {
	case !ok || bits == 32 && signed:
		return spec.DataType{Root: spec.Int}, true
	case bits == 8 && signed:
		return spec.DataType{Root: spec.TinyInt}, true
	case bits == 16 && signed:
		return spec.DataType{Root: spec.SmallInt}, true
	}
	return spec.DataType{}, false
}

func inferInt64(n *schemaNode) (spec.DataType, bool) {
	if unit, utc, ok := n.timestamp(); ok {
		root := spec.Timestamp
		if utc {
			root = spec.TimestampLTZ
		}
		return spec.DataType{Root: root, Precision: unit.precision()}, true
	}
	if unit, ok := n.timeOfDay(); ok {
		return spec.DataType{Root: spec.Time, Precision: unit.precision()}, true
	}
	bits, signed, ok := n.integer()
	return spec.DataType{Root: spec.BigInt}, !ok || bits == 64 && signed
}
