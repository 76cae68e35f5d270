package spec

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// TestSnapshotFixturesRoundTrip decodes every Java-written snapshot file
// (Paimon 1.x files with logOffsets and "changelogManifestList" : null, and
// newer ones without), re-encodes it byte for byte and re-decodes it.
func TestSnapshotFixturesRoundTrip(t *testing.T) {
	files := metadataFixtureFiles(t, "snapshot")
	if len(files) < 100 {
		t.Fatalf("found only %d snapshot fixtures", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := DecodeSnapshot(data)
		if err != nil {
			t.Errorf("%s: %v", fixtureRel(path), err)
			continue
		}
		encoded, err := EncodeSnapshot(s)
		if err != nil || !bytes.Equal(encoded, data) {
			t.Errorf("%s: re-encoded differs (%v):\n%s", fixtureRel(path), err, encoded)
		}
		again, err := DecodeSnapshot(encoded)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Errorf("%s: re-decode = %+v, %v", fixtureRel(path), again, err)
		}
	}
}

func ptrInt64(v int64) *int64 { return &v }

func TestDecodeSnapshotKnownValues(t *testing.T) {
	s, err := DecodeSnapshot(readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "snapshot/snapshot-2"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Snapshot{
		Version: 3, ID: 2, SchemaID: 0,
		BaseManifestList:      "manifest-list-4fb9862a-a140-4fe1-aa62-aeeedca8f890-2",
		BaseManifestListSize:  ptrInt64(998),
		DeltaManifestList:     "manifest-list-4fb9862a-a140-4fe1-aa62-aeeedca8f890-3",
		DeltaManifestListSize: ptrInt64(998),
		CommitUser:            "4d667449-dc13-47f1-817c-4dcf643d8bef",
		CommitIdentifier:      2,
		CommitKind:            CommitKindAppend,
		TimeMillis:            1756266933919,
		LogOffsets:            map[int32]int64{},
		TotalRecordCount:      ptrInt64(11),
		DeltaRecordCount:      ptrInt64(2),
		ChangelogRecordCount:  ptrInt64(0),
		NextRowID:             ptrInt64(0),
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("snapshot-2 = %+v\nwant %+v", s, want)
	}

	golden, err := DecodeSnapshot(readTableFixture(t, "paimon-java-dv-golden/test_pk_global_index_golden", "snapshot/snapshot-4"))
	if err != nil {
		t.Fatal(err)
	}
	if golden.CommitKind != CommitKindCompact || golden.CommitIdentifier != BatchCommitIdentifier ||
		golden.IndexManifest == nil || *golden.IndexManifest != "index-manifest-9280e97a-019f-4a95-b519-3bef0eae422a-0" ||
		*golden.TotalRecordCount != 4 || golden.LogOffsets != nil || golden.ChangelogManifestList != nil {
		t.Errorf("golden snapshot-4 = %+v", golden)
	}
}

// fullSnapshotJSON has every key a Paimon 2.x writer may produce, in Java's
// order and layout.
const fullSnapshotJSON = `{
  "version" : 3,
  "uuid" : "0e8f1c2a-5d4b-4a8e-9a1f-3c7d2b6e4f10",
  "id" : 7,
  "schemaId" : 2,
  "baseManifestList" : "manifest-list-a-0",
  "baseManifestListSize" : 1200,
  "deltaManifestList" : "manifest-list-a-1",
  "deltaManifestListSize" : 980,
  "changelogManifestList" : "manifest-list-a-2",
  "changelogManifestListSize" : 640,
  "indexManifest" : "index-manifest-b-0",
  "commitUser" : "user-1",
  "writerVersion" : "java-2.1-SNAPSHOT-abc123",
  "commitIdentifier" : 9223372036854775807,
  "commitKind" : "OVERWRITE",
  "timeMillis" : 1784213019689,
  "totalRecordCount" : 100,
  "deltaRecordCount" : -3,
  "changelogRecordCount" : 6,
  "watermark" : -9223372036854775808,
  "statistics" : "stat-c-0",
  "properties" : {
    "a.key" : "1",
    "b.key" : "x \"quoted\""
  },
  "nextRowId" : 250,
  "operation" : "MERGE"
}`

func TestSnapshotAllKeysRoundTrip(t *testing.T) {
	s, err := DecodeSnapshot([]byte(fullSnapshotJSON))
	if err != nil {
		t.Fatal(err)
	}
	if *s.UUID != "0e8f1c2a-5d4b-4a8e-9a1f-3c7d2b6e4f10" || *s.WriterVersion != "java-2.1-SNAPSHOT-abc123" ||
		*s.Watermark != -9223372036854775808 || *s.Statistics != "stat-c-0" || *s.Operation != "MERGE" ||
		*s.NextRowID != 250 || s.Properties["b.key"] != `x "quoted"` || *s.ChangelogManifestListSize != 640 ||
		*s.DeltaRecordCount != -3 || s.CommitKind != CommitKindOverwrite {
		t.Errorf("decoded = %+v", s)
	}
	encoded, err := EncodeSnapshot(s)
	if err != nil || string(encoded) != fullSnapshotJSON {
		t.Errorf("EncodeSnapshot = %s, %v", encoded, err)
	}
}

func TestDecodeSnapshotCompatibility(t *testing.T) {
	// Paimon 0.2 files have no version; Paimon <= 0.3 wrote null record
	// counts; unknown keys from future writers are ignored; explicit nulls
	// of optional keys read as absent.
	in := `{"id":1,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","changelogManifestList":null,
		"commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":5,"logOffsets":{"0":3,"2":9},
		"totalRecordCount":null,"deltaRecordCount":null,"watermark":null,"futureKey":{"nested":[1,2]}}`
	s, err := DecodeSnapshot([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.TotalRecordCount != nil || s.Watermark != nil ||
		!reflect.DeepEqual(s.LogOffsets, map[int32]int64{0: 3, 2: 9}) {
		t.Errorf("decoded = %+v", s)
	}
	encoded, err := EncodeSnapshot(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"changelogManifestList" : null`, `"totalRecordCount" : null`, `"logOffsets" : {
    "0" : 3,
    "2" : 9
  }`} {
		if !strings.Contains(string(encoded), want) {
			t.Errorf("encoded lacks %s:\n%s", want, encoded)
		}
	}
}

func TestEncodeNewSnapshot(t *testing.T) {
	s := &Snapshot{ID: 1, BaseManifestList: "b", DeltaManifestList: "d", CommitUser: "u",
		CommitIdentifier: BatchCommitIdentifier, CommitKind: CommitKindAppend, TimeMillis: 9,
		TotalRecordCount: ptrInt64(3), DeltaRecordCount: ptrInt64(3), Properties: map[string]string{}}
	got, err := EncodeSnapshot(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "b",
  "deltaManifestList" : "d",
  "commitUser" : "u",
  "commitIdentifier" : 9223372036854775807,
  "commitKind" : "APPEND",
  "timeMillis" : 9,
  "totalRecordCount" : 3,
  "deltaRecordCount" : 3,
  "properties" : { }
}`
	if string(got) != want {
		t.Errorf("EncodeSnapshot =\n%s\nwant\n%s", got, want)
	}
	s.CommitKind = "MERGE"
	if _, err := EncodeSnapshot(s); err == nil {
		t.Error("EncodeSnapshot accepted an unknown commit kind")
	}
}

func TestDecodeSnapshotErrors(t *testing.T) {
	valid := string(readTableFixture(t, "paimon-java/pk_table_scan_and_read_mor", "snapshot/snapshot-2"))
	for name, data := range map[string]string{
		"missing id":         strings.Replace(valid, `"id" : 2,`, ``, 1),
		"missing commitKind": strings.Replace(valid, `"commitKind" : "APPEND",`, ``, 1),
		"unknown commitKind": strings.Replace(valid, `"APPEND"`, `"MERGE"`, 1),
		"null id":            strings.Replace(valid, `"id" : 2,`, `"id" : null,`, 1),
		"float timeMillis":   strings.Replace(valid, `"timeMillis" : 1756266933919`, `"timeMillis" : 1.5`, 1),
		"huge id":            strings.Replace(valid, `"id" : 2,`, `"id" : 9223372036854775808,`, 1),
		"bad log offsets":    strings.Replace(valid, `"logOffsets" : { }`, `"logOffsets" : { "x" : 1 }`, 1),
		"truncated":          valid[:len(valid)-10],
		"empty":              ``,
		"not json":           `snapshot`,
	} {
		_, err := DecodeSnapshot([]byte(data))
		if !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: err = %v, want corruption", name, err)
		}
	}
}

// FuzzDecodeSnapshot checks that no input panics the decoder and that any
// snapshot it accepts re-encodes to bytes that decode to the same value.
func FuzzDecodeSnapshot(f *testing.F) {
	for _, path := range metadataFixtureFiles(f, "snapshot") {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(fullSnapshotJSON))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSnapshot(data)
		if err != nil {
			if !errors.Is(err, lakeerr.ErrCorruption) {
				t.Fatalf("error is not corruption: %v", err)
			}
			return
		}
		encoded, err := EncodeSnapshot(s)
		if err != nil {
			t.Fatalf("decoded snapshot does not encode: %v", err)
		}
		again, err := DecodeSnapshot(encoded)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, s)
		}
	})
}
