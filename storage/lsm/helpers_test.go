package lsm

import (
	"bytes"
	"cmp"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// compareTestValues is a minimal value comparator for the Go types tests
// use; production code injects the storage-wide comparator instead.
func compareTestValues(_ spec.DataType, a, b any) int {
	switch x := a.(type) {
	case bool:
		return cmp.Compare(boolRank(x), boolRank(b.(bool)))
	case int8:
		return cmp.Compare(x, b.(int8))
	case int16:
		return cmp.Compare(x, b.(int16))
	case int32:
		return cmp.Compare(x, b.(int32))
	case int64:
		return cmp.Compare(x, b.(int64))
	case float32:
		return cmp.Compare(x, b.(float32))
	case float64:
		return cmp.Compare(x, b.(float64))
	case string:
		return cmp.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case spec.DecimalValue:
		return x.Cmp(b.(spec.DecimalValue))
	}
	panic(fmt.Sprintf("compareTestValues: unsupported %T", a))
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareTestRows orders keys column by column, nulls first.
func compareTestRows(a, b []any) int {
	for i := range min(len(a), len(b)) {
		switch {
		case a[i] == nil && b[i] == nil:
			continue
		case a[i] == nil:
			return -1
		case b[i] == nil:
			return 1
		}
		if c := compareTestValues(spec.DataType{}, a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

var (
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}
)

func column(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

// intColumns returns INT columns f0..f<n-1>, the shape of Paimon's
// PartialUpdateMergeFunctionTest rows.
func intColumns(n int) []spec.DataField {
	cols := make([]spec.DataField, n)
	for i := range cols {
		cols[i] = column(fmt.Sprintf("f%d", i), intType)
	}
	return cols
}

func newTestSchema(cols []spec.DataField, primaryKeys []string, options map[string]string) *spec.TableSchema {
	return &spec.TableSchema{Fields: cols, PrimaryKeys: primaryKeys, Options: options}
}

func mustEngine(t testing.TB, schema *spec.TableSchema) *Engine {
	t.Helper()
	e, err := NewEngine(schema, compareTestValues)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	return e
}

// ints builds a row of INT values; nil stays null.
func ints(vs ...any) []any {
	row := make([]any, len(vs))
	for i, v := range vs {
		if n, ok := v.(int); ok {
			row[i] = int32(n)
		} else {
			row[i] = v
		}
	}
	return row
}

func collect(t testing.TB, it RecordIterator) []KeyValue {
	t.Helper()
	var out []KeyValue
	for {
		kv, ok, err := it.Next()
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if !ok {
			return out
		}
		out = append(out, kv)
	}
}

// formatRecords renders records compactly for comparisons and failure
// messages: "+I k=[1] seq=3 v=[1 a]".
func formatRecords(records []KeyValue) []string {
	out := make([]string, len(records))
	for i, kv := range records {
		out[i] = fmt.Sprintf("%s k=%v seq=%d v=%v", kv.Kind, kv.Key, kv.Seq, kv.Value)
	}
	return out
}

// withEngine returns a copy of options that selects the merge engine.
func withEngine(engine string, options map[string]string) map[string]string {
	out := map[string]string{"merge-engine": engine}
	for k, v := range options {
		out[k] = v
	}
	return out
}
