package systables

import (
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

func TestJavaRenderings(t *testing.T) {
	durations := map[time.Duration]string{
		0: "PT0S", 24 * time.Hour: "PT24H", 90 * time.Minute: "PT1H30M", 500 * time.Millisecond: "PT0.5S",
		60001 * time.Millisecond: "PT1M0.001S", -500 * time.Millisecond: "PT-0.5S", -1500 * time.Millisecond: "PT-1.5S",
		36*time.Hour + time.Nanosecond: "PT36H0.000000001S",
	}
	for d, want := range durations {
		if got := javaDurationString(d); got != want {
			t.Errorf("javaDurationString(%v) = %q, want %q", d, got, want)
		}
	}
	times := map[time.Time]string{
		time.Date(2026, 4, 16, 0, 0, 0, 0, time.UTC):             "2026-04-16T00:00",
		time.Date(2026, 4, 16, 12, 30, 5, 0, time.UTC):           "2026-04-16T12:30:05",
		time.Date(2026, 4, 16, 12, 30, 0, 120_000_000, time.UTC): "2026-04-16T12:30:00.120",
		time.Date(2026, 4, 16, 12, 30, 0, 1000, time.UTC):        "2026-04-16T12:30:00.000001",
	}
	for tm, want := range times {
		if got := spec.TimestampFromTime(tm).LocalDateTimeString(); got != want {
			t.Errorf("LocalDateTimeString(%v) = %q, want %q", tm, got, want)
		}
	}
	formats := map[string]string{
		"data-1.parquet": "parquet", "data-1.orc.zst": "orc", "changelog-2.avro": "avro", "noext": "",
	}
	for name, want := range formats {
		if got := formatIdentifier(name); got != want {
			t.Errorf("formatIdentifier(%q) = %q, want %q", name, got, want)
		}
	}
	r := newValueRenderer()
	values := []struct {
		t              spec.DataType
		v              any
		cast, internal string
	}{
		{spec.DataType{Root: spec.Date}, spec.DateValue(20559), "2026-04-16", "20559"},
		{spec.DataType{Root: spec.Timestamp, Precision: 3}, spec.TimestampFromTime(time.Date(2026, 4, 16, 1, 2, 3, 0, time.UTC)), "2026-04-16 01:02:03.000", "2026-04-16T01:02:03"},
		{spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 2}, spec.NewDecimal(1050, 2), "10.50", "10.50"},
		{spec.DataType{Root: spec.Boolean}, true, "true", "true"},
		{spec.DataType{Root: spec.Double}, 1e21, "1.0E21", "1.0E21"},
	}
	for _, c := range values {
		cast, err := r.castString(c.t, c.v)
		if err != nil || cast != c.cast {
			t.Errorf("castString(%s, %v) = %q, %v; want %q", c.t, c.v, cast, err, c.cast)
		}
		internal, err := r.internalString(c.t, c.v)
		if err != nil || internal != c.internal {
			t.Errorf("internalString(%s, %v) = %q, %v; want %q", c.t, c.v, internal, err, c.internal)
		}
	}
}
