package spec

import (
	"fmt"
	"strings"
)

// This file converts data types to and from the SQL-like strings Paimon
// stores for atomic types ("INT NOT NULL", "DECIMAL(10, 2)", ...). Parsing
// accepts what Java's org.apache.paimon.types.DataTypeJsonParser accepts;
// printing reproduces Java's DataType.asSQLString byte for byte, because
// those strings are compared and rewritten by Java readers.

// Type parameter defaults and limits, from the Java type classes.
const (
	defaultDecimalPrecision   = 10 // DecimalType.DEFAULT_PRECISION
	maxDecimalPrecision       = 38 // DecimalType.MAX_PRECISION
	defaultTimePrecision      = 0  // TimeType.DEFAULT_PRECISION
	defaultTimestampPrecision = 6  // TimestampType and LocalZonedTimestampType
	maxTimePrecision          = 9
	defaultStringLength       = 1 // CharType, VarCharType, BinaryType, VarBinaryType
)

// simpleTypeNames are the types printed as a bare keyword.
var simpleTypeNames = map[TypeRoot]string{
	Boolean:  "BOOLEAN",
	TinyInt:  "TINYINT",
	SmallInt: "SMALLINT",
	Int:      "INT",
	BigInt:   "BIGINT",
	Float:    "FLOAT",
	Double:   "DOUBLE",
	Date:     "DATE",
	Variant:  "VARIANT",
	Blob:     "BLOB",
}

// String returns Java's DataType.asSQLString form, e.g. "INT NOT NULL",
// "DECIMAL(10, 2)", "STRING", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
// "ARRAY<INT>" or "ROW<`a` INT, `b` STRING>".
func (t DataType) String() string {
	if t.Nullable {
		return t.sqlBody()
	}
	return t.sqlBody() + " NOT NULL"
}

func (t DataType) sqlBody() string {
	if name, ok := simpleTypeNames[t.Root]; ok {
		return name
	}
	switch t.Root {
	case Char, Binary, VarChar, VarBinary:
		return lengthTypeSQL(t)
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case Time:
		return fmt.Sprintf("TIME(%d)", t.Precision)
	case Timestamp:
		return fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	case Array:
		if t.Vector {
			return fmt.Sprintf("VECTOR<%s, %d>", typePointerSQL(t.Element), t.Length)
		}
		return "ARRAY<" + typePointerSQL(t.Element) + ">"
	case Multiset:
		return "MULTISET<" + typePointerSQL(t.Element) + ">"
	case Map:
		return "MAP<" + typePointerSQL(t.Key) + ", " + typePointerSQL(t.Value) + ">"
	case Row:
		return rowTypeSQL(t.Fields)
	}
	return fmt.Sprintf("TypeRoot(%d)", int(t.Root))
}

var lengthTypeNames = map[TypeRoot]string{Char: "CHAR", Binary: "BINARY", VarChar: "VARCHAR", VarBinary: "VARBINARY"}

// lengthTypeSQL prints the length-carrying types; VARCHAR and VARBINARY of
// the maximum length are spelled STRING and BYTES.
func lengthTypeSQL(t DataType) string {
	switch {
	case t.Root == VarChar && t.Length == MaxVarLength:
		return "STRING"
	case t.Root == VarBinary && t.Length == MaxVarLength:
		return "BYTES"
	}
	return fmt.Sprintf("%s(%d)", lengthTypeNames[t.Root], t.Length)
}

func typePointerSQL(t *DataType) string {
	if t == nil {
		return "<nil>"
	}
	return t.String()
}

// rowTypeSQL mirrors RowType and DataField.asSQLString: back-quoted names,
// a COMMENT only when the description is non-empty, then any DEFAULT.
func rowTypeSQL(fields []DataField) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		s := "`" + strings.ReplaceAll(f.Name, "`", "``") + "` " + f.Type.String()
		if f.Description != "" {
			s += " COMMENT '" + strings.ReplaceAll(f.Description, "'", "''") + "'"
		}
		if f.DefaultValue != nil {
			s += " DEFAULT " + *f.DefaultValue
		}
		parts[i] = s
	}
	return "ROW<" + strings.Join(parts, ", ") + ">"
}

// validateDataType checks the parameter ranges Java's type constructors
// enforce, recursing into nested types, so that lakesql neither accepts nor
// writes a type Java would reject.
func validateDataType(t DataType) error {
	switch t.Root {
	case Char, VarChar, Binary, VarBinary:
		if t.Length < 1 {
			return fmt.Errorf("%s length must be between 1 and %d", t.sqlBody(), MaxVarLength)
		}
	case Decimal:
		if t.Precision < 1 || t.Precision > maxDecimalPrecision || t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("%s: precision must be 1..38 and scale 0..precision", t.sqlBody())
		}
	case Time, Timestamp, TimestampLTZ:
		if t.Precision < 0 || t.Precision > maxTimePrecision {
			return fmt.Errorf("%s: precision must be 0..9", t.sqlBody())
		}
	case Row:
		if err := validateFieldNames(t.Fields); err != nil {
			return err
		}
		return validateNestedTypes(t)
	case Array, Multiset, Map:
		if t.Vector && t.Length < 1 {
			return fmt.Errorf("%s: the length must be at least 1", t.sqlBody())
		}
		return validateNestedTypes(t)
	default:
		if _, ok := simpleTypeNames[t.Root]; !ok {
			return fmt.Errorf("unknown type root %d", int(t.Root))
		}
	}
	return nil
}

func validateNestedTypes(t DataType) error {
	var children []*DataType
	switch t.Root {
	case Array, Multiset:
		children = []*DataType{t.Element}
	case Map:
		children = []*DataType{t.Key, t.Value}
	case Row:
		for i := range t.Fields {
			children = append(children, &t.Fields[i].Type)
		}
	}
	for _, c := range children {
		if c == nil {
			return fmt.Errorf("%s has a nil nested type", t.Root.name())
		}
		if err := validateDataType(*c); err != nil {
			return err
		}
	}
	return nil
}

// validateFieldNames enforces Java's RowType.validateFields: names are
// unique and not blank.
func validateFieldNames(fields []DataField) error {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if strings.TrimSpace(f.Name) == "" {
			return fmt.Errorf("field names must not be blank")
		}
		if seen[f.Name] {
			return fmt.Errorf("duplicate field name %q", f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

// name is the JSON "type" word of a complex type root.
func (r TypeRoot) name() string {
	switch r {
	case Array:
		return "ARRAY"
	case Multiset:
		return "MULTISET"
	case Map:
		return "MAP"
	case Row:
		return "ROW"
	}
	return fmt.Sprintf("TypeRoot(%d)", int(r))
}
