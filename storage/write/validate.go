package write

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// checkRow validates row against the table columns and normalizes it in
// place, so that a bad value fails the Write that brought it instead of a
// flush much later. row must be the writer's own copy.
func (ts *tableSettings) checkRow(row []any) error {
	fields := ts.schema.Fields
	if len(row) != len(fields) {
		return fmt.Errorf("%w: %d values for the %d columns of the table", ErrInvalidRow, len(row), len(fields))
	}
	for i, check := range ts.columnCheckers {
		v, err := check(row[i])
		if err != nil {
			return fmt.Errorf("%w: column %s: %v", ErrInvalidRow, fields[i].Name, err)
		}
		row[i] = v
	}
	return nil
}

// valueChecker validates and normalizes the values of one column.
type valueChecker func(v any) (any, error)

// newValueChecker returns normalizeValue for t, with fast paths for the
// scalar types whose only check is the Go type.
func newValueChecker(t spec.DataType) valueChecker {
	switch t.Root {
	case spec.BigInt:
		return scalarChecker[int64](t)
	case spec.Int:
		return scalarChecker[int32](t)
	case spec.Char, spec.VarChar:
		return scalarChecker[string](t)
	case spec.Double:
		return scalarChecker[float64](t)
	case spec.Date:
		return scalarChecker[spec.DateValue](t)
	}
	return func(v any) (any, error) { return normalizeValue(t, v) }
}

func scalarChecker[T any](t spec.DataType) valueChecker {
	return func(v any) (any, error) {
		if _, ok := v.(T); ok {
			return v, nil
		}
		return normalizeValue(t, v)
	}
}

// normalizeValue checks that v has the Go type package spec uses for t (see
// spec/values.go) and fits t. Top-level timestamps are truncated to the
// column precision, which is all a data file keeps of them; keeping the
// finer digits would make the file's stats disagree with its values.
func normalizeValue(t spec.DataType, v any) (any, error) {
	if v == nil {
		if !t.Nullable {
			return nil, fmt.Errorf("NULL in a NOT NULL column of type %s", t)
		}
		return nil, nil
	}
	if ts, ok := v.(spec.TimestampValue); ok && (t.Root == spec.Timestamp || t.Root == spec.TimestampLTZ) {
		if ts.NanoOfMilli < 0 || ts.NanoOfMilli > 999_999 {
			return nil, fmt.Errorf("timestamp nano-of-millisecond %d out of range", ts.NanoOfMilli)
		}
		if truncated := truncateTimestamp(ts, t.Precision); truncated != ts {
			return truncated, nil
		}
		return v, nil
	}
	return v, checkValue(t, v)
}

func truncateTimestamp(ts spec.TimestampValue, precision int) spec.TimestampValue {
	switch {
	case precision <= 3:
		ts.NanoOfMilli = 0
	case precision < 9:
		unit := int32(1)
		for range 9 - precision {
			unit *= 10
		}
		ts.NanoOfMilli -= ts.NanoOfMilli % unit
	}
	return ts
}

// checkValue checks a non-null value, recursing into composite values.
func checkValue(t spec.DataType, v any) error {
	if ok, known := hasScalarType(t.Root, v); known {
		if !ok {
			return typeError(t, v)
		}
		return nil
	}
	switch t.Root {
	case spec.Decimal:
		return checkDecimal(t, v)
	case spec.Array:
		return checkArray(t, v)
	case spec.Map, spec.Multiset:
		return checkMap(t, v)
	case spec.Row:
		return checkRowValue(t, v)
	}
	return fmt.Errorf("values of type %s cannot be written", t)
}

// hasScalarType reports whether v has the Go type of a scalar root; known
// is false for the roots it does not cover.
func hasScalarType(root spec.TypeRoot, v any) (ok, known bool) {
	switch root {
	case spec.Boolean:
		_, ok = v.(bool)
	case spec.TinyInt:
		_, ok = v.(int8)
	case spec.SmallInt:
		_, ok = v.(int16)
	case spec.Int:
		_, ok = v.(int32)
	case spec.BigInt:
		_, ok = v.(int64)
	case spec.Float:
		_, ok = v.(float32)
	case spec.Double:
		_, ok = v.(float64)
	case spec.Char, spec.VarChar:
		_, ok = v.(string)
	case spec.Binary, spec.VarBinary, spec.Blob:
		_, ok = v.([]byte)
	case spec.Date:
		_, ok = v.(spec.DateValue)
	case spec.Time:
		_, ok = v.(spec.TimeValue)
	case spec.Timestamp, spec.TimestampLTZ:
		_, ok = v.(spec.TimestampValue)
	default:
		return false, false
	}
	return ok, true
}

func typeError(t spec.DataType, v any) error {
	return fmt.Errorf("a Go %T for a column of type %s", v, t)
}

func checkDecimal(t spec.DataType, v any) error {
	d, ok := v.(spec.DecimalValue)
	if !ok {
		return typeError(t, v)
	}
	if d.Scale() != t.Scale {
		return fmt.Errorf("decimal %s has scale %d, the column %s has scale %d", d, d.Scale(), t, t.Scale)
	}
	if !d.FitsPrecision(t.Precision) {
		return fmt.Errorf("decimal %s overflows %s", d, t)
	}
	return nil
}

func checkArray(t spec.DataType, v any) error {
	elements, ok := v.([]any)
	if !ok || t.Element == nil {
		return typeError(t, v)
	}
	return checkElements(*t.Element, elements)
}

func checkElements(t spec.DataType, values []any) error {
	for i, e := range values {
		if _, err := normalizeNested(t, e); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	return nil
}

// normalizeNested checks a value inside a composite; nested timestamps are
// left as given, since the Parquet encoding truncates them and no stats
// are kept for composite columns.
func normalizeNested(t spec.DataType, v any) (any, error) {
	if v == nil {
		if !t.Nullable {
			return nil, fmt.Errorf("NULL where %s is NOT NULL", t)
		}
		return nil, nil
	}
	return v, checkValue(t, v)
}

func checkMap(t spec.DataType, v any) error {
	m, ok := v.(spec.MapValue)
	if !ok || len(m.Keys) != len(m.Values) {
		return typeError(t, v)
	}
	keyType, valueType := t.Key, t.Value
	if t.Root == spec.Multiset {
		keyType, valueType = t.Element, &spec.DataType{Root: spec.Int}
	}
	if keyType == nil || valueType == nil {
		return typeError(t, v)
	}
	if err := checkElements(keyType.WithNullable(false), m.Keys); err != nil {
		return fmt.Errorf("key %w", err)
	}
	return checkElements(*valueType, m.Values)
}

func checkRowValue(t spec.DataType, v any) error {
	values, ok := v.([]any)
	if !ok || len(values) != len(t.Fields) {
		return typeError(t, v)
	}
	for i, f := range t.Fields {
		if _, err := normalizeNested(f.Type, values[i]); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
	}
	return nil
}
