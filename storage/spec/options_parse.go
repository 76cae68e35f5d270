package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// memoryUnits maps the unit labels of org.apache.paimon.options.MemorySize
// to their multipliers (powers of 1024, as in Java).
var memoryUnits = map[string]int64{
	"": 1, "b": 1, "bytes": 1,
	"k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40,
}

// durationUnits maps the unit labels of org.apache.paimon.utils.TimeUtils
// to their length.
var durationUnits = map[string]time.Duration{
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"min": time.Minute, "m": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
	"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
	"microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
	"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
}

// ParseMemorySize parses a size as Java's MemorySize.parseBytes does:
// decimal digits, optional spaces, then an optional case-insensitive unit
// (b, k/kb, m/mb, g/gb, t/tb or the spelled-out forms; none means bytes),
// e.g. "128 mb", "256mb", "64 kb", "1024".
func ParseMemorySize(text string) (int64, error) {
	value, unit, err := splitNumberAndUnit(text)
	if err != nil {
		return 0, err
	}
	multiplier, ok := memoryUnits[unit]
	if !ok {
		return 0, fmt.Errorf("memory size unit %q is not one of b, k, kb, m, mb, g, gb, t, tb", unit)
	}
	if value > math.MaxInt64/multiplier {
		return 0, fmt.Errorf("memory size %q overflows 64 bits", text)
	}
	return value * multiplier, nil
}

// ParseDuration parses a duration as Java's TimeUtils.parseDuration does:
// decimal digits, optional spaces, then an optional case-insensitive unit
// (d, h, min/m, s, ms, µs, ns or the spelled-out forms; none means
// milliseconds), e.g. "1 h", "10 s", "10 ms", "1 d", "30 min".
func ParseDuration(text string) (time.Duration, error) {
	value, unit, err := splitNumberAndUnit(text)
	if err != nil {
		return 0, err
	}
	length := time.Millisecond
	if unit != "" {
		var ok bool
		if length, ok = durationUnits[unit]; !ok {
			return 0, fmt.Errorf("time unit %q is not one of d, h, min, m, s, ms, µs, ns", unit)
		}
	}
	if value > math.MaxInt64/int64(length) {
		return 0, fmt.Errorf("duration %q is longer than lakesql supports", text)
	}
	return time.Duration(value) * length, nil
}

// splitNumberAndUnit splits trimmed text into its leading decimal digits and
// the lower-cased, trimmed rest.
func splitNumberAndUnit(text string) (int64, string, error) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return 0, "", fmt.Errorf("empty value")
	}
	digits := len(trimmed) - len(strings.TrimLeft(trimmed, "0123456789"))
	if digits == 0 {
		return 0, "", fmt.Errorf("%q does not start with a number", text)
	}
	value, err := strconv.ParseInt(trimmed[:digits], 10, 64)
	if err != nil {
		return 0, "", fmt.Errorf("%q overflows 64 bits", text)
	}
	return value, strings.ToLower(strings.TrimSpace(trimmed[digits:])), nil
}

// splitJavaList splits s at commas as Java's String.split(",") does,
// which drops trailing empty strings.
func splitJavaList(s string) []string {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
