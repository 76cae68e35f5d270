package sqltypes

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/storage/spec"
)

// nestedFromSQL turns the JSON a client writes into an ARRAY, MAP, MULTISET
// or ROW column into its Paimon value: the inverse of jsonValue, so that
// what a SELECT shows can be written back. Every part must have the shape
// its type asks for (an array, an object by field or key, {"key", "value"}
// pairs for maps whose keys are not strings); a part that does not fit
// fails the row rather than be guessed at.
func nestedFromSQL(t spec.DataType, v any) (any, error) {
	tree, err := jsonTree(v)
	if err != nil {
		return nil, err
	}
	return fromJSON(t, tree)
}

// jsonTree is the decoded JSON of a JSON column's value.
func jsonTree(v any) (any, error) {
	switch x := v.(type) {
	case sql.JSONWrapper:
		return x.ToInterface()
	case string, []byte:
		doc, _, err := types.JSON.Convert(context.Background(), x)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrValue, err)
		}
		return doc.(sql.JSONWrapper).ToInterface()
	}
	return nil, fmt.Errorf("%w: %T is not JSON", ErrValue, v)
}

func fromJSON(t spec.DataType, j any) (any, error) {
	if j == nil {
		if !t.Nullable {
			return nil, fmt.Errorf("%w: null in a NOT NULL %s", ErrValue, typeName(t))
		}
		return nil, nil
	}
	switch t.Root {
	case spec.Array:
		return arrayFromJSON(*t.Element, j)
	case spec.Multiset:
		return mapFromJSON(*t.Element, spec.DataType{Root: spec.Int}, j)
	case spec.Map:
		return mapFromJSON(*t.Key, *t.Value, j)
	case spec.Row:
		return rowFromJSON(t.Fields, j)
	}
	return leafFromJSON(t, j)
}

func arrayFromJSON(elem spec.DataType, j any) (any, error) {
	items, ok := j.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: an ARRAY value must be a JSON array, not %s", ErrValue, jsonKind(j))
	}
	out := make([]any, len(items))
	for i, item := range items {
		v, err := fromJSON(elem, item)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// mapFromJSON reads a map as jsonMap writes it: an object when its keys
// are strings, else an array of {"key": …, "value": …} pairs.
func mapFromJSON(key, value spec.DataType, j any) (any, error) {
	if key.IsString() {
		obj, ok := j.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: a map with string keys must be a JSON object, not %s", ErrValue, jsonKind(j))
		}
		return objectEntries(key, value, obj)
	}
	pairs, ok := j.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: a map with %s keys must be a JSON array of {\"key\", \"value\"} objects, not %s", ErrValue, typeName(key), jsonKind(j))
	}
	var m spec.MapValue
	for i, p := range pairs {
		pair, ok := p.(map[string]any)
		k, hasKey := pair["key"]
		val, hasValue := pair["value"]
		if !ok || !hasKey || !hasValue || len(pair) != 2 {
			return nil, fmt.Errorf("%w: map entry %d must be an object of \"key\" and \"value\"", ErrValue, i)
		}
		if err := appendEntry(&m, key, value, k, val); err != nil {
			return nil, fmt.Errorf("map entry %d: %w", i, err)
		}
	}
	if dup, ok := duplicateKey(m.Keys); ok {
		return nil, fmt.Errorf("%w: map key %v appears twice", ErrValue, dup)
	}
	return m, nil
}

// duplicateKey returns a key that appears twice among keys, which a map
// cannot hold.
func duplicateKey(keys []any) (any, bool) {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		text := fmt.Sprintf("%T:%v", k, k)
		if seen[text] {
			return k, true
		}
		seen[text] = true
	}
	return nil, false
}

func objectEntries(key, value spec.DataType, obj map[string]any) (any, error) {
	var m spec.MapValue
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if err := appendEntry(&m, key, value, k, obj[k]); err != nil {
			return nil, fmt.Errorf("map key %q: %w", k, err)
		}
	}
	return m, nil
}

func appendEntry(m *spec.MapValue, keyType, valueType spec.DataType, k, v any) error {
	key, err := fromJSON(notNull(keyType), k)
	if err != nil {
		return err
	}
	val, err := fromJSON(valueType, v)
	if err != nil {
		return err
	}
	m.Keys = append(m.Keys, key)
	m.Values = append(m.Values, val)
	return nil
}

// notNull is t made NOT NULL: a map key is never null in Paimon.
func notNull(t spec.DataType) spec.DataType {
	t.Nullable = false
	return t
}

func rowFromJSON(fields []spec.DataField, j any) (any, error) {
	obj, ok := j.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: a ROW value must be a JSON object, not %s", ErrValue, jsonKind(j))
	}
	out := make([]any, len(fields))
	seen := 0
	for i, f := range fields {
		part, ok := obj[f.Name]
		if ok {
			seen++
		}
		v, err := fromJSON(f.Type, part)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		out[i] = v
	}
	if seen != len(obj) {
		return nil, fmt.Errorf("%w: the ROW value names a field its type does not have", ErrValue)
	}
	return out, nil
}

// maxExactJSONInt bounds the integers a JSON number, decoded as a float64,
// holds unambiguously: 2^53 itself is also what 2^53+1 rounds to.
const maxExactJSONInt = 1 << 53

// leafFromJSON converts a scalar part through the GMS type of its column
// type, as a top-level value of that type would be, except that an
// integer part must be a whole number (GMS would round 1.5): JSON numbers
// arrive as float64, so one must also be below 2^53 in magnitude (larger
// ones are written as strings, which convert exactly; a SELECT shows them
// as numbers). A DECIMAL part is read from a number's shortest text, the
// digits the client wrote.
func leafFromJSON(t spec.DataType, j any) (any, error) {
	var err error
	switch t.Root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Boolean:
		j, err = wholeNumber(j)
	case spec.Decimal:
		if f, ok := j.(float64); ok {
			j, err = decimal.NewFromString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	if err != nil {
		return nil, err
	}
	st, err := Type(t)
	if err != nil {
		return nil, err
	}
	converted, inRange, err := st.Convert(context.Background(), j)
	if err != nil || inRange == sql.OutOfRange {
		return nil, fmt.Errorf("%w: %v does not fit %s: %v", ErrValue, j, typeName(t), err)
	}
	return FromSQL(t, converted)
}

// wholeNumber is an integer part as an int64, refusing fractions and
// numbers a float64 does not hold exactly.
func wholeNumber(j any) (any, error) {
	switch x := j.(type) {
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= maxExactJSONInt {
			return nil, fmt.Errorf("%w: %v is not an integer a JSON number holds exactly (write large integers as strings)", ErrValue, x)
		}
		return int64(x), nil
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not an integer", ErrValue, x)
		}
		return n, nil
	case decimal.Decimal:
		if !x.IsInteger() || !x.BigInt().IsInt64() {
			return nil, fmt.Errorf("%w: %v is not a 64-bit integer", ErrValue, x)
		}
		return x.IntPart(), nil
	}
	return j, nil
}

func jsonKind(j any) string {
	switch j.(type) {
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
