package ddl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ErrSyntax marks a statement this package cannot parse. Errors about
// valid MySQL that Paimon cannot express wrap lakeerr.ErrUnsupported
// instead, and definitions Paimon refuses wrap catalog.ErrInvalidDefinition.
var ErrSyntax = errors.New("syntax error")

// acceptedEngines are the ENGINE values CREATE TABLE accepts: paimon, and
// InnoDB because GMS's SHOW CREATE TABLE, mysqldump and ORMs write it.
// Other engines promise behaviour (MEMORY, MyISAM, …) a Paimon table does
// not have, so they are refused rather than ignored as GMS would.
var acceptedEngines = []string{"innodb", "paimon"}

// TableName is a possibly database-qualified table name.
type TableName struct {
	// Database is "" when the statement names none.
	Database string
	Name     string
}

// Spec is what the text of a CREATE TABLE statement says about the Paimon
// table beyond the column schema and comment GMS hands to
// sql.TableCreator.CreateTable: GMS v0.20.0 drops PARTITION BY.
type Spec struct {
	Name        TableName
	IfNotExists bool
	// Like is the source table of CREATE TABLE … LIKE, else nil. Build
	// such a table with LikeDefinition from the source's Paimon schema.
	Like *TableName
	// AsSelect marks CREATE TABLE … AS SELECT; GMS passes the schema of
	// the query, which has no primary key.
	AsSelect bool
	// PartitionKeys come from PARTITION BY LIST COLUMNS (…).
	PartitionKeys []string
	// BucketKey and Buckets come from PARTITION BY KEY (…) PARTITIONS n or
	// SUBPARTITION BY KEY (…) SUBPARTITIONS n. Buckets is 0 when the
	// statement names no bucket count; an empty BucketKey with a count is
	// KEY (), which buckets by the primary key.
	BucketKey []string
	Buckets   int
	// Indexes are the INDEX, KEY, UNIQUE, FULLTEXT and SPATIAL clauses,
	// with the USING that GMS drops; not the primary key.
	Indexes []IndexDef
}

