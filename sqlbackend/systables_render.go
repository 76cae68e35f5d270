package sqlbackend

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
// of each type it meets.
type valueRenderer struct {
	casts map[string]*schema.RowMapping
}

func newValueRenderer() *valueRenderer {
	return &valueRenderer{casts: map[string]*schema.RowMapping{}}
}

// castString is Java's CAST(v AS STRING), through the casts schema
// evolution applies; v must not be nil.
func (r *valueRenderer) castString(t spec.DataType, v any) (string, error) {
	t = t.WithNullable(true)
	key := t.String()
	m, ok := r.casts[key]
	if !ok {
		var err error
		m, err = schema.NewRowMapping(
			[]spec.DataField{{Name: "v", Type: t}},
			[]spec.DataField{{Name: "v", Type: stringType(true)}},
			schema.Options{})
		if err != nil {
			return "", err
		}
		r.casts[key] = m
	}
	out, err := m.Apply([]any{v})
	if err != nil {
		return "", err
	}
	s, ok := out[0].(string)
	if !ok {
		return "", fmt.Errorf("cast of %s to STRING gave %T", t, out[0])
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
		return javaLocalDateTimeString(x.Time()), nil
	case []byte:
		return "0x" + hex.EncodeToString(x), nil
	}
	return r.castString(t, v)
}

// javaLocalDateTimeString is LocalDateTime.toString: ISO date, 'T', HH:mm,
// then :ss when seconds or nanos are set, then 3, 6 or 9 fraction digits.
func javaLocalDateTimeString(t time.Time) string {
	var b strings.Builder
	switch year := t.Year(); {
	case year < 0 && year > -1000:
		fmt.Fprintf(&b, "-%04d", -year)
	case year > 9999:
		fmt.Fprintf(&b, "+%d", year)
	default:
		fmt.Fprintf(&b, "%04d", year)
	}
	fmt.Fprintf(&b, "-%02d-%02dT%02d:%02d", t.Month(), t.Day(), t.Hour(), t.Minute())
	nano := t.Nanosecond()
	if t.Second() > 0 || nano > 0 {
		fmt.Fprintf(&b, ":%02d", t.Second())
	}
	switch {
	case nano == 0:
	case nano%1_000_000 == 0:
		fmt.Fprintf(&b, ".%03d", nano/1_000_000)
	case nano%1000 == 0:
		fmt.Fprintf(&b, ".%06d", nano/1000)
	default:
		fmt.Fprintf(&b, ".%09d", nano)
	}
	return b.String()
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
