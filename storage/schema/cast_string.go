package schema

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/spec"
)

// stringType is VarCharType.STRING_TYPE, the nullable STRING.
var stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}

// toStringCast covers CHAR and VARCHAR targets. The DATE, TIME and
// TIMESTAMP rules are registered for STRING_TYPE itself, so Java finds them
// only when the target is exactly the nullable STRING.
func (c caster) toStringCast(from, to spec.DataType) castFunc {
	switch {
	case isIntegral(from.Root), isApproximate(from.Root), from.Root == spec.Decimal:
		return fittedString(numberToString(from), to) // NumericToStringCastRule
	case from.Root == spec.Boolean:
		return fittedString(booleanToString(from), to) // BooleanToStringCastRule
	case isCharString(from.Root):
		return fittedString(stringCast(from, func(s string) (any, error) { return s, nil }), to) // StringToStringCastRule
	case isBinaryString(from.Root):
		return func(v any) (any, error) { // BinaryToStringCastRule: no fitting
			b, ok := v.([]byte)
			if !ok {
				return nil, badValue(from, v)
			}
			return string(b), nil
		}
	case from.Root == spec.Array, from.Root == spec.Map, from.Root == spec.Row:
		return c.collectionToString(from)
	case sameType(to, stringType):
		return c.temporalToString(from)
	}
	return nil
}

// fittedString applies BinaryStringUtils.toCharacterString to the result of
// cast: cut to the target length in characters, and for CHAR pad with
// spaces.
func fittedString(cast castFunc, to spec.DataType) castFunc {
	return func(v any) (any, error) {
		s, err := cast(v)
		if err != nil {
			return nil, err
		}
		str, _ := s.(string)
		return fitChars(str, to), nil
	}
}

func fitChars(s string, to spec.DataType) string {
	n := utf8.RuneCountInString(s)
	switch {
	case n > to.Length:
		cut := 0
		for i := 0; i < to.Length; i++ {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
		return s[:cut]
	case n < to.Length && to.Root == spec.Char:
		return s + strings.Repeat(" ", to.Length-n)
	}
	return s
}

// numberToString is Java's toString of the boxed value: Byte, Short,
// Integer, Long, Float, Double or Decimal (BigDecimal.toPlainString).
func numberToString(from spec.DataType) castFunc {
	return func(v any) (any, error) {
		switch n := v.(type) {
		case int8, int16, int32, int64:
			i, _ := integralValue(n)
			return strconv.FormatInt(i, 10), nil
		case float32:
			return javaFloatString(float64(n), 32), nil
		case float64:
			return javaFloatString(n, 64), nil
		case spec.DecimalValue:
			return n.String(), nil
		}
		return nil, badValue(from, v)
	}
}

func booleanToString(from spec.DataType) castFunc {
	return func(v any) (any, error) {
		b, ok := v.(bool)
		if !ok {
			return nil, badValue(from, v)
		}
		return strconv.FormatBool(b), nil
	}
}

// temporalToString covers DateToStringCastRule, TimeToStringCastRule and
// TimestampToStringCastRule (TIMESTAMP_LTZ is printed in the zone).
func (c caster) temporalToString(from spec.DataType) castFunc {
	switch from.Root {
	case spec.Date:
		return func(v any) (any, error) {
			d, ok := v.(spec.DateValue)
			if !ok {
				return nil, badValue(from, v)
			}
			return formatDate(int32(d)), nil
		}
	case spec.Time:
		return func(v any) (any, error) {
			t, ok := v.(spec.TimeValue)
			if !ok {
				return nil, badValue(from, v)
			}
			return formatTime(int32(t), from.Precision), nil
		}
	case spec.Timestamp:
		return timestampCast(from, func(ts spec.TimestampValue) any { return formatTimestamp(ts, from.Precision) })
	case spec.TimestampLTZ:
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return formatTimestamp(ltzToTimestamp(ts, c.loc), from.Precision)
		})
	}
	return nil
}

// collectionToString covers ArrayToStringCastRule ("[a, b]"),
// MapToStringCastRule ("{k -> v}") and RowToStringCastRule ("{a, b}").
// Nested values are cast to STRING with CastExecutors.resolve; where Java
// resolves no rule it fails only on a non-null nested value, and so does
// this.
func (c caster) collectionToString(from spec.DataType) castFunc {
	switch from.Root {
	case spec.Array:
		return c.arrayToString(from)
	case spec.Map:
		return c.mapToString(from)
	}
	return c.rowToString(from)
}

func (c caster) arrayToString(from spec.DataType) castFunc {
	elem := c.nestedToString(*from.Element)
	return func(v any) (any, error) {
		arr, ok := v.([]any)
		if !ok {
			return nil, badValue(from, v)
		}
		parts := make([]string, len(arr))
		for i, e := range arr {
			var err error
			if parts[i], err = castOrNull(e, elem); err != nil {
				return nil, err
			}
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
}

func (c caster) rowToString(from spec.DataType) castFunc {
	casts := make([]castFunc, len(from.Fields))
	for i, f := range from.Fields {
		casts[i] = c.nestedToString(f.Type)
	}
	return func(v any) (any, error) {
		row, ok := v.([]any)
		if !ok || len(row) != len(casts) {
			return nil, badValue(from, v)
		}
		parts := make([]string, len(row))
		for i, f := range row {
			var err error
			if parts[i], err = castOrNull(f, casts[i]); err != nil {
				return nil, err
			}
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
}

func (c caster) mapToString(from spec.DataType) castFunc {
	key, value := c.nestedToString(*from.Key), c.nestedToString(*from.Value)
	return func(v any) (any, error) {
		m, ok := v.(spec.MapValue)
		if !ok || len(m.Keys) != len(m.Values) {
			return nil, badValue(from, v)
		}
		parts := make([]string, len(m.Keys))
		for i := range m.Keys {
			k, err := castOrNull(m.Keys[i], key)
			if err != nil {
				return nil, err
			}
			val, err := castOrNull(m.Values[i], value)
			if err != nil {
				return nil, err
			}
			parts[i] = k + " -> " + val
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
}

// nestedToString resolves CastExecutors.resolve(t, STRING), deferring the
// failure when there is no rule.
func (c caster) nestedToString(t spec.DataType) castFunc {
	if cast := c.scalarCast(t, stringType); cast != nil {
		return cast
	}
	err := unsupportedCast(t, stringType)
	return func(any) (any, error) { return nil, err }
}

// castOrNull renders one nested value; every cast to STRING yields a Go
// string.
func castOrNull(v any, toString castFunc) (string, error) {
	if v == nil {
		return "null", nil
	}
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	str, _ := s.(string)
	return str, nil
}
