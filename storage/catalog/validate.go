package catalog

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// systemFieldNames are the names Java reserves for the system columns of
// data files and the audit-log table (SpecialFields.SYSTEM_FIELD_NAMES).
var systemFieldNames = []string{"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind", "_ROW_ID"}

const (
	// keyFieldPrefix starts the key columns of primary-key data files
	// (SpecialFields.KEY_FIELD_PREFIX).
	keyFieldPrefix = "_KEY_"
	// fieldsOptionPrefix starts per-field options "fields.<names>.<suffix>".
	fieldsOptionPrefix = "fields."
	// defaultAggregateFunction is the "field" of
	// fields.default-aggregate-function, which names no column.
	defaultAggregateFunction = "default-aggregate-function"
	// postponeBucket is bucket = -2, which only primary-key tables may use.
	postponeBucket = -2
)

// validateSchema applies the rules of Java's Schema constructor and
// SchemaValidation.validateTableSchema about columns, keys, buckets and the
// options lakesql interprets, so that Java does not refuse to load a
// schema lakesql wrote for those reasons. Java checks more (aggregate
// function names, index and blob options, ...). Failures wrap
// ErrInvalidDefinition.
func validateSchema(s *spec.TableSchema) error {
	checks := []func(*spec.TableSchema) error{
		validateColumnNames,
		validatePartitionKeys,
		validatePrimaryKeys,
		validateBucket,
		validateEnumOptions,
		validateSequenceField,
		validateFieldOptions,
		validateMergeEngine,
	}
	for _, check := range checks {
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}

// validateMergeEngine builds the merge engine of a primary-key table, so
// that options Java refuses when the table is created (an aggregate
// function on a column type it cannot take, a sequence group naming an
// unknown column, ...) are refused then, not at the first write.
func validateMergeEngine(s *spec.TableSchema) error {
	if len(s.PrimaryKeys) == 0 {
		return nil
	}
	if _, err := lsm.NewEngine(s, spec.CompareValues); errors.Is(err, lsm.ErrInvalidOptions) {
		return invalidf("%v", err)
	}
	return nil
}

func validateColumnNames(s *spec.TableSchema) error {
	if len(s.Fields) == 0 {
		return invalidf("a table needs at least one column")
	}
	seen := make(map[string]bool, len(s.Fields))
	for _, f := range s.Fields {
		switch {
		case strings.TrimSpace(f.Name) == "":
			return invalidf("column names must not be blank")
		case seen[f.Name]:
			return invalidf("duplicate column %q", f.Name)
		case slices.Contains(systemFieldNames, f.Name):
			return invalidf("column name %q is reserved for Paimon system columns %v", f.Name, systemFieldNames)
		case strings.HasPrefix(f.Name, keyFieldPrefix):
			return invalidf("column name %q starts with %q, which Paimon reserves for key columns", f.Name, keyFieldPrefix)
		}
		seen[f.Name] = true
	}
	return nil
}

func validatePartitionKeys(s *spec.TableSchema) error {
	return validateKeyColumns(s, s.PartitionKeys, "partition key")
}

func validatePrimaryKeys(s *spec.TableSchema) error {
	if err := validateKeyColumns(s, s.PrimaryKeys, "primary key"); err != nil {
		return err
	}
	if len(s.PrimaryKeys) > 0 && len(s.TrimmedPrimaryKeys()) == 0 {
		return invalidf("primary key %v must not consist of the partition keys %v only: "+
			"each partition would hold one row", s.PrimaryKeys, s.PartitionKeys)
	}
	return nil
}

// validateKeyColumns checks that key columns exist, are listed once and
// have types a key can have (SchemaValidation.validateOnlyContainPrimitiveType).
func validateKeyColumns(s *spec.TableSchema, keys []string, kind string) error {
	for i, key := range keys {
		idx := s.FieldIndex(key)
		switch {
		case idx < 0:
			return invalidf("%s column %q does not exist", kind, key)
		case slices.Contains(keys[:i], key):
			return invalidf("%s column %q is listed twice", kind, key)
		case !isKeyType(s.Fields[idx].Type):
			return invalidf("%s column %q has type %s, which a key column cannot have", kind, key, s.Fields[idx].Type)
		}
	}
	return nil
}

// isKeyType reports whether t may be the type of a key column: Java
// refuses nested types and VARIANT.
func isKeyType(t spec.DataType) bool {
	return !isNested(t) && t.Root != spec.Variant
}

func isNested(t spec.DataType) bool {
	switch t.Root {
	case spec.Array, spec.Map, spec.Multiset, spec.Row:
		return true
	}
	return false
}

// bucketCount parses the bucket option as Java's Integer.parseInt, with
// Java's default of -1.
func bucketCount(s *spec.TableSchema) (int, error) {
	v, ok := s.Options[spec.OptionBucket]
	if !ok {
		return -1, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, invalidf("option %s = %q is not an integer", spec.OptionBucket, v)
	}
	return int(n), nil
}

// validateBucket mirrors SchemaValidation.validateBucket and the bucket-key
// checks of TableSchema.originalBucketKeys.
func validateBucket(s *spec.TableSchema) error {
	bucket, err := bucketCount(s)
	if err != nil {
		return err
	}
	_, hasBucketKey := s.Options[spec.OptionBucketKey]
	switch {
	case bucket == -1 && hasBucketKey:
		return invalidf("bucket-key needs a bucket count: it cannot be used with bucket = -1")
	case bucket == -1:
		return nil
	case bucket < 1 && !(bucket == postponeBucket && len(s.PrimaryKeys) > 0):
		return invalidf("bucket = %d: the number of buckets must be at least 1 "+
			"(or -1, or -2 for primary-key tables)", bucket)
	case len(s.PrimaryKeys) == 0 && len(s.CoreOptions().BucketKey()) == 0:
		return invalidf("an append table with bucket = %d needs a bucket-key", bucket)
	}
	return validateBucketKey(s)
}

func validateBucketKey(s *spec.TableSchema) error {
	for _, key := range s.CoreOptions().BucketKey() {
		idx := s.FieldIndex(key)
		switch {
		case idx < 0:
			return invalidf("bucket-key column %q does not exist", key)
		case slices.Contains(s.PartitionKeys, key):
			return invalidf("bucket-key column %q is a partition key", key)
		case len(s.PrimaryKeys) > 0 && !slices.Contains(s.PrimaryKeys, key):
			return invalidf("bucket-key column %q is not part of the primary key %v", key, s.PrimaryKeys)
		case isNested(s.Fields[idx].Type):
			return invalidf("bucket-key column %q has nested type %s", key, s.Fields[idx].Type)
		}
	}
	return nil
}

// validateEnumOptions checks the enumerated options whose value decides how
// rows are merged, which Java parses when it loads the table.
func validateEnumOptions(s *spec.TableSchema) error {
	opts := s.CoreOptions()
	if _, err := opts.MergeEngine(); err != nil {
		return invalidOptionValue(s, spec.OptionMergeEngine)
	}
	producer, err := opts.ChangelogProducer()
	if err != nil {
		return invalidOptionValue(s, spec.OptionChangelogProducer)
	}
	if len(s.PrimaryKeys) == 0 && producer != spec.ChangelogProducerNone {
		return invalidf("changelog-producer = %s needs a primary key", producer)
	}
	if _, err := opts.SequenceFieldSortOrder(); err != nil {
		return invalidOptionValue(s, spec.OptionSequenceFieldSortOrder)
	}
	return nil
}

func invalidOptionValue(s *spec.TableSchema, key string) error {
	return invalidf("option %s = %q is not a valid value", key, s.Options[key])
}

// validateSequenceField mirrors SchemaValidation.validateSequenceField.
func validateSequenceField(s *spec.TableSchema) error {
	fields := s.CoreOptions().SequenceField()
	for i, name := range fields {
		switch {
		case s.FieldIndex(name) < 0:
			return invalidf("sequence.field column %q does not exist", name)
		case slices.Contains(fields[:i], name):
			return invalidf("sequence.field column %q is listed twice", name)
		}
		if _, ok := s.CoreOptions().FieldAggregateFunction(name); ok {
			return invalidf("sequence.field column %q must not have an aggregate function", name)
		}
	}
	if engine, _ := s.CoreOptions().MergeEngine(); len(fields) > 0 && engine == spec.MergeEngineFirstRow {
		return invalidf("sequence.field cannot be used with merge-engine = first-row")
	}
	return nil
}

// validateFieldOptions checks that the per-field options
// "fields.<a>,<b>.<suffix>" name existing columns
// (SchemaValidation.validateFieldsPrefix), which also keeps a column that
// has such options from being dropped or renamed out from under them.
func validateFieldOptions(s *spec.TableSchema) error {
	for _, key := range slices.Sorted(maps.Keys(s.Options)) {
		rest, ok := strings.CutPrefix(key, fieldsOptionPrefix)
		if !ok {
			continue
		}
		names, _, _ := strings.Cut(rest, ".")
		for name := range strings.SplitSeq(names, ",") {
			if name != defaultAggregateFunction && s.FieldIndex(name) < 0 {
				return invalidf("option %s names column %q, which does not exist", key, name)
			}
		}
	}
	return nil
}

// checkWritable refuses valid Paimon tables that lakesql cannot write
// correctly, with an error wrapping lakeerr.ErrUnsupported.
func checkWritable(s *spec.TableSchema) error {
	if err := checkBucketWritable(s); err != nil {
		return err
	}
	if format := s.Options[spec.OptionFileFormat]; !strings.EqualFold(format, dataFileFormat) {
		return unsupportedf("file.format = %q: lakesql writes parquet data files only", format)
	}
	if t, ok := s.Options[optionTableType]; ok && !strings.EqualFold(t, "table") {
		return unsupportedf("table type %q: lakesql supports plain Paimon tables only", t)
	}
	if _, ok := s.Options[optionPath]; ok {
		return unsupportedf("option path: the filesystem catalog places tables itself")
	}
	opts := s.CoreOptions()
	if on, err := opts.RowTrackingEnabled(); err != nil || on {
		return unsupportedf("row tracking (%s)", spec.OptionRowTrackingEnabled)
	}
	if on, err := opts.DataEvolutionEnabled(); err != nil || on {
		return unsupportedf("data evolution (%s)", spec.OptionDataEvolutionEnabled)
	}
	for _, f := range s.Fields {
		if containsRoot(f.Type, spec.Blob) {
			return unsupportedf("BLOB column %q", f.Name)
		}
	}
	return nil
}

// checkBucketWritable refuses the bucket modes of primary-key tables whose
// key-to-bucket assignment lakesql does not implement.
func checkBucketWritable(s *spec.TableSchema) error {
	bucket, err := bucketCount(s)
	if err != nil || len(s.PrimaryKeys) == 0 {
		return err
	}
	switch bucket {
	case -1:
		return unsupportedf("dynamic bucket (bucket = -1) for primary-key tables; set bucket to a count >= 1")
	case postponeBucket:
		return unsupportedf("postpone bucket (bucket = -2); set bucket to a count >= 1")
	}
	return nil
}

func containsRoot(t spec.DataType, root spec.TypeRoot) bool {
	if t.Root == root {
		return true
	}
	for _, nested := range []*spec.DataType{t.Element, t.Key, t.Value} {
		if nested != nil && containsRoot(*nested, root) {
			return true
		}
	}
	for _, f := range t.Fields {
		if containsRoot(f.Type, root) {
			return true
		}
	}
	return false
}
