package orcio

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lakesql/lakesql/storage/spec"
)

// ColumnStats are a column's statistics in one stripe, from the file's
// Metadata section (orc.proto's StripeStatistics and ColumnStatistics).
type ColumnStats struct {
	// NullCount is the stripe's rows less the column's values.
	NullCount int64
	// Min and Max bound the column's values, nil when the file keeps no
	// bounds for it (all values NULL, or a type they are not read for).
	// Strings too long for exact bounds have lower and upper bounds,
	// which bound them all the same.
	Min, Max any
}

// stripeStatistics holds the decoded Metadata section once read.
type stripeStatistics struct {
	once    sync.Once
	stripes [][]columnStatistics // per stripe, per column id
	err     error
}

// columnStatistics mirrors the parts of orc.proto's ColumnStatistics the
// readers use.
type columnStatistics struct {
	numberOfValues   uint64
	hasValues        bool
	intMin, intMax   *int64
	strMin, strMax   *string
	dateMin, dateMax *int64
}

// StripeStats returns the statistics of a top-level column, by name, in
// stripe i, read as values of type want; ok is false when the file keeps
// none for it: the column is missing or nested, or its type's bounds are
// not read (floating point, whose bounds leave NaN out; decimals;
// timestamps, kept in the writer's zone and in UTC).
func (f *File) StripeStats(i int, name string, want spec.DataType) (ColumnStats, bool, error) {
	id, ok := f.topLevelColumn(name)
	if !ok || i < 0 || i >= len(f.footer.stripes) {
		return ColumnStats{}, false, nil
	}
	f.stats.once.Do(f.readStatistics)
	if f.stats.err != nil {
		return ColumnStats{}, false, f.wrap(f.stats.err)
	}
	if i >= len(f.stats.stripes) || int(id) >= len(f.stats.stripes[i]) {
		return ColumnStats{}, false, nil
	}
	cs := f.stats.stripes[i][id]
	rows := f.footer.stripes[i].numberOfRows
	if !cs.hasValues || cs.numberOfValues > rows {
		return ColumnStats{}, false, nil
	}
	out := ColumnStats{NullCount: int64(rows - cs.numberOfValues)}
	out.Min, out.Max, ok = bounds(f.footer.types[id].kind, want, cs)
	return out, ok || out.NullCount == int64(rows), nil
}

// topLevelColumn is the column id of a field of the root struct.
func (f *File) topLevelColumn(name string) (uint32, bool) {
	root := f.footer.types[0]
	for i, n := range root.fieldNames {
		if n == name {
			return root.subtypes[i], true
		}
	}
	return 0, false
}

// bounds converts the statistics of a column of kind k to values of
// type want; ok is false when they are not read for it.
func bounds(k typeKind, want spec.DataType, cs columnStatistics) (lo, hi any, ok bool) {
	switch {
	case cs.intMin != nil && cs.intMax != nil && readableAs(k, want.Root) && k <= kindLong && k >= kindByte:
		b := integers([]int64{*cs.intMin, *cs.intMax}, want.Root)
		return b[0], b[1], true
	case cs.dateMin != nil && cs.dateMax != nil && k == kindDate && want.Root == spec.Date:
		return spec.DateValue(*cs.dateMin), spec.DateValue(*cs.dateMax), true
	case cs.strMin != nil && cs.strMax != nil && (k == kindString || k == kindVarchar) && want.Root == spec.VarChar:
		return *cs.strMin, *cs.strMax, true
	}
	return nil, nil, false
}

// readStatistics decodes the Metadata section: a StripeStatistics per
// stripe, each a ColumnStatistics per column.
func (f *File) readStatistics() {
	if f.metadataLength == 0 {
		return
	}
	if f.metadataOffset < 0 {
		f.stats.err = corruptf("metadata of %d bytes before the footer", f.metadataLength)
		return
	}
	raw := make([]byte, f.metadataLength)
	if _, err := f.r.ReadAt(raw, f.metadataOffset); err != nil {
		f.stats.err = fmt.Errorf("orc: read metadata: %w", err)
		return
	}
	body, err := f.inflat.inflate(raw, maxTailSize)
	if err != nil {
		f.stats.err = fmt.Errorf("metadata: %w", err)
		return
	}
	f.stats.err = eachField(body, func(field protoField) error {
		if field.num != 1 {
			return nil
		}
		var columns []columnStatistics
		err := eachField(field.bytes, func(c protoField) error {
			if c.num != 1 {
				return nil
			}
			cs, err := parseColumnStatistics(c.bytes)
			columns = append(columns, cs)
			return err
		})
		f.stats.stripes = append(f.stats.stripes, columns)
		return err
	})
	if f.stats.err != nil {
		f.stats.err = corruptf("metadata: %v", f.stats.err)
	}
}

func parseColumnStatistics(b []byte) (columnStatistics, error) {
	var cs columnStatistics
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			cs.numberOfValues, cs.hasValues = f.varint, true
		case 2:
			return eachField(f.bytes, func(m protoField) error {
				v := m.sint64()
				setBound(m.num, &cs.intMin, &cs.intMax, &v)
				return nil
			})
		case 4:
			return eachField(f.bytes, func(m protoField) error {
				// minimum and maximum, or, where a writer truncated
				// them, the bounds lowerBound and upperBound.
				v := string(m.bytes)
				switch m.num {
				case 1, 4:
					cs.strMin = &v
				case 2, 5:
					cs.strMax = &v
				}
				return nil
			})
		case 7:
			return eachField(f.bytes, func(m protoField) error {
				v := m.sint64()
				setBound(m.num, &cs.dateMin, &cs.dateMax, &v)
				return nil
			})
		}
		return nil
	})
	return cs, err
}

// setBound stores v as the minimum for field 1 and the maximum for field
// 2, the numbering of orc.proto's IntegerStatistics and DateStatistics.
func setBound[T any](num protowire.Number, lo, hi **T, v *T) {
	switch num {
	case 1:
		*lo = v
	case 2:
		*hi = v
	}
}
