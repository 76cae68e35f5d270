package rewrite

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/snapshot"
)

func TestParseBetween(t *testing.T) {
	at := func(s string) snapshot.TimeTravel {
		tt, err := parseAsOfString(s, shanghai)
		if err != nil || tt.TimestampMillis == nil {
			t.Fatalf("parseAsOfString(%q) = %+v, %v", s, tt, err)
		}
		return tt
	}
	for _, tc := range []struct {
		name string
		in   any
		want snapshot.Between
	}{
		{"snapshot ids", "lakesql:between/v/100/120", snapshot.Between{Start: snapshot.TimeTravel{SnapshotID: 100}, End: snapshot.TimeTravel{SnapshotID: 120}}},
		{"from the beginning", "lakesql:between/v/0/5", snapshot.Between{End: snapshot.TimeTravel{SnapshotID: 5}}},
		{"tags", "lakesql:between/v/day_1/day_2", snapshot.Between{Start: snapshot.TimeTravel{Tag: "day_1"}, End: snapshot.TimeTravel{Tag: "day_2"}}},
		{"times in the session zone", "lakesql:between/t/2026-04-16 10:00:00/2026-04-16 11:00:00",
			snapshot.Between{Start: at("2026-04-16 10:00:00"), End: at("2026-04-16 11:00:00")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := ParseBetween(tc.in, shanghai)
			if err != nil || !ok {
				t.Fatalf("ParseBetween(%q) = %v, %v", tc.in, ok, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseBetween(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
	for _, in := range []any{"5", "day_1", time.Now(), "lakesql:between"} {
		if _, ok, err := ParseBetween(in, shanghai); ok || err != nil {
			t.Errorf("ParseBetween(%v) = %v, %v; want it not to be an incremental range", in, ok, err)
		}
	}
	for _, in := range []string{
		"lakesql:between/v/2026-04-16/5", // a time where versions belong
		"lakesql:between/t/5/6",          // snapshot ids where times belong
		"lakesql:between/v/5/0",          // 0 only starts a range
		"lakesql:between/v/1/2/3",        // not made by the rewrite
	} {
		if _, ok, err := ParseBetween(in, shanghai); !ok || !errors.Is(err, ErrInvalidAsOf) {
			t.Errorf("ParseBetween(%q) = %v, %v; want ErrInvalidAsOf", in, ok, err)
		}
	}
}
