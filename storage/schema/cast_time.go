package schema

import (
	"fmt"
	"unicode"

	"github.com/lakesql/lakesql/storage/spec"
)

// toDateCast covers DATE targets: StringToDateCastRule and
// TimestampToDateCastRule.
func (c caster) toDateCast(from, to spec.DataType) castFunc {
	switch from.Root {
	case spec.Char, spec.VarChar:
		return stringCast(from, func(s string) (any, error) {
			days, err := parseDateOrNumber(from, to, s)
			return spec.DateValue(days), err
		})
	case spec.Timestamp:
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return spec.DateValue(floorDiv(ts.Millis, millisPerDay))
		})
	case spec.TimestampLTZ:
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return spec.DateValue(floorDiv(ltzToTimestamp(ts, c.loc).Millis, millisPerDay))
		})
	}
	return nil
}

// toTimeCast covers TIME targets: StringToTimeCastRule and
// TimestampToTimeCastRule (the sub-millisecond part is dropped).
func (c caster) toTimeCast(from, to spec.DataType) castFunc {
	switch from.Root {
	case spec.Char, spec.VarChar:
		return stringCast(from, func(s string) (any, error) {
			millis, err := parseTimeOrNumber(from, to, s)
			return spec.TimeValue(millis), err
		})
	case spec.Timestamp:
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return spec.TimeValue(floorMod(ts.Millis, millisPerDay))
		})
	case spec.TimestampLTZ:
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return spec.TimeValue(floorMod(ltzToTimestamp(ts, c.loc).Millis, millisPerDay))
		})
	}
	return nil
}

// toTimestampCast covers TIMESTAMP and TIMESTAMP_LTZ targets:
// NumericPrimitiveToTimestamp (INT and BIGINT seconds only),
// TimestampToTimestampCastRule, DateToTimestampCastRule,
// TimeToTimestampCastRule and StringToTimestampCastRule.
func (c caster) toTimestampCast(from, to spec.DataType) castFunc {
	switch from.Root {
	case spec.Int, spec.BigInt:
		return c.secondsToTimestamp(from, to)
	case spec.Timestamp, spec.TimestampLTZ:
		return c.timestampToTimestamp(from, to)
	case spec.Date:
		return c.dateToTimestamp(from, to)
	case spec.Time:
		return c.timeToTimestamp(from, to)
	case spec.Char, spec.VarChar:
		return stringCast(from, func(s string) (any, error) { return c.parseTimestamp(from, to, s) })
	}
	return nil
}

// secondsToTimestamp reads the number as seconds since the epoch. For a
// TIMESTAMP_LTZ target Java stores the wall clock of that instant in the
// default zone instead of the instant itself; that is reproduced.
func (c caster) secondsToTimestamp(from, to spec.DataType) castFunc {
	return func(v any) (any, error) {
		n, ok := integralValue(v)
		if !ok {
			return nil, badValue(from, v)
		}
		ts := spec.TimestampValue{Millis: n * 1000}
		if to.Root == spec.TimestampLTZ {
			ts = ltzToTimestamp(ts, c.loc)
		}
		return ts, nil
	}
}

func (c caster) timestampToTimestamp(from, to spec.DataType) castFunc {
	return timestampCast(from, func(ts spec.TimestampValue) any {
		switch {
		case from.Root == spec.Timestamp && to.Root == spec.TimestampLTZ:
			ts = timestampToLTZ(ts, c.loc)
		case from.Root == spec.TimestampLTZ && to.Root == spec.Timestamp:
			ts = ltzToTimestamp(ts, c.loc)
		}
		if from.Precision > to.Precision {
			ts = truncateTimestamp(ts, to.Precision)
		}
		return ts
	})
}

func (c caster) dateToTimestamp(from, to spec.DataType) castFunc {
	return func(v any) (any, error) {
		d, ok := v.(spec.DateValue)
		if !ok {
			return nil, badValue(from, v)
		}
		if to.Root == spec.TimestampLTZ {
			return spec.TimestampValue{Millis: localToInstant(c.loc, int64(d)*86400) * 1000}, nil
		}
		return spec.TimestampValue{Millis: int64(d) * millisPerDay}, nil
	}
}

