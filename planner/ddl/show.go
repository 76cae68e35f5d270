package ddl

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Options the catalog writes into every new schema; SHOW CREATE TABLE
// leaves them out when they hold the value the catalog would write again.
const (
	optionPath           = "path"
	defaultFileFormat    = "parquet"
	appendDefaultBuckets = -1 // bucket-unaware
	pkDefaultBuckets     = 1  // lakesql's default; Java's is -1 (dynamic)
)

// tableLayout is how SHOW CREATE TABLE expresses a schema's partitioning,
// bucketing and options.
type tableLayout struct {
	partitionKeys []string
	// buckets is 0 when no KEY clause is shown.
	buckets   int
	bucketKey []string
	// comment holds the options the comment carries.
	comment map[string]string
}

// layoutOf decides which options become PARTITION BY clauses, which go
// into the comment, and which are left for the catalog to fill in.
func layoutOf(s *spec.TableSchema) tableLayout {
	options := maps.Clone(s.Options)
	if options == nil {
		options = map[string]string{}
	}
	// The filesystem catalog places tables itself.
	delete(options, optionPath)
	// Bloom-filter and bitmap indexes are shown as KEY clauses.
	maps.DeleteFunc(options, func(key, _ string) bool { return IsFileIndexOption(key) })
	if options[spec.OptionFileFormat] == defaultFileFormat {
		delete(options, spec.OptionFileFormat)
	}
	l := tableLayout{partitionKeys: s.PartitionKeys, comment: options}
	bucket, hasBucket := options[spec.OptionBucket]
	if !hasBucket {
		bucket = strconv.Itoa(appendDefaultBuckets) // Java's default
	}
	buckets, err := strconv.Atoi(bucket)
	bucketKey := spec.NewCoreOptions(options).BucketKey()
	rawBucketKey, hasBucketKey := options[spec.OptionBucketKey]
	defaultBuckets := appendDefaultBuckets
	if len(s.PrimaryKeys) > 0 {
		defaultBuckets = pkDefaultBuckets
	}
	switch {
	case err == nil && buckets >= 1 && len(bucketKey) > 0 && rawBucketKey == strings.Join(bucketKey, ",") &&
		(len(s.PartitionKeys) == 0 || len(bucketKey) == 1):
		// GMS's parser takes one SUBPARTITION BY KEY column only.
		l.buckets, l.bucketKey = buckets, bucketKey
		delete(options, spec.OptionBucket)
		delete(options, spec.OptionBucketKey)
	case err == nil && !hasBucketKey && buckets == defaultBuckets:
		delete(options, spec.OptionBucket)
	default:
		options[spec.OptionBucket] = bucket
	}
	return l
}

func commentedOptions(s *spec.TableSchema) map[string]string {
	return layoutOf(s).comment
}

// ShowCreateTable returns a CREATE TABLE statement that GMS parses and
// that ParseCreateTable and Definition turn back into the same Paimon
// schema: fields with their types, nullability and comments, primary key,
// bloom-filter and bitmap file indexes (as KEY clauses, with their MySQL
// names), partition keys, bucket count and key, options, and comment. Field ids
// and the options the catalog fills in (file.format = parquet, the
// default bucket count) are not kept, nor is option "path".
//
// Columns whose Paimon type has no MySQL type mapping back to it fail
// with lakeerr.ErrUnsupported naming the column: TIMESTAMP and TIMESTAMP
// WITH LOCAL TIME ZONE above precision 6, TIME other than TIME(0), CHAR
// and BINARY longer than 255, VARCHAR longer than 16383 and VARBINARY
// longer than 65535 (except STRING and BYTES), ARRAY, MAP, MULTISET, ROW,
// VARIANT and BLOB; so do DECIMAL scales above 30 (GMS's limit) and
// columns with default values.
func ShowCreateTable(name string, s *spec.TableSchema) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", quoteIdent(name))
	for i, f := range s.Fields {
		line, err := columnDefinition(f)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  " + line)
	}
	if len(s.PrimaryKeys) > 0 {
		fmt.Fprintf(&b, ",\n  PRIMARY KEY (%s)", primaryKeyColumns(s))
	}
	indexes, err := FileIndexes(s.Options)
	if err != nil {
		return "", err
	}
	for _, ix := range indexes {
		fmt.Fprintf(&b, ",\n  KEY %s (%s)", quoteIdent(ix.Name), keyPart(s, ix.Column))
		if ix.Type == spec.FileIndexBitmap {
			b.WriteString(" USING " + IndexTypeBitmap)
		}
	}
	b.WriteString("\n)")
	if comment := TableComment(s); comment != "" {
		b.WriteString(" COMMENT=" + quoteString(comment))
	}
	writePartitioning(&b, layoutOf(s))
	return b.String(), nil
}

