package spec

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func partitionPathOf(t *testing.T, dt DataType, v any, legacy bool) string {
	t.Helper()
	p, err := PartitionPath([]string{"k"}, []DataType{dt}, []any{v}, DefaultPartitionName, legacy)
	if err != nil {
		t.Fatalf("PartitionPath(%v): %v", v, err)
	}
	return strings.TrimPrefix(p, "k=")
}

func TestPartitionPathEscapingAndDefaultName(t *testing.T) {
	str := DataType{Root: VarChar}
	cases := map[any]string{
		"2024":             "2024",
		"a:b=c/d%e":        "a%3Ab%3Dc%2Fd%25e",
		"x\x01\x7f{}[]^?*": "x%01%7F%7B%7D%5B%5D%5E%3F%2A",
		`"#'\`:             "%22%23%27%5C",
		"héllo wörld":      "héllo wörld", // non-ASCII and space are not escaped
		nil:                DefaultPartitionName,
		"":                 DefaultPartitionName,
		" ":                DefaultPartitionName, // README of append_with_empty_partition_with_empty_value
		"\t\u3000\u001f":   DefaultPartitionName, // Character.isWhitespace
		"\u00a0":           "\u00a0",             // no-break space is not whitespace in Java
	}
	for v, want := range cases {
		if got := partitionPathOf(t, str, v, true); got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
	p, err := PartitionPath([]string{"p0", "p:1"}, []DataType{{Root: Int}, str}, []any{int32(-3), "x"}, "null", true)
	if err != nil || p != "p0=-3/p%3A1=x" {
		t.Errorf("multi-level path %q, %v", p, err)
	}
}

func TestPartitionPathValueStrings(t *testing.T) {
	ts := func(p int) DataType { return DataType{Root: Timestamp, Precision: p} }
	noon := TimestampFromTime(time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC))
	at := func(sec, nano int) TimestampValue {
		return TimestampFromTime(time.Date(2024, 1, 1, 12, 0, sec, nano, time.UTC))
	}
	cases := []struct {
		t        DataType
		v        any
		legacy   string
		nonLegac string
	}{
		{DataType{Root: Date}, DateValue(19723), "19723", "2024-01-01"},
		{DataType{Root: Time}, TimeValue(45296123), "45296123", "12%3A34%3A56"},
		{DataType{Root: Time, Precision: 3}, TimeValue(45296120), "45296120", "12%3A34%3A56.12"},
		{ts(6), noon, "2024-01-01T12%3A00", "2024-01-01 12%3A00%3A00.000000"},
		{ts(0), at(5, 0), "2024-01-01T12%3A00%3A05", "2024-01-01 12%3A00%3A05"},
		{ts(3), at(0, 5e6), "2024-01-01T12%3A00%3A00.005", "2024-01-01 12%3A00%3A00.005"},
		{ts(9), at(0, 5e3), "2024-01-01T12%3A00%3A00.000005", "2024-01-01 12%3A00%3A00.000005000"},
		{ts(6), at(0, 5e3), "2024-01-01T12%3A00%3A00.000005", "2024-01-01 12%3A00%3A00.000005"},
		{ts(9), at(0, 5), "2024-01-01T12%3A00%3A00.000000005", "2024-01-01 12%3A00%3A00.000000005"},
		{DataType{Root: Decimal, Precision: 10, Scale: 2}, NewDecimal(-5, 2), "-0.05", "-0.05"},
		{DataType{Root: Boolean}, true, "true", "true"},
		{DataType{Root: BigInt}, int64(math.MinInt64), "-9223372036854775808", "-9223372036854775808"},
		{DataType{Root: VarBinary}, []byte("ab"), "", "ab"},
	}
	for _, c := range cases {
		if c.legacy != "" {
			if got := partitionPathOf(t, c.t, c.v, true); got != c.legacy {
				t.Errorf("legacy %v: %q, want %q", c.v, got, c.legacy)
			}
		}
		if got := partitionPathOf(t, c.t, c.v, false); got != c.nonLegac {
			t.Errorf("cast %v: %q, want %q", c.v, got, c.nonLegac)
		}
	}
	_, err := PartitionPath([]string{"k"}, []DataType{{Root: VarBinary}}, []any{[]byte("ab")}, DefaultPartitionName, true)
	if !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("legacy BINARY: err = %v", err)
	}
}

// Expected strings are what JDK 19+ Double.toString / Float.toString print.
func TestJavaFloatString(t *testing.T) {
	doubles := map[float64]string{
		1: "1.0", 100: "100.0", 0.1: "0.1", 0.001: "0.001", 0.0001: "1.0E-4", 1234567: "1234567.0",
		1e7: "1.0E7", 12345678: "1.2345678E7", -2.5: "-2.5", 1e21: "1.0E21", 1.0 / 3: "0.3333333333333333",
		math.SmallestNonzeroFloat64: "4.9E-324", math.MaxFloat64: "1.7976931348623157E308",
		math.Copysign(0, -1): "-0.0", math.Inf(-1): "-Infinity", math.NaN(): "NaN", 2e-3: "0.002",
	}
	for f, want := range doubles {
		if got := javaFloatString(f, 64); got != want {
			t.Errorf("Double.toString(%v) = %q, want %q", f, got, want)
		}
	}
	floats := map[float32]string{0.1: "0.1", 1.0 / 3: "0.33333334", 1e10: "1.0E10",
		math.SmallestNonzeroFloat32: "1.4E-45", math.MaxFloat32: "3.4028235E38"}
	for f, want := range floats {
		if got := javaFloatString(float64(f), 32); got != want {
			t.Errorf("Float.toString(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestUnescapePathNameFollowsJava(t *testing.T) {
	cases := map[string]string{
		"a%3Ab": "a:b", "%3A": ":", "%3": "%3", "%zz1": "%zz1", "100%": "100%",
		// Integer.parseInt takes a sign: "+4" is 4 and "-0" is 0.
		"%+41": "\x041", "%-01": "\x001", "%-11": "%-11",
	}
	for in, want := range cases {
		if got := unescapePathName(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every partition of every Avro-manifest fixture table maps to the
// directory Java wrote its data files in, and back.
func TestPartitionPathMatchesJavaDirectories(t *testing.T) {
	checked := 0
	for _, tb := range fxAvroTables(t) {
		if len(tb.PartitionKeys) == 0 {
			continue
		}
		types := tb.types(t, tb.PartitionKeys)
		dirs := fxPartitionDirs(t, tb)
		for _, e := range tb.manifestEntries(t) {
			file := fxUnwrapUnion(e["_FILE"]).(map[string]any)
			values, err := DeserializeBinaryRow(types, e["_PARTITION"].([]byte))
			if err != nil {
				t.Fatal(err)
			}
			want, ok := dirs[file["_FILE_NAME"].(string)]
			if !ok {
				continue // expired file, no longer on disk
			}
			got, err := PartitionPath(tb.PartitionKeys, types, values, DefaultPartitionName, true)
			if err != nil || got != want {
				t.Errorf("%s: partition %v -> %q, %v; Java wrote %q", tb.Name, values, got, err, want)
			}
			back, err := ParsePartitionPath(want+"/", tb.PartitionKeys, types, DefaultPartitionName, true)
			if err != nil || !valuesEqual(types, back, values) {
				t.Errorf("%s: ParsePartitionPath(%q) = %v, %v; want %v", tb.Name, want, back, err, values)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d partitions", checked)
	}
}

// fxPartitionDirs maps each data file name to its partition directory
// relative to the table (or external) root.
func fxPartitionDirs(t *testing.T, tb fxTable) map[string]string {
	out := map[string]string{}
	for path := range tb.dataFiles(t) {
		dir := filepath.Dir(filepath.Dir(path))
		rel, err := filepath.Rel(tb.Dir, dir)
		if strings.HasPrefix(rel, "..") || err != nil {
			rel, err = filepath.Rel(filepath.Join(filepath.Dir(tb.Dir), "external"), dir)
		}
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(path)] = filepath.ToSlash(rel)
	}
	return out
}

// The ORC-manifest tables of the README case "", " " and null all wrote
// f0=__DEFAULT_PARTITION__; their directories parse and re-format exactly.
func TestParsePartitionPathOfJavaDirectories(t *testing.T) {
	for _, name := range []string{"append_with_empty_partition", "append_with_empty_partition_with_empty_value"} {
		tb := fxLoadTable(t, "paimon-java/"+name, 0)
		types := tb.types(t, tb.PartitionKeys)
		entries, err := os.ReadDir(tb.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var defaults int
		for _, e := range entries {
			if !strings.Contains(e.Name(), "=") {
				continue
			}
			values, err := ParsePartitionPath(e.Name(), tb.PartitionKeys, types, DefaultPartitionName, true)
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			if values[0] == nil {
				defaults++
			}
			if again, err := PartitionPath(tb.PartitionKeys, types, values, DefaultPartitionName, true); again != e.Name() {
				t.Errorf("%s: re-formatted as %q, %v", e.Name(), again, err)
			}
		}
		if defaults != 1 {
			t.Errorf("%s: %d default partitions", name, defaults)
		}
	}
}

func TestParsePartitionPathRejectsMismatch(t *testing.T) {
	types := []DataType{{Root: Int}}
	for _, p := range []string{"", "f2=1", "f1=x", "f1=", "=1", "f1=1/f2=2"} {
		if _, err := ParsePartitionPath(p, []string{"f1"}, types, DefaultPartitionName, true); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%q: err = %v", p, err)
		}
	}
}

// Random values of every partition-able type survive PartitionPath and
// ParsePartitionPath in both naming modes.
func TestPartitionPathRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	roots := []TypeRoot{Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double, Decimal, VarChar,
		VarBinary, Date, Time, Timestamp, TimestampLTZ}
	for range 5000 {
		dt := DataType{Root: roots[r.IntN(len(roots))], Precision: 3}
		if dt.Root == Decimal {
			dt.Precision, dt.Scale = 38, r.IntN(10)
		}
		if dt.Root == Timestamp || dt.Root == TimestampLTZ {
			dt.Precision = r.IntN(10)
		}
		legacy := r.IntN(2) == 0
		if dt.Root == VarBinary && legacy {
			continue
		}
		v := randomPartitionValue(r, dt)
		p, err := PartitionPath([]string{"k"}, []DataType{dt}, []any{v}, DefaultPartitionName, legacy)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePartitionPath(p, []string{"k"}, []DataType{dt}, DefaultPartitionName, legacy)
		if err != nil || !valuesEqual([]DataType{dt}, back, []any{v}) {
			t.Fatalf("%v (legacy %v) -> %q -> %v, %v", v, legacy, p, back, err)
		}
	}
}

// randomPartitionValue draws a value whose path string is not whitespace.
func randomPartitionValue(r *rand.Rand, dt DataType) any {
	switch dt.Root {
	case VarChar, VarBinary:
		s := "v" + string(randomBytes(r))
		if dt.Root == VarBinary {
			return []byte(s)
		}
		return s
	case Date:
		return DateValue(r.Int32N(3_200_000) - 300_000)
	case Time:
		return TimeValue(r.Int32N(millisPerDay))
	case Timestamp, TimestampLTZ:
		ts := TimestampValue{Millis: r.Int64N(1<<45) - 1<<44}
		if !dt.IsCompactTimestamp() {
			ts.NanoOfMilli = r.Int32N(maxNanoOfMilli + 1)
		}
		return ts
	}
	return randomValue(r, dt)
}
