package maintenance

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestExpireRangeDataDriven runs testdata/expire_range: which snapshots one
// expiry run deletes, from the snapshots' commit times and the retention.
//
//	expire retain-min=n retain-max=n max-deletes=n older-than=ms [consumer=id]
//	<id> <commit time ms>      one line per existing snapshot, ascending
//
// prints "expire [begin, end)" or "nothing (end e)".
func TestExpireRangeDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/expire_range", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "expire" {
			t.Fatalf("unknown command %s", d.Cmd)
		}
		r := retention{retainMin: 1, retainMax: 1 << 30, maxDeletes: 1 << 30}
		var consumer int64
		for _, arg := range d.CmdArgs {
			n, err := strconv.ParseInt(arg.Vals[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			switch arg.Key {
			case "retain-min":
				r.retainMin = int(n)
			case "retain-max":
				r.retainMax = int(n)
			case "max-deletes":
				r.maxDeletes = int(n)
			case "older-than":
				r.olderThanMillis = n
			case "consumer":
				consumer = n
			default:
				t.Fatalf("unknown argument %s", arg.Key)
			}
		}
		times := map[int64]int64{}
		var ids []int64
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			var id, millis int64
			if _, err := fmt.Sscan(line, &id, &millis); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			ids = append(ids, id)
			times[id] = millis
		}
		b := expiryBounds{earliest: ids[0], latest: ids[len(ids)-1], minConsumerNext: consumer}
		end, err := expireEnd(r, b, func(id int64) (int64, bool, error) {
			millis, ok := times[id]
			return millis, ok, nil
		})
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		begin := expireBegin(ids, end)
		if end <= begin {
			return fmt.Sprintf("nothing (end %d)\n", end)
		}
		return fmt.Sprintf("expire [%d, %d)\n", begin, end)
	})
}

func TestResolveRetention(t *testing.T) {
	now := time.UnixMilli(10_000_000)
	tests := []struct {
		name    string
		options map[string]string
		opts    ExpireOptions
		want    retention
		wantErr bool
	}{
		{name: "paimon defaults", want: retention{retainMin: 10, retainMax: 2147483647, maxDeletes: 50, olderThanMillis: 10_000_000 - 3_600_000}},
		{name: "table options", options: map[string]string{"snapshot.num-retained.min": "2", "snapshot.num-retained.max": "4",
			"snapshot.time-retained": "1 min", "snapshot.expire.limit": "7"},
			want: retention{retainMin: 2, retainMax: 4, maxDeletes: 7, olderThanMillis: 10_000_000 - 60_000}},
		{name: "arguments win", options: map[string]string{"snapshot.num-retained.min": "2"},
			opts: ExpireOptions{RetainMin: intp(3), RetainMax: intp(5), MaxDeletes: intp(1), OlderThan: ptr(time.UnixMilli(42))},
			want: retention{retainMin: 3, retainMax: 5, maxDeletes: 1, olderThanMillis: 42}},
		{name: "negative retain min", opts: ExpireOptions{RetainMin: intp(-1)}, wantErr: true},
		{name: "zero retain min", opts: ExpireOptions{RetainMin: intp(0)}, wantErr: true},
		{name: "max below min", opts: ExpireOptions{RetainMin: intp(5), RetainMax: intp(4)}, wantErr: true},
		{name: "zero max deletes", opts: ExpireOptions{MaxDeletes: intp(0)}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveRetention(spec.NewCoreOptions(tc.options), tc.opts, now)
			if tc.wantErr {
				if !errors.Is(err, ErrInvalidArgument) {
					t.Fatalf("got %+v, %v; want an invalid-argument error", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestChangelogDecoupledIsRefused(t *testing.T) {
	r := retention{retainMin: 10, retainMax: 100}
	for _, tc := range []struct {
		options map[string]string
		refused bool
	}{
		{options: nil},
		{options: map[string]string{"changelog.num-retained.min": "10"}},
		{options: map[string]string{"changelog.num-retained.min": "11"}, refused: true},
		{options: map[string]string{"changelog.num-retained.max": "101"}, refused: true},
		{options: map[string]string{"changelog.time-retained": "2 h"}, refused: true},
		{options: map[string]string{"changelog.time-retained": "30 min"}},
	} {
		err := checkChangelogCoupled(spec.NewCoreOptions(tc.options), r)
		if tc.refused != (err != nil) {
			t.Errorf("options %v: error %v, want refused=%v", tc.options, err, tc.refused)
		}
	}
}
