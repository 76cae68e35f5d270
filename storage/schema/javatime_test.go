package schema

import (
	"errors"
	"testing"
	"time"
	_ "time/tzdata" // the zone tests must not depend on the host's zoneinfo

	"github.com/lakesql/lakesql/storage/spec"
)

func mustLoadLocation(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// tsOf builds the TIMESTAMP value of a UTC wall clock.
func tsOf(year int, month time.Month, day, h, m, s, nano int) spec.TimestampValue {
	return spec.TimestampFromTime(time.Date(year, month, day, h, m, s, nano, time.UTC))
}

func TestFormatDate(t *testing.T) {
	tests := []struct {
		days int32
		want string
	}{
		{0, "1970-01-01"},
		{-1, "1969-12-31"},
		{20053, "2024-11-26"},
		{19782, "2024-02-29"},
		{-719162, "0001-01-01"},
		{2932896, "9999-12-31"},
		{2932897, "0000-01-01"}, // year 10000: Java prints the low four digits
	}
	for _, tt := range tests {
		if got := formatDate(tt.days); got != tt.want {
			t.Errorf("formatDate(%d) = %q, want %q", tt.days, got, tt.want)
		}
	}
}

func TestFormatTime(t *testing.T) {
	tests := []struct {
		millis    int32
		precision int
		want      string
	}{
		{0, 0, "00:00:00"},
		{0, 3, "00:00:00.0"},
		{45296789, 3, "12:34:56.789"},
		{45296780, 3, "12:34:56.78"},
		{45296005, 3, "12:34:56.005"},
		{45296789, 1, "12:34:56.7"},
		{45296789, 9, "12:34:56.789"},
		{-1, 3, "23:59:59.999"},
	}
	for _, tt := range tests {
		if got := formatTime(tt.millis, tt.precision); got != tt.want {
			t.Errorf("formatTime(%d, %d) = %q, want %q", tt.millis, tt.precision, got, tt.want)
		}
	}
}

func TestFormatTimestamp(t *testing.T) {
	tests := []struct {
		ts        spec.TimestampValue
		precision int
		want      string
	}{
		{spec.TimestampValue{}, 0, "1970-01-01 00:00:00"},
		{spec.TimestampValue{}, 3, "1970-01-01 00:00:00.000"},
		{spec.TimestampValue{Millis: 1}, 3, "1970-01-01 00:00:00.001"},
		{spec.TimestampValue{NanoOfMilli: 1000}, 6, "1970-01-01 00:00:00.000001"},
		{spec.TimestampValue{NanoOfMilli: 1000}, 9, "1970-01-01 00:00:00.000001000"},
		{spec.TimestampValue{NanoOfMilli: 1000}, 3, "1970-01-01 00:00:00.000001"},
		{spec.TimestampValue{Millis: 1500}, 0, "1970-01-01 00:00:01.5"},
		{spec.TimestampValue{Millis: -1}, 3, "1969-12-31 23:59:59.999"},
		{tsOf(2024, 11, 26, 6, 38, 56, 1000001), 9, "2024-11-26 06:38:56.001000001"},
		{tsOf(12345, 1, 2, 3, 4, 5, 0), 0, "2345-01-02 03:04:05"},
	}
	for _, tt := range tests {
		if got := formatTimestamp(tt.ts, tt.precision); got != tt.want {
			t.Errorf("formatTimestamp(%+v, %d) = %q, want %q", tt.ts, tt.precision, got, tt.want)
		}
	}
}

func TestTruncateTimestamp(t *testing.T) {
	tests := []struct {
		in        spec.TimestampValue
		precision int
		want      spec.TimestampValue
	}{
		{spec.TimestampValue{Millis: 1500}, 0, spec.TimestampValue{Millis: 1000}},
		// Java divides toward zero: before 1970 the result is later.
		{spec.TimestampValue{Millis: -1500}, 0, spec.TimestampValue{Millis: -1000}},
		{spec.TimestampValue{Millis: 5, NanoOfMilli: 123456}, 3, spec.TimestampValue{Millis: 5}},
		{spec.TimestampValue{Millis: 5, NanoOfMilli: 123456}, 6, spec.TimestampValue{Millis: 5, NanoOfMilli: 123000}},
		{spec.TimestampValue{Millis: 5, NanoOfMilli: 123000}, 6, spec.TimestampValue{Millis: 5, NanoOfMilli: 123000}},
		{spec.TimestampValue{Millis: 1005}, 1, spec.TimestampValue{Millis: 1000}},
		{spec.TimestampValue{Millis: 1000}, 0, spec.TimestampValue{Millis: 1000}},
	}
	for _, tt := range tests {
		if got := truncateTimestamp(tt.in, tt.precision); got != tt.want {
			t.Errorf("truncate(%+v, %d) = %+v, want %+v", tt.in, tt.precision, got, tt.want)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want int32
	}{
		{"2024-11-26", 20053},
		{"2024-1-5", 19727},
		{"2024-11-26 12:00:00", 20053},
		{" 2024 - 1 - 5 ", 19727},
		{"2024", 19723},
		{"2024-02", 19754},
		{"2024-02-29", 19782},
		{"0000-01-01", -719528},
	}
	for _, tt := range tests {
		got, err := parseDate(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseDate(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "abc", "2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10",
		"10000-01-01", "-2024-01-01", "2024-01-01x", "2024-01-01-01", "99999999999-01-01"} {
		if got, err := parseDate(bad); err == nil {
			t.Errorf("parseDate(%q) = %d, want an error", bad, got)
		}
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want int32
	}{
		{"12:34:56", 45296000},
		{"12:34:56.789", 45296789},
		{"12:34:56.7891", 45296789},
		{"12:34:56.7895", 45296790},
		{"12:34:56.5", 45296500},
		{"12", 43200000},
		{"12:34", 45240000},
		{" 1 : 2 : 3 ", 3723000},
		{"12:34:56+01:00", 48896000},
		{"12:34:56-01:30", 39896000},
		{"25:00:00", 90000000},
	}
	for _, tt := range tests {
		got, err := parseTime(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseTime(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "ab", "12:xx", "12:34:56+x", "10-05:00", "12:34:56.7-", "1:2:3:4"} {
		if got, err := parseTime(bad); err == nil {
			t.Errorf("parseTime(%q) = %d, want an error", bad, got)
		}
	}
}

func TestParseTimestampText(t *testing.T) {
	tests := []struct {
		in        string
		precision int
		want      spec.TimestampValue
	}{
		{"2024-11-26 06:38:56.001000001", 9, tsOf(2024, 11, 26, 6, 38, 56, 1000001)},
		{"2024-11-26 06:38:56.001000001", 6, tsOf(2024, 11, 26, 6, 38, 56, 1000000)},
		{"2024-11-26 06:38:56.999", 0, tsOf(2024, 11, 26, 6, 38, 56, 0)},
		{"2024-11-26", 6, tsOf(2024, 11, 26, 0, 0, 0, 0)},
		{"2024-1-5 6:3:5", 6, tsOf(2024, 1, 5, 6, 3, 5, 0)},
		{"2024-11-26T06:38", 6, tsOf(2024, 11, 26, 6, 38, 0, 0)},
		{"2024-11-26T06:38:56.5", 6, tsOf(2024, 11, 26, 6, 38, 56, 500000000)},
		{"2024-11-26 06:38:56.", 6, tsOf(2024, 11, 26, 6, 38, 56, 0)},
		{"2024-11-26 06:38:56T06:38", 6, tsOf(2024, 11, 26, 6, 38, 56, 0)},
		// ResolverStyle.SMART: the day is clamped, 24:00 is the next midnight.
		{"2023-02-30 00:00:00", 6, tsOf(2023, 2, 28, 0, 0, 0, 0)},
		{"2024-11-26 24:00:00", 6, tsOf(2024, 11, 27, 0, 0, 0, 0)},
		{"+12024-01-01", 0, tsOf(12024, 1, 1, 0, 0, 0, 0)},
		// "[MM][M]" accepts a third digit that repeats the value, and empty
		// fields, which take their defaults without the SMART clamping.
		{"2024-011-05", 6, tsOf(2024, 1, 5, 0, 0, 0, 0)},
		{"2024--", 6, tsOf(2024, 1, 1, 0, 0, 0, 0)},
		{"2024-02-", 6, tsOf(2024, 2, 1, 0, 0, 0, 0)},
		{"2024-01-01 10::05", 6, tsOf(2024, 1, 1, 10, 0, 5, 0)},
	}
	for _, tt := range tests {
		wall, err := parseTimestampText(tt.in, tt.precision)
		if err != nil || wall.timestamp() != tt.want {
			t.Errorf("parse(%q, %d) = %+v, %v; want %+v", tt.in, tt.precision, wall.timestamp(), err, tt.want)
		}
	}
	for _, bad := range []string{"", "24-11-26", "12024-01-01", "0000-01-01", "2024-11-26x", "2024-13-01",
		"2024-11-26 06:38", "2024-11-26 24:00:01", "2024-11-26 06:60:00", "2024-11-26 06:38:56.1234567891",
		"2024-123-05", "2024-11-26 06:38:56T07:38", "2024--05", "2024-02-30T", "2024-11-26 06:38:56 "} {
		if _, err := parseTimestampText(bad, 6); !errors.Is(err, errDateTimeParse) {
			t.Errorf("parse(%q) err = %v, want DateTimeException", bad, err)
		}
	}
}

func TestZoneConversions(t *testing.T) {
	ny := mustLoadLocation(t, "America/New_York")
	utcOf := func(s string) spec.TimestampValue {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return spec.TimestampFromTime(tm)
	}
	tests := []struct {
		wall    spec.TimestampValue
		instant spec.TimestampValue
	}{
		{tsOf(2024, 6, 1, 12, 0, 0, 7), utcOf("2024-06-01T16:00:00.000000007Z")},
		// In the spring-forward gap Java moves forward by the gap.
		{tsOf(2024, 3, 10, 2, 30, 0, 0), utcOf("2024-03-10T07:30:00Z")},
		// In the fall-back overlap Java keeps the earlier offset (EDT).
		{tsOf(2024, 11, 3, 1, 30, 0, 0), utcOf("2024-11-03T05:30:00Z")},
		{tsOf(1969, 12, 31, 23, 59, 59, 999000000), utcOf("1970-01-01T04:59:59.999Z")},
	}
	for _, tt := range tests {
		if got := timestampToLTZ(tt.wall, ny); got != tt.instant {
			t.Errorf("timestampToLTZ(%s) = %s, want %s", tt.wall.Time(), got.Time(), tt.instant.Time())
		}
	}
	if got := ltzToTimestamp(utcOf("2024-11-03T06:30:00Z"), ny); got != tsOf(2024, 11, 3, 1, 30, 0, 0) {
		t.Errorf("ltzToTimestamp in the overlap = %s", got.Time())
	}
}
