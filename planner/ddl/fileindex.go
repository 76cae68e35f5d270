package ddl

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// MySQL secondary indexes are Paimon data-file indexes: table options
// that make writers store, per data file, an index of one column that
// lets readers skip the file.
//
//	KEY i (c) [USING BTREE | HASH | BLOOM]  c in file-index.bloom-filter.columns
//	KEY i (c) USING BITMAP                  c in file-index.bitmap.columns
//
// Paimon indexes have no names, so the name MySQL users give is kept in
// option lakesql.index-name.<type>.<column>, which Java Paimon stores and
// ignores. It must not start with "file-index.": Java's FileIndexOptions
// refuses undeclared file-index.<type>.<column>.<key> options.

// Index types as SHOW INDEX shows them and USING names them. MySQL and
// GMS declare information_schema.STATISTICS.INDEX_TYPE as VARCHAR(11), so
// "BLOOM_FILTER" would not fit a client that sizes its buffers by the
// column; both names are what USING takes to create that index again.
const (
	IndexTypeBloom  = "BLOOM"
	IndexTypeBitmap = "BITMAP"
)

// primaryKeyName is the name MySQL reserves for the primary key.
const primaryKeyName = "PRIMARY"

// Sentinels of the index errors MySQL reports with numbers of their own;
// they come wrapped in a *KeyError carrying MySQL's text.
var (
	// ErrDuplicateKeyName is ER_DUP_KEYNAME (1061).
	ErrDuplicateKeyName = errors.New("duplicate key name")
	// ErrKeyColumnNotFound is ER_KEY_COLUMN_DOES_NOT_EXITS (1072).
	ErrKeyColumnNotFound = errors.New("key column does not exist")
	// ErrKeyNotFound is ER_CANT_DROP_FIELD_OR_KEY (1091).
	ErrKeyNotFound = errors.New("key does not exist")
)

// KeyError is an index error with MySQL's own message text.
type KeyError struct {
	Kind    error
	Message string
}

func (e *KeyError) Error() string { return e.Message }
func (e *KeyError) Unwrap() error { return e.Kind }

