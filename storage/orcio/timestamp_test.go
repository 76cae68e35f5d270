package orcio

import (
	"testing"
	"time"
)

// TestWallClockOfTheWriterZone: a TIMESTAMP written in a zone other than
// UTC stores the instant its wall-clock time had there, counted from
// 2015-01-01 00:00 in that zone; reading gives that wall-clock time back,
// on either side of a daylight-saving change, and before 1970.
func TestWallClockOfTheWriterZone(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	clock, err := newWallClock("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2015, 1, 1, 0, 0, 0, 0, la).Unix()
	for _, wall := range []time.Time{
		time.Date(2020, 7, 1, 12, 0, 0, 0, time.UTC),  // PDT
		time.Date(2020, 12, 1, 12, 0, 0, 0, time.UTC), // PST
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC),
	} {
		instant := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), 0, la).Unix()
		got := clock.timestamp(instant-base, 123_456_789)
		want := wall.Add(123_456_789)
		if !got.Time().Equal(want) {
			t.Errorf("%s: read %s", want, got.Time())
		}
	}
	if _, err := newWallClock("Mars/Olympus_Mons"); err == nil {
		t.Error("an unknown zone was accepted")
	}
}

// TestTimesBefore1970 checks both writers' spellings of a fraction before
// 1970: Java's seconds rounded toward zero with a positive fraction, and
// C++'s with a negative one.
func TestTimesBefore1970(t *testing.T) {
	want := time.Date(1969, 12, 31, 23, 59, 58, 500_000_000, time.UTC) // -1.5 s
	java := utcClock.timestamp(-1-orcEpoch, 500_000_000)
	cpp := utcClock.timestamp(-1-orcEpoch, -500_000_000)
	if !java.Time().Equal(want) || !cpp.Time().Equal(want) {
		t.Errorf("java %s, c++ %s; want %s", java.Time(), cpp.Time(), want)
	}
}

// TestInstantsOfAZonedWriter: Paimon's ORC writer in Los Angeles stores
// the TIMESTAMP WITH LOCAL TIME ZONE 2026-04-16 01:02:03.123456 (UTC) as
// the instant 2026-04-16 08:02:03.123456Z; reading it as the writer's
// wall clock gives the value back (FINDINGS.md F32).
func TestInstantsOfAZonedWriter(t *testing.T) {
	clock, err := newWallClock("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	stored := time.Date(2026, 4, 16, 8, 2, 3, 0, time.UTC).Unix() - orcEpoch
	got := clock.instants().timestamp(stored, 123_456_000)
	if want := time.Date(2026, 4, 16, 1, 2, 3, 123_456_000, time.UTC); !got.Time().Equal(want) {
		t.Errorf("read %s, want %s", got.Time(), want)
	}
	if got := utcClock.instants().timestamp(stored, 0); !got.Time().Equal(time.Date(2026, 4, 16, 8, 2, 3, 0, time.UTC)) {
		t.Errorf("a UTC writer's instant read as %s", got.Time())
	}
}
