package sqltypes

import (
	"fmt"
	"strconv"

	"github.com/lakesql/lakesql/storage/spec"
)

// jsonValue turns a nested Paimon value (ARRAY, MAP, MULTISET, ROW) into the
// JSON tree MySQL clients see: arrays as arrays, ROWs as objects by field
// name, MAPs as objects when their keys are strings and otherwise as arrays of
// {"key", "value"} pairs (JSON object keys must be strings, and stringifying
// an INT key would make 1 and "1" collide). DECIMAL, DATE, TIME and TIMESTAMP
// leaves are strings so that no digit is lost to a JSON double.
func jsonValue(t spec.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case spec.Array:
		return jsonArray(*t.Element, v)
	case spec.Multiset:
		return jsonMap(*t.Element, spec.DataType{Root: spec.Int}, v)
	case spec.Map:
		return jsonMap(*t.Key, *t.Value, v)
	case spec.Row:
		return jsonRow(t.Fields, v)
	}
	return jsonLeaf(t, v)
}

func jsonArray(elem spec.DataType, v any) (any, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: %T is not an ARRAY value", ErrValue, v)
	}
	out := make([]any, len(items))
	for i, item := range items {
		j, err := jsonValue(elem, item)
		if err != nil {
			return nil, err
		}
		out[i] = j
	}
	return out, nil
}

func jsonMap(key, value spec.DataType, v any) (any, error) {
	m, ok := v.(spec.MapValue)
	if !ok {
		return nil, fmt.Errorf("%w: %T is not a MAP value", ErrValue, v)
	}
	if key.IsString() {
		return jsonObject(value, m)
	}
	pairs := make([]any, len(m.Keys))
	for i := range m.Keys {
		k, err := jsonValue(key, m.Keys[i])
		if err != nil {
			return nil, err
		}
		val, err := jsonValue(value, m.Values[i])
		if err != nil {
			return nil, err
		}
		pairs[i] = map[string]any{"key": k, "value": val}
	}
	return pairs, nil
}

func jsonObject(value spec.DataType, m spec.MapValue) (any, error) {
	out := make(map[string]any, len(m.Keys))
	for i, k := range m.Keys {
		s, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("%w: map key %T is not a string", ErrValue, k)
		}
		val, err := jsonValue(value, m.Values[i])
		if err != nil {
			return nil, err
		}
		out[s] = val
	}
	return out, nil
}

func jsonRow(fields []spec.DataField, v any) (any, error) {
	values, ok := v.([]any)
	if !ok || len(values) != len(fields) {
		return nil, fmt.Errorf("%w: %T is not a ROW value of %d fields", ErrValue, v, len(fields))
	}
	out := make(map[string]any, len(fields))
	for i, f := range fields {
		j, err := jsonValue(f.Type, values[i])
		if err != nil {
			return nil, err
		}
		out[f.Name] = j
	}
	return out, nil
}

func jsonLeaf(t spec.DataType, v any) (any, error) {
	switch x := v.(type) {
	case bool, string, float64:
		return x, nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return f, nil
	case []byte:
		return string(x), nil
	case spec.DecimalValue, spec.DateValue:
		return fmt.Sprint(x), nil
	case spec.TimeValue:
		return timeOfDay(int64(x)), nil
	case spec.TimestampValue:
		return x.Format(t.Precision), nil
	}
	return nil, fmt.Errorf("%w: %T in a nested value", ErrValue, v)
}

// timeOfDay formats milliseconds of the day as HH:MM:SS.fff.
func timeOfDay(ms int64) string {
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
