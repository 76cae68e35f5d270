package spec

import (
	"fmt"
	"slices"
	"sort"
)

// Schema file versions (TableSchema.PAIMON_07_VERSION, PAIMON_08_VERSION).
// Files of older versions relied on defaults that have since changed, so
// decoding fills them in as Java's SchemaSerializer does.
const (
	schemaVersionPaimon07 = 1
	schemaVersionPaimon08 = 2
)

// DecodeSchema reads a schema/schema-<N> file. Mirrors
// org.apache.paimon.schema.SchemaSerializer.deserialize: "version" defaults
// to 1; a version-1 file without "bucket" gets bucket=1 and a file of
// version 2 or older without "file.format" gets file.format=orc, the
// defaults of the Paimon release that wrote it. Unknown keys are ignored.
// A missing or malformed key wraps lakeerr.ErrCorruption; a column type
// lakesql does not model wraps lakeerr.ErrUnsupported.
func DecodeSchema(data []byte) (*TableSchema, error) {
	obj, err := parseJSONObject(data)
	if err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	s, fieldValues, err := readSchemaKeys(obj)
	if err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	if s.Fields, err = (&typeDecoder{}).fields(fieldValues, "fields"); err != nil {
		return nil, fmt.Errorf("decode schema %d: %w", s.ID, err)
	}
	if err := validateDataType(s.RowType()); err != nil {
		return nil, fmt.Errorf("decode schema %d: %w", s.ID, jsonCorruptf("fields: %v", err))
	}
	if err := validateKeyColumns(s); err != nil {
		return nil, fmt.Errorf("decode schema %d: %w", s.ID, err)
	}
	applySchemaVersionDefaults(s)
	return s, nil
}

// validateKeyColumns checks that every partition and primary key names a
// column, as Java's SchemaValidation guarantees for files it wrote; every
// layer above indexes columns by these names.
func validateKeyColumns(s *TableSchema) error {
	for _, keys := range [][]string{s.PartitionKeys, s.PrimaryKeys} {
		for _, k := range keys {
			if s.FieldIndex(k) < 0 {
				return jsonCorruptf("key %q is not a column", k)
			}
		}
	}
	return nil
}

func readSchemaKeys(obj *jsonObject) (*TableSchema, []any, error) {
	r := objectReader{obj: obj}
	s := &TableSchema{Version: r.optInt32("version", schemaVersionPaimon07)}
	s.ID = int64(r.int32("id"))
	fieldValues := r.array("fields")
	s.HighestFieldID = r.int32("highestFieldId")
	s.PartitionKeys = r.strings("partitionKeys")
	s.PrimaryKeys = r.strings("primaryKeys")
	var order []string
	s.Options, order = r.stringMap(r.object("options"), "options")
	s.Comment = r.optString("comment")
	if timeMillis := r.optInt64("timeMillis"); timeMillis != nil {
		s.TimeMillis = *timeMillis
	}
	if !sort.StringsAreSorted(order) {
		s.optionOrder = order
	}
	return s, fieldValues, r.err
}

func applySchemaVersionDefaults(s *TableSchema) {
	if _, ok := s.Options[OptionBucket]; !ok && s.Version <= schemaVersionPaimon07 {
		s.Options[OptionBucket] = "1"
	}
	if _, ok := s.Options[OptionFileFormat]; !ok && s.Version <= schemaVersionPaimon08 {
		s.Options[OptionFileFormat] = "orc"
	}
}

// EncodeSchema writes s as Java's SchemaSerializer.serialize does, in
// Jackson's pretty-printed layout and key order. A schema decoded from a
// Java file re-encodes to the same bytes, with two exceptions: options that
// DecodeSchema added for old versions are written out, and an empty field
// "description" is dropped (DataField does not keep it). Version 0 means a
// new schema and is written as CurrentSchemaVersion.
func EncodeSchema(s *TableSchema) ([]byte, error) {
	if err := validateDataType(s.RowType()); err != nil {
		return nil, fmt.Errorf("encode schema %d: %w", s.ID, err)
	}
	obj := newJSONObject()
	version := s.Version
	if version == 0 {
		version = CurrentSchemaVersion
	}
	obj.set("version", int64(version))
	obj.set("id", s.ID)
	obj.set("fields", dataFieldsToJSON(s.Fields))
	obj.set("highestFieldId", int64(s.HighestFieldID))
	obj.set("partitionKeys", stringsToJSON(s.PartitionKeys))
	obj.set("primaryKeys", stringsToJSON(s.PrimaryKeys))
	obj.set("options", stringMapToJSON(s.Options, s.optionOrder))
	if s.Comment != nil {
		obj.set("comment", *s.Comment)
	}
	obj.set("timeMillis", s.TimeMillis)
	return printJackson(obj), nil
}

func stringsToJSON(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// stringMapToJSON writes m with the keys of order first, then the other
// keys sorted.
func stringMapToJSON(m map[string]string, order []string) *jsonObject {
	obj := newJSONObject()
	for _, k := range order {
		if v, ok := m[k]; ok {
			obj.set(k, v)
		}
	}
	rest := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(order, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		obj.set(k, m[k])
	}
	return obj
}
