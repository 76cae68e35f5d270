package parquetio

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// fieldShredder splits the values of one field into its leaf columns with
// repetition and definition levels (Dremel striping), the inverse of the
// valueReaders.
type fieldShredder interface {
	// shred appends v, nil for NULL, at repetition level rep; def is the
	// definition level of the enclosing node.
	shred(v any, rep, def int) error
}

// writeNulls records an absent value for every leaf below a node.
func writeNulls(leaves []*columnWriter, rep, def int) {
	for _, c := range leaves {
		c.addNull(rep, def)
	}
}

type leafShredder struct {
	path     string
	column   *columnWriter
	optional bool
	encode   valueEncoder
}

func (s *leafShredder) shred(v any, rep, def int) error {
	if v == nil {
		if !s.optional {
			return fmt.Errorf("column %s: NULL in a NOT NULL field", s.path)
		}
		s.column.addNull(rep, def)
		return nil
	}
	if err := s.encode(s.column, v); err != nil {
		return fmt.Errorf("column %s: %w", s.path, err)
	}
	if s.optional {
		def++
	}
	s.column.addLevels(rep, def)
	return nil
}

type rowShredder struct {
	path     string
	optional bool
	fields   []fieldShredder
	leaves   []*columnWriter
}

func (s *rowShredder) shred(v any, rep, def int) error {
	if v == nil {
		if !s.optional {
			return fmt.Errorf("column %s: NULL in a NOT NULL field", s.path)
		}
		writeNulls(s.leaves, rep, def)
		return nil
	}
	row, ok := v.([]any)
	if !ok || len(row) != len(s.fields) {
		return fmt.Errorf("column %s: ROW of %d fields needs a []any of that length, got %T", s.path, len(s.fields), v)
	}
	if s.optional {
		def++
	}
	for i, f := range s.fields {
		if err := f.shred(row[i], rep, def); err != nil {
			return err
		}
	}
	return nil
}

// collectionShredder writes an ARRAY, or with value set, a MAP or MULTISET.
// entryRep is the repetition level marking each entry after the first.
type collectionShredder struct {
	path           string
	optional       bool
	element, value fieldShredder
	leaves         []*columnWriter
	entryRep       int
}

func (s *collectionShredder) shred(v any, rep, def int) error {
	if v == nil {
		if !s.optional {
			return fmt.Errorf("column %s: NULL in a NOT NULL field", s.path)
		}
		writeNulls(s.leaves, rep, def)
		return nil
	}
	if s.optional {
		def++
	}
	if s.value != nil {
		return s.shredMap(v, rep, def)
	}
	elements, ok := v.([]any)
	if !ok {
		return fmt.Errorf("column %s: ARRAY needs a []any, got %T", s.path, v)
	}
	if len(elements) == 0 {
		writeNulls(s.leaves, rep, def)
	}
	for i, e := range elements {
		if i > 0 {
			rep = s.entryRep
		}
		if err := s.element.shred(e, rep, def+1); err != nil {
			return err
		}
	}
	return nil
}

func (s *collectionShredder) shredMap(v any, rep, def int) error {
	m, ok := v.(spec.MapValue)
	if !ok || len(m.Keys) != len(m.Values) {
		return fmt.Errorf("column %s: MAP needs a spec.MapValue with as many keys as values, got %T", s.path, v)
	}
	if len(m.Keys) == 0 {
		writeNulls(s.leaves, rep, def)
	}
	for i := range m.Keys {
		if i > 0 {
			rep = s.entryRep
		}
		if err := s.element.shred(m.Keys[i], rep, def+1); err != nil {
			return err
		}
		if err := s.value.shred(m.Values[i], rep, def+1); err != nil {
			return err
		}
	}
	return nil
}
