package ddl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Options the DDL itself declares, which the comment must not repeat.
const (
	optionPrimaryKey = "primary-key"
	optionPartition  = "partition"
)

// Definition builds the catalog definition of a new table from what GMS
// passes to sql.TableCreator.CreateTable (the column schema and the table
// comment) and the Spec ParseCreateTable read from the statement text:
//
//   - fields from the columns, typed by sqltypes.PaimonType, with the
//     column comments as descriptions;
//   - primary keys in PRIMARY KEY order;
//   - partition keys, bucket count and bucket key from Spec;
//   - options and table comment from the comment (see the package doc).
//
// Column names in Spec match case-insensitively, as MySQL's do, and take
// the spelling of the column definition. Definitions Paimon would refuse
// fail with catalog.ErrInvalidDefinition; column features Paimon lacks
// (AUTO_INCREMENT, DEFAULT values, generated columns, ON UPDATE) fail with
// lakeerr.ErrUnsupported. A Spec from CREATE TABLE … LIKE is refused: use
// LikeDefinition.
func Definition(schema sql.PrimaryKeySchema, s Spec, comment string) (catalog.TableDefinition, error) {
	if s.Like != nil {
		return catalog.TableDefinition{}, fmt.Errorf("%w: CREATE TABLE … LIKE builds its definition from the "+
			"source table's Paimon schema (LikeDefinition)", lakeerr.ErrUnsupported)
	}
	fields, err := fieldsOf(schema.Schema)
	if err != nil {
		return catalog.TableDefinition{}, err
	}
	def := catalog.TableDefinition{Fields: fields}
	for _, i := range schema.PkOrdinals {
		def.PrimaryKeys = append(def.PrimaryKeys, fields[i].Name)
	}
	parsed, err := parseComment(comment)
	if err != nil {
		return catalog.TableDefinition{}, err
	}
	if err := checkCreateOptions(parsed); err != nil {
		return catalog.TableDefinition{}, err
	}
	def.Options, def.Comment = parsed.set, parsed.text
	if def.PartitionKeys, err = resolveColumns(s.PartitionKeys, fields, "partition key"); err != nil {
		return catalog.TableDefinition{}, err
	}
	if err := checkPartitionKeys(def); err != nil {
		return catalog.TableDefinition{}, err
	}
	if err := addBuckets(&def, s); err != nil {
		return catalog.TableDefinition{}, err
	}
	if err := addFileIndexes(&def, s.Indexes); err != nil {
		return catalog.TableDefinition{}, err
	}
	return def, nil
}

// addFileIndexes declares the statement's secondary indexes as Paimon
// file indexes in the new table's own options (see fileindex.go).
func addFileIndexes(def *catalog.TableDefinition, indexes []IndexDef) error {
	if len(indexes) == 0 {
		return nil
	}
	if def.Options == nil {
		def.Options = map[string]string{}
	}
	if err := pinNames(def.Options); err != nil {
		return err
	}
	for _, ix := range indexes {
		if err := addFileIndex(def.Options, def.Fields, ix); err != nil {
			return err
		}
	}
	return unpinDefaultNames(def.Options)
}

func fieldsOf(schema sql.Schema) ([]spec.DataField, error) {
	fields := make([]spec.DataField, len(schema))
	for i, col := range schema {
		if err := checkColumn(col); err != nil {
			return nil, err
		}
		typ, err := sqltypes.PaimonType(col.Type, col.Nullable)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", col.Name, err)
		}
		fields[i] = spec.DataField{ID: i, Name: col.Name, Type: typ, Description: col.Comment}
	}
	return fields, nil
}

// checkColumn refuses column features a Paimon field cannot carry.
func checkColumn(col *sql.Column) error {
	var feature string
	switch {
	case col.Name == "" || strings.ContainsRune(col.Name, 0):
		return invalidf("column name %q is empty or contains NUL", col.Name)
	case col.AutoIncrement:
		feature = "AUTO_INCREMENT"
	case col.Generated != nil:
		feature = "generated columns"
	case col.OnUpdate != nil:
		feature = "ON UPDATE"
	case col.Default != nil && !isNullDefault(col.Default):
		feature = "DEFAULT values"
	default:
		return nil
	}
	return fmt.Errorf("%w: column %s: %s (Paimon columns have none)", lakeerr.ErrUnsupported, col.Name, feature)
}

// isNullDefault reports whether d is DEFAULT NULL, which every nullable
// Paimon column has.
func isNullDefault(d *sql.ColumnDefaultValue) bool {
	lit, ok := d.Expr.(*expression.Literal)
	return ok && lit.Value() == nil
}

