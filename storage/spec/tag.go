package spec

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Tag is the content of tag/tag-<name>: the tagged snapshot plus, for tags
// created with a retention time, when the tag was created and how long it
// is kept. Mirrors org.apache.paimon.tag.Tag.
type Tag struct {
	Snapshot
	// CreateTime is "tagCreateTime", a Java LocalDateTime: a wall-clock
	// time without zone. Decoded values are in UTC; encoding writes the
	// wall-clock fields of the value's own location.
	CreateTime *time.Time
	// TimeRetained is "tagTimeRetained", a Java Duration.
	TimeRetained *time.Duration
}

// DecodeTag reads a tag file: a snapshot file plus the optional keys
// "tagCreateTime" (Jackson's LocalDateTime array [y, mo, d, h, mi, s, ns],
// trailing zero fields omitted, or an ISO string such as
// "2024-01-02T03:04:05.123") and "tagTimeRetained" (Duration as decimal
// seconds such as 86400.000000000).
func DecodeTag(data []byte) (*Tag, error) {
	obj, err := parseJSONObject(data)
	if err != nil {
		return nil, fmt.Errorf("decode tag: %w", err)
	}
	snapshot, err := readSnapshot(obj)
	if err != nil {
		return nil, fmt.Errorf("decode tag: %w", err)
	}
	tag := &Tag{Snapshot: *snapshot}
	r := objectReader{obj: obj}
	if v, ok := r.optional("tagCreateTime"); ok {
		tag.CreateTime, err = decodeLocalDateTime(v)
	}
	if v, ok := r.optional("tagTimeRetained"); ok && err == nil {
		tag.TimeRetained, err = decodeJavaDuration(v)
	}
	if err != nil {
		return nil, fmt.Errorf("decode tag: %w", err)
	}
	return tag, nil
}

// EncodeTag writes t as Java's Tag is written: the snapshot keys, then
// "tagCreateTime" and "tagTimeRetained" when set.
func EncodeTag(t *Tag) ([]byte, error) {
	if !t.CommitKind.valid() {
		return nil, fmt.Errorf("encode tag of snapshot %d: unknown commit kind %q", t.ID, t.CommitKind)
	}
	obj := snapshotToJSON(&t.Snapshot)
	if t.CreateTime != nil {
		obj.set("tagCreateTime", localDateTimeToJSON(*t.CreateTime))
	}
	if t.TimeRetained != nil {
		obj.set("tagTimeRetained", javaDurationToJSON(*t.TimeRetained))
	}
	return printJackson(obj), nil
}

// localDateTimeToJSON mirrors Jackson's LocalDateTimeSerializer: year,
// month, day, hour and minute always; the second only if it or the
// nanosecond is non-zero; the nanosecond only if non-zero.
func localDateTimeToJSON(t time.Time) []any {
	out := []any{int64(t.Year()), int64(t.Month()), int64(t.Day()), int64(t.Hour()), int64(t.Minute())}
	if t.Second() != 0 || t.Nanosecond() != 0 {
		out = append(out, int64(t.Second()))
	}
	if t.Nanosecond() != 0 {
		out = append(out, int64(t.Nanosecond()))
	}
	return out
}

// decodeLocalDateTime reads the array form (5 to 7 integers) or an ISO
// local date-time string.
func decodeLocalDateTime(v any) (*time.Time, error) {
	if s, ok := v.(string); ok {
		t, err := time.Parse("2006-01-02T15:04:05.999999999", s)
		if err != nil {
			t, err = time.Parse("2006-01-02T15:04", s)
		}
		if err != nil {
			return nil, jsonCorruptf("key \"tagCreateTime\": %q is not an ISO local date-time", s)
		}
		return &t, nil
	}
	fields, ok := v.([]any)
	if !ok || len(fields) < 5 || len(fields) > 7 {
		return nil, jsonCorruptf("key \"tagCreateTime\": expected an array of 5 to 7 integers")
	}
	var parts [7]int
	for i, f := range fields {
		n, err := dateTimeField(f)
		if err != nil {
			return nil, jsonCorruptf("key \"tagCreateTime\": %v", err)
		}
		parts[i] = n
	}
	return localDateTimeFromParts(parts)
}

func dateTimeField(v any) (int, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("expected an integer, got %s", describeJSON(v))
	}
	n, err := num.Int64()
	if err != nil || n < -1e9 || n > 1e9 {
		return 0, fmt.Errorf("%s is not a date-time field", num)
	}
	return int(n), nil
}

// localDateTimeFromParts builds the time and rejects out-of-range fields,
// which time.Date would silently normalize.
func localDateTimeFromParts(p [7]int) (*time.Time, error) {
	t := time.Date(p[0], time.Month(p[1]), p[2], p[3], p[4], p[5], p[6], time.UTC)
	if t.Year() != p[0] || int(t.Month()) != p[1] || t.Day() != p[2] || t.Hour() != p[3] ||
		t.Minute() != p[4] || t.Second() != p[5] || t.Nanosecond() != p[6] {
		return nil, jsonCorruptf("key \"tagCreateTime\": %v is not a valid date-time", p)
	}
	return &t, nil
}

// javaDurationToJSON mirrors Jackson's DurationSerializer: decimal seconds
// with nine fraction digits, except that zero is written as 0.0.
func javaDurationToJSON(d time.Duration) json.Number {
	if d == 0 {
		return "0.0"
	}
	sign := ""
	abs := uint64(d)
	if d < 0 {
		sign, abs = "-", uint64(-d)
	}
	return json.Number(fmt.Sprintf("%s%d.%09d", sign, abs/1e9, abs%1e9))
}

// decodeJavaDuration reads decimal seconds; digits beyond nanoseconds are
// truncated, as Jackson does.
func decodeJavaDuration(v any) (*time.Duration, error) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, jsonCorruptf("key \"tagTimeRetained\": expected seconds, got %s", describeJSON(v))
	}
	if hasHugeExponent(string(num)) {
		return nil, jsonCorruptf("key \"tagTimeRetained\": %s seconds is out of range", num)
	}
	seconds, ok := new(big.Rat).SetString(string(num))
	if !ok {
		return nil, jsonCorruptf("key \"tagTimeRetained\": %s is not a number", num)
	}
	nanos := new(big.Int).Quo(new(big.Int).Mul(seconds.Num(), big.NewInt(1e9)), seconds.Denom())
	if !nanos.IsInt64() {
		return nil, jsonCorruptf("key \"tagTimeRetained\": %s seconds is out of range", num)
	}
	d := time.Duration(nanos.Int64())
	return &d, nil
}

// hasHugeExponent reports whether a number's exponent is too large to
// expand exactly (and far outside any time.Duration); Jackson writes plain
// decimals, but other writers (Python's float repr) may use exponents.
func hasHugeExponent(num string) bool {
	i := strings.IndexAny(num, "eE")
	if i < 0 {
		return false
	}
	exp, err := strconv.Atoi(num[i+1:])
	return err != nil || exp > 30 || exp < -30
}
