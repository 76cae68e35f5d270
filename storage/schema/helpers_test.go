package schema

import (
	"math/big"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// typ parses an atomic type string such as "DECIMAL(5, 2) NOT NULL".
func typ(t *testing.T, s string) spec.DataType {
	t.Helper()
	dt, err := spec.ParseDataType(s)
	if err != nil {
		t.Fatalf("type %q: %v", s, err)
	}
	return dt
}

func arrayOf(elem spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Array, Nullable: true, Element: &elem}
}

func mapOf(key, value spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Map, Nullable: true, Key: &key, Value: &value}
}

func rowOf(fields ...spec.DataField) spec.DataType {
	return spec.DataType{Root: spec.Row, Nullable: true, Fields: fields}
}

func field(id int, name string, t spec.DataType) spec.DataField {
	return spec.DataField{ID: id, Name: name, Type: t}
}

func dec(unscaled int64, scale int) spec.DecimalValue { return spec.NewDecimal(unscaled, scale) }

func bigDec(t *testing.T, unscaled string, scale int) spec.DecimalValue {
	t.Helper()
	n, ok := new(big.Int).SetString(unscaled, 10)
	if !ok {
		t.Fatalf("bad big integer %q", unscaled)
	}
	return spec.NewDecimalBig(n, scale)
}
