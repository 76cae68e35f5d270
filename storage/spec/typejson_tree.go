package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// This file holds the JSON plumbing shared by the schema, snapshot, tag and
// consumer codecs. Paimon writes its metadata with Jackson, and reproducing
// Java's bytes needs two things encoding/json does not give: objects that
// keep their key order (table options are written in the order Java's map
// iterates them) and Jackson's DefaultPrettyPrinter layout.

// maxJSONDepth bounds nesting so that hostile input cannot recurse without
// limit; real metadata nests a few levels (ROW types inside ROW types).
const maxJSONDepth = 1000

// jsonObject is a JSON object that remembers the order of its keys. Values
// are nil, bool, string, json.Number, int64, []any or *jsonObject.
type jsonObject struct {
	keys   []string
	values map[string]any
}

func newJSONObject() *jsonObject {
	return &jsonObject{values: map[string]any{}}
}

// set adds or replaces a member. A repeated key keeps its first position and
// takes the last value, as Jackson's tree model does.
func (o *jsonObject) set(key string, value any) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

// get returns the value of key and whether the key is present at all; an
// explicit JSON null is present with a nil value.
func (o *jsonObject) get(key string) (any, bool) {
	v, ok := o.values[key]
	return v, ok
}

// jsonCorruptf returns an error of class lakeerr.ErrCorruption.
func jsonCorruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", lakeerr.ErrCorruption, fmt.Sprintf(format, args...))
}

// parseJSON parses a whole document holding one JSON value.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSONValue(dec, 0)
	if err != nil {
		return nil, jsonCorruptf("malformed JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, jsonCorruptf("malformed JSON: data after the top-level value")
	}
	return v, nil
}

// parseJSONObject parses a whole document that must be one JSON object.
func parseJSONObject(data []byte) (*jsonObject, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*jsonObject)
	if !ok {
		return nil, jsonCorruptf("expected a JSON object, got %s", describeJSON(v))
	}
	return obj, nil
}

func readJSONValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("nesting too deep")
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return readJSONMembers(dec, depth+1)
	case json.Delim('['):
		return readJSONElements(dec, depth+1)
	}
	return tok, nil
}

func readJSONMembers(dec *json.Decoder, depth int) (*jsonObject, error) {
	obj := newJSONObject()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		value, err := readJSONValue(dec, depth)
		if err != nil {
			return nil, err
		}
		obj.set(key, value)
	}
	_, err := dec.Token() // the closing brace
	return obj, err
}

func readJSONElements(dec *json.Decoder, depth int) ([]any, error) {
	elements := []any{}
	for dec.More() {
		value, err := readJSONValue(dec, depth)
		if err != nil {
			return nil, err
		}
		elements = append(elements, value)
	}
	_, err := dec.Token() // the closing bracket
	return elements, err
}

// describeJSON names the kind of a parsed value for error messages.
func describeJSON(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case *jsonObject:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// printJackson renders v the way Jackson's DefaultPrettyPrinter does:
// `"key" : value`, object members on their own lines indented by two spaces
// per enclosing object, arrays inline as `[ a, b ]`, empty containers as
// `{ }` and `[ ]`, and no trailing newline.
func printJackson(v any) []byte {
	var b bytes.Buffer
	writeJackson(&b, v, 0)
	return b.Bytes()
}

func writeJackson(b *bytes.Buffer, v any, depth int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeJacksonString(b, v)
	case json.Number:
		b.WriteString(string(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case []any:
		writeJacksonArray(b, v, depth)
	case *jsonObject:
		writeJacksonObject(b, v, depth)
	default:
		// Unreachable: the codecs build trees from the types above only.
		panic(fmt.Sprintf("spec: cannot print %T as JSON", v))
	}
}

// Arrays do not add a nesting level in Jackson, so objects inside an array
// are indented like the array's own key.
func writeJacksonArray(b *bytes.Buffer, elements []any, depth int) {
	if len(elements) == 0 {
		b.WriteString("[ ]")
		return
	}
	b.WriteString("[ ")
	for i, e := range elements {
		if i > 0 {
			b.WriteString(", ")
		}
		writeJackson(b, e, depth)
	}
	b.WriteString(" ]")
}

func writeJacksonObject(b *bytes.Buffer, obj *jsonObject, depth int) {
	if len(obj.keys) == 0 {
		b.WriteString("{ }")
		return
	}
	b.WriteByte('{')
	for i, key := range obj.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJacksonIndent(b, depth+1)
		writeJacksonString(b, key)
		b.WriteString(" : ")
		writeJackson(b, obj.values[key], depth+1)
	}
	writeJacksonIndent(b, depth)
	b.WriteByte('}')
}

func writeJacksonIndent(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
	}
}

// jacksonShortEscapes are the control characters JSON escapes by letter.
var jacksonShortEscapes = [0x20]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// writeJacksonString quotes s as Jackson does: only '"', '\\' and control
// characters are escaped (short forms where JSON has them, else \u00XX with
// upper-case hex); everything else, including non-ASCII, is written as is.
func writeJacksonString(b *bytes.Buffer, s string) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20:
			b.WriteByte(c)
		case jacksonShortEscapes[c] != 0:
			b.WriteByte('\\')
			b.WriteByte(jacksonShortEscapes[c])
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
	}
	b.WriteByte('"')
}
