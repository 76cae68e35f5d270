package orcio

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// Fields is the file's own schema as Paimon types, the top-level columns
// of its root struct: what a reader without a table schema (a tool, a
// test, a fuzzer) reads the file as. Field ids are the ORC column ids.
func (f *File) Fields() ([]spec.DataField, error) {
	root, err := f.dataType(0)
	if err != nil {
		return nil, f.wrap(err)
	}
	return root.Fields, nil
}

// dataType maps the ORC type of column id to the Paimon type whose values
// it holds, as Paimon's OrcTypeUtil maps them the other way. Every column
// is nullable: ORC has no NOT NULL.
func (f *File) dataType(id uint32) (spec.DataType, error) {
	t := f.footer.types[id]
	dt := spec.DataType{Nullable: true}
	switch t.kind {
	case kindBoolean, kindByte, kindShort, kindInt, kindLong, kindFloat, kindDouble, kindDate:
		dt.Root = [...]spec.TypeRoot{kindBoolean: spec.Boolean, kindByte: spec.TinyInt, kindShort: spec.SmallInt,
			kindInt: spec.Int, kindLong: spec.BigInt, kindFloat: spec.Float, kindDouble: spec.Double, kindDate: spec.Date}[t.kind]
	case kindString:
		dt.Root, dt.Length = spec.VarChar, spec.MaxVarLength
	case kindVarchar, kindChar:
		dt.Root, dt.Length = spec.VarChar, int(t.maxLength)
		if t.kind == kindChar {
			dt.Root = spec.Char
		}
	case kindBinary:
		dt.Root, dt.Length = spec.VarBinary, spec.MaxVarLength
	case kindTimestamp:
		dt.Root, dt.Precision = spec.Timestamp, 9
	case kindTimestampInstant:
		dt.Root, dt.Precision = spec.TimestampLTZ, 9
	case kindDecimal:
		dt.Root, dt.Precision, dt.Scale = spec.Decimal, int(t.precision), int(t.scale)
	case kindList, kindMap, kindStruct:
		return f.nestedType(id)
	default:
		return dt, fmt.Errorf("%s columns: %w", t.kind, errUnsupported)
	}
	return dt, nil
}

func (f *File) nestedType(id uint32) (spec.DataType, error) {
	t := f.footer.types[id]
	children := make([]spec.DataType, len(t.subtypes))
	for i, sub := range t.subtypes {
		var err error
		if children[i], err = f.dataType(sub); err != nil {
			return spec.DataType{}, err
		}
	}
	switch t.kind {
	case kindList:
		return spec.DataType{Root: spec.Array, Nullable: true, Element: &children[0]}, nil
	case kindMap:
		return spec.DataType{Root: spec.Map, Nullable: true, Key: &children[0], Value: &children[1]}, nil
	}
	fields := make([]spec.DataField, len(children))
	for i, c := range children {
		fields[i] = spec.DataField{ID: int(t.subtypes[i]), Name: t.fieldNames[i], Type: c}
	}
	return spec.DataType{Root: spec.Row, Nullable: true, Fields: fields}, nil
}
