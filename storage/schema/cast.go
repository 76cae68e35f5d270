package schema

import (
	"errors"
	"fmt"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// ErrCastFailed marks a value that a cast rejects at read time, where Java
// throws: a string that does not parse as the new type, a NaN cast to
// DECIMAL. The error text carries Java's message.
var ErrCastFailed = errors.New("cast failed")

// castFunc converts one non-null value of the file type to the read type.
// Mirrors org.apache.paimon.casting.CastExecutor. A nil castFunc means the
// value passes through unchanged.
type castFunc func(v any) (any, error)

// caster resolves casts. Mirrors org.apache.paimon.casting.CastExecutors
// plus the ROW, ARRAY and MAP handling of SchemaEvolutionUtil.
type caster struct {
	// loc stands for the JVM default time zone, which Java's casts between
	// TIMESTAMP_LTZ and the zone-less types use.
	loc *time.Location
}

// resolve returns the cast from one column type to another; nil when the
// types are equal apart from top-level nullability. Mirrors
// SchemaEvolutionUtil.createCastExecutor.
func (c caster) resolve(from, to spec.DataType) (castFunc, error) {
	switch {
	case sameType(from.WithNullable(true), to.WithNullable(true)):
		return nil, nil
	case from.Root == spec.Row && to.Root == spec.Row:
		return c.rowCast(from, to)
	case from.Root == spec.Array && to.Root == spec.Array:
		return c.arrayCast(from, to)
	case from.Root == spec.Map && to.Root == spec.Map:
		return c.mapCast(from, to)
	}
	if cast := c.scalarCast(from, to); cast != nil {
		return cast, nil
	}
	return nil, unsupportedCast(from, to)
}

func unsupportedCast(from, to spec.DataType) error {
	return fmt.Errorf("%w: cast %s to %s", lakeerr.ErrUnsupported, from, to)
}

// castFailed reports a value Java's cast would throw on; reason is Java's
// exception message, which names the value.
func castFailed(from, to spec.DataType, reason string) error {
	return fmt.Errorf("%w: %s to %s: %s", ErrCastFailed, from, to, reason)
}

// numberFormat is the message of BinaryStringUtils' NumberFormatException.
func numberFormat(s, reason string) string {
	return fmt.Sprintf("For input string: '%s'. %s", s, reason)
}

// badValue reports a Go value that does not belong to its column type: a
// reader bug or an undetected corrupt file, never a cast problem.
func badValue(t spec.DataType, v any) error {
	return fmt.Errorf("%w: value of Go type %T in a %s column", lakeerr.ErrCorruption, v, t)
}

// rowCast mirrors SchemaEvolutionUtil.createRowCastExecutor: nested fields
// are matched by id like top-level columns.
func (c caster) rowCast(from, to spec.DataType) (castFunc, error) {
	fm, err := c.newFieldMapping(from.Fields, to.Fields)
	if err != nil || fm.identity {
		return nil, err
	}
	return func(v any) (any, error) {
		row, ok := v.([]any)
		if !ok {
			return nil, badValue(from, v)
		}
		return fm.apply(row)
	}, nil
}

// arrayCast mirrors SchemaEvolutionUtil.createArrayCastExecutor.
func (c caster) arrayCast(from, to spec.DataType) (castFunc, error) {
	elem, err := c.resolve(*from.Element, *to.Element)
	if err != nil || elem == nil {
		return nil, err
	}
	return func(v any) (any, error) {
		arr, ok := v.([]any)
		if !ok {
			return nil, badValue(from, v)
		}
		return castElements(arr, elem)
	}, nil
}

// mapCast mirrors SchemaEvolutionUtil.createMapCastExecutor: only values
// may change type, and the key types must be equal including nullability.
func (c caster) mapCast(from, to spec.DataType) (castFunc, error) {
	if !sameType(*from.Key, *to.Key) {
		return nil, fmt.Errorf("%w: cast %s to %s: map key types differ", lakeerr.ErrUnsupported, from, to)
	}
	value, err := c.resolve(*from.Value, *to.Value)
	if err != nil || value == nil {
		return nil, err
	}
	return func(v any) (any, error) {
		m, ok := v.(spec.MapValue)
		if !ok {
			return nil, badValue(from, v)
		}
		values, err := castElements(m.Values, value)
		return spec.MapValue{Keys: m.Keys, Values: values}, err
	}, nil
}

// castElements casts every non-null element into a new slice.
func castElements(in []any, cast castFunc) ([]any, error) {
	out := make([]any, len(in))
	for i, v := range in {
		if v == nil {
			continue
		}
		cv, err := cast(v)
		if err != nil {
			return nil, err
		}
		out[i] = cv
	}
	return out, nil
}

// sameType mirrors DataType.equals: root, nullability, parameters and, for
// nested types, every nested type and field (id, name, description and
// default value included).
func sameType(a, b spec.DataType) bool {
	if a.Root != b.Root || a.Nullable != b.Nullable || a.Length != b.Length ||
		a.Precision != b.Precision || a.Scale != b.Scale || len(a.Fields) != len(b.Fields) {
		return false
	}
	if !samePointedType(a.Element, b.Element) || !samePointedType(a.Key, b.Key) ||
		!samePointedType(a.Value, b.Value) {
		return false
	}
	for i := range a.Fields {
		if !sameField(a.Fields[i], b.Fields[i]) {
			return false
		}
	}
	return true
}

func samePointedType(a, b *spec.DataType) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameType(*a, *b)
}

func sameField(a, b spec.DataField) bool {
	sameDefault := (a.DefaultValue == nil) == (b.DefaultValue == nil) &&
		(a.DefaultValue == nil || *a.DefaultValue == *b.DefaultValue)
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description &&
		sameDefault && sameType(a.Type, b.Type)
}
