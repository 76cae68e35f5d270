package spec

// TableSchema is one schema version of a table, the content of
// schema/schema-<ID>. Mirrors org.apache.paimon.schema.TableSchema.
type TableSchema struct {
	// Version is the schema file format version; CurrentSchemaVersion for
	// files lakesql writes. Files without it are version 1 (Paimon 0.7).
	Version        int
	ID             int64
	Fields         []DataField
	HighestFieldID int
	PartitionKeys  []string
	PrimaryKeys    []string
	Options        map[string]string
	Comment        *string
	TimeMillis     int64

	// optionOrder is the key order of "options" in the decoded file, or nil
	// when the keys were sorted. Java writes options in its map's iteration
	// order, so EncodeSchema follows it to reproduce Java's bytes; keys not
	// listed are written after it, sorted.
	optionOrder []string
}

// CurrentSchemaVersion is TableSchema.CURRENT_VERSION.
const CurrentSchemaVersion = 3

// RowType returns the table's columns as a non-null ROW type, the form
// Java's TableSchema.logicalRowType gives them.
func (s *TableSchema) RowType() DataType {
	return DataType{Root: Row, Fields: s.Fields}
}

// FieldIndex returns the position of the named field, or -1.
func (s *TableSchema) FieldIndex(name string) int {
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// FieldByID returns the top-level field with the given id.
func (s *TableSchema) FieldByID(id int) (DataField, bool) {
	for _, f := range s.Fields {
		if f.ID == id {
			return f, true
		}
	}
	return DataField{}, false
}

// TrimmedPrimaryKeys returns the primary keys minus the partition keys, in
// primary-key order: the key columns of data files.
func (s *TableSchema) TrimmedPrimaryKeys() []string {
	var out []string
	for _, pk := range s.PrimaryKeys {
		if !contains(s.PartitionKeys, pk) {
			out = append(out, pk)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
