package sysprocs

import (
	"testing"
	"time"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/storage/maintenance"
)

func TestParseTableName(t *testing.T) {
	for _, tc := range []struct {
		arg, current string
		want         tableName
	}{
		{"sales.orders", "", tableName{"sales", "orders"}},
		{" sales . orders ", "", tableName{"sales", "orders"}},
		{"orders", "sales", tableName{"sales", "orders"}},
		{"`sales`.`orders`", "", tableName{"sales", "orders"}},
		{"`sales`.orders", "", tableName{"sales", "orders"}},
		{"`my.db`.`a``b`", "", tableName{"my.db", "a`b"}},
		{"`t.1`", "sales", tableName{"sales", "t.1"}},
	} {
		got, err := parseTableName("compact", tc.arg, tc.current)
		if err != nil || got != tc.want {
			t.Errorf("parseTableName(%q, current %q) = %+v, %v; want %+v", tc.arg, tc.current, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "  ", "a.b.c", ".t", "db.", "`db", "db.`t`x", "`db`x.t", "a`b.t"} {
		_, err := parseTableName("compact", bad, "sales")
		wantError(t, err, mysql.ERWrongArguments, "sys.compact", "not a table name")
	}
	_, err := parseTableName("compact", "orders", "")
	wantError(t, err, mysql.ERNoDb, "no database selected", "'db.orders'")
}

func TestParseOlderThan(t *testing.T) {
	now := time.Date(2026, 4, 16, 12, 0, 0, 0, time.UTC)
	shanghai := time.FixedZone("+08:00", 8*3600)
	for _, tc := range []struct {
		arg  string
		loc  *time.Location
		want *time.Time
	}{
		{"", time.UTC, nil},
		{"0", time.UTC, nil},
		{" 0 ", time.UTC, nil},
		{"2026-04-16 10:00:00", time.UTC, ptr(time.Date(2026, 4, 16, 10, 0, 0, 0, time.UTC))},
		{"2026-04-16 10:00:00", shanghai, ptr(time.Date(2026, 4, 16, 2, 0, 0, 0, time.UTC))},
		{"2026-04-16 10:00:00.250", time.UTC, ptr(time.Date(2026, 4, 16, 10, 0, 0, 250e6, time.UTC))},
		{"2026-04-16T10:00:00Z", shanghai, ptr(time.Date(2026, 4, 16, 10, 0, 0, 0, time.UTC))},
		{"2026-04-15", time.UTC, ptr(time.Date(2026, 4, 15, 0, 0, 0, 0, time.UTC))},
		{"12 h", time.UTC, ptr(now.Add(-12 * time.Hour))},
		{"7 d", shanghai, ptr(now.Add(-7 * 24 * time.Hour))},
		{"30min", time.UTC, ptr(now.Add(-30 * time.Minute))},
	} {
		got, err := parseOlderThan("expire_snapshots", tc.arg, tc.loc, now)
		switch {
		case err != nil:
			t.Errorf("%q: %v", tc.arg, err)
		case (got == nil) != (tc.want == nil) || got != nil && !got.Equal(*tc.want):
			t.Errorf("%q in %v = %v, want %v", tc.arg, tc.loc, got, tc.want)
		}
	}
	for _, bad := range []string{"5", "yesterday", "12 parsecs", "2026-13-01 00:00:00", "1.5 h"} {
		_, err := parseOlderThan("expire_snapshots", bad, time.UTC, now)
		wantError(t, err, mysql.ERWrongArguments, "sys.expire_snapshots", "older_than", bad)
	}
}

func TestParseRetention(t *testing.T) {
	for arg, want := range map[string]*time.Duration{
		"":      nil,
		"0":     nil,
		"1 d":   ptr(24 * time.Hour),
		"12 h":  ptr(12 * time.Hour),
		"30 s":  ptr(30 * time.Second),
		"90000": ptr(90 * time.Second),
	} {
		got, err := parseRetention("create_tag", arg)
		if err != nil || (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Errorf("parseRetention(%q) = %v, %v; want %v", arg, got, err, want)
		}
	}
	_, err := parseRetention("create_tag", "1 fortnight")
	wantError(t, err, mysql.ERWrongArguments, "time_retained", "1 fortnight")
}

func TestParseRollbackTarget(t *testing.T) {
	for arg, want := range map[string]maintenance.RollbackTarget{
		"3":          {SnapshotID: 3},
		" 12 ":       {SnapshotID: 12},
		"release-1":  {Tag: "release-1"},
		"2026-04-16": {Tag: "2026-04-16"},
		"v2":         {Tag: "v2"},
	} {
		got, err := parseRollbackTarget("rollback_to", arg)
		if err != nil || got != want {
			t.Errorf("parseRollbackTarget(%q) = %+v, %v; want %+v", arg, got, err, want)
		}
	}
	for _, bad := range []string{"", " ", "0", "-1", " -12 ", "99999999999999999999"} {
		_, err := parseRollbackTarget("rollback_to", bad)
		wantError(t, err, mysql.ERWrongArguments, "sys.rollback_to")
	}
}

func TestParseWatermark(t *testing.T) {
	shanghai := time.FixedZone("+08:00", 8*3600)
	for _, tc := range []struct {
		arg  string
		loc  *time.Location
		want int64
	}{
		{"1713225600000", time.UTC, 1713225600000},
		{" 42 ", time.UTC, 42},
		{"2024-04-16 00:00:00", time.UTC, 1713225600000},
		{"2024-04-16 08:00:00", shanghai, 1713225600000},
		{"2024-04-16T00:00:00.001Z", shanghai, 1713225600001},
	} {
		got, err := parseWatermark("wait_watermark", tc.arg, tc.loc)
		if err != nil || got != tc.want {
			t.Errorf("parseWatermark(%q, %v) = %d, %v; want %d", tc.arg, tc.loc, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "soon", "1.5"} {
		_, err := parseWatermark("wait_watermark", bad, time.UTC)
		wantError(t, err, mysql.ERWrongArguments, "sys.wait_watermark")
	}
}

func TestOptionalCount(t *testing.T) {
	if got, err := optionalCount("expire_snapshots", "retain_max", 0); got != nil || err != nil {
		t.Errorf("0: %v, %v; want the default (nil)", got, err)
	}
	if got, err := optionalCount("expire_snapshots", "retain_max", 5); err != nil || got == nil || *got != 5 {
		t.Errorf("5: %v, %v", got, err)
	}
	_, err := optionalCount("expire_snapshots", "retain_min", -1)
	wantError(t, err, mysql.ERWrongArguments, "retain_min -1", "negative")
}
