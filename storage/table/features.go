package table

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Index types a batch read understands. Other index files (global indexes)
// are only accelerators in Paimon too, but tables that carry them are
// written with row tracking, which lakesql does not implement yet.
const (
	indexTypeDeletionVectors = "DELETION_VECTORS"
	indexTypeHash            = "HASH"
)

// checkSchemaSupported refuses tables whose rows cannot be read exactly
// without features lakesql lacks, so they fail loudly instead of returning
// wrong rows.
func checkSchemaSupported(s *spec.TableSchema) error {
	opts := s.CoreOptions()
	for _, feature := range []struct {
		name    string
		enabled func() (bool, error)
	}{
		{"row tracking (row-tracking.enabled)", opts.RowTrackingEnabled},
		{"data evolution (data-evolution.enabled)", opts.DataEvolutionEnabled},
	} {
		on, err := feature.enabled()
		if err != nil {
			return err
		}
		if on {
			return unsupported(feature.name)
		}
	}
	for _, f := range s.Fields {
		if hasBlob(f.Type) {
			return unsupported("blob column " + f.Name)
		}
	}
	return nil
}

func hasBlob(t spec.DataType) bool {
	switch t.Root {
	case spec.Blob:
		return true
	case spec.Array, spec.Multiset:
		return hasBlob(*t.Element)
	case spec.Map:
		return hasBlob(*t.Key) || hasBlob(*t.Value)
	case spec.Row:
		for _, f := range t.Fields {
			if hasBlob(f.Type) {
				return true
			}
		}
	}
	return false
}

func unsupported(feature string) error {
	return fmt.Errorf("%w: %s", lakeerr.ErrUnsupported, feature)
}

// checkIndexSupported refuses global indexes (see indexType constants).
func checkIndexSupported(entries []spec.IndexManifestEntry) error {
	for _, e := range entries {
		t := e.IndexFile.IndexType
		if e.IndexFile.GlobalIndex != nil || (t != indexTypeDeletionVectors && t != indexTypeHash) {
			return unsupported(fmt.Sprintf("global index (%s index file %s)", t, e.IndexFile.FileName))
		}
	}
	return nil
}
