package table

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// partitionPath is the relative directory of a partition, formatted with
// the partition options of the schema s ("" for an unpartitioned table).
func partitionPath(s *spec.TableSchema, serialized []byte) (string, error) {
	if len(s.PartitionKeys) == 0 {
		return "", nil
	}
	types := make([]spec.DataType, len(s.PartitionKeys))
	for i, k := range s.PartitionKeys {
		j := s.FieldIndex(k)
		if j < 0 {
			return "", fmt.Errorf("schema %d: partition key %q is not a column: %w", s.ID, k, lakeerr.ErrCorruption)
		}
		types[i] = s.Fields[j].Type.WithNullable(true)
	}
	values, err := spec.DeserializeBinaryRow(types, serialized)
	if err != nil {
		return "", err
	}
	opts := s.CoreOptions()
	legacy, err := opts.PartitionLegacyName()
	if err != nil {
		return "", err
	}
	return spec.PartitionPath(s.PartitionKeys, types, values, opts.PartitionDefaultName(), legacy)
}
