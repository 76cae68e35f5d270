package table

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Index types a batch read understands. Global indexes (index files with
// GlobalIndexMeta: bitmap, btree, full-text, vector) only accelerate
// Paimon's reads, so a read that does not use them returns the same rows.
const (
	indexTypeDeletionVectors = "DELETION_VECTORS"
	indexTypeHash            = "HASH"
)

// checkSchemaSupported refuses tables whose rows cannot be read exactly
// without features lakesql lacks, so they fail loudly instead of returning
// wrong rows. Row tracking (row-tracking.enabled) changes no row: it
// numbers them (_FIRST_ROW_ID in the manifests). Data evolution merges
// the columns of a row from the files that hold them, BLOB columns'
// .blob files included (see openEvolution); Java writes BLOB columns only
// with it, and a table with them otherwise is refused.
func checkSchemaSupported(s *spec.TableSchema) error {
	evolution, err := s.CoreOptions().DataEvolutionEnabled()
	if err != nil || evolution {
		return err
	}
	for _, f := range s.Fields {
		if hasBlob(f.Type) {
			return unsupported("blob column " + f.Name + " without data evolution")
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

// checkIndexSupported refuses index files of a type a read may need to
// understand (see indexType constants). Global indexes only let a read
// skip rows (applyGlobalIndexes), so a read never needs them.
func checkIndexSupported(entries []spec.IndexManifestEntry) error {
	for _, e := range entries {
		t := e.IndexFile.IndexType
		if e.IndexFile.GlobalIndex == nil && t != indexTypeDeletionVectors && t != indexTypeHash {
			return unsupported(fmt.Sprintf("%s index file %s", t, e.IndexFile.FileName))
		}
	}
	return nil
}
