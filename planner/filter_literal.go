package planner

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/planner/sqltypes"
)

// literalKind groups literals by the conversion the engine applies to them.
type literalKind uint8

const (
	nullLiteral literalKind = iota
	// signedLiteral: signed integers and BOOLEAN (TRUE is 1).
	signedLiteral
	// unsignedLiteral: the parser types 128..255, 32768..65535, ... as
	// unsigned, so x = 200 has one.
	unsignedLiteral
	floatLiteral
	decimalLiteral
	textLiteral
	binaryLiteral
	timeLiteral
)

// literal is a constant operand with the kind the engine sees.
type literal struct {
	kind  literalKind
	value any
	typ   sql.Type
}

// literalOf reads e as a constant whose Go value matches its engine type;
// anything else (bind variables not yet bound, expressions, JSON, ...) is not
// a literal the translation understands.
func literalOf(e sql.Expression) (literal, bool) {
	l, ok := e.(*expression.Literal)
	if !ok {
		return literal{}, false
	}
	kind, ok := kindOfLiteral(l.Value(), l.Type())
	return literal{kind: kind, value: l.Value(), typ: l.Type()}, ok
}

func kindOfLiteral(v any, t sql.Type) (literalKind, bool) {
	if v == nil {
		return nullLiteral, true
	}
	switch {
	case types.IsSigned(t):
		return signedLiteral, isSignedValue(v)
	case types.IsUnsigned(t):
		return unsignedLiteral, isUnsignedValue(v)
	case types.IsFloat(t):
		f, ok := floatValue(v)
		return floatLiteral, ok && !math.IsNaN(f) && !math.IsInf(f, 0)
	case types.IsDecimal(t):
		_, ok := v.(decimal.Decimal)
		return decimalLiteral, ok
	case types.IsTextOnly(t):
		_, ok := v.(string)
		return textLiteral, ok
	case isBinaryString(t):
		switch v.(type) {
		case string, []byte:
			return binaryLiteral, true
		}
	case types.IsTime(t):
		_, ok := v.(time.Time)
		return timeLiteral, ok
	}
	return 0, false
}

func isSignedValue(v any) bool {
	switch v.(type) {
	case bool, int, int8, int16, int32, int64:
		return true
	}
	return false
}

func isUnsignedValue(v any) bool {
	switch v.(type) {
	case uint, uint8, uint16, uint32, uint64:
		return true
	}
	return false
}

func floatValue(v any) (float64, bool) {
	switch f := v.(type) {
	case float64:
		return f, true
	case float32:
		return float64(f), true
	}
	return 0, false
}

// comparable reports whether the engine compares column c with literal l
// (in =, <, <=>, BETWEEN, ...) exactly as predicate.Leaf does. A NULL
// literal is not comparable; the callers translate it themselves.
//
// The engine compares a column with a literal of another type after
// converting both (expression/comparison.go castLeftAndRight): to DATETIME
// if either is temporal, to bytes if either is binary, to DECIMAL(65,30) if
// either is a decimal, to DOUBLE if either is a float, to BIGINT if both are
// signed integers, else to DOUBLE again (a signed column against an
// unsigned or text literal), and to text otherwise. A DECIMAL column then
// compares in its own type, which rounds the literal to the column's scale.
func comparable(c column, l literal) bool {
	switch c.kind {
	case narrowInteger, wideInteger:
		return integerComparable(c, l)
	case decimalColumn:
		return decimalComparable(c, l)
	case floatColumn:
		return floatComparable(l)
	case stringColumn, binaryColumn:
		return l.kind == textLiteral || l.kind == binaryLiteral
	case dateColumn, timestampColumn:
		return temporalComparable(l)
	}
	return false
}

// inElementComparable reports whether the engine's IN matches column c with
// list element l exactly when predicate.Leaf's IN does, given that l is
// exactly a value of the column (the caller checks that).
//
// IN converts each element to the column's type (expression/in.go), except
// that decimal and float elements convert the column value to theirs: a
// DECIMAL column value is rounded to a decimal element's scale, and turned
// into a double by a float element. HashInTuple, which the analyzer puts in
// place of IN over literals, hashes the same conversions.
func inElementComparable(c column, l literal) bool {
	switch c.kind {
	case narrowInteger, wideInteger:
		if l.kind == textLiteral {
			// BIGINT reads text with ParseInt, or else through a double:
			// '9007199254740993.0' would round.
			return integerText.MatchString(l.value.(string))
		}
		return integerComparable(c, l)
	case decimalColumn:
		switch l.kind {
		case floatLiteral:
			return false
		case decimalLiteral:
			if decimalScaleOf(l.typ) < c.scale {
				return false
			}
		}
		return decimalComparable(c, l)
	case floatColumn:
		return floatComparable(l)
	case stringColumn:
		return l.kind == textLiteral
	case binaryColumn:
		return l.kind == textLiteral || l.kind == binaryLiteral
	case dateColumn, timestampColumn:
		return temporalComparable(l)
	}
	return false
}

// integerComparable: signed literals compare as BIGINT, exactly; decimals
// as DECIMAL(65,30); unsigned, float and numeric text literals as doubles,
// which agrees with the exact comparison when no integer lies between the
// literal's double and the value predicate.Leaf reads, and, for BIGINT,
// when the double is below 2^53, beyond which column values round.
func integerComparable(c column, l literal) bool {
	switch l.kind {
	case signedLiteral:
		return true
	case decimalLiteral:
		return engineDecimalExact(l.value.(decimal.Decimal).Rat())
	}
	double, exactValue, ok := doubleReading(l)
	if !ok || !sameIntegerOrder(new(big.Rat).SetFloat64(double), exactValue) {
		return false
	}
	return c.kind == narrowInteger || math.Abs(double) < 1<<53
}

