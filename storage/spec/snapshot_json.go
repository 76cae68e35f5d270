package spec

import (
	"fmt"
	"sort"
	"strconv"
)

// snapshotVersionPaimon02 is the version of snapshot files without a
// "version" key (Snapshot.TABLE_STORE_02_VERSION in Paimon <= 1.3).
const snapshotVersionPaimon02 = 1

// DecodeSnapshot reads a snapshot/snapshot-<N> file. Mirrors Jackson's
// reading of org.apache.paimon.Snapshot: unknown keys are ignored, optional
// keys may be absent or null, and a missing "version" means the Paimon 0.2
// format (version 1). A missing or malformed required key (id, schemaId,
// baseManifestList, deltaManifestList, commitUser, commitIdentifier,
// commitKind, timeMillis) wraps lakeerr.ErrCorruption.
func DecodeSnapshot(data []byte) (*Snapshot, error) {
	obj, err := parseJSONObject(data)
	if err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	s, err := readSnapshot(obj)
	if err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	return s, nil
}

func readSnapshot(obj *jsonObject) (*Snapshot, error) {
	r := objectReader{obj: obj}
	s := &Snapshot{
		Version:                   r.optInt32("version", snapshotVersionPaimon02),
		UUID:                      r.optString("uuid"),
		ID:                        r.int64("id"),
		SchemaID:                  r.int64("schemaId"),
		BaseManifestList:          r.string("baseManifestList"),
		BaseManifestListSize:      r.optInt64("baseManifestListSize"),
		DeltaManifestList:         r.string("deltaManifestList"),
		DeltaManifestListSize:     r.optInt64("deltaManifestListSize"),
		ChangelogManifestList:     r.optString("changelogManifestList"),
		ChangelogManifestListSize: r.optInt64("changelogManifestListSize"),
		IndexManifest:             r.optString("indexManifest"),
		CommitUser:                r.string("commitUser"),
		WriterVersion:             r.optString("writerVersion"),
		CommitIdentifier:          r.int64("commitIdentifier"),
		CommitKind:                readCommitKind(&r),
		TimeMillis:                r.int64("timeMillis"),
		LogOffsets:                readLogOffsets(&r),
		TotalRecordCount:          r.optInt64("totalRecordCount"),
		DeltaRecordCount:          r.optInt64("deltaRecordCount"),
		ChangelogRecordCount:      r.optInt64("changelogRecordCount"),
		Watermark:                 r.optInt64("watermark"),
		Statistics:                r.optString("statistics"),
		NextRowID:                 r.optInt64("nextRowId"),
		Operation:                 r.optString("operation"),
	}
	s.Properties, _ = r.stringMap(r.optObject("properties"), "properties")
	return s, r.err
}

func readCommitKind(r *objectReader) CommitKind {
	kind := CommitKind(r.string("commitKind"))
	if r.err == nil && !kind.valid() {
		r.fail("commitKind", fmt.Sprintf("unknown commit kind %q", kind))
	}
	return kind
}

func (k CommitKind) valid() bool {
	switch k {
	case CommitKindAppend, CommitKindCompact, CommitKindOverwrite, CommitKindAnalyze:
		return true
	}
	return false
}

// readLogOffsets reads the bucket -> offset map of Paimon <= 1.3, whose
// keys are the bucket numbers as strings.
func readLogOffsets(r *objectReader) map[int32]int64 {
	obj := r.optObject("logOffsets")
	if obj == nil {
		return nil
	}
	offsets := make(map[int32]int64, len(obj.keys))
	for _, k := range obj.keys {
		bucket, err := strconv.ParseInt(k, 10, 32)
		if err != nil {
			r.fail("logOffsets", fmt.Sprintf("bucket %q is not an int", k))
			return nil
		}
		offsets[int32(bucket)] = r.toInt64("logOffsets."+k, obj.values[k])
	}
	return offsets
}