// ParseCreateTable re-parses the text of a CREATE TABLE statement (GMS's
// ctx.Query()) for the parts GMS drops. Partition clauses map to Paimon as
//
//	PARTITION BY LIST COLUMNS (dt, …)            partition keys
//	PARTITION BY KEY (k, …) PARTITIONS n         bucket = n, bucket-key = k, …
//	PARTITION BY LIST COLUMNS (dt, …)
//	  SUBPARTITION BY KEY (k, …) SUBPARTITIONS n  both
//
// A list of partition definitions after LIST COLUMNS is ignored, since
// Paimon creates partitions as rows arrive; KEY () buckets by the primary
// key. Other partitioning (RANGE, HASH, LIST without COLUMNS, LINEAR)
// fails with lakeerr.ErrUnsupported, as do CREATE TEMPORARY TABLE and
// ENGINEs other than InnoDB and paimon.
//
// GMS's own parser rejects some of these forms before CreateTable is
// called: a VALUES IN partition list, KEY (), and SUBPARTITION BY KEY with
// more than one column.
func ParseCreateTable(query string) (Spec, error) {
	tokens, code, err := scan(query)
	if err != nil {
		return Spec{}, err
	}
	rest, p, err := cutPartitionClause(code, tokens)
	if err != nil {
		return Spec{}, err
	}
	stmt, err := sqlparser.Parse(rest)
	if err != nil {
		return Spec{}, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	create, ok := stmt.(*sqlparser.DDL)
	if !ok || !isCreateTable(create) {
		return Spec{}, fmt.Errorf("%w: not a CREATE TABLE statement: %.60q", ErrSyntax, query)
	}
	if create.Temporary {
		return Spec{}, fmt.Errorf("%w: temporary tables: every lakesql table is a persistent Paimon table",
			lakeerr.ErrUnsupported)
	}
	s := Spec{
		Name:          tableName(create.Table),
		IfNotExists:   create.IfNotExists,
		AsSelect:      create.OptSelect != nil,
		PartitionKeys: p.partitionKeys,
		BucketKey:     p.bucketKey,
		Buckets:       p.buckets,
	}
	if err := CheckTableName(s.Name.Name); err != nil {
		return Spec{}, err
	}
	if create.OptLike != nil {
		like := tableName(create.OptLike.LikeTables[0])
		s.Like = &like
		if p.partitionKeys != nil || p.buckets != 0 {
			return Spec{}, fmt.Errorf("%w: CREATE TABLE … LIKE copies the partitioning of %s; "+
				"it takes no PARTITION BY", lakeerr.ErrUnsupported, like.Name)
		}
	}
	if create.TableSpec != nil {
		if err := checkEngine(create.TableSpec.TableOpts); err != nil {
			return Spec{}, err
		}
		if s.Indexes, err = indexClauses(create.TableSpec.Indexes); err != nil {
			return Spec{}, err
		}
	}
	return s, nil
}

// indexClauses reads the secondary index clauses of CREATE TABLE.
func indexClauses(defs []*sqlparser.IndexDefinition) ([]IndexDef, error) {
	var out []IndexDef
	for _, d := range defs {
		if d.Info.Primary {
			continue
		}
		def := IndexDef{Name: d.Info.Name.String(), Constraint: indexConstraint(d.Info)}
		for _, c := range d.Columns {
			col := sql.IndexColumn{Name: c.Column.String()}
			if c.Length != nil {
				n, err := strconv.ParseInt(string(c.Length.Val), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("%w: key part %s: length %s", ErrSyntax, col.Name, c.Length.Val)
				}
				col.Length = n
			}
			def.Columns = append(def.Columns, col)
		}
		for _, o := range d.Options {
			if o.Using != "" {
				def.Using = o.Using
			}
		}
		out = append(out, def)
	}
	return out, nil
}

func indexConstraint(info *sqlparser.IndexInfo) sql.IndexConstraint {
	switch {
	case info.Unique:
		return sql.IndexConstraint_Unique
	case info.Fulltext:
		return sql.IndexConstraint_Fulltext
	case info.Spatial:
		return sql.IndexConstraint_Spatial
	case info.Vector:
		return sql.IndexConstraint_Vector
	}
	return sql.IndexConstraint_None
}

func isCreateTable(d *sqlparser.DDL) bool {
	return strings.EqualFold(d.Action, sqlparser.CreateStr) && d.Table.Name.String() != "" &&
		d.ViewSpec == nil && d.TriggerSpec == nil && d.ProcedureSpec == nil &&
		d.EventSpec == nil && d.IndexSpec == nil
}

func tableName(t sqlparser.TableName) TableName {
	return TableName{Database: t.DbQualifier.String(), Name: t.Name.String()}
}

func checkEngine(options []*sqlparser.TableOption) error {
	for _, o := range options {
		if !strings.EqualFold(o.Name, "engine") {
			continue
		}
		if err := checkEngineName(o.Value); err != nil {
			return err
		}
	}
	return nil
}

func checkEngineName(engine string) error {
	for _, accepted := range acceptedEngines {
		if strings.EqualFold(engine, accepted) {
			return nil
		}
	}
	return fmt.Errorf("%w: ENGINE=%s: every lakesql table is a Paimon table; write ENGINE=paimon, "+
		"ENGINE=InnoDB or no ENGINE", lakeerr.ErrUnsupported, engine)
}

// CheckTableName refuses table names a Paimon warehouse cannot hold or
// that lakesql reserves: empty names, NUL, path separators, "..", and "$",
// which separates a table from its system tables (t$snapshots). Errors
// wrap catalog.ErrInvalidName.
func CheckTableName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty table name", catalog.ErrInvalidName)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("%w: table name %q contains NUL", catalog.ErrInvalidName, name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%w: table name %q contains a path separator", catalog.ErrInvalidName, name)
	case strings.Contains(name, ".."):
		return fmt.Errorf("%w: table name %q contains \"..\"", catalog.ErrInvalidName, name)
	case strings.Contains(name, "$"):
		return fmt.Errorf("%w: table name %q contains '$', which names system tables such as t$snapshots",
			catalog.ErrInvalidName, name)
	}
	return nil
}
