package catalog

import (
	"maps"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// Option keys the catalog handles itself rather than storing as given.
const (
	// optionPrimaryKey and optionPartition let CREATE TABLE ... WITH name
	// the keys as options (CoreOptions.PRIMARY_KEY, PARTITION); Java moves
	// them into the schema's key lists.
	optionPrimaryKey = "primary-key"
	optionPartition  = "partition"
	// optionPath is CoreOptions.PATH, which Java's filesystem catalog
	// refuses to store: a table lives where the catalog puts it.
	optionPath = "path"
	// optionTableType is CoreOptions.TYPE; only plain Paimon tables
	// ("table") have the layout lakesql reads and writes.
	optionTableType = "type"
)

// Bucket counts lakesql writes by default.
const (
	// defaultPrimaryKeyBuckets replaces Java's default of -1 (dynamic
	// bucket), which lakesql cannot write, for primary-key tables created
	// without a bucket option.
	defaultPrimaryKeyBuckets = "1"
	// unawareBucket is Java's default for append tables: one bucket-0
	// directory per partition, no bucket key.
	unawareBucket = "-1"
	// dataFileFormat is the only data file format lakesql writes.
	dataFileFormat = "parquet"
)

// TableDefinition is what CREATE TABLE says about a new table. Mirrors
// org.apache.paimon.schema.Schema.
//
// CreateTable turns it into schema-0 as Java's Schema and TableSchema.create
// do, plus the defaults lakesql needs to be read the same way by every
// Paimon version:
//   - field ids are assigned from 0 in Java's Schema.Builder order (ids set
//     in Fields, nested ones included, are ignored);
//   - primary-key columns are made NOT NULL;
//   - "primary-key" and "partition" options are moved into PrimaryKeys and
//     PartitionKeys, as Java does; naming keys both ways is an error;
//   - "bucket" is always written: unset, it is 1 for primary-key tables
//     (lakesql writes no dynamic buckets) and -1 (bucket-unaware) for
//     append tables;
//   - "file.format" is always written, and must be parquet.
type TableDefinition struct {
	Fields        []spec.DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
	// Comment is the table comment; empty means none.
	Comment string
}

// newTableSchema builds and validates schema-0 of a new table.
func newTableSchema(def TableDefinition, timeMillis int64) (*spec.TableSchema, error) {
	options := maps.Clone(def.Options)
	if options == nil {
		options = map[string]string{}
	}
	partitionKeys, err := keysFromOption(options, optionPartition, def.PartitionKeys)
	if err != nil {
		return nil, err
	}
	primaryKeys, err := keysFromOption(options, optionPrimaryKey, def.PrimaryKeys)
	if err != nil {
		return nil, err
	}
	highestFieldID := -1
	fields := assignFieldIDs(def.Fields, &highestFieldID)
	makeNotNull(fields, primaryKeys)
	setDefaultOptions(options, len(primaryKeys) > 0)
	s := &spec.TableSchema{
		Version:        spec.CurrentSchemaVersion,
		Fields:         fields,
		HighestFieldID: highestFieldID,
		PartitionKeys:  partitionKeys,
		PrimaryKeys:    primaryKeys,
		Options:        options,
		TimeMillis:     timeMillis,
	}
	if def.Comment != "" {
		s.Comment = &def.Comment
	}
	if err := checkWritable(s); err != nil {
		return nil, err
	}
	return s, validateSchema(s)
}

// keysFromOption returns the key columns named either in the definition or
// in the option key, which it removes (Schema.normalizePrimaryKeys and
// normalizePartitionKeys).
func keysFromOption(options map[string]string, key string, declared []string) ([]string, error) {
	value, ok := options[key]
	if !ok {
		return slices.Clone(declared), nil
	}
	if len(declared) > 0 {
		return nil, invalidf("keys declared both in the definition and in option %q", key)
	}
	delete(options, key)
	var keys []string
	for name := range strings.SplitSeq(value, ",") {
		if name = strings.TrimSpace(name); name != "" {
			keys = append(keys, name)
		}
	}
	return keys, nil
}

func setDefaultOptions(options map[string]string, hasPrimaryKey bool) {
	if _, ok := options[spec.OptionBucket]; !ok {
		options[spec.OptionBucket] = unawareBucket
		if hasPrimaryKey {
			options[spec.OptionBucket] = defaultPrimaryKeyBuckets
		}
	}
	if _, ok := options[spec.OptionFileFormat]; !ok {
		options[spec.OptionFileFormat] = dataFileFormat
	}
}

// makeNotNull makes the named columns NOT NULL, as Java's Schema does for
// primary-key columns.
func makeNotNull(fields []spec.DataField, names []string) {
	for i := range fields {
		if slices.Contains(names, fields[i].Name) {
			fields[i].Type = fields[i].Type.WithNullable(false)
		}
	}
}

// assignFieldIDs returns a copy of fields with new ids, continuing after
// *highest and leaving it at the highest id assigned. Top-level fields are
// numbered as Java's Schema.Builder.column and SchemaManager's AddColumn
// number them: a column takes its id before the fields nested in its type.
func assignFieldIDs(fields []spec.DataField, highest *int) []spec.DataField {
	out := make([]spec.DataField, len(fields))
	for i, f := range fields {
		*highest++
		f.ID = *highest
		f.Type = assignNestedFieldIDs(f.Type, highest)
		out[i] = f
	}
	return out
}

// assignNestedFieldIDs returns a copy of t with new ids for the ROW fields
// in it. Mirrors Java's ReassignFieldId, where a ROW field takes its id
// after the fields nested in its own type: ROW<a INT, b ROW<c INT>> numbers
// a, c, b. Nil nested types are kept for the encoder to reject.
func assignNestedFieldIDs(t spec.DataType, highest *int) spec.DataType {
	switch t.Root {
	case spec.Array, spec.Multiset:
		t.Element = assignPointedFieldIDs(t.Element, highest)
	case spec.Map:
		t.Key = assignPointedFieldIDs(t.Key, highest)
		t.Value = assignPointedFieldIDs(t.Value, highest)
	case spec.Row:
		fields := make([]spec.DataField, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = assignNestedFieldIDs(f.Type, highest)
			*highest++
			f.ID = *highest
			fields[i] = f
		}
		t.Fields = fields
	}
	return t
}

func assignPointedFieldIDs(t *spec.DataType, highest *int) *spec.DataType {
	if t == nil {
		return nil
	}
	reassigned := assignNestedFieldIDs(*t, highest)
	return &reassigned
}
