// Package manifest reads a snapshot's manifest lists and manifests through
// a FileIO and folds their entries into the live file set. It decodes and
// encodes them in both formats Java Paimon writes (format.go): Avro, with
// package spec's codec, and Parquet (manifest.format = parquet), with
// package parquetio over spec's manifest rows.
package manifest

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Identifier is the identity of a data file in the live set: two entries
// with equal identifiers refer to the same file at the same level. Level is
// part of it because an upgrade moves a file to another level without
// rewriting it (DELETE at the old level, ADD at the new one).
// Mirrors org.apache.paimon.manifest.FileEntry.Identifier.
type Identifier string

// IdentifierOf returns the identifier of an entry's file.
func IdentifierOf(e *spec.ManifestEntry) Identifier {
	var b strings.Builder
	writePart(&b, string(e.Partition))
	var num [8]byte
	binary.BigEndian.PutUint32(num[:4], uint32(e.Bucket))
	binary.BigEndian.PutUint32(num[4:], uint32(e.File.Level))
	b.Write(num[:])
	writePart(&b, e.File.FileName)
	writePart(&b, strings.Join(e.File.ExtraFiles, "\x00"))
	writePart(&b, string(e.File.EmbeddedIndex))
	if e.File.ExternalPath != nil {
		writePart(&b, *e.File.ExternalPath)
	}
	return Identifier(b.String())
}

// writePart writes a length-prefixed part, so distinct tuples never collide.
func writePart(b *strings.Builder, s string) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(s)))
	b.Write(n[:])
	b.WriteString(s)
}

// Merger folds manifest entries, in commit order, into a live set.
// Mirrors FileEntry.mergeEntries: an ADD of a live identifier is an error;
// a DELETE removes the live identifier, or is remembered when its ADD lives
// in a manifest not merged yet.
type Merger struct {
	live  map[Identifier]int
	order []spec.ManifestEntry
	// removed[i] marks order[i] as deleted by a later entry.
	removed []bool
	// pendingDeletes are DELETEs whose ADD has not been seen.
	pendingDeletes map[Identifier]spec.ManifestEntry
}

// NewMerger returns an empty Merger.
func NewMerger() *Merger {
	return &Merger{live: map[Identifier]int{}, pendingDeletes: map[Identifier]spec.ManifestEntry{}}
}

// Add folds entries into the set.
func (m *Merger) Add(entries []spec.ManifestEntry) error {
	for i := range entries {
		if err := m.add(&entries[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Merger) add(e *spec.ManifestEntry) error {
	id := IdentifierOf(e)
	switch e.Kind {
	case spec.FileKindAdd:
		if _, dup := m.live[id]; dup {
			return fmt.Errorf("manifest adds file %s (bucket %d, level %d) which is already live: %w",
				e.File.FileName, e.Bucket, e.File.Level, lakeerr.ErrCorruption)
		}
		m.live[id] = len(m.order)
		m.order = append(m.order, *e)
		m.removed = append(m.removed, false)
	case spec.FileKindDelete:
		if idx, ok := m.live[id]; ok {
			delete(m.live, id)
			m.removed[idx] = true
			return nil
		}
		m.pendingDeletes[id] = *e
	default:
		return fmt.Errorf("manifest entry for %s has kind %d: %w", e.File.FileName, e.Kind, lakeerr.ErrCorruption)
	}
	return nil
}

// Live returns the live ADD entries in the order they were added.
func (m *Merger) Live() []spec.ManifestEntry {
	out := make([]spec.ManifestEntry, 0, len(m.live))
	for i, e := range m.order {
		if !m.removed[i] {
			out = append(out, e)
		}
	}
	return out
}

// DanglingDeletes returns DELETE entries whose file was never added. In a
// complete snapshot there are none; a commit uses them to detect that a file
// it deletes is no longer live.
func (m *Merger) DanglingDeletes() []spec.ManifestEntry {
	out := make([]spec.ManifestEntry, 0, len(m.pendingDeletes))
	for _, e := range m.pendingDeletes {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File.FileName < out[j].File.FileName })
	return out
}
