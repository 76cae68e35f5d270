package scan

import (
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// statsMapper lays the statistics of manifests and data files onto the
// read row, the column space the filter evaluates, so one predicate tests
// partitions, keys and values alike. Columns without usable statistics are
// left empty, which predicate.Test reads as unknown. Mirrors the role of
// Java's SimpleStatsEvolution, more conservatively: statistics of a column
// whose type changed are not used at all.
type statsMapper struct {
	read      *spec.TableSchema
	partCols  []int
	partTypes []spec.DataType
	// missingIsNull holds when a column a file lacks reads as NULL, so its
	// statistics in that file are "all null". Default values
	// (fields.<name>.default-value) would fill such columns.
	missingIsNull bool
	schemaOf      func(id int64) (*spec.TableSchema, error)
	mu            sync.Mutex
	layouts       map[int64]*fileLayout
}

// fileLayout maps the columns of files written under one schema to the
// read row: -1 where the read row has no such column or another type.
type fileLayout struct {
	schema    *spec.TableSchema
	valueToRd []int
	keyTypes  []spec.DataType
	keyToRd   []int
	// missing are the read positions the file schema has no field for.
	missing []int
}

func newStatsMapper(read *spec.TableSchema, partCols []int, schemaOf func(int64) (*spec.TableSchema, error)) *statsMapper {
	m := &statsMapper{read: read, partCols: partCols, schemaOf: schemaOf, layouts: map[int64]*fileLayout{}, missingIsNull: true}
	for _, c := range partCols {
		m.partTypes = append(m.partTypes, read.Fields[c].Type.WithNullable(true))
	}
	for k := range read.Options {
		if strings.HasPrefix(k, "fields.") && strings.HasSuffix(k, ".default-value") {
			m.missingIsNull = false
		}
	}
	return m
}

// layout returns the layout of files written under schema id.
func (m *statsMapper) layout(id int64) (*fileLayout, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.layouts[id]; ok {
		return l, nil
	}
	s, err := m.schemaOf(id)
	if err != nil {
		return nil, err
	}
	l := &fileLayout{schema: s, valueToRd: m.toRead(s.Fields)}
	keyFields := fieldsNamed(s, s.TrimmedPrimaryKeys())
	for _, f := range keyFields {
		l.keyTypes = append(l.keyTypes, f.Type)
	}
	l.keyToRd = m.toRead(keyFields)
	for j, rf := range m.read.Fields {
		if _, ok := s.FieldByID(rf.ID); !ok {
			l.missing = append(l.missing, j)
		}
	}
	m.layouts[id] = l
	return l, nil
}

func (m *statsMapper) toRead(fields []spec.DataField) []int {
	out := make([]int, len(fields))
	for i, f := range fields {
		out[i] = -1
		for j, rf := range m.read.Fields {
			if rf.ID == f.ID && sameType(rf.Type, f.Type) {
				out[i] = j
			}
		}
	}
	return out
}

func fieldsNamed(s *spec.TableSchema, names []string) []spec.DataField {
	out := make([]spec.DataField, 0, len(names))
	for _, n := range names {
		if i := s.FieldIndex(n); i >= 0 {
			out = append(out, s.Fields[i])
		}
	}
	return out
}

// unknown is statistics that prove nothing.
func (m *statsMapper) unknown(rowCount int64) predicate.Stats {
	return predicate.Stats{RowCount: rowCount}
}

// partitionStats lays a manifest's partition statistics onto the read row.
// Their row count is the number of entries, as in Java.
func (m *statsMapper) partitionStats(meta *spec.ManifestFileMeta) predicate.Stats {
	rows := meta.NumAddedFiles + meta.NumDeletedFiles
	cs, err := meta.PartitionStats.Decode(m.partTypes)
	if err != nil {
		return m.unknown(rows)
	}
	out := make([]spec.ColumnStats, len(m.read.Fields))
	for i, c := range m.partCols {
		out[c] = cs[i]
	}
	return predicate.Stats{RowCount: rows, Columns: out}
}

// partitionRow places a decoded partition value on the read row.
func (m *statsMapper) partitionRow(values []any) []any {
	row := make([]any, len(m.read.Fields))
	for i, c := range m.partCols {
		row[c] = values[i]
	}
	return row
}

// keyStats lays a primary-key file's key statistics onto the read row.
func (m *statsMapper) keyStats(f *spec.DataFileMeta) predicate.Stats {
	l, err := m.layout(f.SchemaID)
	if err != nil || len(l.keyTypes) == 0 {
		return m.unknown(f.RowCount)
	}
	cs, err := f.KeyStats.Decode(l.keyTypes)
	if err != nil {
		return m.unknown(f.RowCount)
	}
	return predicate.Stats{RowCount: f.RowCount, Columns: scatter(cs, l.keyToRd, len(m.read.Fields))}
}

// valueStats lays a file's value statistics onto the read row. A column
// the file lacks reads as NULL in every row of it.
func (m *statsMapper) valueStats(f *spec.DataFileMeta) predicate.Stats {
	l, err := m.layout(f.SchemaID)
	if err != nil {
		return m.unknown(f.RowCount)
	}
	cs, err := spec.DecodeValueStats(f.ValueStats, l.schema.Fields, f.ValueStatsCols)
	if err != nil {
		return m.unknown(f.RowCount)
	}
	out := scatter(cs, l.valueToRd, len(m.read.Fields))
	if m.missingIsNull {
		for _, j := range l.missing {
			n := f.RowCount
			out[j] = spec.ColumnStats{NullCount: &n}
		}
	}
	return predicate.Stats{RowCount: f.RowCount, Columns: out}
}

func scatter(cs []spec.ColumnStats, to []int, width int) []spec.ColumnStats {
	out := make([]spec.ColumnStats, width)
	for i, j := range to {
		if j >= 0 && i < len(cs) {
			out[j] = cs[i]
		}
	}
	return out
}
