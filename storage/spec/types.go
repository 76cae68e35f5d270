package spec

// TypeRoot is the kind of a Paimon data type.
// Mirrors org.apache.paimon.types.DataTypeRoot.
type TypeRoot int

const (
	Boolean TypeRoot = iota + 1
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	VarChar
	Binary
	VarBinary
	Date
	Time
	Timestamp
	TimestampLTZ
	Array
	Map
	Multiset
	Row
	Variant
	Blob
)

// MaxVarLength is the length Paimon uses for STRING (VARCHAR) and BYTES
// (VARBINARY): Integer.MAX_VALUE.
const MaxVarLength = 2147483647

// DataType is a Paimon logical type with its nullability.
// Mirrors org.apache.paimon.types.DataType and its subclasses.
type DataType struct {
	Root     TypeRoot
	Nullable bool
	// Length is the declared length of CHAR, VARCHAR, BINARY and
	// VARBINARY, and the dimension of a VECTOR.
	Length int
	// Precision is the precision of DECIMAL, TIME, TIMESTAMP and
	// TIMESTAMP WITH LOCAL TIME ZONE.
	Precision int
	// Scale is the scale of DECIMAL.
	Scale int
	// Element is the element type of ARRAY and MULTISET.
	Element *DataType
	// Vector marks an ARRAY declared as Paimon's VECTOR<element, Length>
	// (VectorType): a fixed number of elements, stored and read as an
	// array.
	Vector bool
	// Key and Value are the entry types of MAP.
	Key, Value *DataType
	// Fields are the fields of ROW.
	Fields []DataField
}

// DataField is one named, id-carrying field of a table or of a ROW type.
// Mirrors org.apache.paimon.types.DataField.
type DataField struct {
	ID           int
	Name         string
	Type         DataType
	Description  string
	DefaultValue *string
}

// IsString reports whether values of t are Go strings (CHAR, VARCHAR).
func (t DataType) IsString() bool { return t.Root == Char || t.Root == VarChar }

// IsBinary reports whether values of t are Go byte slices.
func (t DataType) IsBinary() bool {
	return t.Root == Binary || t.Root == VarBinary || t.Root == Blob
}

// IsCompactDecimal reports whether a DECIMAL fits in an int64 unscaled value
// (Java Decimal.isCompact: precision <= 18).
func (t DataType) IsCompactDecimal() bool { return t.Precision <= 18 }

// IsCompactTimestamp reports whether a TIMESTAMP holds only milliseconds
// (Java Timestamp.isCompact: precision <= 3).
func (t DataType) IsCompactTimestamp() bool { return t.Precision <= 3 }

// WithNullable returns a copy of t with the given nullability.
func (t DataType) WithNullable(nullable bool) DataType {
	t.Nullable = nullable
	return t
}
