package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// Date and time arithmetic of org.apache.paimon.utils.DateTimeUtils. Java
// int arithmetic wraps, so DATE and TIME computations use int32.

const (
	millisPerDay = 86400000
	epochJulian  = 2440588
)

// floorDiv and floorMod mirror Math.floorDiv and Math.floorMod.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// civilDate is a proleptic Gregorian date (java.time.LocalDate fields).
type civilDate struct{ year, month, day int32 }

// julianToCivil converts a Julian day number to a date with the integer
// algorithm of DateTimeUtils.julianToLocalDate (Fliegel and Van Flandern).
func julianToCivil(julian int32) civilDate {
	j := julian + 32044
	g, dg := j/146097, j%146097
	c := (dg/36524 + 1) * 3 / 4
	dc := dg - c*36524
	b, db := dc/1461, dc%1461
	a := (db/365 + 1) * 3 / 4
	da := db - a*365
	y := g*400 + c*100 + b*4 + a
	m := (da*5+308)/153 - 2
	d := da - (m+4)*153/5 + 122
	return civilDate{year: y - 4800 + (m+2)/12, month: (m+2)%12 + 1, day: d + 1}
}

// civilToEpochDay is DateTimeUtils.ymdToUnixDate: days since 1970-01-01.
func civilToEpochDay(year, month, day int32) int32 {
	a := (14 - month) / 12
	y := year + 4800 - a
	m := month + 12*a - 3
	return day + (153*m+2)/5 + 365*y + y/4 - y/100 + y/400 - 32045 - epochJulian
}

// appendInt4 and appendInt2 write the low 4 or 2 decimal digits the way
// DateTimeUtils does, digit by digit, so out-of-range years print exactly
// as Java prints them.
func appendInt4(b []byte, v int) []byte {
	return appendInt2(append(b, byte('0'+(v/1000)%10), byte('0'+(v/100)%10)), v)
}

func appendInt2(b []byte, v int) []byte {
	return append(b, byte('0'+(v/10)%10), byte('0'+v%10))
}

// formatDate mirrors DateTimeUtils.formatDate: YYYY-MM-DD.
func formatDate(days int32) string {
	d := julianToCivil(days + epochJulian)
	b := appendInt4(make([]byte, 0, 10), int(d.year))
	b = appendInt2(append(b, '-'), int(d.month))
	return string(appendInt2(append(b, '-'), int(d.day)))
}

// formatTime mirrors DateTimeUtils.formatTimestampMillis(int, precision),
// the TIME to STRING cast: HH:MM:SS, then at most precision fraction
// digits, stopping after the last non-zero digit but printing at least one.
func formatTime(millis int32, precision int) string {
	for millis < 0 {
		millis += millisPerDay
	}
	ms := int(millis % 1000)
	b := appendInt2(nil, int(millis/3600000))
	b = appendInt2(append(b, ':'), int(millis%3600000/60000))
	b = appendInt2(append(b, ':'), int(millis%60000/1000))
	if precision > 0 {
		b = append(b, '.')
		for ; precision > 0; precision-- {
			b = append(b, byte('0'+ms/100))
			ms = ms % 100 * 10
			if ms == 0 {
				break
			}
		}
	}
	return string(b)
}

// formatTimestamp mirrors DateTimeUtils.formatTimestamp(Timestamp, int):
// the nine-digit fraction loses trailing zeros only down to precision
// digits, so TIMESTAMP(6) prints ".000000" for a whole second.
func formatTimestamp(ts spec.TimestampValue, precision int) string {
	t := ts.Time()
	fraction := fmt.Sprintf("%09d", t.Nanosecond())
	for len(fraction) > precision && strings.HasSuffix(fraction, "0") {
		fraction = fraction[:len(fraction)-1]
	}
	b := appendInt4(make([]byte, 0, 29), t.Year())
	b = appendInt2(append(b, '-'), int(t.Month()))
	b = appendInt2(append(b, '-'), t.Day())
	b = appendInt2(append(b, ' '), t.Hour())
	b = appendInt2(append(b, ':'), t.Minute())
	b = appendInt2(append(b, ':'), t.Second())
	if fraction != "" {
		b = append(append(b, '.'), fraction...)
	}
	return string(b)
}