// checkCreateOptions refuses comment options that the statement declares
// elsewhere, and null values, which only ALTER TABLE gives meaning to.
func checkCreateOptions(c commentOptions) error {
	if len(c.remove) > 0 {
		return fmt.Errorf("%w: table comment: Paimon option %q is null; null removes an option in ALTER TABLE only",
			ErrSyntax, c.remove[0])
	}
	for key, clause := range map[string]string{optionPrimaryKey: "PRIMARY KEY (…)", optionPartition: "PARTITION BY LIST COLUMNS (…)"} {
		if _, ok := c.set[key]; ok {
			return invalidf("table comment: declare option %q with %s", key, clause)
		}
	}
	return nil
}

// checkPartitionKeys applies Paimon's rule that a primary-key table's
// partition keys are part of its primary key.
func checkPartitionKeys(def catalog.TableDefinition) error {
	if len(def.PrimaryKeys) == 0 {
		return nil
	}
	for _, key := range def.PartitionKeys {
		if !slices.Contains(def.PrimaryKeys, key) {
			return invalidf("partition key %s is not part of the primary key (%s): "+
				"Paimon needs a primary-key table's partition keys in its primary key",
				key, strings.Join(def.PrimaryKeys, ", "))
		}
	}
	return nil
}

// addBuckets sets the bucket and bucket-key options from the KEY clause.
func addBuckets(def *catalog.TableDefinition, s Spec) error {
	if s.Buckets == 0 {
		return nil
	}
	if s.Buckets < 1 {
		return invalidf("%d buckets: a table needs at least 1", s.Buckets)
	}
	for _, key := range []string{spec.OptionBucket, spec.OptionBucketKey} {
		if _, ok := def.Options[key]; ok {
			return invalidf("option %s is declared both by PARTITION BY … KEY and in the table comment", key)
		}
	}
	bucketKey, err := resolveColumns(s.BucketKey, def.Fields, "bucket key")
	if err != nil {
		return err
	}
	if err := checkBucketKey(*def, bucketKey); err != nil {
		return err
	}
	if def.Options == nil {
		def.Options = map[string]string{}
	}
	def.Options[spec.OptionBucket] = strconv.Itoa(s.Buckets)
	if len(bucketKey) > 0 {
		def.Options[spec.OptionBucketKey] = strings.Join(bucketKey, ",")
	}
	return nil
}

// checkBucketKey applies Paimon's rules: bucket-key columns are not
// partition keys, and a primary-key table's are part of its primary key;
// an append table with buckets needs a bucket key.
func checkBucketKey(def catalog.TableDefinition, bucketKey []string) error {
	if len(bucketKey) == 0 && len(def.PrimaryKeys) == 0 {
		return invalidf("KEY () buckets by the primary key, and the table has none: name the bucket-key columns")
	}
	for _, key := range bucketKey {
		switch {
		case slices.Contains(def.PartitionKeys, key):
			return invalidf("bucket key %s is a partition key", key)
		case len(def.PrimaryKeys) > 0 && !slices.Contains(def.PrimaryKeys, key):
			return invalidf("bucket key %s is not part of the primary key (%s)", key, strings.Join(def.PrimaryKeys, ", "))
		}
	}
	return nil
}

// resolveColumns maps names to the fields they name, case-insensitively.
func resolveColumns(names []string, fields []spec.DataField, kind string) ([]string, error) {
	var out []string
	for _, name := range names {
		i := slices.IndexFunc(fields, func(f spec.DataField) bool { return strings.EqualFold(f.Name, name) })
		if i < 0 {
			return nil, invalidf("%s %s is not a column of the table", kind, name)
		}
		if slices.Contains(out, fields[i].Name) {
			return nil, invalidf("%s %s is listed twice", kind, name)
		}
		out = append(out, fields[i].Name)
	}
	return out, nil
}

// LikeDefinition is the definition of CREATE TABLE … LIKE source: the
// source's fields, keys, options and comment, without its location (option
// path). Field types come from the Paimon schema, so types MySQL cannot
// show (TIMESTAMP(9), ARRAY, …) are copied exactly.
func LikeDefinition(source *spec.TableSchema) catalog.TableDefinition {
	options := maps.Clone(source.Options)
	delete(options, optionPath)
	def := catalog.TableDefinition{
		Fields:        slices.Clone(source.Fields),
		PartitionKeys: slices.Clone(source.PartitionKeys),
		PrimaryKeys:   slices.Clone(source.PrimaryKeys),
		Options:       options,
	}
	if source.Comment != nil {
		def.Comment = *source.Comment
	}
	return def
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", catalog.ErrInvalidDefinition, fmt.Sprintf(format, args...))
}
