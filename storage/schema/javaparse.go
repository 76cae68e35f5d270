package schema

import (
	"strings"
)

// Parsers for the STRING to TIME and STRING to TIMESTAMP casts, mirroring
// DateTimeUtils.parseTime and DEFAULT_TIMESTAMP_FORMATTER.

// parseTime mirrors DateTimeUtils.parseTime: hh[:mm[:ss[.fff]]] followed by
// an optional [+|-]hh[:mm] suffix that shifts the result. Fields are not
// range checked and the sum wraps like Java int arithmetic. Like Java, the
// colons are searched in the whole string, zone suffix included.
func parseTime(v string) (int32, error) {
	end, operator := len(v), int32(-1)
	zone := strings.IndexByte(v, '-')
	if zone < 0 {
		zone, operator = strings.IndexByte(v, '+'), 1
	}
	var zoneHour, zoneMinute int32
	if zone >= 0 {
		end = zone
		var err error
		if zoneHour, zoneMinute, err = parseZoneSuffix(v[zone+1:]); err != nil {
			return 0, err
		}
	}
	hour, minute, second, milli, err := parseClock(v, end)
	if err != nil {
		return 0, err
	}
	hour += operator * zoneHour
	minute += operator * zoneMinute
	return hour*3600000 + minute*60000 + second*1000 + milli, nil
}

func parseZoneSuffix(s string) (hour, minute int32, err error) {
	h, m, hasMinute := strings.Cut(s, ":")
	if hour, err = parseJavaIntField(h); err != nil || !hasMinute {
		return hour, 0, err
	}
	minute, err = parseJavaIntField(m)
	return hour, minute, err
}

// parseClock parses the hh[:mm[:ss[.fff]]] part of parseTime; end is where
// the zone suffix starts.
func parseClock(v string, end int) (hour, minute, second, milli int32, err error) {
	colon1 := strings.IndexByte(v, ':')
	if colon1 < 0 {
		hour, err = parseIntBetween(v, 0, end)
		return hour, 0, 0, 0, err
	}
	if hour, err = parseIntBetween(v, 0, colon1); err != nil {
		return
	}
	colon2 := indexFrom(v, ':', colon1+1)
	if colon2 < 0 {
		minute, err = parseIntBetween(v, colon1+1, end)
		return hour, minute, 0, 0, err
	}
	if minute, err = parseIntBetween(v, colon1+1, colon2); err != nil {
		return
	}
	dot := indexFrom(v, '.', colon2)
	if dot < 0 {
		second, err = parseIntBetween(v, colon2+1, end)
		return hour, minute, second, 0, err
	}
	if second, err = parseIntBetween(v, colon2+1, dot); err != nil {
		return
	}
	if dot+1 > end {
		return 0, 0, 0, 0, errDateTimeParse
	}
	return hour, minute, second, parseFraction(javaTrim(v[dot+1 : end])), nil
}

// parseIntBetween parses v[begin:end]; Java's substring throws when the
// bounds are reversed, which is an error here too.
func parseIntBetween(v string, begin, end int) (int32, error) {
	if begin > end {
		return 0, errDateTimeParse
	}
	return parseJavaIntField(v[begin:end])
}

func indexFrom(s string, c byte, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// parseFraction mirrors DateTimeUtils.parseFraction: milliseconds from the
// first three characters (non-digits count as 0), rounded up when the
// fourth is '5' or greater.
func parseFraction(v string) int32 {
	runes := []rune(v)
	multiplier, r := int32(100), int32(0)
	for i, c := range runes {
		x := int32(0)
		if c >= '0' && c <= '9' {
			x = c - '0'
		}
		r += multiplier * x
		if multiplier < 10 {
			if i+1 < len(runes) && runes[i+1] >= '5' {
				r++
			}
			break
		}
		multiplier /= 10
	}
	return r
}
