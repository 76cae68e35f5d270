package table

import (
	"fmt"
	"path"
	"strings"

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
	if on, err := opts.RowTrackingEnabled(); err != nil || on {
		return unsupported(err, "row tracking (row-tracking.enabled)")
	}
	if on, err := opts.DataEvolutionEnabled(); err != nil || on {
		return unsupported(err, "data evolution (data-evolution.enabled)")
	}
	for _, f := range s.Fields {
		if hasBlob(f.Type) {
			return unsupported(nil, "blob column "+f.Name)
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

func unsupported(cause error, feature string) error {
	if cause != nil {
		return cause
	}
	return fmt.Errorf("%w: %s", lakeerr.ErrUnsupported, feature)
}

// checkIndexSupported refuses global indexes (see indexType constants).
func checkIndexSupported(entries []spec.IndexManifestEntry) error {
	for _, e := range entries {
		t := e.IndexFile.IndexType
		if e.IndexFile.GlobalIndex != nil || (t != indexTypeDeletionVectors && t != indexTypeHash) {
			return unsupported(nil, fmt.Sprintf("global index (%s index file %s)", t, e.IndexFile.FileName))
		}
	}
	return nil
}

// dataFileFormat returns the format of a data file from its last extension,
// as Java does (PojoDataFileMeta.fileFormat), and refuses all but Parquet.
func dataFileFormat(name string) (string, error) {
	format := strings.TrimPrefix(path.Ext(name), ".")
	if format != "parquet" {
		return "", unsupported(nil, fmt.Sprintf("%s data files (%s)", format, name))
	}
	return format, nil
}
