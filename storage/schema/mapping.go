package schema

import (
	"fmt"
	"slices"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Options are the inputs of a RowMapping besides the two schemas.
type Options struct {
	// Location stands for the JVM default time zone, which Java uses when it
	// casts between TIMESTAMP_LTZ and STRING, DATE, TIME, TIMESTAMP, INT or
	// BIGINT. nil means UTC.
	Location *time.Location
}

// RowMapping turns rows read from a data file written under an older schema
// into rows of the read schema. Columns are matched by field id, so a
// renamed column is still found and a dropped and re-added name is not
// confused with the old column; read columns the file lacks are NULL, and
// columns whose type changed are cast as Java casts them. Mirrors
// SchemaEvolutionUtil.createIndexCastMapping together with the choice of
// file columns in org.apache.paimon.utils.FormatReaderMapping.
//
// A RowMapping is immutable and safe for concurrent use.
type RowMapping struct {
	fileFields []spec.DataField
	fields     fieldMapping
}

// NewRowMapping maps the columns of a data file (the fields of the schema
// whose id is the file's schema id) to readFields (the fields of the schema
// being read, possibly a projection of it). A type change that Java cannot
// cast wraps lakeerr.ErrUnsupported.
func NewRowMapping(fileFields, readFields []spec.DataField, opts Options) (*RowMapping, error) {
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	toRead, err := fileFieldsToRead(fileFields, readFields)
	if err != nil {
		return nil, err
	}
	fm, err := caster{loc: loc}.newFieldMapping(toRead, readFields)
	if err != nil {
		return nil, err
	}
	return &RowMapping{fileFields: toRead, fields: fm}, nil
}

// FileFields are the columns to read from the data file, in file order,
// with the file's names and types. ROW types are pruned to the nested fields
// the read schema uses, in read order. Rows passed to Apply must hold
// exactly these columns with exactly these types.
func (m *RowMapping) FileFields() []spec.DataField { return slices.Clone(m.fileFields) }

// FileColumnNames are the names of FileFields: a renamed column keeps its
// old name in old files.
func (m *RowMapping) FileColumnNames() []string {
	names := make([]string, len(m.fileFields))
	for i, f := range m.fileFields {
		names[i] = f.Name
	}
	return names
}

// Identity reports whether Apply returns its input unchanged.
func (m *RowMapping) Identity() bool { return m.fields.identity }

// Apply converts one file row (values of FileFields) into a row of the read
// fields. The input is returned as is when the mapping is the identity;
// otherwise a new row is built and the input is not modified. A value Java
// fails to cast wraps ErrCastFailed.
func (m *RowMapping) Apply(fileRow []any) ([]any, error) {
	return m.fields.apply(fileRow)
}

// fieldMapping maps one level of fields: the top-level columns or the
// fields of a ROW. Mirrors the int[] index mapping plus CastFieldGetter[] of
// SchemaEvolutionUtil.
type fieldMapping struct {
	columns    []columnMapping
	inputWidth int
	identity   bool
}

type columnMapping struct {
	name   string
	source int // index in the input row, or -1 when the input lacks it
	cast   castFunc
}

// newFieldMapping mirrors SchemaEvolutionUtil.createIndexMapping and
// createCastFieldGetterMapping.
func (c caster) newFieldMapping(input, target []spec.DataField) (fieldMapping, error) {
	index := make(map[int]int, len(input))
	for i, f := range input {
		index[f.ID] = i
	}
	fm := fieldMapping{columns: make([]columnMapping, len(target)), inputWidth: len(input)}
	fm.identity = len(input) == len(target)
	for i, t := range target {
		col := columnMapping{name: t.Name, source: -1}
		if src, ok := index[t.ID]; ok {
			cast, err := c.resolve(input[src].Type, t.Type)
			if err != nil {
				return fieldMapping{}, fmt.Errorf("column %q: %w", t.Name, err)
			}
			col.source, col.cast = src, cast
		}
		fm.identity = fm.identity && col.source == i && col.cast == nil
		fm.columns[i] = col
	}
	return fm, nil
}

func (fm fieldMapping) apply(row []any) ([]any, error) {
	if len(row) != fm.inputWidth {
		return nil, fmt.Errorf("%w: row has %d values, expected %d", lakeerr.ErrCorruption, len(row), fm.inputWidth)
	}
	if fm.identity {
		return row, nil
	}
	out := make([]any, len(fm.columns))
	for i, col := range fm.columns {
		if col.source < 0 {
			continue
		}
		v := row[col.source]
		if v == nil || col.cast == nil {
			out[i] = v
			continue
		}
		cv, err := col.cast(v)
		if err != nil {
			return nil, fmt.Errorf("failed to cast value for field '%s': %w", col.name, err)
		}
		out[i] = cv
	}
	return out, nil
}

// fileFieldsToRead mirrors FormatReaderMapping.Builder.readDataFields: the
// file columns that some read column has the id of, in file order, with
// nested types pruned to what is read. A column whose ROW type prunes to
// nothing is not read at all and comes out NULL.
func fileFieldsToRead(fileFields, readFields []spec.DataField) ([]spec.DataField, error) {
	byID := make(map[int]spec.DataField, len(readFields))
	for _, f := range readFields {
		if _, dup := byID[f.ID]; !dup {
			byID[f.ID] = f
		}
	}
	var out []spec.DataField
	for _, f := range fileFields {
		r, ok := byID[f.ID]
		if !ok {
			continue
		}
		pruned, keep, err := pruneType(r.Type, f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", r.Name, err)
		}
		if keep {
			f.Type = pruned
			out = append(out, f)
		}
	}
	return out, nil
}

// pruneType mirrors FormatReaderMapping.Builder.pruneDataType: the file type
// restricted to the nested ROW fields the read type has (matched by id, in
// read order). keep is false when nothing of the column is left to read.
func pruneType(read, file spec.DataType) (pruned spec.DataType, keep bool, err error) {
	switch read.Root {
	case spec.Row, spec.Map, spec.Array:
		if file.Root != read.Root {
			return file, false, unsupportedCast(file, read)
		}
	}
	switch read.Root {
	case spec.Row:
		return pruneRow(read, file)
	case spec.Map:
		key, keepKey, err := pruneType(*read.Key, *file.Key)
		if err != nil {
			return file, false, err
		}
		value, keepValue, err := pruneType(*read.Value, *file.Value)
		file.Key, file.Value = &key, &value
		return file, keepKey && keepValue, err
	case spec.Array:
		elem, keepElem, err := pruneType(*read.Element, *file.Element)
		file.Element = &elem
		return file, keepElem, err
	}
	return file, true, nil
}

func pruneRow(read, file spec.DataType) (spec.DataType, bool, error) {
	byID := make(map[int]spec.DataField, len(file.Fields))
	for _, f := range file.Fields {
		byID[f.ID] = f
	}
	var fields []spec.DataField
	for _, rf := range read.Fields {
		ff, ok := byID[rf.ID]
		if !ok {
			continue
		}
		pruned, keep, err := pruneType(rf.Type, ff.Type)
		if err != nil {
			return file, false, err
		}
		if keep {
			ff.Type = pruned
			fields = append(fields, ff)
		}
	}
	file.Fields = fields
	return file, len(fields) > 0, nil
}
