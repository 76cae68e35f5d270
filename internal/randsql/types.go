package randsql

import "fmt"

// Kind is the SQL type of a column or of a generated expression.
type Kind int

// The column types the generator uses: the ones the issue names, which
// are also the ones payment tables land in Paimon.
const (
	KindBigInt Kind = iota
	KindInt
	KindDecimal
	KindDouble
	KindVarChar
	KindDate
	KindDateTime
)

// Type is a column type: a Kind plus DECIMAL's precision and scale,
// VARCHAR's length, and Fixed for a string column declared CHAR, whose
// values compare as VARCHAR's do (the domains hold no trailing spaces,
// which MySQL strips from CHAR).
type Type struct {
	Kind             Kind
	Precision, Scale int
	Length           int
	Fixed            bool
}

// SQL is the type's spelling in CREATE TABLE, the same on both engines.
func (t Type) SQL() string {
	switch t.Kind {
	case KindBigInt:
		return "BIGINT"
	case KindInt:
		return "INT"
	case KindDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case KindDouble:
		return "DOUBLE"
	case KindVarChar:
		if t.Fixed {
			return fmt.Sprintf("CHAR(%d)", t.Length)
		}
		return fmt.Sprintf("VARCHAR(%d)", t.Length)
	case KindDate:
		return "DATE"
	default:
		return "DATETIME"
	}
}

// Class groups the types whose values compare by one rule; the comparator
// checks result columns by class (doc.go says why not by exact type).
type Class int

// The classes of result columns.
const (
	ClassInteger Class = iota
	ClassDecimal
	ClassFloat
	ClassText
	ClassDate
	ClassDateTime
	ClassOther
)

// Class is the class of the type's values.
func (t Type) Class() Class {
	switch t.Kind {
	case KindBigInt, KindInt:
		return ClassInteger
	case KindDecimal:
		return ClassDecimal
	case KindDouble:
		return ClassFloat
	case KindVarChar:
		return ClassText
	case KindDate:
		return ClassDate
	default:
		return ClassDateTime
	}
}

// numeric reports whether values of the type are numbers: the generator
// compares and combines numbers of any numeric kind with each other, but
// never numbers with strings or dates (MySQL's implicit conversions there
// are a topic of their own).
func (t Type) numeric() bool {
	return t.Kind == KindBigInt || t.Kind == KindInt || t.Kind == KindDecimal || t.Kind == KindDouble
}

// comparable reports whether a comparison of values of types a and b has
// one meaning in MySQL without implicit string-to-number conversion.
func comparable(a, b Type) bool {
	if a.numeric() || b.numeric() {
		return a.numeric() && b.numeric()
	}
	if a.Kind == KindVarChar || b.Kind == KindVarChar {
		return a.Kind == b.Kind
	}
	return true // DATE and DATETIME compare as DATETIME
}

// driverClass is the class of a result column from its type name as
// go-sql-driver/mysql reports it (DatabaseTypeName).
func driverClass(name string) Class {
	switch name {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT", "YEAR",
		"UNSIGNED TINYINT", "UNSIGNED SMALLINT", "UNSIGNED MEDIUMINT", "UNSIGNED INT", "UNSIGNED BIGINT":
		return ClassInteger
	case "DECIMAL":
		return ClassDecimal
	case "FLOAT", "DOUBLE":
		return ClassFloat
	case "CHAR", "VARCHAR", "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT":
		return ClassText
	case "DATE":
		return ClassDate
	case "DATETIME", "TIMESTAMP":
		return ClassDateTime
	default:
		return ClassOther
	}
}