func keyErrorf(kind error, format string, args ...any) error {
	return &KeyError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// FileIndex is one Paimon file index as MySQL shows it.
type FileIndex struct {
	Name, Column string
	// Type is the Paimon index type: spec.FileIndexBloomFilter or
	// spec.FileIndexBitmap.
	Type string
}

// IndexType is the index type SHOW INDEX shows.
func (ix FileIndex) IndexType() string {
	if ix.Type == spec.FileIndexBitmap {
		return IndexTypeBitmap
	}
	return IndexTypeBloom
}

// IndexDef is a secondary index as DDL declares it: CREATE INDEX, ALTER
// TABLE … ADD INDEX, or an INDEX or KEY clause of CREATE TABLE.
type IndexDef struct {
	// Name is "" for an unnamed index, which gets MySQL's default name.
	Name       string
	Columns    []sql.IndexColumn
	Constraint sql.IndexConstraint
	// Using is the index type the statement names, "" for none.
	Using string
}

// IndexChange is one index clause of an ALTER TABLE, CREATE INDEX or DROP
// INDEX statement: Add, or Drop, or a rename of From to To.
type IndexChange struct {
	Add      *IndexDef
	Drop     string
	From, To string
}

// FileIndexes lists the bloom-filter and bitmap indexes the options
// declare, bloom filters first, each in the order its columns option
// lists them. An index without a name option (declared by Java) is named
// as MySQL names an unnamed index: by its column, with "_bitmap" added to
// a bitmap index whose column name a bloom filter has, and "_2", "_3", …
// after a name still taken. Other index types (bsi, range-bitmap) stay
// plain options.
func FileIndexes(options map[string]string) ([]FileIndex, error) {
	declared, err := spec.NewCoreOptions(options).FileIndexColumns()
	if err != nil {
		return nil, err
	}
	var out []FileIndex
	for _, typ := range []string{spec.FileIndexBloomFilter, spec.FileIndexBitmap} {
		for _, c := range declared {
			if c.Type == typ {
				out = append(out, FileIndex{Name: options[indexNameOption(typ, c.Column)], Column: c.Column, Type: typ})
			}
		}
	}
	for i := range out {
		if out[i].Name == "" {
			out[i].Name = defaultIndexName(out, out[i])
		}
	}
	return out, nil
}

func indexNameOption(typ, column string) string {
	return spec.OptionIndexNamePrefix + typ + "." + column
}

func defaultIndexName(indexes []FileIndex, ix FileIndex) string {
	name := ix.Column
	if ix.Type == spec.FileIndexBitmap && nameTaken(indexes, name) {
		name += "_bitmap"
	}
	return freeName(indexes, name)
}

// freeName is name, or MySQL's name_2, name_3, … when name is taken.
func freeName(indexes []FileIndex, name string) string {
	free := name
	for i := 2; nameTaken(indexes, free); i++ {
		free = fmt.Sprintf("%s_%d", name, i)
	}
	return free
}

// nameTaken compares as MySQL compares index names: without case.
func nameTaken(indexes []FileIndex, name string) bool {
	return strings.EqualFold(name, primaryKeyName) || slices.ContainsFunc(indexes, func(ix FileIndex) bool {
		return strings.EqualFold(ix.Name, name)
	})
}

// IsFileIndexOption reports whether SHOW CREATE TABLE shows the option as
// KEY clauses rather than in the comment: the columns options of bloom
// filters and bitmaps, and the index names. Per-index options
// (file-index.bloom-filter.c.fpp) stay in the comment.
func IsFileIndexOption(key string) bool {
	return key == spec.FileIndexColumnsOption(spec.FileIndexBloomFilter) ||
		key == spec.FileIndexColumnsOption(spec.FileIndexBitmap) ||
		strings.HasPrefix(key, spec.OptionIndexNamePrefix)
}

// IndexChanges returns the option changes that apply the index clauses,
// in order, to the table s: derive them from the latest schema
// (catalog.Derived), since they edit list values.
func IndexChanges(s *spec.TableSchema, clauses []IndexChange) ([]catalog.SchemaChange, error) {
	options := maps.Clone(s.Options)
	if options == nil {
		options = map[string]string{}
	}
	if err := pinNames(options); err != nil {
		return nil, err
	}
	for _, c := range clauses {
		var err error
		switch {
		case c.Add != nil:
			err = addFileIndex(options, s.Fields, *c.Add)
		case c.Drop != "":
			err = dropFileIndex(options, c.Drop)
		default:
			err = renameFileIndex(options, c.From, c.To)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := unpinDefaultNames(options); err != nil {
		return nil, err
	}
	return optionChanges(s.Options, options), nil
}

// pinNames writes every index's shown name into its name option, so that
// a change to one index renames no other: a default name depends on the
// other indexes (v_bitmap beside a bloom filter named v).
func pinNames(options map[string]string) error {
	indexes, err := FileIndexes(options)
	for _, ix := range indexes {
		options[indexNameOption(ix.Type, ix.Column)] = ix.Name
	}
	return err
}

// unpinDefaultNames removes the name options that change no shown name,
// so that indexes named as Java-declared ones are shown (by their column)
// carry no lakesql option, and a table recreated from SHOW CREATE TABLE
// has the options of the original.
func unpinDefaultNames(options map[string]string) error {
	shown, err := FileIndexes(options)
	if err != nil {
		return err
	}
	for _, ix := range shown {
		key := indexNameOption(ix.Type, ix.Column)
		name, ok := options[key]
		if !ok {
			continue
		}
		delete(options, key)
		if now, err := FileIndexes(options); err != nil || !slices.Equal(now, shown) {
			options[key] = name
		}
	}
	return nil
}

func optionChanges(old, next map[string]string) []catalog.SchemaChange {
	var changes []catalog.SchemaChange
	for _, key := range slices.Sorted(maps.Keys(next)) {
		if value, ok := old[key]; !ok || value != next[key] {
			changes = append(changes, catalog.SetOption{Key: key, Value: next[key]})
		}
	}
	for _, key := range slices.Sorted(maps.Keys(old)) {
		if _, ok := next[key]; !ok {
			changes = append(changes, catalog.RemoveOption{Key: key})
		}
	}
	return changes
}

// addFileIndex declares the index def in options. The column keeps the
// spelling of its field; an index on a column that already has one of
// the same type is a duplicate (1061), where MySQL would warn and keep
// both: Paimon has one index of a type per column, and a second name for
// it would make DROP INDEX of either drop both.
func addFileIndex(options map[string]string, fields []spec.DataField, def IndexDef) error {
	typ, err := fileIndexType(def.Using)
	if err != nil {
		return err
	}
	if err := CheckIndexShape(def); err != nil {
		return err
	}
	field, err := indexedField(fields, def.Columns[0], typ)
	if err != nil {
		return err
	}
	indexes, err := FileIndexes(options)
	if err != nil {
		return err
	}
	name := def.Name
	if name == "" {
		name = freeName(indexes, field.Name)
	}
	if nameTaken(indexes, name) {
		return keyErrorf(ErrDuplicateKeyName, "Duplicate key name '%s'", name)
	}
	if i := slices.IndexFunc(indexes, func(ix FileIndex) bool { return ix.Column == field.Name && ix.Type == typ }); i >= 0 {
		return keyErrorf(ErrDuplicateKeyName, "Duplicate key name '%s': column %s already has the %s index %s "+
			"(Paimon keeps one file index of a type per column)", name, field.Name, indexes[i].IndexType(), indexes[i].Name)
	}
	key := spec.FileIndexColumnsOption(typ)
	options[key] = strings.Join(append(listedColumns(options[key]), field.Name), ",")
	options[indexNameOption(typ, field.Name)] = name
	return nil
}

// listedColumns splits a columns option, dropping empty entries so that
// an empty option gains no leading comma.
func listedColumns(list string) []string {
	var out []string
	for _, c := range strings.Split(list, ",") {
		if strings.TrimSpace(c) != "" {
			out = append(out, c)
		}
	}
	return out
}

// fileIndexType maps USING to a Paimon index type: bloom filters answer
// the equality lookups MySQL's BTREE and HASH indexes serve.
func fileIndexType(using string) (string, error) {
	switch strings.ToLower(using) {
	case "", "btree", "hash", "bloom":
		return spec.FileIndexBloomFilter, nil
	case "bitmap":
		return spec.FileIndexBitmap, nil
	}
	return "", fmt.Errorf("%w: index type %s: lakesql indexes are Paimon file indexes, USING BLOOM "+
		"(the default, also for BTREE and HASH) or USING BITMAP", lakeerr.ErrUnsupported, using)
}

// CheckIndexShape refuses what a Paimon file index cannot be: it covers
// one column and enforces nothing. Prefix lengths are checked with the
// column's type (indexedField).
func CheckIndexShape(def IndexDef) error {
	var what string
	switch {
	case def.Constraint == sql.IndexConstraint_Unique:
		what = "UNIQUE indexes: a Paimon file index only lets reads skip files and enforces nothing; " +
			"a table's unique key is its PRIMARY KEY"
	case def.Constraint != sql.IndexConstraint_None:
		what = "FULLTEXT, SPATIAL and VECTOR indexes"
	case len(def.Columns) != 1:
		what = "indexes of several columns: a Paimon file index covers one column; declare one index per column"
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", lakeerr.ErrUnsupported, what)
}

// indexedField finds the indexed column, as MySQL does without case, and
// checks that the index type can hold its type. A prefix length is
// accepted on TEXT and BLOB columns only (Paimon STRING and BYTES), where
// MySQL and GMS require one and SHOW CREATE TABLE prints one, as for the
// primary key (keyPrefixLength): the index still covers whole values,
// which finds the same rows. Elsewhere a prefix would index less than
// the column, which a file index cannot.
func indexedField(fields []spec.DataField, column sql.IndexColumn, typ string) (spec.DataField, error) {
	i := slices.IndexFunc(fields, func(f spec.DataField) bool { return strings.EqualFold(f.Name, column.Name) })
	if i < 0 {
		return spec.DataField{}, keyErrorf(ErrKeyColumnNotFound, "Key column '%s' doesn't exist in table", column.Name)
	}
	prefix := column.Length
	f := fields[i]
	if prefix > 0 && !isTextBlob(f) {
		return spec.DataField{}, fmt.Errorf("%w: prefix indexes (%s(%d)): a Paimon file index covers whole values",
			lakeerr.ErrUnsupported, f.Name, prefix)
	}
	if !indexable(typ, f.Type.Root) {
		return spec.DataField{}, fmt.Errorf("%w: a %s index on column %s: Paimon's %s index cannot hold type %s",
			lakeerr.ErrUnsupported, FileIndex{Type: typ}.IndexType(), f.Name, typ, f.Type)
	}
	return f, nil
}

// indexable lists the types Paimon's index factories accept (the
// fileindex spec): bloom filters hash these, bitmaps key on these.
func indexable(typ string, root spec.TypeRoot) bool {
	switch root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Char, spec.VarChar,
		spec.Date, spec.Time, spec.Timestamp, spec.TimestampLTZ:
		return true
	case spec.Float, spec.Double, spec.Binary, spec.VarBinary:
		return typ == spec.FileIndexBloomFilter
	case spec.Boolean:
		return typ == spec.FileIndexBitmap
	}
	return false
}

// dropFileIndex removes the index: its column from the columns option
// (the option itself once empty), its per-index options and its name.
func dropFileIndex(options map[string]string, name string) error {
	ix, err := findIndex(options, name)
	if err != nil {
		return err
	}
	key := spec.FileIndexColumnsOption(ix.Type)
	kept := slices.DeleteFunc(listedColumns(options[key]), func(c string) bool { return strings.TrimSpace(c) == ix.Column })
	if len(kept) == 0 {
		delete(options, key)
	} else {
		options[key] = strings.Join(kept, ",")
	}
	own := "file-index." + ix.Type + "." + ix.Column + "."
	for k := range options {
		if strings.HasPrefix(k, own) && !strings.Contains(k[len(own):], ".") {
			delete(options, k)
		}
	}
	delete(options, indexNameOption(ix.Type, ix.Column))
	return nil
}

func renameFileIndex(options map[string]string, from, to string) error {
	ix, err := findIndex(options, from)
	if err != nil {
		return err
	}
	indexes, err := FileIndexes(options)
	if err != nil {
		return err
	}
	others := slices.DeleteFunc(indexes, func(o FileIndex) bool { return o == ix })
	if nameTaken(others, to) {
		return keyErrorf(ErrDuplicateKeyName, "Duplicate key name '%s'", to)
	}
	options[indexNameOption(ix.Type, ix.Column)] = to
	return nil
}

func findIndex(options map[string]string, name string) (FileIndex, error) {
	if strings.EqualFold(name, primaryKeyName) {
		return FileIndex{}, fmt.Errorf("%w: the primary key of a Paimon table is fixed when the table is created",
			lakeerr.ErrUnsupported)
	}
	indexes, err := FileIndexes(options)
	if err != nil {
		return FileIndex{}, err
	}
	i := slices.IndexFunc(indexes, func(ix FileIndex) bool { return strings.EqualFold(ix.Name, name) })
	if i < 0 {
		return FileIndex{}, keyErrorf(ErrKeyNotFound, "Can't DROP '%s'; check that column/key exists", name)
	}
	return indexes[i], nil
}