// EncodeSnapshot writes s in Jackson's pretty-printed layout, with the keys
// in Java's order and optional keys left out when nil (JsonInclude
// NON_NULL). Version 0 means a new snapshot and is written as
// CurrentSnapshotVersion.
//
// A non-nil LogOffsets selects the layout of Paimon <= 1.3, which wrote
// "logOffsets" and also wrote "changelogManifestList" when it was null; the
// release that dropped logOffsets (1.4) made that key NON_NULL too. So a
// snapshot decoded from a Java file re-encodes to Java's bytes.
func EncodeSnapshot(s *Snapshot) ([]byte, error) {
	if !s.CommitKind.valid() {
		return nil, fmt.Errorf("encode snapshot %d: unknown commit kind %q", s.ID, s.CommitKind)
	}
	return printJackson(snapshotToJSON(s)), nil
}

func snapshotToJSON(s *Snapshot) *jsonObject {
	legacy := s.LogOffsets != nil
	obj := newJSONObject()
	version := s.Version
	if version == 0 {
		version = CurrentSnapshotVersion
	}
	obj.set("version", int64(version))
	setJSONOptional(obj, "uuid", s.UUID)
	obj.set("id", s.ID)
	obj.set("schemaId", s.SchemaID)
	obj.set("baseManifestList", s.BaseManifestList)
	setJSONOptional(obj, "baseManifestListSize", s.BaseManifestListSize)
	obj.set("deltaManifestList", s.DeltaManifestList)
	setJSONOptional(obj, "deltaManifestListSize", s.DeltaManifestListSize)
	if legacy || s.ChangelogManifestList != nil {
		obj.set("changelogManifestList", jsonNullable(s.ChangelogManifestList))
	}
	setJSONOptional(obj, "changelogManifestListSize", s.ChangelogManifestListSize)
	setJSONOptional(obj, "indexManifest", s.IndexManifest)
	obj.set("commitUser", s.CommitUser)
	setJSONOptional(obj, "writerVersion", s.WriterVersion)
	obj.set("commitIdentifier", s.CommitIdentifier)
	obj.set("commitKind", string(s.CommitKind))
	obj.set("timeMillis", s.TimeMillis)
	if legacy {
		obj.set("logOffsets", logOffsetsToJSON(s.LogOffsets))
	}
	setSnapshotCounters(obj, s)
	return obj
}

// setSnapshotCounters writes the keys after timeMillis. Java declares the
// record counts as required longs, so they are written even when nil.
func setSnapshotCounters(obj *jsonObject, s *Snapshot) {
	obj.set("totalRecordCount", jsonNullable(s.TotalRecordCount))
	obj.set("deltaRecordCount", jsonNullable(s.DeltaRecordCount))
	setJSONOptional(obj, "changelogRecordCount", s.ChangelogRecordCount)
	setJSONOptional(obj, "watermark", s.Watermark)
	setJSONOptional(obj, "statistics", s.Statistics)
	if s.Properties != nil {
		obj.set("properties", stringMapToJSON(s.Properties, nil))
	}
	setJSONOptional(obj, "nextRowId", s.NextRowID)
	setJSONOptional(obj, "operation", s.Operation)
}

// logOffsetsToJSON writes the offsets in ascending bucket order.
func logOffsetsToJSON(offsets map[int32]int64) *jsonObject {
	buckets := make([]int32, 0, len(offsets))
	for b := range offsets {
		buckets = append(buckets, b)
	}
	sort.Slice(buckets, func(i, j int) bool { return buckets[i] < buckets[j] })
	obj := newJSONObject()
	for _, b := range buckets {
		obj.set(strconv.Itoa(int(b)), offsets[b])
	}
	return obj
}

// setJSONOptional sets key when v is non-nil (Jackson's NON_NULL).
func setJSONOptional[T string | int64](obj *jsonObject, key string, v *T) {
	if v != nil {
		obj.set(key, *v)
	}
}

// jsonNullable returns *v, or nil to write a JSON null.
func jsonNullable[T string | int64](v *T) any {
	if v == nil {
		return nil
	}
	return *v
}
