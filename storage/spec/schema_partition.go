package spec

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// PartitionTypes are the types of s's partition keys, nullable as partition
// rows hold them (Java's TableSchema.logicalPartitionType). A key that names
// no column is a corrupt schema.
func (s *TableSchema) PartitionTypes() ([]DataType, error) {
	types := make([]DataType, len(s.PartitionKeys))
	for i, k := range s.PartitionKeys {
		j := s.FieldIndex(k)
		if j < 0 {
			return nil, fmt.Errorf("schema %d: partition key %q is not a column: %w", s.ID, k, lakeerr.ErrCorruption)
		}
		types[i] = s.Fields[j].Type.WithNullable(true)
	}
	return types, nil
}

// PartitionDir is the directory of a serialized partition row relative to
// the table ("" for an unpartitioned table), named with the schema's
// partition.default-name and partition.legacy-name as Java's writers name
// it.
func (s *TableSchema) PartitionDir(serialized []byte) (string, error) {
	if len(s.PartitionKeys) == 0 {
		return "", nil
	}
	types, err := s.PartitionTypes()
	if err != nil {
		return "", err
	}
	values, err := DeserializeBinaryRow(types, serialized)
	if err != nil {
		return "", err
	}
	opts := s.CoreOptions()
	legacy, err := opts.PartitionLegacyName()
	if err != nil {
		return "", err
	}
	return PartitionPath(s.PartitionKeys, types, values, opts.PartitionDefaultName(), legacy)
}