// timeToTimestamp puts the time of day on 1970-01-01. For TIMESTAMP_LTZ
// Java reads the milliseconds as an instant, takes its wall clock in the
// default zone and converts that back to an instant in the same zone.
func (c caster) timeToTimestamp(from, to spec.DataType) castFunc {
	return func(v any) (any, error) {
		t, ok := v.(spec.TimeValue)
		if !ok {
			return nil, badValue(from, v)
		}
		ts := spec.TimestampValue{Millis: int64(t)}
		if to.Root == spec.TimestampLTZ {
			ts = timestampToLTZ(ltzToTimestamp(ts, c.loc), c.loc)
		}
		return ts, nil
	}
}

// parseTimestamp mirrors BinaryStringUtils.toTimestamp: for TIMESTAMP an
// all-digit string is an epoch count in units of the target precision;
// otherwise the text is a date-time, which for TIMESTAMP_LTZ is in the
// default zone.
func (c caster) parseTimestamp(from, to spec.DataType, s string) (any, error) {
	if to.Root == spec.Timestamp && isJavaNumeric(s) {
		epoch, reason := parseJavaIntegral(s, 64)
		if reason != "" {
			return nil, castFailed(from, to, numberFormat(s, reason))
		}
		return epochToTimestamp(from, to, epoch)
	}
	wall, err := parseTimestampText(s, to.Precision)
	if err != nil {
		return nil, castFailed(from, to, fmt.Sprintf("Text '%s' could not be parsed", s))
	}
	if to.Root == spec.TimestampLTZ {
		return wall.instant(c.loc), nil
	}
	return wall.timestamp(), nil
}

// epochToTimestamp mirrors BinaryStringUtils.fromMillisToTimestamp, which
// knows only the precisions 0, 3, 6 and 9.
func epochToTimestamp(from, to spec.DataType, epoch int64) (any, error) {
	var millis, nanos int64
	switch to.Precision {
	case 0:
		millis = epoch * 1000
	case 3:
		millis = epoch
	case 6:
		millis, nanos = epoch/1000, epoch%1000*1000
	case 9:
		millis, nanos = epoch/1e6, epoch%1e6
	default:
		return nil, castFailed(from, to, fmt.Sprintf("Unsupported precision: %d", to.Precision))
	}
	if nanos < 0 {
		millis, nanos = millis-1, nanos+1e6
	}
	return spec.TimestampValue{Millis: millis, NanoOfMilli: int32(nanos)}, nil
}

// isJavaNumeric mirrors StringUtils.isNumeric: an optional '-' and then
// only (Unicode) digits.
func isJavaNumeric(s string) bool {
	body := s
	if len(s) > 1 && s[0] == '-' {
		body = s[1:]
	}
	for _, r := range body {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return body != ""
}

// parseDateOrNumber mirrors BinaryStringUtils.toDate: a number is a day
// count (BinaryStringUtils.toInt), anything else goes to parseDate.
func parseDateOrNumber(from, to spec.DataType, s string) (int32, error) {
	return parseDayOrTime(from, to, s, parseDate)
}

// parseTimeOrNumber mirrors BinaryStringUtils.toTime: a number is
// milliseconds of the day, anything else goes to parseTime.
func parseTimeOrNumber(from, to spec.DataType, s string) (int32, error) {
	return parseDayOrTime(from, to, s, parseTime)
}

func parseDayOrTime(from, to spec.DataType, s string, parse func(string) (int32, error)) (int32, error) {
	if isJavaNumeric(s) {
		n, reason := parseJavaIntegral(s, 32)
		if reason != "" {
			return 0, castFailed(from, to, numberFormat(s, reason))
		}
		return int32(n), nil
	}
	v, err := parse(s)
	if err != nil {
		return 0, castFailed(from, to, fmt.Sprintf("For input string: '%s'.", s))
	}
	return v, nil
}
