package spec

import (
	"encoding/json"
	"math"
	"strconv"
)

// objectReader reads typed members of a parsed JSON object. The first
// failure sticks: later reads return zero values, and err names the key that
// was missing or malformed, so decoders read every field in one flat block
// and check err once.
type objectReader struct {
	obj *jsonObject
	err error
}

func (r *objectReader) fail(key, problem string) {
	if r.err == nil {
		r.err = jsonCorruptf("key %q: %s", key, problem)
	}
}

// required returns the value of a key that must be present and non-null.
func (r *objectReader) required(key string) (any, bool) {
	if r.err != nil {
		return nil, false
	}
	v, ok := r.obj.get(key)
	if !ok {
		r.fail(key, "missing")
		return nil, false
	}
	if v == nil {
		r.fail(key, "is null")
		return nil, false
	}
	return v, true
}

// optional returns the value of a key that may be absent or null.
func (r *objectReader) optional(key string) (any, bool) {
	if r.err != nil {
		return nil, false
	}
	v, _ := r.obj.get(key)
	return v, v != nil
}

func (r *objectReader) int64(key string) int64 {
	v, ok := r.required(key)
	if !ok {
		return 0
	}
	return r.toInt64(key, v)
}

func (r *objectReader) optInt64(key string) *int64 {
	v, ok := r.optional(key)
	if !ok {
		return nil
	}
	n := r.toInt64(key, v)
	return &n
}

// int32 reads a Java int.
func (r *objectReader) int32(key string) int {
	n := r.int64(key)
	if n < math.MinInt32 || n > math.MaxInt32 {
		r.fail(key, "out of int range")
		return 0
	}
	return int(n)
}

// optInt32 reads a Java int that may be absent or null, else returns def.
func (r *objectReader) optInt32(key string, def int) int {
	if _, ok := r.optional(key); !ok {
		return def
	}
	return r.int32(key)
}

func (r *objectReader) toInt64(key string, v any) int64 {
	num, ok := v.(json.Number)
	if !ok {
		r.fail(key, "expected an integer, got "+describeJSON(v))
		return 0
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil {
		r.fail(key, "expected a 64-bit integer, got "+string(num))
	}
	return n
}

func (r *objectReader) string(key string) string {
	v, ok := r.required(key)
	if !ok {
		return ""
	}
	return r.toString(key, v)
}

func (r *objectReader) optString(key string) *string {
	v, ok := r.optional(key)
	if !ok {
		return nil
	}
	s := r.toString(key, v)
	return &s
}

func (r *objectReader) toString(key string, v any) string {
	s, ok := v.(string)
	if !ok {
		r.fail(key, "expected a string, got "+describeJSON(v))
	}
	return s
}

func (r *objectReader) array(key string) []any {
	v, ok := r.required(key)
	if !ok {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		r.fail(key, "expected an array, got "+describeJSON(v))
	}
	return a
}

func (r *objectReader) object(key string) *jsonObject {
	v, ok := r.required(key)
	if !ok {
		return nil
	}
	return r.toObject(key, v)
}

func (r *objectReader) optObject(key string) *jsonObject {
	v, ok := r.optional(key)
	if !ok {
		return nil
	}
	return r.toObject(key, v)
}

func (r *objectReader) toObject(key string, v any) *jsonObject {
	o, ok := v.(*jsonObject)
	if !ok {
		r.fail(key, "expected an object, got "+describeJSON(v))
	}
	return o
}

// strings reads an array of strings.
func (r *objectReader) strings(key string) []string {
	elements := r.array(key)
	out := make([]string, 0, len(elements))
	for _, e := range elements {
		out = append(out, r.toString(key, e))
	}
	return out
}

// stringMap reads an object of string values, with its key order.
func (r *objectReader) stringMap(obj *jsonObject, key string) (map[string]string, []string) {
	if obj == nil || r.err != nil {
		return nil, nil
	}
	m := make(map[string]string, len(obj.keys))
	for _, k := range obj.keys {
		m[k] = r.toString(key+"."+k, obj.values[k])
	}
	return m, obj.keys
}
