package compact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// testFile is a file of a unit: its level, key range, size and whether it
// is known to hold no retractions.
type testFile struct {
	name       string
	level      int
	min, max   int64
	size       int64
	noDeletes  bool
	unknownDel bool
}

func unitFiles(files []testFile) []lsm.FileMeta[*spec.DataFileMeta] {
	out := make([]lsm.FileMeta[*spec.DataFileMeta], len(files))
	for i, f := range files {
		meta := &spec.DataFileMeta{FileName: f.name, FileSize: f.size, Level: int32(f.level)}
		if !f.unknownDel {
			n := int64(1)
			if f.noDeletes {
				n = 0
			}
			meta.DeleteRowCount = &n
		}
		out[i] = lsm.FileMeta[*spec.DataFileMeta]{FileName: f.name, Level: f.level,
			MinKey: []any{f.min}, MaxKey: []any{f.max}, Payload: meta}
	}
	return out
}

func compareInt64Keys(a, b []any) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }

// describeSteps renders steps as "rewrite(a b)" and "upgrade(c)".
func describeSteps(steps []step) string {
	var parts []string
	for _, s := range steps {
		if s.upgrade != nil {
			parts = append(parts, "upgrade("+s.upgrade.FileName+")")
			continue
		}
		var names []string
		for _, section := range s.sections {
			for _, run := range section {
				for _, f := range run {
					names = append(names, f.FileName)
				}
			}
		}
		parts = append(parts, "rewrite("+strings.Join(names, " ")+")")
	}
	return strings.Join(parts, " ")
}

// TestPlanSteps checks MergeTreeCompactTask's choice between rewriting and
// upgrading, with a small-file threshold of 100 bytes, output level 2 and
// highest level 3 unless stated.
func TestPlanSteps(t *testing.T) {
	cases := []struct {
		name        string
		files       []testFile
		outputLevel int
		force       bool
		want        string
	}{
		{
			name:  "overlapping files are merged",
			files: []testFile{{name: "a", min: 0, max: 10, size: 500}, {name: "b", min: 5, max: 15, size: 500}},
			want:  "rewrite(a b)",
		},
		{
			name:  "a large file that overlaps nothing is upgraded",
			files: []testFile{{name: "a", min: 0, max: 10, size: 500}},
			want:  "upgrade(a)",
		},
		{
			name: "small neighbours are merged, cut off before a large file",
			files: []testFile{
				{name: "a", min: 0, max: 1, size: 10}, {name: "b", min: 2, max: 3, size: 10},
				{name: "c", min: 4, max: 5, size: 500},
				{name: "d", min: 6, max: 7, size: 10}, {name: "e", min: 8, max: 9, size: 10},
			},
			want: "rewrite(a b) upgrade(c) rewrite(d e)",
		},
		{
			name: "a lone small file between large ones is upgraded, not rewritten",
			files: []testFile{
				{name: "a", min: 0, max: 1, size: 500}, {name: "b", min: 2, max: 3, size: 10}, {name: "c", min: 4, max: 5, size: 500},
			},
			want: "upgrade(a) upgrade(b) upgrade(c)",
		},
		{
			name:        "a file already on the output level stays",
			files:       []testFile{{name: "a", level: 2, min: 0, max: 1, size: 500}, {name: "b", level: 0, min: 5, max: 6, size: 500}},
			outputLevel: 2,
			want:        "upgrade(b)",
		},
		{
			name:        "retractions are not upgraded into the highest level",
			files:       []testFile{{name: "a", min: 0, max: 1, size: 500}, {name: "b", min: 5, max: 6, size: 500, noDeletes: true}},
			outputLevel: 3,
			want:        "rewrite(a) upgrade(b)",
		},
		{
			name:        "a file that does not count its retractions is not upgraded into the highest level",
			files:       []testFile{{name: "a", min: 0, max: 1, size: 500, unknownDel: true}},
			outputLevel: 3,
			want:        "rewrite(a)",
		},
		{
			name:        "force-rewrite-all rewrites even the files on the output level",
			files:       []testFile{{name: "a", level: 3, min: 0, max: 1, size: 500, noDeletes: true}, {name: "b", min: 5, max: 6, size: 500}},
			outputLevel: 3,
			force:       true,
			want:        "rewrite(a) rewrite(b)",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outputLevel := c.outputLevel
			if outputLevel == 0 {
				outputLevel = 2
			}
			sections := lsm.PartitionIntervals(unitFiles(c.files), compareInt64Keys)
			if got := describeSteps(planSteps(sections, stepRules{outputLevel: outputLevel, maxLevel: 3, minFileSize: 100, forceRewriteAll: c.force})); got != c.want {
				t.Fatalf("steps %s, want %s", got, c.want)
			}
		})
	}
}

