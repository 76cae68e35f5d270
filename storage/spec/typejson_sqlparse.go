package spec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ParseDataType parses the SQL-like string of an atomic type as Java's
// DataTypeJsonParser.parseAtomicTypeSQLString does: keywords in any case,
// aliases (INTEGER, NUMERIC, DEC, STRING, BYTES, DOUBLE PRECISION,
// TIMESTAMP_LTZ, TIMESTAMP ... WITH LOCAL TIME ZONE), Java's default
// parameters (DECIMAL = DECIMAL(10, 0), TIMESTAMP = TIMESTAMP(6), TIME =
// TIME(0), CHAR/VARCHAR/BINARY/VARBINARY = length 1), NULL / NOT NULL, and
// the suffix forms "<type> ARRAY" and "<type> MULTISET".
//
// A malformed string wraps lakeerr.ErrCorruption; a valid Paimon type that
// lakesql does not model (VECTOR, GEOMETRY, GEOGRAPHY) wraps
// lakeerr.ErrUnsupported.
func ParseDataType(s string) (DataType, error) {
	p := &typeParser{tokens: tokenizeType(s)}
	t, err := p.parseType()
	if err == nil && p.pos < len(p.tokens) {
		err = fmt.Errorf("unexpected %q", p.tokens[p.pos].text)
	}
	if err == nil {
		err = validateDataType(t)
	}
	if err != nil {
		return DataType{}, wrapTypeError(s, err)
	}
	return t, nil
}

// wrapTypeError classifies a parse failure: corruption, unless the type is
// valid Paimon that lakesql does not support.
func wrapTypeError(s string, err error) error {
	if errors.Is(err, lakeerr.ErrUnsupported) {
		return fmt.Errorf("type %q: %w", s, err)
	}
	return fmt.Errorf("%w: type %q: %v", lakeerr.ErrCorruption, s, err)
}

type typeTokenKind int

const (
	typeTokenWord typeTokenKind = iota
	typeTokenInt
	typeTokenPunct
)

type typeToken struct {
	kind typeTokenKind
	text string // upper-cased for words
}

// tokenizeType splits a type string into words, integers and the
// punctuation ( ) , < > . that Java treats as delimiters.
func tokenizeType(s string) []typeToken {
	var tokens []typeToken
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case strings.ContainsRune(typePunctuation, r):
			tokens = append(tokens, typeToken{typeTokenPunct, string(r)})
			i += size
		case r >= '0' && r <= '9':
			n := len(s[i:]) - len(strings.TrimLeft(s[i:], "0123456789"))
			tokens = append(tokens, typeToken{typeTokenInt, s[i : i+n]})
			i += n
		default:
			n := strings.IndexFunc(s[i:], isTypeDelimiter)
			if n < 0 {
				n = len(s) - i
			}
			tokens = append(tokens, typeToken{typeTokenWord, strings.ToUpper(s[i : i+n])})
			i += n
		}
	}
	return tokens
}

const typePunctuation = "()<>,."

func isTypeDelimiter(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(typePunctuation, r)
}

type typeParser struct {
	tokens []typeToken
	pos    int
}

// peekWords reports whether the next tokens are exactly the given words.
func (p *typeParser) peekWords(words ...string) bool {
	for i, w := range words {
		at := p.pos + i
		if at >= len(p.tokens) || p.tokens[at].kind != typeTokenWord || p.tokens[at].text != w {
			return false
		}
	}
	return true
}

// acceptWords consumes the words if they come next.
func (p *typeParser) acceptWords(words ...string) bool {
	if !p.peekWords(words...) {
		return false
	}
	p.pos += len(words)
	return true
}

func (p *typeParser) expectWords(words ...string) error {
	if !p.acceptWords(words...) {
		return fmt.Errorf("expected %q", strings.Join(words, " "))
	}
	return nil
}

