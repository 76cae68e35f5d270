package spec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ParseStatsMode accepts what SimpleColStatsCollector.from accepts.
func TestParseStatsMode(t *testing.T) {
	tests := []struct {
		in   string
		want StatsMode
		ok   bool
	}{
		{"none", StatsMode{Kind: StatsNone}, true},
		{"Counts", StatsMode{Kind: StatsCounts}, true},
		{"FULL", StatsMode{Kind: StatsFull}, true},
		{"truncate(16)", StatsMode{Kind: StatsTruncate, Length: 16}, true},
		{"TRUNCATE(1)", StatsMode{Kind: StatsTruncate, Length: 1}, true},
		{"truncate(0)", StatsMode{}, false},
		{"truncate( 16)", StatsMode{}, false},
		{"truncate(16) ", StatsMode{}, false},
		{"truncate(2147483648)", StatsMode{}, false},
		{"truncate", StatsMode{}, false},
		{"exact", StatsMode{}, false},
	}
	for _, tt := range tests {
		got, err := ParseStatsMode(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseStatsMode(%q) = %+v, %v; want %+v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// ColumnStatsModes resolves each column as
// StatsCollectorFactories.createStatsFactories does.
func TestColumnStatsModes(t *testing.T) {
	none, counts, full := StatsMode{Kind: StatsNone}, StatsMode{Kind: StatsCounts}, StatsMode{Kind: StatsFull}
	trunc := func(n int) StatsMode { return StatsMode{Kind: StatsTruncate, Length: n} }
	keyValue := []string{"_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND", "id", "name", "note"}
	tests := []struct {
		name    string
		options map[string]string
		columns []string
		level   int
		pk      bool
		want    []StatsMode
	}{
		{"defaults, append", nil, []string{"id", "name"}, 0, false, []StatsMode{trunc(16), trunc(16)}},
		{"defaults, key-value: system columns truncate(128)", nil, keyValue, 0, true,
			[]StatsMode{trunc(128), trunc(128), trunc(128), trunc(16), trunc(16), trunc(16)}},
		{"table mode", map[string]string{"metadata.stats-mode": "full"}, keyValue, 0, true,
			[]StatsMode{trunc(128), trunc(128), trunc(128), full, full, full}},
		{"field modes win, also for system columns", map[string]string{"metadata.stats-mode": "none",
			"fields.name.stats-mode": "counts", "fields._KEY_id.stats-mode": "truncate(4)"}, keyValue, 0, true,
			[]StatsMode{trunc(4), trunc(128), trunc(128), none, counts, none}},
		{"keep first n counts explicit and plain columns, not system ones", map[string]string{
			"metadata.stats-keep-first-n-columns": "2", "fields._KEY_id.stats-mode": "full"}, keyValue, 0, true,
			[]StatsMode{full, trunc(128), trunc(128), trunc(16), none, none}},
		{"keep first 0", map[string]string{"metadata.stats-keep-first-n-columns": "0",
			"fields.note.stats-mode": "full"}, []string{"id", "name", "note"}, 0, false, []StatsMode{none, none, full}},
		{"per level on a key-value file", map[string]string{"metadata.stats-mode.per.level": "0:none,2:full"},
			[]string{"id"}, 2, true, []StatsMode{full}},
		{"per level, level not listed", map[string]string{"metadata.stats-mode.per.level": "0:none"},
			[]string{"id"}, 1, true, []StatsMode{trunc(16)}},
		{"per level ignored by append files", map[string]string{"metadata.stats-mode.per.level": "0:none"},
			[]string{"id"}, 0, false, []StatsMode{trunc(16)}},
	}
	for _, tt := range tests {
		o := NewCoreOptions(tt.options)
		mode, err := o.DataFileStatsMode(tt.pk, tt.level)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, err := o.ColumnStatsModes(tt.columns, mode)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, %v\n want %+v", tt.name, got, err, tt.want)
		}
	}
}

func TestColumnStatsModesInvalid(t *testing.T) {
	tests := []map[string]string{
		{"metadata.stats-mode": "exact"},
		{"fields.id.stats-mode": "truncate(0)"},
		{"metadata.stats-keep-first-n-columns": "all"},
		{"metadata.stats-mode.per.level": "zero:none"},
	}
	for _, options := range tests {
		o := NewCoreOptions(options)
		mode, err := o.DataFileStatsMode(true, 0)
		if err == nil {
			_, err = o.ColumnStatsModes([]string{"id"}, mode)
		}
		if !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%v: err = %v, want corruption", options, err)
		}
	}
}