// TestRetractionsRewrittenIntoHighestLevel: a lone level-0 file holding
// retractions is rewritten, not upgraded, by a full compaction, and its
// retractions are dropped.
func TestRetractionsRewrittenIntoHighestLevel(t *testing.T) {
	tt := newMemTable(t, pkDefinition(map[string]string{"bucket": "1"}))
	tt.writeCommit(tabletest.Insert(int64(1), "a"), tabletest.Insert(int64(2), "b"), tabletest.Delete(int64(3), "never written"))
	before := tt.Read()
	res := tt.compact(Full)
	if res.FilesRewritten != 1 || res.FilesUpgraded != 0 {
		t.Fatalf("result %+v, want the file rewritten", res)
	}
	assertRows(t, "after full compaction", tt.Read(), before)
	f := tt.LiveFiles()[0].File
	if f.Level != 5 || f.RowCount != 2 || *f.DeleteRowCount != 0 {
		t.Fatalf("file on level %d with %d rows, %d retractions; want level 5, 2 rows, none", f.Level, f.RowCount, *f.DeleteRowCount)
	}
}

// TestUnsupportedTables refuses tables whose compaction would need more
// than data files, before reading anything.
func TestUnsupportedTables(t *testing.T) {
	for _, options := range []map[string]string{
		{"changelog-producer": "lookup"},
		{"changelog-producer": "full-compaction"},
		{"record-level.expire-time": "1 d", "record-level.time-field": "id"},
	} {
		t.Run(fmt.Sprint(options), func(t *testing.T) {
			tt := newMemTable(t, pkDefinition(options))
			_, err := Table(context.Background(), tt.options(Full))
			if !errors.Is(err, lakeerr.ErrUnsupported) {
				t.Fatalf("error %v, want unsupported", err)
			}
		})
	}
}

// TestOffPeakRatio reads the off-peak hours, which may wrap midnight.
func TestOffPeakRatio(t *testing.T) {
	cases := []struct {
		start, end string
		hour, want int
	}{
		{"22", "6", 23, 30}, {"22", "6", 3, 30}, {"22", "6", 6, 0}, {"1", "5", 1, 30}, {"1", "5", 5, 0}, {"3", "3", 3, 0},
	}
	for _, c := range cases {
		o := spec.NewCoreOptions(map[string]string{"compaction.offpeak.start.hour": c.start,
			"compaction.offpeak.end.hour": c.end, "compaction.offpeak-ratio": "30"})
		got, err := offPeakRatio(o, c.hour)
		if err != nil || got != c.want {
			t.Errorf("hours [%s, %s) at %d: ratio %d, %v; want %d", c.start, c.end, c.hour, got, err, c.want)
		}
	}
	s := &spec.TableSchema{Fields: []spec.DataField{field("id", bigintType)}, PrimaryKeys: []string{"id"},
		Options: map[string]string{"bucket": "1", "compaction.offpeak.start.hour": "0", "compaction.offpeak.end.hour": "24",
			"compaction.offpeak-ratio": "7"}}
	cfg, err := newTableConfig(s, time.Date(2024, 1, 1, 12, 0, 0, 0, time.Local))
	if err != nil || cfg.universal.OffPeakRatio != 7 {
		t.Fatalf("off-peak ratio at noon %d, %v; want 7", cfg.universal.OffPeakRatio, err)
	}
}