// truncateTimestamp mirrors DateTimeUtils.truncate. Java divides the
// milliseconds with truncation toward zero, which rounds instants before
// 1970 up; that is kept because it is observable.
func truncateTimestamp(ts spec.TimestampValue, precision int) spec.TimestampValue {
	fraction := strings.TrimRight(fmt.Sprintf("%09d", ts.Time().Nanosecond()), "0")
	if len(fraction) <= precision {
		return ts
	}
	if precision <= 3 {
		unit := pow10Int64(3 - precision)
		return spec.TimestampValue{Millis: ts.Millis / unit * unit}
	}
	unit := int32(pow10Int64(9 - precision))
	return spec.TimestampValue{Millis: ts.Millis, NanoOfMilli: ts.NanoOfMilli / unit * unit}
}

func pow10Int64(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// Zone conversions. A TIMESTAMP holds a wall clock as if it were UTC; a
// TIMESTAMP_LTZ holds an instant. Java converts between them in the JVM's
// default zone, which Options.Location stands for.

// offsetAt returns loc's UTC offset in seconds at the instant unixSec.
func offsetAt(loc *time.Location, unixSec int64) int64 {
	_, off := time.Unix(unixSec, 0).In(loc).Zone()
	return int64(off)
}

// localToInstant mirrors LocalDateTime.atZone(zone).toInstant() for a wall
// clock given as seconds of a UTC-based epoch: in an overlap the earlier
// offset wins, and a time in a gap moves forward by the gap's length.
func localToInstant(loc *time.Location, wallSec int64) int64 {
	before := offsetAt(loc, wallSec-86400)
	after := offsetAt(loc, wallSec+86400)
	for _, off := range []int64{before, after} {
		if offsetAt(loc, wallSec-off) == off {
			return wallSec - off
		}
	}
	return wallSec - before
}

// ltzToTimestamp mirrors DateTimeUtils.timestampWithLocalZoneToTimestamp.
func ltzToTimestamp(ts spec.TimestampValue, loc *time.Location) spec.TimestampValue {
	off := offsetAt(loc, floorDiv(ts.Millis, 1000))
	return spec.TimestampValue{Millis: ts.Millis + off*1000, NanoOfMilli: ts.NanoOfMilli}
}

// timestampToLTZ mirrors DateTimeUtils.timestampToTimestampWithLocalZone.
func timestampToLTZ(ts spec.TimestampValue, loc *time.Location) spec.TimestampValue {
	wall := floorDiv(ts.Millis, 1000)
	shift := localToInstant(loc, wall) - wall
	return spec.TimestampValue{Millis: ts.Millis + shift*1000, NanoOfMilli: ts.NanoOfMilli}
}

var errDateTimeParse = errors.New("DateTimeException")

// parseDate mirrors DateTimeUtils.parseDate: text after the first space is
// ignored, month and day default to 1, and the year must be 0..9999.
func parseDate(s string) (int32, error) {
	if ws := strings.IndexByte(s, ' '); ws > 0 {
		s = s[:ws]
	}
	parts := strings.SplitN(s, "-", 3)
	ymd := [3]int32{0, 1, 1}
	for i, p := range parts {
		v, err := parseJavaIntField(p)
		if err != nil {
			return 0, err
		}
		ymd[i] = v
	}
	if !isValidDate(ymd[0], ymd[1], ymd[2]) {
		return 0, errDateTimeParse
	}
	return civilToEpochDay(ymd[0], ymd[1], ymd[2]), nil
}

// parseJavaIntField is the isInteger + Integer.parseInt step of
// DateTimeUtils: trimmed ASCII digits that fit in an int.
func parseJavaIntField(p string) (int32, error) {
	p = javaTrim(p)
	if !allDigits(p, false) {
		return 0, errDateTimeParse
	}
	v, err := strconv.ParseInt(p, 10, 32)
	if err != nil {
		return 0, errJavaNumberFormat
	}
	return int32(v), nil
}

// javaTrim mirrors String.trim: it strips characters up to U+0020.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// isValidDate is DateTimeUtils.isIllegalDate, whose name says the opposite
// of what it returns.
func isValidDate(y, m, d int32) bool {
	if y < 0 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	if m == 2 && d > 28 && !(isLeapYear(y) && d == 29) {
		return false
	}
	if d == 31 {
		return m == 1 || m == 3 || m == 5 || m == 7 || m == 8 || m == 10 || m == 12
	}
	return true
}

func isLeapYear(y int32) bool { return y%400 == 0 || (y%4 == 0 && y%100 != 0) }
