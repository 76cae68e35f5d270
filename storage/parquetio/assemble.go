package parquetio

import (
	"errors"

	"github.com/lakesql/lakesql/storage/spec"
)

// valueReader rebuilds the values of one schema node from the entries of
// the leaf columns below it (Dremel record assembly). Every leaf below the
// node is positioned at the first entry of the node's next value; read
// consumes exactly that value's entries from each leaf.
type valueReader interface {
	read() (any, error)
	// leaves lists the cursors of the leaf columns read below the node; the
	// first one is used to peek at levels.
	leaves() []*leafCursor
}

// skipValue consumes one value of a node at repetition level maxRep from
// leaf c: its first entry and the entries of further repetitions nested
// deeper.
func skipValue(c *leafCursor, maxRep int) error {
	if _, err := c.next(); err != nil {
		return err
	}
	for {
		v, err := c.peek()
		if err != nil || v == nil || v.RepetitionLevel() <= maxRep {
			return err
		}
		c.pos++
	}
}

func skipLeaves(cursors []*leafCursor, maxRep int) error {
	for _, c := range cursors {
		if err := skipValue(c, maxRep); err != nil {
			return err
		}
	}
	return nil
}

// peekDefinition returns the definition level of the next entry of c.
func peekDefinition(c *leafCursor) (int, error) {
	v, err := c.peek()
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, errMissingValues
	}
	return v.DefinitionLevel(), nil
}

type primitiveReader struct {
	cursor *leafCursor
	maxDef int
	decode decodeFunc
}

func (r *primitiveReader) read() (any, error) {
	v, err := r.cursor.next()
	if err != nil || v.DefinitionLevel() < r.maxDef {
		return nil, err
	}
	return r.decode(v), nil
}

func (r *primitiveReader) leaves() []*leafCursor { return []*leafCursor{r.cursor} }

// rowReader assembles a ROW; fields missing from the file read as nil.
// hidden holds leaves read only to track the row's own nullness when no
// requested field exists in the file.
type rowReader struct {
	maxDef, maxRep int
	fields         []valueReader
	hidden         []*leafCursor
	cursors        []*leafCursor
}

func (r *rowReader) read() (any, error) {
	def, err := peekDefinition(r.cursors[0])
	if err != nil {
		return nil, err
	}
	if def < r.maxDef {
		return nil, skipLeaves(r.cursors, r.maxRep)
	}
	row := make([]any, len(r.fields))
	for i, f := range r.fields {
		if f == nil {
			continue
		}
		if row[i], err = f.read(); err != nil {
			return nil, err
		}
	}
	return row, skipLeaves(r.hidden, r.maxRep)
}

func (r *rowReader) leaves() []*leafCursor { return r.cursors }

// repeatedReader assembles an ARRAY, or with value set, a MAP or MULTISET.
// maxDef is the level at which the collection is non-null, entryDef the
// level at which it has at least one entry and entryRep the repetition
// level that marks each further entry.
type repeatedReader struct {
	maxDef, entryDef, entryRep int
	element, value             valueReader
	cursors                    []*leafCursor
}

func (r *repeatedReader) leaves() []*leafCursor { return r.cursors }

func (r *repeatedReader) read() (any, error) {
	def, err := peekDefinition(r.cursors[0])
	if err != nil {
		return nil, err
	}
	if def < r.maxDef {
		return nil, skipLeaves(r.cursors, r.entryRep-1)
	}
	if def < r.entryDef {
		return r.empty(), skipLeaves(r.cursors, r.entryRep-1)
	}
	if r.value != nil {
		return r.readMap()
	}
	return r.readArray()
}

func (r *repeatedReader) empty() any {
	if r.value != nil {
		return spec.MapValue{Keys: []any{}, Values: []any{}}
	}
	return []any{}
}

func (r *repeatedReader) readArray() (any, error) {
	var out []any
	for {
		v, err := r.element.read()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if more, err := r.hasNextEntry(); !more || err != nil {
			return out, err
		}
	}
}

func (r *repeatedReader) readMap() (any, error) {
	var out spec.MapValue
	for {
		k, err := r.element.read()
		if err != nil {
			return nil, err
		}
		v, err := r.value.read()
		if err != nil {
			return nil, err
		}
		out.Keys, out.Values = append(out.Keys, k), append(out.Values, v)
		if more, err := r.hasNextEntry(); !more || err != nil {
			return out, err
		}
	}
}

// hasNextEntry reports whether the next entry continues this collection
// rather than starting a value of an enclosing node or a new row.
func (r *repeatedReader) hasNextEntry() (bool, error) {
	v, err := r.cursors[0].peek()
	if err != nil || v == nil {
		return false, err
	}
	return v.RepetitionLevel() == r.entryRep, nil
}

// missingValuesError converts running out of entries into corruption.
func missingValuesError(file string, err error) error {
	if errors.Is(err, errMissingValues) {
		return corruptionf(file, "%v", err)
	}
	return err
}
