package rewrite

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/snapshot"
)

// shanghai stands in for a session time zone; a fixed zone keeps the test
// independent of the machine's tz database.
var shanghai = time.FixedZone("+08:00", 8*3600)

func atMillis(t time.Time) snapshot.TimeTravel {
	ms := t.UnixMilli()
	return snapshot.TimeTravel{TimestampMillis: &ms}
}

func TestParseAsOf(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) snapshot.TimeTravel {
		return atMillis(time.Date(y, mo, d, h, mi, s, ns, time.UTC))
	}
	for _, tc := range []struct {
		name string
		in   any
		loc  *time.Location
		want snapshot.TimeTravel
	}{
		{"snapshot id", "5", shanghai, snapshot.TimeTravel{SnapshotID: 5}},
		{"snapshot id with blanks and sign", " +17 ", shanghai, snapshot.TimeTravel{SnapshotID: 17}},
		{"largest snapshot id", "9223372036854775807", shanghai, snapshot.TimeTravel{SnapshotID: 1<<63 - 1}},
		{"datetime in the session zone", "2026-04-16 10:00:00", shanghai, utc(2026, 4, 16, 2, 0, 0, 0)},
		{"fraction is truncated to the millisecond", "2026-04-16 10:00:00.123999", shanghai, utc(2026, 4, 16, 2, 0, 0, 123_000_000)},
		{"nine fraction digits", "2026-04-16 10:00:00.000000001", time.UTC, utc(2026, 4, 16, 10, 0, 0, 0)},
		{"T separator", "2026-04-16T10:00:00", shanghai, utc(2026, 4, 16, 2, 0, 0, 0)},
		{"date only is midnight", "2026-04-16", shanghai, utc(2026, 4, 15, 16, 0, 0, 0)},
		{"single digits and no seconds", "2026-4-6 9:05", time.UTC, utc(2026, 4, 6, 9, 5, 0, 0)},
		{"leap day", "2024-02-29 23:59:59", time.UTC, utc(2024, 2, 29, 23, 59, 59, 0)},
		{"Z ignores the session zone", "2026-04-16T10:00:00Z", shanghai, utc(2026, 4, 16, 10, 0, 0, 0)},
		{"UTC suffix", "2026-04-16 10:00:00 UTC", shanghai, utc(2026, 4, 16, 10, 0, 0, 0)},
		{"MySQL offset", "2026-04-16 10:00:00+05:30", shanghai, utc(2026, 4, 16, 4, 30, 0, 0)},
		{"Trino offset after a blank", "2026-04-16 10:00:00.5 -03:00", shanghai, utc(2026, 4, 16, 13, 0, 0, 500_000_000)},
		{"nil zone is UTC", "2026-04-16 10:00:00", nil, utc(2026, 4, 16, 10, 0, 0, 0)},
		{"GMS time.Time is session wall clock labelled UTC", time.Date(2026, 4, 16, 10, 0, 0, 123_456_789, time.UTC), shanghai,
			utc(2026, 4, 16, 2, 0, 0, 123_000_000)},
		{"time.Time's own zone is ignored", time.Date(2026, 4, 16, 10, 0, 0, 0, time.FixedZone("x", -7*3600)), time.UTC,
			utc(2026, 4, 16, 10, 0, 0, 0)},
		{"tag", "daily_tag", shanghai, snapshot.TimeTravel{Tag: "daily_tag"}},
		{"tag with dots", "v1.0", shanghai, snapshot.TimeTravel{Tag: "v1.0"}},
		{"Paimon hourly auto-tag", "2026-04-16 10", shanghai, snapshot.TimeTravel{Tag: "2026-04-16 10"}},
		{"tag that strconv would read as a float", "inf", shanghai, snapshot.TimeTravel{Tag: "inf"}},
		{"tag kept verbatim", " my tag ", shanghai, snapshot.TimeTravel{Tag: " my tag "}},
		{"tag with a hyphen", "release-2026-04", shanghai, snapshot.TimeTravel{Tag: "release-2026-04"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAsOf(tc.in, tc.loc)
			if err != nil {
				t.Fatalf("ParseAsOf(%v): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseAsOf(%v) = %s, want %s", tc.in, show(got), show(tc.want))
			}
		})
	}
}

func show(tt snapshot.TimeTravel) string {
	if tt.TimestampMillis != nil {
		return "timestamp " + time.UnixMilli(*tt.TimestampMillis).UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%+v", tt)
}

func TestParseAsOfErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"empty", "", "AS OF '' is empty; AS OF takes a snapshot id"},
		{"blank", "  ", "is empty"},
		{"zero", "0", "AS OF 0: snapshot ids start at 1"},
		{"negative", "-5", "AS OF -5: snapshot ids start at 1"},
		{"overflow", "99999999999999999999", "snapshot id out of range"},
		{"decimal", "5.0", "AS OF 5.0: a snapshot id is a whole number such as 5"},
		{"exponent", "1e3", "AS OF 1e3: a snapshot id is a whole number"},
		{"hex", "0x10", "AS OF 0x10: a snapshot id is a whole number"},
		{"leading dot", ".5", "AS OF .5: a snapshot id is a whole number"},
		{"day out of range", "2026-02-29", "AS OF '2026-02-29' is not a valid timestamp: day 29 is out of range for February 2026"},
		{"month out of range", "2026-13-01 10:00:00", "month 13 is out of range"},
		{"hour out of range", "2026-04-16 24:00:00", "hour 24 is out of range"},
		{"minute out of range", "2026-04-16 10:60", "minute 60 is out of range"},
		{"second out of range", "2026-04-16 10:00:60", "second 60 is out of range"},
		{"offset out of range", "2026-04-16 10:00:00+14:30", "offset +14:30 is out of range"},
		{"tag with a slash", "../../other/snapshot", "AS OF '../../other/snapshot' is not a valid tag name: a tag name cannot contain '/'"},
		{"tag with a control byte", "a\x00b", "cannot contain control characters"},
		{"other type", int64(5), "AS OF value of type int64 is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAsOf(tc.in, shanghai)
			if err == nil {
				t.Fatalf("ParseAsOf(%v) = %s, want an error", tc.in, show(got))
			}
			if !errors.Is(err, ErrInvalidAsOf) {
				t.Errorf("error %q is not ErrInvalidAsOf", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