// keyPrefixLength is the prefix length SHOW CREATE TABLE gives text and
// blob primary-key and index columns (STRING, BYTES): GMS, like MySQL, refuses such
// a key without one. GMS passes the column as a plain primary-key column,
// and Paimon keys on whole values, so the length has no effect; 255
// characters stay within MySQL's 3072-byte limit per key part.
const keyPrefixLength = 255

func primaryKeyColumns(s *spec.TableSchema) string {
	parts := make([]string, len(s.PrimaryKeys))
	for i, key := range s.PrimaryKeys {
		parts[i] = keyPart(s, key)
	}
	return strings.Join(parts, ",")
}

// keyPart is a column of a key as SHOW CREATE TABLE prints it.
func keyPart(s *spec.TableSchema, column string) string {
	if idx := s.FieldIndex(column); idx >= 0 && isTextBlob(s.Fields[idx]) {
		return fmt.Sprintf("%s(%d)", quoteIdent(column), keyPrefixLength)
	}
	return quoteIdent(column)
}

// isTextBlob reports whether GMS shows the field as TEXT or BLOB, whose
// key parts MySQL and GMS require a prefix length for.
func isTextBlob(f spec.DataField) bool {
	gms, err := sqltypes.Type(f.Type)
	return err == nil && types.IsTextBlob(gms)
}

func writePartitioning(b *strings.Builder, l tableLayout) {
	switch {
	case len(l.partitionKeys) > 0:
		fmt.Fprintf(b, "\nPARTITION BY LIST COLUMNS (%s)", quoteIdents(l.partitionKeys))
		if l.buckets > 0 {
			fmt.Fprintf(b, "\nSUBPARTITION BY KEY (%s) SUBPARTITIONS %d", quoteIdents(l.bucketKey), l.buckets)
		}
	case l.buckets > 0:
		fmt.Fprintf(b, "\nPARTITION BY KEY (%s) PARTITIONS %d", quoteIdents(l.bucketKey), l.buckets)
	}
}

func columnDefinition(f spec.DataField) (string, error) {
	if f.DefaultValue != nil {
		return "", fmt.Errorf("%w: column %s: default values", lakeerr.ErrUnsupported, f.Name)
	}
	typ, err := mysqlType(f.Type)
	if err != nil {
		return "", fmt.Errorf("column %s: %w", f.Name, err)
	}
	line := quoteIdent(f.Name) + " " + typ
	if !f.Type.Nullable {
		line += " NOT NULL"
	}
	if f.Description != "" {
		line += " COMMENT " + quoteString(f.Description)
	}
	return line, nil
}

// mysqlType returns the column type GMS shows for t, provided that
// declaring a column with it gives back t.
func mysqlType(t spec.DataType) (string, error) {
	gms, err := sqltypes.DeclaredType(t)
	if errors.Is(err, lakeerr.ErrUnsupported) {
		return "", err
	}
	if err != nil {
		// GMS refuses some Paimon types, such as DECIMAL(38, 31).
		return "", fmt.Errorf("%w: Paimon type %s: %v", lakeerr.ErrUnsupported, t, err)
	}
	back, err := sqltypes.PaimonType(gms, t.Nullable)
	if err != nil || !reflect.DeepEqual(back, t) {
		return "", fmt.Errorf("%w: Paimon type %s has no MySQL column type that maps back to it (GMS shows it as %s)",
			lakeerr.ErrUnsupported, t, gms)
	}
	return gms.String(), nil
}

func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func quoteIdents(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = quoteIdent(n)
	}
	return strings.Join(quoted, ",")
}

// quoteString writes s as a MySQL string literal.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`, "\x00", `\0`).Replace(s) + "'"
}
