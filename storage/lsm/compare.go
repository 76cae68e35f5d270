package lsm

import "github.com/lakesql/lakesql/storage/spec"

// RowComparator orders two rows or keys: negative when a sorts first, zero
// when equal, positive when b sorts first.
type RowComparator func(a, b []any) int

// ValueComparator orders two non-null values of type t, with the same sign
// convention as RowComparator. The storage-wide value comparator of package
// spec is meant to be passed here; this package never compares values itself.
type ValueComparator func(t spec.DataType, a, b any) int

// fieldsComparator orders full rows by a few of their fields. It mirrors
// org.apache.paimon.utils.UserDefinedSeqComparator and the record comparator
// Paimon generates for it: fields are compared in order, a null sorts before
// any value whatever the direction (nullIsLast=false), and descending order
// flips only the comparison of two non-null values.
type fieldsComparator struct {
	fields     []int
	types      []spec.DataType
	compare    ValueComparator
	descending bool
}

func newFieldsComparator(columns []spec.DataField, fields []int, compare ValueComparator, descending bool) *fieldsComparator {
	types := make([]spec.DataType, len(fields))
	for i, f := range fields {
		types[i] = columns[f].Type
	}
	return &fieldsComparator{fields: fields, types: types, compare: compare, descending: descending}
}

// compareRows compares a and b on the comparator's fields. A row too short to
// hold a field reads it as null rather than failing: widths are checked where
// the merge functions consume rows.
func (c *fieldsComparator) compareRows(a, b []any) int {
	for i, f := range c.fields {
		x, y := fieldOrNull(a, f), fieldOrNull(b, f)
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		if r := c.compare(c.types[i], x, y); r != 0 {
			if c.descending {
				return -r
			}
			return r
		}
	}
	return 0
}

// contains reports whether field is one of the comparator's fields.
func (c *fieldsComparator) contains(field int) bool {
	for _, f := range c.fields {
		if f == field {
			return true
		}
	}
	return false
}

func fieldOrNull(row []any, i int) any {
	if i < len(row) {
		return row[i]
	}
	return nil
}
