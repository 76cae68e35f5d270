package systables

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// Rendering of storage values in system tables, where Java prints them as
// strings: partitions as CAST(value AS STRING), keys and statistics as
// toString of Java's internal value (so a DATE key is its epoch day).

// wallClock is an epoch-millisecond time as the session's wall clock, a
// TIMESTAMP(3) value.
func (src *systemSource) wallClock(millis int64) spec.TimestampValue {
	return spec.TimestampFromTime(spec.LocalWallClockAsUTC(time.UnixMilli(millis).In(src.location)))
}

// valueRenderer renders values of one system-table read, caching the cast
// between each pair of types it meets.
type valueRenderer struct {
	casts map[[2]string]*schema.RowMapping
}

func newValueRenderer() *valueRenderer {
	return &valueRenderer{casts: map[[2]string]*schema.RowMapping{}}
}

// cast converts a non-null value of type from to type to, as schema
// evolution casts values.
func (r *valueRenderer) cast(from, to spec.DataType, v any) (any, error) {
	from, to = from.WithNullable(true), to.WithNullable(true)
	key := [2]string{from.String(), to.String()}
	m, ok := r.casts[key]
	if !ok {
		var err error
		m, err = schema.NewRowMapping([]spec.DataField{{Name: "v", Type: from}}, []spec.DataField{{Name: "v", Type: to}}, schema.Options{})
		if err != nil {
			return nil, err
		}
		r.casts[key] = m
	}
	out, err := m.Apply([]any{v})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// castString is Java's CAST(v AS STRING); v must not be nil.
func (r *valueRenderer) castString(t spec.DataType, v any) (string, error) {
	out, err := r.cast(t, stringType(true), v)
	if err != nil {
		return "", err
	}
	s, ok := out.(string)
	if !ok {
		return "", fmt.Errorf("cast of %s to STRING gave %T", t.WithNullable(true), out)
	}
	return s, nil
}

// rowString is RowToStringCastRule: "{v1, v2}", nulls as "null".
func (r *valueRenderer) rowString(types []spec.DataType, values []any) (string, error) {
	parts := make([]string, len(values))
	for i, v := range values {
		if v == nil {
			parts[i] = "null"
			continue
		}
		var err error
		if parts[i], err = r.castString(types[i], v); err != nil {
			return "", err
		}
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}

// internalString is toString of the internal value Java holds for v:
// BinaryString, Decimal (plain), boxed numbers and booleans print as
// their casts do; DATE and TIME are the int Java stores and TIMESTAMP a
// LocalDateTime. Java prints a byte[] as its object identity, which says
// nothing, so bytes are shown in hex instead.
func (r *valueRenderer) internalString(t spec.DataType, v any) (string, error) {
	if v == nil {
		return "null", nil
	}
	switch x := v.(type) {
	case spec.DateValue:
		return strconv.Itoa(int(x)), nil
	case spec.TimeValue:
		return strconv.Itoa(int(x)), nil
	case spec.TimestampValue:
		return x.LocalDateTimeString(), nil
	case []byte:
		return "0x" + hex.EncodeToString(x), nil
	}
	return r.castString(t, v)
}

// javaDurationString is java.time.Duration.toString, which is how $tags
// shows a tag's time_retained: "PT24H", "PT1H30M", "PT0.5S", "PT-0.5S".
func javaDurationString(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	// Java keeps whole seconds rounded down and a non-negative nano part.
	seconds := int64(d / time.Second)
	nanos := int64(d % time.Second)
	if nanos < 0 {
		seconds--
		nanos += int64(time.Second)
	}
	effective := seconds
	if seconds < 0 && nanos > 0 {
		effective++
	}
	hours, minutes, secs := effective/3600, (effective%3600)/60, effective%60
	var b strings.Builder
	b.WriteString("PT")
	if hours != 0 {
		fmt.Fprintf(&b, "%dH", hours)
	}
	if minutes != 0 {
		fmt.Fprintf(&b, "%dM", minutes)
	}
	if secs == 0 && nanos == 0 && b.Len() > 2 {
		return b.String()
	}
	if seconds < 0 && nanos > 0 && secs == 0 {
		b.WriteString("-0")
	} else {
		fmt.Fprintf(&b, "%d", secs)
	}
	if nanos > 0 {
		fraction := nanos
		if seconds < 0 {
			fraction = int64(time.Second) - nanos
		}
		b.WriteString("." + strings.TrimRight(fmt.Sprintf("%09d", fraction), "0"))
	}
	b.WriteString("S")
	return b.String()
}
