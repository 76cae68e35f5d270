// Package jsonrow renders table rows as JSON objects: the output contract of
// `lakesql cat`, which other tools and checks parse.
//
// Value formats: integers and floats are JSON numbers (NaN and infinities,
// which JSON cannot hold, are the strings "NaN", "Infinity", "-Infinity");
// DECIMAL is a string with exactly its scale digits; CHAR/VARCHAR are
// strings; BINARY/VARBINARY are base64 strings; DATE is "YYYY-MM-DD"; TIME is
// "HH:MM:SS[.f]"; TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE are
// "YYYY-MM-DD HH:MM:SS" plus exactly precision fraction digits (the latter in
// UTC); ARRAY is an array; MAP and MULTISET are arrays of {"key","value"}
// objects; ROW is an object keyed by field name; NULL is null.
package jsonrow

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// Append appends the JSON object for row, whose values follow fields, to dst.
func Append(dst []byte, fields []spec.DataField, row []any) ([]byte, error) {
	if len(row) != len(fields) {
		return nil, fmt.Errorf("jsonrow: row has %d values for %d fields", len(row), len(fields))
	}
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, f.Name)
		dst = append(dst, ':')
		var err error
		if dst, err = appendValue(dst, f.Type, row[i]); err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	return append(dst, '}'), nil
}

func appendValue(dst []byte, t spec.DataType, v any) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	switch t.Root {
	case spec.Array:
		return appendArray(dst, *t.Element, v)
	case spec.Map, spec.Multiset:
		return appendMap(dst, t, v)
	case spec.Row:
		return appendRow(dst, t.Fields, v)
	}
	return appendAtomic(dst, t, v)
}

func appendAtomic(dst []byte, t spec.DataType, v any) ([]byte, error) {
	ok := true
	switch t.Root {
	case spec.Boolean:
		var b bool
		b, ok = v.(bool)
		dst = strconv.AppendBool(dst, b)
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		var n int64
		n, ok = integer(v)
		dst = strconv.AppendInt(dst, n, 10)
	case spec.Float:
		var f float32
		f, ok = v.(float32)
		dst = appendFloat(dst, float64(f), 32)
	case spec.Double:
		var f float64
		f, ok = v.(float64)
		dst = appendFloat(dst, f, 64)
	default:
		var s string
		s, ok = text(t, v)
		dst = appendString(dst, s)
	}
	if !ok {
		return nil, fmt.Errorf("jsonrow: unexpected %T for %v", v, t)
	}
	return dst, nil
}

func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// text renders the types that JSON carries as strings.
func text(t spec.DataType, v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, t.IsString()
	case []byte:
		return base64.StdEncoding.EncodeToString(x), t.IsBinary()
	case spec.DecimalValue:
		return x.String(), t.Root == spec.Decimal
	case spec.DateValue:
		return x.String(), t.Root == spec.Date
	case spec.TimeValue:
		return formatTime(x, t.Precision), t.Root == spec.Time
	case spec.TimestampValue:
		return x.Format(t.Precision), t.Root == spec.Timestamp || t.Root == spec.TimestampLTZ
	}
	return "", false
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return appendString(dst, "NaN")
	case math.IsInf(f, 1):
		return appendString(dst, "Infinity")
	case math.IsInf(f, -1):
		return appendString(dst, "-Infinity")
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func formatTime(ms spec.TimeValue, precision int) string {
	d := time.Duration(ms) * time.Millisecond
	s := time.Unix(0, 0).UTC().Add(d).Format("15:04:05")
	if precision <= 0 {
		return s
	}
	frac := fmt.Sprintf("%03d000000", int(ms)%1000)
	return s + "." + frac[:min(precision, 9)]
}

func appendArray(dst []byte, elem spec.DataType, v any) ([]byte, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("jsonrow: unexpected %T for ARRAY", v)
	}
	dst = append(dst, '[')
	for i, item := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendValue(dst, elem, item); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

func appendMap(dst []byte, t spec.DataType, v any) ([]byte, error) {
	m, ok := v.(spec.MapValue)
	if !ok || len(m.Keys) != len(m.Values) {
		return nil, fmt.Errorf("jsonrow: unexpected %T for %v", v, t.Root)
	}
	keyType, valueType := mapEntryTypes(t)
	dst = append(dst, '[')
	for i := range m.Keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		dst = append(dst, `{"key":`...)
		if dst, err = appendValue(dst, keyType, m.Keys[i]); err != nil {
			return nil, err
		}
		dst = append(dst, `,"value":`...)
		if dst, err = appendValue(dst, valueType, m.Values[i]); err != nil {
			return nil, err
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), nil
}

// mapEntryTypes returns the key and value types; a MULTISET maps each
// element to its INT count.
func mapEntryTypes(t spec.DataType) (spec.DataType, spec.DataType) {
	if t.Root == spec.Multiset {
		return *t.Element, spec.DataType{Root: spec.Int}
	}
	return *t.Key, *t.Value
}

func appendRow(dst []byte, fields []spec.DataField, v any) ([]byte, error) {
	values, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("jsonrow: unexpected %T for ROW", v)
	}
	return Append(dst, fields, values)
}

func appendString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}
