package schema

import (
	"strconv"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// Parsing of DateTimeUtils.DEFAULT_TIMESTAMP_FORMATTER, the java.time
// pattern
//
//	yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s][.fffffffff]]['T'[HH][H]:[mm][m][:[ss][s][.fffffffff]]]
//
// resolved in ResolverStyle.SMART, followed by
// DateTimeUtils.fromTemporalAccessor.

// Indexes of the fields the pattern can set.
const (
	fieldYear = iota
	fieldMonth
	fieldDay
	fieldHour
	fieldMinute
	fieldSecond
	fieldNano
	fieldCount
)

// dateTimeScanner walks the text. A field parsed twice must get the same
// value, or that element fails, as in java.time.format.Parsed.
type dateTimeScanner struct {
	s      string
	pos    int
	values [fieldCount]int64
	set    [fieldCount]bool
}

// wallClock is a parsed local date-time: days since 1970-01-01 and
// nanoseconds of the day.
type wallClock struct {
	epochDay  int64
	nanoOfDay int64
}

// parseTimestampText parses s and keeps precision fraction digits (the
// rest are floored away, as fromTemporalAccessor does).
func parseTimestampText(s string, precision int) (wallClock, error) {
	sc := &dateTimeScanner{s: s}
	if !sc.year() || !sc.literal('-') || !sc.oneOrTwoDigits(fieldMonth) ||
		!sc.literal('-') || !sc.oneOrTwoDigits(fieldDay) {
		return wallClock{}, errDateTimeParse
	}
	sc.optional(sc.spaceTime)
	sc.optional(sc.isoTime)
	if sc.pos != len(s) {
		return wallClock{}, errDateTimeParse
	}
	return sc.resolve(precision)
}

// optional runs an optional section: on failure the position and the
// fields parsed in it are rolled back.
func (sc *dateTimeScanner) optional(section func() bool) {
	pos, values, set := sc.pos, sc.values, sc.set
	if !section() {
		sc.pos, sc.values, sc.set = pos, values, set
	}
}

// spaceTime is " HH:mm:ss[.f]".
func (sc *dateTimeScanner) spaceTime() bool {
	return sc.literal(' ') && sc.oneOrTwoDigits(fieldHour) && sc.literal(':') &&
		sc.oneOrTwoDigits(fieldMinute) && sc.literal(':') && sc.oneOrTwoDigits(fieldSecond) &&
		sc.fraction()
}

// isoTime is "THH:mm[:ss[.f]]".
func (sc *dateTimeScanner) isoTime() bool {
	if !sc.literal('T') || !sc.oneOrTwoDigits(fieldHour) || !sc.literal(':') ||
		!sc.oneOrTwoDigits(fieldMinute) {
		return false
	}
	sc.optional(func() bool {
		return sc.literal(':') && sc.oneOrTwoDigits(fieldSecond) && sc.fraction()
	})
	return true
}

func (sc *dateTimeScanner) literal(c byte) bool {
	if sc.pos < len(sc.s) && sc.s[sc.pos] == c {
		sc.pos++
		return true
	}
	return false
}

func (sc *dateTimeScanner) digitRun(maxLen int) string {
	start := sc.pos
	for sc.pos < len(sc.s) && sc.pos-start < maxLen && sc.s[sc.pos] >= '0' && sc.s[sc.pos] <= '9' {
		sc.pos++
	}
	return sc.s[start:sc.pos]
}

func (sc *dateTimeScanner) store(field int, v int64) bool {
	if sc.set[field] && sc.values[field] != v {
		return false
	}
	sc.values[field], sc.set[field] = v, true
	return true
}

// year is "yyyy" (SignStyle.EXCEEDS_PAD, strict): exactly four digits, or
// '+' and more than four.
func (sc *dateTimeScanner) year() bool {
	signed := sc.literal('+')
	digits := sc.digitRun(19)
	if len(digits) < 4 || signed != (len(digits) > 4) {
		return false
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	return err == nil && sc.store(fieldYear, v)
}

// oneOrTwoDigits is "[XX][X]": an optional fixed two-digit value followed by
// an optional signed value of one to nineteen digits; when both match they
// must agree. When neither matches the field stays unset, which is not an
// error: the field then takes its default.
func (sc *dateTimeScanner) oneOrTwoDigits(field int) bool {
	sc.optional(func() bool {
		two := sc.digitRun(2)
		return len(two) == 2 && sc.storeDigits(field, two)
	})
	sc.optional(func() bool {
		negative := sc.literal('-')
		rest := sc.digitRun(19)
		if negative {
			rest = "-" + rest
		}
		return rest != "" && rest != "-" && sc.storeDigits(field, rest)
	})
	return true
}

// storeDigits stores a parsed value. The variable-width element takes a
// leading '-' (SignStyle.NORMAL), so "2024--05" reads month -5 and fails.
func (sc *dateTimeScanner) storeDigits(field int, digits string) bool {
	v, err := strconv.ParseInt(digits, 10, 64)
	return err == nil && sc.store(field, v)
}

// fraction is appendFraction(NANO_OF_SECOND, 0, 9, true): an optional point
// followed by up to nine digits, possibly none.
func (sc *dateTimeScanner) fraction() bool {
	if !sc.literal('.') {
		return true
	}
	digits := sc.digitRun(9)
	v, _ := strconv.ParseInt(digits+"000000000"[len(digits):], 10, 64)
	return sc.store(fieldNano, v)
}

// resolve turns the parsed fields into a wall clock the way the SMART
// resolver and fromTemporalAccessor do: missing fields default to 1970-01-01
// 00:00:00, a complete date has a day past the end of its month clamped to
// the last day, and a resolved 24:00:00 is midnight of the next day.
func (sc *dateTimeScanner) resolve(precision int) (wallClock, error) {
	epochDay, dateResolved, err := sc.resolveDate()
	if err != nil {
		return wallClock{}, err
	}
	nanoOfDay, nextDay, err := sc.resolveTime()
	if err != nil {
		return wallClock{}, err
	}
	if nextDay && dateResolved {
		epochDay++
	}
	unit := pow10Int64(9 - precision)
	nanoOfSecond := nanoOfDay % 1e9
	return wallClock{epochDay: epochDay, nanoOfDay: nanoOfDay - nanoOfSecond + nanoOfSecond/unit*unit}, nil
}

func (sc *dateTimeScanner) resolveDate() (epochDay int64, resolved bool, err error) {
	year, month, day := sc.values[fieldYear], sc.valueOr(fieldMonth, 1), sc.valueOr(fieldDay, 1)
	resolved = sc.set[fieldMonth] && sc.set[fieldDay]
	if year < 1 || year > 999999999 || month < 1 || month > 12 || day < 1 || day > 31 {
		return 0, false, errDateTimeParse
	}
	last := int64(daysIn(time.Month(month), year))
	if day > last && !resolved {
		return 0, false, errDateTimeParse
	}
	return epochDayOf(year, month, min(day, last)), resolved, nil
}

func (sc *dateTimeScanner) resolveTime() (nanoOfDay int64, nextDay bool, err error) {
	h, m, s, nano := sc.values[fieldHour], sc.values[fieldMinute], sc.values[fieldSecond], sc.values[fieldNano]
	resolved := sc.set[fieldHour] && (sc.set[fieldMinute] || !sc.set[fieldSecond] && !sc.set[fieldNano])
	if resolved && h == 24 && m == 0 && s == 0 && nano == 0 {
		return 0, true, nil
	}
	if h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 59 {
		return 0, false, errDateTimeParse
	}
	return ((h*60+m)*60+s)*1e9 + nano, false, nil
}

func (sc *dateTimeScanner) valueOr(field int, def int64) int64 {
	if sc.set[field] {
		return sc.values[field]
	}
	return def
}

func daysIn(m time.Month, year int64) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// epochDayOf mirrors LocalDate.toEpochDay for the proleptic Gregorian
// calendar (years >= 1 here).
func epochDayOf(year, month, day int64) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	yoe := year - era*400
	mp := (month + 9) % 12
	doy := (153*mp+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// timestamp mirrors Timestamp.fromLocalDateTime.
func (w wallClock) timestamp() spec.TimestampValue {
	return spec.TimestampValue{
		Millis:      w.epochDay*millisPerDay + w.nanoOfDay/1e6,
		NanoOfMilli: int32(w.nanoOfDay % 1e6),
	}
}

// instant mirrors atZone(zone).toInstant() followed by Timestamp.fromInstant.
func (w wallClock) instant(loc *time.Location) spec.TimestampValue {
	sec := localToInstant(loc, w.epochDay*86400+w.nanoOfDay/1e9)
	nanoOfSecond := w.nanoOfDay % 1e9
	return spec.TimestampValue{Millis: sec*1000 + nanoOfSecond/1e6, NanoOfMilli: int32(nanoOfSecond % 1e6)}
}