func (p *typeParser) acceptPunct(punct string) bool {
	if p.pos < len(p.tokens) && p.tokens[p.pos].kind == typeTokenPunct && p.tokens[p.pos].text == punct {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) expectPunct(punct string) error {
	if !p.acceptPunct(punct) {
		return fmt.Errorf("expected %q", punct)
	}
	return nil
}

// expectInt reads a Java int literal.
func (p *typeParser) expectInt() (int, error) {
	if p.pos >= len(p.tokens) || p.tokens[p.pos].kind != typeTokenInt {
		return 0, fmt.Errorf("expected an integer")
	}
	n, err := strconv.ParseInt(p.tokens[p.pos].text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("invalid integer %q", p.tokens[p.pos].text)
	}
	p.pos++
	return int(n), nil
}

// parseNullability reads an optional "NOT NULL" or "NULL".
func (p *typeParser) parseNullability() bool {
	if p.acceptWords("NOT", "NULL") {
		return false
	}
	p.acceptWords("NULL")
	return true
}

// parseType reads a type, its nullability and at most one ARRAY or
// MULTISET suffix with its own nullability.
func (p *typeParser) parseType() (DataType, error) {
	t, err := p.parseByKeyword()
	if err != nil {
		return DataType{}, err
	}
	t.Nullable = p.parseNullability()
	for _, root := range []TypeRoot{Array, Multiset} {
		if p.acceptWords(root.name()) {
			element := t
			return DataType{Root: root, Element: &element, Nullable: p.parseNullability()}, nil
		}
	}
	return t, nil
}

// simpleTypeKeywords are the keywords that name a type without parameters.
var simpleTypeKeywords = map[string]TypeRoot{
	"BOOLEAN": Boolean, "TINYINT": TinyInt, "SMALLINT": SmallInt, "INT": Int,
	"INTEGER": Int, "BIGINT": BigInt, "FLOAT": Float, "DOUBLE": Double,
	"DATE": Date, "VARIANT": Variant, "BLOB": Blob,
}

// lengthTypeKeywords are the keywords that take an optional (length).
var lengthTypeKeywords = map[string]TypeRoot{
	"CHAR": Char, "VARCHAR": VarChar, "BINARY": Binary, "VARBINARY": VarBinary,
}

// parseByKeyword reads one type keyword and its parameters.
func (p *typeParser) parseByKeyword() (DataType, error) {
	if p.pos >= len(p.tokens) || p.tokens[p.pos].kind != typeTokenWord {
		return DataType{}, fmt.Errorf("expected a type name")
	}
	word := p.tokens[p.pos].text
	p.pos++
	if root, ok := simpleTypeKeywords[word]; ok {
		if root == Double {
			p.acceptWords("PRECISION")
		}
		return DataType{Root: root}, nil
	}
	if root, ok := lengthTypeKeywords[word]; ok {
		length, err := p.parseOptionalParameter(defaultStringLength)
		return DataType{Root: root, Length: length}, err
	}
	switch word {
	case "STRING":
		return DataType{Root: VarChar, Length: MaxVarLength}, nil
	case "BYTES":
		return DataType{Root: VarBinary, Length: MaxVarLength}, nil
	case "DECIMAL", "NUMERIC", "DEC":
		return p.parseDecimal()
	case "TIME":
		return p.parseTime()
	case "TIMESTAMP":
		return p.parseTimestamp()
	case "TIMESTAMP_LTZ":
		precision, err := p.parseOptionalParameter(defaultTimestampPrecision)
		return DataType{Root: TimestampLTZ, Precision: precision}, err
	case "VECTOR", "GEOMETRY", "GEOGRAPHY":
		return DataType{}, unsupportedTypef(word)
	}
	return DataType{}, fmt.Errorf("unknown type %q", word)
}

// parseOptionalParameter reads "(n)" if present, else returns def.
func (p *typeParser) parseOptionalParameter(def int) (int, error) {
	if !p.acceptPunct("(") {
		return def, nil
	}
	n, err := p.expectInt()
	if err == nil {
		err = p.expectPunct(")")
	}
	return n, err
}

// parseDecimal reads the optional "(precision)" or "(precision, scale)".
func (p *typeParser) parseDecimal() (DataType, error) {
	t := DataType{Root: Decimal, Precision: defaultDecimalPrecision}
	if !p.acceptPunct("(") {
		return t, nil
	}
	var err error
	if t.Precision, err = p.expectInt(); err != nil {
		return t, err
	}
	if p.acceptPunct(",") {
		if t.Scale, err = p.expectInt(); err != nil {
			return t, err
		}
	}
	return t, p.expectPunct(")")
}

func (p *typeParser) parseTime() (DataType, error) {
	precision, err := p.parseOptionalParameter(defaultTimePrecision)
	if err == nil && p.acceptWords("WITHOUT") {
		err = p.expectWords("TIME", "ZONE")
	}
	return DataType{Root: Time, Precision: precision}, err
}

// parseTimestamp reads TIMESTAMP[(p)] with an optional WITHOUT TIME ZONE or
// WITH LOCAL TIME ZONE; the latter makes it a TIMESTAMP_LTZ.
func (p *typeParser) parseTimestamp() (DataType, error) {
	precision, err := p.parseOptionalParameter(defaultTimestampPrecision)
	t := DataType{Root: Timestamp, Precision: precision}
	if err != nil {
		return t, err
	}
	switch {
	case p.acceptWords("WITHOUT"):
		err = p.expectWords("TIME", "ZONE")
	case p.acceptWords("WITH"):
		err = p.expectWords("LOCAL", "TIME", "ZONE")
		t.Root = TimestampLTZ
	}
	return t, err
}
