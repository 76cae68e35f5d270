package spec

import (
	"github.com/lakesql/lakesql/storage/lakeerr"

	"fmt"
	"strings"
)

// This file holds the JSON form of data types, as written by Java's
// DataType.serializeJson and read by DataTypeJsonParser.parseDataType:
// atomic types are their SQL string, complex types are objects such as
// {"type" : "ARRAY NOT NULL", "element" : "INT"} or
// {"type" : "ROW", "fields" : [ {"id" : 5, "name" : "a", "type" : "INT"} ]}.

// MarshalJSON writes t as Java's DataType.serializeJson does.
func (t DataType) MarshalJSON() ([]byte, error) {
	if err := validateDataType(t); err != nil {
		return nil, fmt.Errorf("encode data type: %w", err)
	}
	return printJackson(dataTypeToJSON(t)), nil
}

// UnmarshalJSON reads a type string or type object. Like Java's standalone
// DataTypeJsonParser.parseDataType, ROW fields without an "id" get ids
// 0, 1, 2, ... in the order they appear; schema files always carry ids.
func (t *DataType) UnmarshalJSON(data []byte) error {
	v, err := parseJSON(data)
	if err != nil {
		return err
	}
	unassigned := -1
	parsed, err := (&typeDecoder{nextFieldID: &unassigned}).dataType(v, "type")
	if err != nil {
		return err
	}
	if err := validateDataType(parsed); err != nil {
		return jsonCorruptf("type: %v", err)
	}
	*t = parsed
	return nil
}

// dataTypeToJSON builds the JSON tree of a validated type.
func dataTypeToJSON(t DataType) any {
	if t.Root != Array && t.Root != Multiset && t.Root != Map && t.Root != Row {
		return t.String()
	}
	obj := newJSONObject()
	word := t.Root.name()
	if t.Vector {
		word = "VECTOR"
	}
	if !t.Nullable {
		word += " NOT NULL"
	}
	obj.set("type", word)
	switch t.Root {
	case Array, Multiset:
		obj.set("element", dataTypeToJSON(*t.Element))
		if t.Vector {
			obj.set("length", int64(t.Length))
		}
	case Map:
		obj.set("key", dataTypeToJSON(*t.Key))
		obj.set("value", dataTypeToJSON(*t.Value))
	case Row:
		obj.set("fields", dataFieldsToJSON(t.Fields))
	}
	return obj
}

// dataFieldsToJSON mirrors DataField.serializeJson. Java writes
// "description" whenever it is non-null; DataField cannot tell an empty
// description from none, so an empty one is left out.
func dataFieldsToJSON(fields []DataField) []any {
	out := make([]any, len(fields))
	for i, f := range fields {
		obj := newJSONObject()
		obj.set("id", int64(f.ID))
		obj.set("name", f.Name)
		obj.set("type", dataTypeToJSON(f.Type))
		if f.Description != "" {
			obj.set("description", f.Description)
		}
		if f.DefaultValue != nil {
			obj.set("defaultValue", *f.DefaultValue)
		}
		out[i] = obj
	}
	return out
}

// typeDecoder turns parsed JSON into data types.
type typeDecoder struct {
	// nextFieldID is the last id handed to a ROW field without an "id"
	// (-1 before the first), or nil when every field must carry an id.
	nextFieldID *int
}

func (d *typeDecoder) dataType(v any, path string) (DataType, error) {
	switch v := v.(type) {
	case string:
		t, err := ParseDataType(v)
		if err != nil {
			return DataType{}, fmt.Errorf("%s: %w", path, err)
		}
		return t, nil
	case *jsonObject:
		return d.complexType(v, path)
	}
	return DataType{}, jsonCorruptf("%s: expected a type string or object, got %s", path, describeJSON(v))
}

// complexType reads a type object. Like Java, the kind is the prefix of
// "type" and the type is nullable unless "type" contains NOT NULL.
func (d *typeDecoder) complexType(obj *jsonObject, path string) (DataType, error) {
	r := objectReader{obj: obj}
	word := r.string("type")
	if r.err != nil {
		return DataType{}, fmt.Errorf("%s: %w", path, r.err)
	}
	t := DataType{Nullable: !strings.Contains(word, "NOT NULL")}
	var err error
	switch {
	case strings.HasPrefix(word, "ARRAY"):
		t.Root = Array
		t.Element, err = d.nested(obj, "element", path)
	case strings.HasPrefix(word, "VECTOR"):
		t.Root, t.Vector = Array, true
		if t.Element, err = d.nested(obj, "element", path); err == nil {
			r := objectReader{obj: obj}
			if t.Length = r.int32("length"); r.err != nil {
				err = fmt.Errorf("%s: %w", path, r.err)
			}
		}
	case strings.HasPrefix(word, "MULTISET"):
		t.Root = Multiset
		t.Element, err = d.nested(obj, "element", path)
	case strings.HasPrefix(word, "MAP"):
		t.Root = Map
		if t.Key, err = d.nested(obj, "key", path); err == nil {
			t.Value, err = d.nested(obj, "value", path)
		}
	case strings.HasPrefix(word, "ROW"):
		t.Root = Row
		t.Fields, err = d.rowFields(obj, path)
	default:
		return DataType{}, jsonCorruptf("%s: unknown complex type %q", path, word)
	}
	return t, err
}

// nested reads the type under key of a complex type object.
func (d *typeDecoder) nested(obj *jsonObject, key, path string) (*DataType, error) {
	r := objectReader{obj: obj}
	v, _ := r.required(key)
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", path, r.err)
	}
	t, err := d.dataType(v, path+"."+key)
	return &t, err
}

func (d *typeDecoder) rowFields(obj *jsonObject, path string) ([]DataField, error) {
	r := objectReader{obj: obj}
	elements := r.array("fields")
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", path, r.err)
	}
	return d.fields(elements, path+".fields")
}

// fields reads an array of DataField objects (DataTypeJsonParser.parseDataField).
func (d *typeDecoder) fields(elements []any, path string) ([]DataField, error) {
	fields := make([]DataField, 0, len(elements))
	for i, e := range elements {
		f, err := d.field(e, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}

func (d *typeDecoder) field(v any, path string) (DataField, error) {
	obj, ok := v.(*jsonObject)
	if !ok {
		return DataField{}, jsonCorruptf("%s: expected a field object, got %s", path, describeJSON(v))
	}
	r := objectReader{obj: obj}
	f := DataField{ID: d.fieldID(&r), Name: r.string("name")}
	typeValue, _ := r.required("type")
	if description := r.optString("description"); description != nil {
		f.Description = *description
	}
	f.DefaultValue = r.optString("defaultValue")
	if r.err != nil {
		return DataField{}, fmt.Errorf("%s: %w", path, r.err)
	}
	var err error
	f.Type, err = d.dataType(typeValue, fmt.Sprintf("%s %q", path, f.Name))
	return f, err
}

// fieldID reads "id", or assigns the next id when the decoder allows it.
// Java refuses a field with an id after fields without ("partial field
// id"), since the assigned ids could collide.
func (d *typeDecoder) fieldID(r *objectReader) int {
	if _, present := r.obj.get("id"); present || d.nextFieldID == nil {
		if d.nextFieldID != nil && *d.nextFieldID != -1 {
			r.fail("id", "partial field ids are not allowed")
		}
		return r.int32("id")
	}
	*d.nextFieldID++
	return *d.nextFieldID
}

func unsupportedTypef(name string) error {
	return fmt.Errorf("%w: data type %s", lakeerr.ErrUnsupported, name)
}
