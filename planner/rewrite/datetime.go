package rewrite

import (
	"fmt"
	"strings"
	"time"
)

// datetime holds the fields of a MySQL-style date or datetime string as
// written; in checks their ranges.
type datetime struct {
	year, month, day     int
	hour, minute, second int
	nanos                int
	// hasOffset marks an explicit zone ("Z", "UTC" or ±hh:mm), east of UTC
	// when offsetSign is 1.
	hasOffset                bool
	offsetSign               int
	offsetHour, offsetMinute int
}

// scanDatetime reads s as
//
//	YYYY-M[M]-D[D] [ {' '|'T'} h[h]:m[m][:s[s][.fraction]] [ [' '] {Z | UTC | ±hh:mm} ] ]
//
// with up to 9 fraction digits, and reports whether s has that shape. The
// fields' ranges are checked later by in, so that a mistyped date is
// reported as one rather than taken for a tag name.
func scanDatetime(s string) (datetime, bool) {
	c := cursor{s: s}
	var dt datetime
	ok := c.fixedDigits(4, &dt.year) && c.byte('-') && c.digits(2, &dt.month) && c.byte('-') && c.digits(2, &dt.day)
	if !ok {
		return datetime{}, false
	}
	if c.done() {
		return dt, true
	}
	if !c.byte(' ') && !c.byte('T') {
		return datetime{}, false
	}
	if !c.clock(&dt) {
		return datetime{}, false
	}
	if !c.zone(&dt) || !c.done() {
		return datetime{}, false
	}
	return dt, true
}

// in returns the instant dt names, reading it as wall-clock time in loc
// unless it carries its own offset.
func (dt datetime) in(loc *time.Location) (time.Time, error) {
	if err := dt.check(); err != nil {
		return time.Time{}, err
	}
	if dt.hasOffset {
		loc = time.FixedZone("", dt.offsetSeconds())
	}
	return time.Date(dt.year, time.Month(dt.month), dt.day, dt.hour, dt.minute, dt.second, dt.nanos, loc), nil
}

func (dt datetime) check() error {
	switch {
	case dt.month < 1 || dt.month > 12:
		return fmt.Errorf("month %d is out of range", dt.month)
	case dt.day < 1 || dt.day > daysIn(dt.year, dt.month):
		return fmt.Errorf("day %d is out of range for %s %d", dt.day, time.Month(dt.month), dt.year)
	case dt.hour > 23:
		return fmt.Errorf("hour %d is out of range", dt.hour)
	case dt.minute > 59:
		return fmt.Errorf("minute %d is out of range", dt.minute)
	case dt.second > 59:
		return fmt.Errorf("second %d is out of range", dt.second)
	case dt.offsetMinute > 59 || dt.offsetSeconds() < -(13*3600+59*60) || dt.offsetSeconds() > 14*3600:
		return fmt.Errorf("offset %+03d:%02d is out of range: MySQL accepts -13:59 to +14:00", dt.offsetSign*dt.offsetHour, dt.offsetMinute)
	}
	return nil
}

func (dt datetime) offsetSeconds() int {
	return dt.offsetSign * (dt.offsetHour*3600 + dt.offsetMinute*60)
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// cursor is a tiny left-to-right reader for scanDatetime.
type cursor struct {
	s string
	i int
}

func (c *cursor) done() bool { return c.i == len(c.s) }

func (c *cursor) byte(b byte) bool {
	if c.i < len(c.s) && c.s[c.i] == b {
		c.i++
		return true
	}
	return false
}

// digits reads 1 to max digits into v.
func (c *cursor) digits(max int, v *int) bool {
	n, start := 0, c.i
	for c.i < len(c.s) && c.i-start < max && isDigit(c.s[c.i]) {
		n = n*10 + int(c.s[c.i]-'0')
		c.i++
	}
	*v = n
	return c.i > start
}

// fixedDigits reads exactly n digits into v.
func (c *cursor) fixedDigits(n int, v *int) bool {
	start := c.i
	return c.digits(n, v) && c.i-start == n
}

// clock reads h:m[:s[.fraction]].
func (c *cursor) clock(dt *datetime) bool {
	if !c.digits(2, &dt.hour) || !c.byte(':') || !c.digits(2, &dt.minute) {
		return false
	}
	if !c.byte(':') {
		return true
	}
	if !c.digits(2, &dt.second) {
		return false
	}
	if !c.byte('.') {
		return true
	}
	return c.fraction(dt)
}

// fraction reads 1 to 9 fraction digits as nanoseconds.
func (c *cursor) fraction(dt *datetime) bool {
	start := c.i
	var v int
	if !c.digits(9, &v) {
		return false
	}
	for range 9 - (c.i - start) {
		v *= 10
	}
	dt.nanos = v
	return true
}

// zone reads an optional [' '] Z | UTC | ±hh:mm suffix.
func (c *cursor) zone(dt *datetime) bool {
	if c.done() {
		return true
	}
	c.byte(' ')
	rest := c.s[c.i:]
	switch {
	case rest == "Z" || strings.EqualFold(rest, "UTC"):
		c.i = len(c.s)
		dt.hasOffset, dt.offsetSign = true, 1
		return true
	case rest == "" || rest[0] != '+' && rest[0] != '-':
		return false
	}
	dt.hasOffset, dt.offsetSign = true, 1
	if rest[0] == '-' {
		dt.offsetSign = -1
	}
	c.i++
	return c.fixedDigits(2, &dt.offsetHour) && c.byte(':') && c.fixedDigits(2, &dt.offsetMinute)
}