// decimalComparable: the literal must convert through DECIMAL(65,30)
// unchanged (a float of 1e300 would become 0) and have no more fraction
// digits than the column, which would otherwise round it. Floats convert by
// their shortest decimal, as predicate.Leaf reads them. A decimal literal
// typed like a column (a folded CAST) rounds the column value when the
// engine compares in its type, so its scale must not be below the column's.
func decimalComparable(c column, l literal) bool {
	var r *big.Rat
	switch l.kind {
	case signedLiteral, unsignedLiteral:
		return true
	case decimalLiteral:
		if sqltypes.DecimalDefinesColumn(l.typ) && decimalScaleOf(l.typ) < c.scale {
			return false
		}
		r = l.value.(decimal.Decimal).Rat()
	case floatLiteral:
		r = shortestDecimal(l.value)
	case textLiteral:
		s := l.value.(string)
		if !numberText.MatchString(s) {
			return false
		}
		r, _ = new(big.Rat).SetString(s)
	default:
		return false
	}
	return engineDecimalExact(r) && hasScale(r, c.scale)
}

// floatComparable: integers, floats and numeric text become doubles on both
// sides, rounded alike. A decimal literal would make the engine compare the
// column's shortest decimal in DECIMAL(65,30) instead, where huge doubles
// become 0 and tiny ones round.
func floatComparable(l literal) bool {
	switch l.kind {
	case signedLiteral, unsignedLiteral, floatLiteral:
		return true
	case textLiteral:
		return numberText.MatchString(l.value.(string))
	}
	return false
}

// temporalComparable: text must be a date or date-time both parsers read
// alike, to at most microseconds; a time.Time must be a UTC wall clock (the
// engine compares instants, the predicate wall clocks) on the microsecond
// grid, and midnight when typed DATE (the engine truncates a DATE to its
// day when both sides are DATE).
func temporalComparable(l literal) bool {
	switch l.kind {
	case textLiteral:
		return dateTimeText.MatchString(l.value.(string))
	case timeLiteral:
		t := l.value.(time.Time)
		if _, offset := t.Zone(); offset != 0 || t.Nanosecond()%1000 != 0 || t.Year() < 1 || t.Year() > 9999 {
			return false
		}
		return !types.IsDateType(l.typ) || t.Equal(t.Truncate(24*time.Hour))
	}
	return false
}

var (
	// numberText is the numeric text both the engine (strconv.ParseFloat,
	// decimal.NewFromString) and predicate.Leaf read as the same number;
	// spaces, exponents and signs are left to the engine.
	numberText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	// integerText converts to an integer column as that integer under
	// both readings.
	integerText = regexp.MustCompile(`^-?[0-9]+$`)
	// dateTimeText is 'YYYY-MM-DD' or 'YYYY-MM-DD hh:mm:ss[.ffffff]'.
	dateTimeText = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?)?$`)
)

// doubleReading returns the double the engine compares an unsigned, float or
// text literal as, and the exact value predicate.Leaf reads from it.
func doubleReading(l literal) (double float64, exactValue *big.Rat, ok bool) {
	switch l.kind {
	case unsignedLiteral:
		u := unsignedValue(l.value)
		return float64(u), new(big.Rat).SetInt(new(big.Int).SetUint64(u)), true
	case floatLiteral:
		f, _ := floatValue(l.value)
		return f, shortestDecimal(l.value), true
	case textLiteral:
		s := l.value.(string)
		if !numberText.MatchString(s) {
			return 0, nil, false
		}
		f, err := strconv.ParseFloat(s, 64)
		r, ok := new(big.Rat).SetString(s)
		return f, r, err == nil && ok
	}
	return 0, nil, false
}

func unsignedValue(v any) uint64 {
	switch u := v.(type) {
	case uint:
		return uint64(u)
	case uint8:
		return uint64(u)
	case uint16:
		return uint64(u)
	case uint32:
		return uint64(u)
	}
	return v.(uint64)
}

// shortestDecimal is the decimal predicate.Leaf and decimal.NewFromFloat read
// a float literal as: the shortest one that prints it.
func shortestDecimal(v any) *big.Rat {
	var s string
	switch f := v.(type) {
	case float32:
		s = strconv.FormatFloat(float64(f), 'g', -1, 32)
	case float64:
		s = strconv.FormatFloat(f, 'g', -1, 64)
	}
	r, _ := new(big.Rat).SetString(s)
	return r
}

// sameIntegerOrder reports whether every integer compares with a as it does
// with b: they are the same integer or lie strictly between the same two
// consecutive integers.
func sameIntegerOrder(a, b *big.Rat) bool {
	if a.IsInt() || b.IsInt() {
		return a.Cmp(b) == 0
	}
	return floorOf(a).Cmp(floorOf(b)) == 0
}

func floorOf(r *big.Rat) *big.Int {
	return new(big.Int).Div(r.Num(), r.Denom())
}

var engineDecimalBound = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(maxEngineDecimalDigits), nil))

// engineDecimalExact reports whether DECIMAL(65,30) holds r unchanged.
func engineDecimalExact(r *big.Rat) bool {
	abs := new(big.Rat).Abs(r)
	return abs.Cmp(engineDecimalBound) < 0 && hasScale(r, maxEngineDecimalScale)
}

// hasScale reports whether r has at most scale fraction digits.
func hasScale(r *big.Rat, scale int) bool {
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	return new(big.Rat).Mul(r, new(big.Rat).SetInt(unit)).IsInt()
}

func decimalScaleOf(t sql.Type) int {
	if d, ok := t.(sql.DecimalType); ok {
		return int(d.Scale())
	}
	return 0
}
