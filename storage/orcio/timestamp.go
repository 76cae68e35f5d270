package orcio

import (
	"fmt"
	"time"
	// The writer's time zone, named in each stripe footer, must resolve on
	// machines without a zoneinfo database too.
	_ "time/tzdata"

	"github.com/lakesql/lakesql/storage/spec"
)

// orcEpoch is 2015-01-01 00:00:00 UTC in Unix seconds, the origin of
// ORC's timestamp seconds.
const orcEpoch = 1420070400

// wallClock turns the seconds and nanoseconds of an ORC timestamp into a
// spec.TimestampValue. A TIMESTAMP column counts seconds from 2015-01-01
// 00:00:00 in the writer's time zone and Java's reader returns the
// writer's wall-clock time, which is what a Paimon TIMESTAMP (a local
// date-time) holds: so the instant is taken back to that zone's wall
// clock, read as if it were UTC. Writers in UTC need no zone.
type wallClock struct {
	loc  *time.Location // nil: UTC
	base int64          // the origin of the seconds, in Unix seconds
}

// instants is the clock of a TIMESTAMP_INSTANT column, whose seconds count
// from 2015-01-01 00:00:00 UTC, read as the same zone's wall clock.
func (c wallClock) instants() wallClock { return wallClock{loc: c.loc, base: orcEpoch} }

// utcClock reads files written in UTC.
var utcClock = wallClock{base: orcEpoch}

func newWallClock(zone string) (wallClock, error) {
	switch zone {
	case "", "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z":
		return utcClock, nil
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return wallClock{}, fmt.Errorf("writer time zone %q: %w", zone, errUnsupported)
	}
	return wallClock{loc: loc, base: time.Date(2015, 1, 1, 0, 0, 0, 0, loc).Unix()}, nil
}

// timestamp converts secs and nanos (-999,999,999..999,999,999). Java's
// writers store the seconds of a time before 1970 rounded toward zero with
// a positive fraction, so such a time with a fraction of at least a
// millisecond is one second earlier, as Java's and C++'s readers correct
// it; C++ writers store the fraction negative instead.
func (c wallClock) timestamp(secs, nanos int64) spec.TimestampValue {
	instant := c.base + secs
	switch {
	case nanos < 0:
		instant--
		nanos += 1_000_000_000
	case instant < 0 && nanos > 999_999:
		instant--
	}
	if c.loc != nil {
		wall := time.Unix(instant, 0).In(c.loc)
		y, mo, d := wall.Date()
		h, mi, s := wall.Clock()
		instant = time.Date(y, mo, d, h, mi, s, 0, time.UTC).Unix()
	}
	return spec.TimestampValue{Millis: instant*1000 + nanos/1_000_000, NanoOfMilli: int32(nanos % 1_000_000)}
}
