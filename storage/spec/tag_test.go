package spec

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// javaTag builds the bytes Java's Tag.toJson writes for a tag of the given
// snapshot file: the snapshot keys, then the tag keys, same layout.
func javaTag(snapshot []byte, tagKeys string) []byte {
	body := strings.TrimSuffix(string(snapshot), "\n}")
	return []byte(body + ",\n" + tagKeys + "\n}")
}

// TestTagFixturesRoundTrip decodes every tag file under testdata/fixtures.
// The bundled tables have none, so tags in Java's exact layout are also
// built from every fixture snapshot, with and without the tag keys.
func TestTagFixturesRoundTrip(t *testing.T) {
	var tags [][]byte
	for _, path := range metadataFixtureFiles(t, "tag") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, data)
	}
	for _, path := range metadataFixtureFiles(t, "snapshot") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, data, javaTag(data,
			"  \"tagCreateTime\" : [ 2026, 7, 16, 9, 23, 39, 689000000 ],\n  \"tagTimeRetained\" : 86400.000000000"))
	}
	for _, data := range tags {
		tag, err := DecodeTag(data)
		if err != nil {
			t.Errorf("DecodeTag: %v\n%s", err, data)
			continue
		}
		encoded, err := EncodeTag(tag)
		if err != nil || string(encoded) != string(data) {
			t.Errorf("EncodeTag = %s, %v\nwant %s", encoded, err, data)
		}
		again, err := DecodeTag(encoded)
		if err != nil || !reflect.DeepEqual(again, tag) {
			t.Errorf("re-decode = %+v, %v; want %+v", again, err, tag)
		}
	}
}

func TestDecodeTagValues(t *testing.T) {
	snapshot := readTableFixture(t, "paimon-java-dv-golden/test_pk_global_index_golden", "snapshot/snapshot-4")
	tag, err := DecodeTag(javaTag(snapshot,
		"  \"tagCreateTime\" : [ 1969, 1, 1, 0, 0, 0, 123456789 ],\n  \"tagTimeRetained\" : 5.000000000"))
	if err != nil {
		t.Fatal(err)
	}
	wantTime := time.Date(1969, 1, 1, 0, 0, 0, 123456789, time.UTC)
	if !tag.CreateTime.Equal(wantTime) || *tag.TimeRetained != 5*time.Second || tag.ID != 4 ||
		tag.CommitKind != CommitKindCompact {
		t.Errorf("tag = %+v, create %v, retained %v", tag.Snapshot, tag.CreateTime, tag.TimeRetained)
	}
	plain, err := DecodeTag(snapshot)
	if err != nil || plain.CreateTime != nil || plain.TimeRetained != nil {
		t.Errorf("tag without tag keys = %+v, %v", plain, err)
	}
}

// TestTagCreateTimeForms covers Jackson's shortened arrays (trailing zero
// second and nanosecond omitted) and the ISO string form it also accepts.
func TestTagCreateTimeForms(t *testing.T) {
	snapshot := readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "snapshot/snapshot-1")
	tests := []struct {
		json string
		want time.Time
	}{
		{`[ 2024, 2, 29, 23, 59 ]`, time.Date(2024, 2, 29, 23, 59, 0, 0, time.UTC)},
		{`[ 2024, 2, 29, 23, 59, 1 ]`, time.Date(2024, 2, 29, 23, 59, 1, 0, time.UTC)},
		{`[ 2024, 2, 29, 23, 59, 0, 5 ]`, time.Date(2024, 2, 29, 23, 59, 0, 5, time.UTC)},
		{`"2024-02-29T23:59:01.5"`, time.Date(2024, 2, 29, 23, 59, 1, 500000000, time.UTC)},
		{`"2024-02-29T23:59"`, time.Date(2024, 2, 29, 23, 59, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		tag, err := DecodeTag(javaTag(snapshot, `  "tagCreateTime" : `+tt.json))
		if err != nil || !tag.CreateTime.Equal(tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.json, tag, err, tt.want)
			continue
		}
		encoded, _ := EncodeTag(tag)
		if strings.HasPrefix(tt.json, "[") && !strings.Contains(string(encoded), `"tagCreateTime" : `+tt.json) {
			t.Errorf("%s: re-encoded as\n%s", tt.json, encoded)
		}
	}
}

func TestTagTimeRetainedForms(t *testing.T) {
	snapshot := readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "snapshot/snapshot-1")
	tests := []struct {
		json    string
		want    time.Duration
		written string
	}{
		{`86400.000000000`, 24 * time.Hour, `86400.000000000`},
		{`0.0`, 0, `0.0`},
		{`0.000000001`, time.Nanosecond, `0.000000001`},
		{`3600`, time.Hour, `3600.000000000`},
		{`1.5e1`, 15 * time.Second, `15.000000000`},
		{`1.0000000019`, time.Second + time.Nanosecond, `1.000000001`},
	}
	for _, tt := range tests {
		tag, err := DecodeTag(javaTag(snapshot, `  "tagTimeRetained" : `+tt.json))
		if err != nil || *tag.TimeRetained != tt.want {
			t.Errorf("%s: got %v, %v; want %v", tt.json, tag, err, tt.want)
			continue
		}
		encoded, _ := EncodeTag(tag)
		if !strings.Contains(string(encoded), `"tagTimeRetained" : `+tt.written+"\n") {
			t.Errorf("%s: re-encoded as\n%s", tt.json, encoded)
		}
	}
}

func TestDecodeTagErrors(t *testing.T) {
	snapshot := readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "snapshot/snapshot-1")
	for _, keys := range []string{
		`  "tagCreateTime" : [ 2024, 2, 30, 0, 0 ]`,
		`  "tagCreateTime" : [ 2024, 1, 1, 0 ]`,
		`  "tagCreateTime" : [ 2024, 1, 1, 0, 0, 0, 1000000000 ]`,
		`  "tagCreateTime" : [ 2024, 1, 1, 0, "0" ]`,
		`  "tagCreateTime" : "yesterday"`,
		`  "tagTimeRetained" : "PT1H"`,
		`  "tagTimeRetained" : 1e400`,
		`  "tagTimeRetained" : 9300000000000000000`,
	} {
		if _, err := DecodeTag(javaTag(snapshot, keys)); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: err = %v, want corruption", keys, err)
		}
	}
	if _, err := DecodeTag(snapshot[:20]); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("truncated tag: err = %v", err)
	}
}
