package snapshot

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestCheckBetween(t *testing.T) {
	cases := []struct {
		name                       string
		from, to, earliest, latest int64
		wantErr                    string
	}{
		{name: "inside", from: 4, to: 7, earliest: 3, latest: 9},
		{name: "empty range", from: 5, to: 5, earliest: 3, latest: 9},
		{name: "from just before the earliest", from: 2, to: 9, earliest: 3, latest: 9},
		{name: "start after end", from: 7, to: 4, earliest: 1, latest: 9, wantErr: "starts after its end"},
		{name: "expired start", from: 1, to: 5, earliest: 3, latest: 9, wantErr: "snapshots 2..2 have expired"},
		{name: "end after latest", from: 4, to: 10, earliest: 3, latest: 9, wantErr: "the latest snapshot is 9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckBetween(c.from, c.to, c.earliest, c.latest)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckBetween: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("CheckBetween = %v, want an error containing %q", err, c.wantErr)
			}
		})
	}
}

func TestResolveBetweenByTimestamp(t *testing.T) {
	// Snapshots 3..6 committed at 300, 400, 500, 600 ms.
	_, m := fakeTable(t, 3, 300, 400, 500, 600)
	ms := func(v int64) TimeTravel { return TimeTravel{TimestampMillis: &v} }
	cases := []struct {
		name             string
		b                Between
		wantFrom, wantTo int64
	}{
		{name: "both inside", b: Between{Start: ms(410), End: ms(600)}, wantFrom: 4, wantTo: 6},
		{name: "start before the earliest includes it", b: Between{Start: ms(10), End: ms(450)}, wantFrom: 2, wantTo: 4},
		{name: "end before every snapshot selects nothing", b: Between{Start: ms(10), End: ms(20)}, wantFrom: 2, wantTo: 2},
		{name: "the snapshot before the earliest, expired, may start a range", b: Between{Start: TimeTravel{SnapshotID: 2}, End: TimeTravel{SnapshotID: 4}}, wantFrom: 2, wantTo: 4},
		{name: "ids and timestamps mix", b: Between{Start: TimeTravel{SnapshotID: 3}, End: ms(10_000)}, wantFrom: 3, wantTo: 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from, to, err := m.ResolveBetween(context.Background(), c.b)
			if err != nil {
				t.Fatal(err)
			}
			if from != c.wantFrom || to != c.wantTo {
				t.Fatalf("ResolveBetween = (%d, %d], want (%d, %d]", from, to, c.wantFrom, c.wantTo)
			}
		})
	}
}

func TestResolveBetweenZeroEndsAreTheBeginningAndTheLatest(t *testing.T) {
	_, m := fakeTable(t, 1, 100, 200, 300)
	from, to, err := m.ResolveBetween(context.Background(), Between{})
	if err != nil || from != 0 || to != 3 {
		t.Fatalf("ResolveBetween(zero) = (%d, %d], %v; want (0, 3]", from, to, err)
	}
}

func TestResolveBetweenRefusesExpiredAndMissingSnapshots(t *testing.T) {
	_, m := fakeTable(t, 3, 300, 400, 500)
	_, _, err := m.ResolveBetween(context.Background(), Between{Start: TimeTravel{SnapshotID: 1}, End: TimeTravel{SnapshotID: 4}})
	if !errors.Is(err, lakeerr.ErrNotFound) {
		t.Fatalf("start at an expired snapshot: %v, want ErrNotFound", err)
	}
	_, _, err = m.ResolveBetween(context.Background(), Between{Start: TimeTravel{SnapshotID: 4}, End: TimeTravel{SnapshotID: 3}})
	if !errors.Is(err, ErrReversedRange) {
		t.Fatalf("reversed range: %v", err)
	}
}
