package fileindex_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// javaFixtureFields are the columns of the Java-written fixtures with a
// bloom filter on every column (see their README).
var javaFixtureFields = []spec.DataField{
	{ID: 0, Name: "f0", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	{ID: 1, Name: "f1", Type: spec.DataType{Root: spec.Int, Nullable: true}},
	{ID: 2, Name: "f2", Type: spec.DataType{Root: spec.Int, Nullable: true}},
	{ID: 3, Name: "f3", Type: spec.DataType{Root: spec.Double, Nullable: true}},
	{ID: 4, Name: "f4", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 9}},
}

// timestampFromNanos converts the fixtures' epoch nanoseconds.
func timestampFromNanos(n int64) spec.TimestampValue {
	millis := n / 1e6
	if n%1e6 < 0 {
		millis--
	}
	return spec.TimestampValue{Millis: millis, NanoOfMilli: int32(n - millis*1e6)}
}

// javaFixtureValues are the fixtures' rows, column by column, NULLs left out.
var javaFixtureValues = [][]any{
	{"Alice", "Bob", "Emily", "Tony", "Lucy"},
	{int32(100), int32(200), int32(300), int32(50), int32(500), int32(20)},
	{int32(-2), int32(-3), int32(1), int32(-1), int32(2)},
	{11.1, 12.1, 13.1, 14.1, 15.1, 16.1, 17.1, 18.1},
	{timestampFromNanos(1745542802000123000), timestampFromNanos(1745542902000123000), timestampFromNanos(1745542602000123000),
		timestampFromNanos(-1744877000), timestampFromNanos(-1764877000), timestampFromNanos(1745542802000123001),
		timestampFromNanos(-1724877000)},
}

// javaFixtureAbsent are values no fixture row holds, one list per column.
var javaFixtureAbsent = [][]any{
	{"alice", "Bobby", "", "Tony "},
	{int32(101), int32(0), int32(-100), int32(math.MaxInt32)},
	{int32(3), int32(-4), int32(0)},
	{11.0, 12.2, -13.1, 0.0},
	{timestampFromNanos(1745542802000124000), timestampFromNanos(0), timestampFromNanos(-1744878000)},
}

func eq(t *testing.T, field int, lit any) predicate.Predicate {
	t.Helper()
	p, err := predicate.Leaf(predicate.ColumnOf(field, javaFixtureFields[field]), predicate.OpEq, lit)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sidecar(t *testing.T, table string) []byte {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(fixtures.TableDir("paimon-java/"+table), "bucket-0", "*.index"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("index files of %s: %v %v", table, matches, err)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestJavaBloomFiltersAnswerAsJava reads the bloom filters Java Paimon
// wrote for every column type the fixtures have: each value a row holds
// must be kept (Java's hashing, bit layout and container read right), and
// values no row holds are skipped (the filters are Java's 1M-item size, so
// a wrong hash would almost never land on set bits).
func TestJavaBloomFiltersAnswerAsJava(t *testing.T) {
	for _, table := range []string{"append_with_bloomfilter", "append_with_bsi_bitmap_bloomfilter"} {
		t.Run(table, func(t *testing.T) {
			c, err := fileindex.Decode(sidecar(t, table))
			if err != nil {
				t.Fatal(err)
			}
			ev := fileindex.NewEvaluator(c, javaFixtureFields)
			for field := range javaFixtureFields {
				if _, ok := c.Lookup(javaFixtureFields[field].Name, spec.FileIndexBloomFilter); !ok {
					t.Fatalf("no bloom filter on %s; entries %v", javaFixtureFields[field].Name, entryNames(c))
				}
				expectCannot(t, ev, eq(t, field, nil), true)
				for _, v := range javaFixtureValues[field] {
					expectCannot(t, ev, eq(t, field, v), false)
				}
				for _, v := range javaFixtureAbsent[field] {
					expectCannot(t, ev, eq(t, field, v), true)
				}
			}
		})
	}
}

func entryNames(c *fileindex.Container) []string {
	var names []string
	for _, e := range c.Entries {
		names = append(names, e.Column+"/"+e.Type)
	}
	return names
}

func expectCannot(t *testing.T, ev *fileindex.Evaluator, p predicate.Predicate, want bool) {
	t.Helper()
	got, err := ev.Cannot(p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	if got != want {
		t.Errorf("Cannot(%s) = %v, want %v", p, got, want)
	}
}

// TestJavaContainerRoundTrips re-encodes Java's containers (several
// columns and index types) byte for byte.
func TestJavaContainerRoundTrips(t *testing.T) {
	for _, table := range []string{"append_with_bloomfilter", "append_with_bsi_bitmap_bloomfilter"} {
		data := sidecar(t, table)
		c, err := fileindex.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		again, err := fileindex.Encode(c.Entries)
		if err != nil {
			t.Fatal(err)
		}
		back, err := fileindex.Decode(again)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Entries) != len(c.Entries) {
			t.Fatalf("%s: %d entries after a round trip, want %d", table, len(back.Entries), len(c.Entries))
		}
		for i, e := range c.Entries {
			if b := back.Entries[i]; b.Column != e.Column || b.Type != e.Type || string(b.Body) != string(e.Body) {
				t.Errorf("%s: entry %d is %s/%s after a round trip, want %s/%s", table, i, b.Column, b.Type, e.Column, e.Type)
			}
		}
		if len(again) != len(data) {
			t.Errorf("%s: re-encoded to %d bytes, Java wrote %d", table, len(again), len(data))
		}
	}
}
