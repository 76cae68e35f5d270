package maintenance

import (
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// TestPartitionTimeDataDriven runs testdata/partition_time: the time a
// partition's values stand for.
//
//	extract
//	[formatter: f]                option lines first
//	[pattern: p]
//	[keys: k1,k2]                 default dt
//	<values, comma-separated>     then one partition per line
//
// prints each partition's time, or why it has none.
func TestPartitionTimeDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/partition_time", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "extract" {
			t.Fatalf("unknown command %s", d.Cmd)
		}
		var formatter, pattern string
		keys := []string{"dt"}
		var partitions []string
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			if v, ok := strings.CutPrefix(line, "formatter: "); ok {
				formatter = v
			} else if v, ok := strings.CutPrefix(line, "pattern: "); ok {
				pattern = v
			} else if v, ok := strings.CutPrefix(line, "keys: "); ok {
				keys = strings.Split(v, ",")
			} else {
				partitions = append(partitions, line)
			}
		}
		e, err := newPartitionTimeExtractor(pattern, formatter)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		var out strings.Builder
		for _, line := range partitions {
			ts, err := e.extract(keys, strings.Split(line, ","))
			if err != nil {
				out.WriteString(line + " -> error: " + err.Error() + "\n")
				continue
			}
			out.WriteString(line + " -> " + ts.Format("2006-01-02 15:04:05.999999999") + "\n")
		}
		return out.String()
	})
}

func TestPartitionSelection(t *testing.T) {
	e, err := newPartitionTimeExtractor("", "yyyyMMdd")
	if err != nil {
		t.Fatal(err)
	}
	part := func(v string) partitionValues { return partitionValues{serialized: []byte(v), values: []string{v}} }
	parts := []partitionValues{part("20240105"), part("20240101"), part("garbage"), part("20240103"), part("20240102"),
		{serialized: []byte("null"), values: []string{"__DEFAULT_PARTITION__"}, hasNull: true}}
	sel := partitionSelection{keys: []string{"dt"}, extractor: e,
		expireBefore: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC), maxExpires: 100}
	if got := names(sel.expired(parts)); got != "20240101,20240102" {
		t.Fatalf("expired %s; want the partitions strictly before 2024-01-03, oldest first", got)
	}
	sel.expireBefore = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sel.maxExpires = 2
	if got := names(sel.expired(parts)); got != "20240101,20240102" {
		t.Fatalf("expired %s; want the first two by value", got)
	}
}

func names(parts []partitionValues) string {
	var out []string
	for _, p := range parts {
		out = append(out, strings.Join(p.values, "/"))
	}
	return strings.Join(out, ",")
}
