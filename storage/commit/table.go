package commit

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// tableLayout is what a commit needs from the latest schema: its id (every
// snapshot records it), the partition columns (to compute manifest
// partition stats, match overwrite targets and name partitions in errors)
// and the key columns of a primary-key table (to order file key ranges).
type tableLayout struct {
	schemaID       int64
	partitionKeys  []string
	partitionTypes []spec.DataType
	primaryKey     bool
	keyTypes       []spec.DataType
	// keyFields and keyNames are the trimmed primary key (the key of the
	// data files), keyScope where a key can live; see KeyCheck.
	keyFields        []spec.DataField
	keyNames         []string
	keyScope         KeyScope
	defaultPartition string
	legacyPartition  bool
}

func (c *Committer) loadTable(ctx context.Context) (*tableLayout, error) {
	s, err := c.schemas.Latest(ctx)
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	partitionTypes, err := fieldTypes(s, s.PartitionKeys)
	if err != nil {
		return nil, err
	}
	keyNames := s.TrimmedPrimaryKeys()
	keyFields, err := fieldsNamed(s, keyNames)
	if err != nil {
		return nil, err
	}
	opts := spec.NewCoreOptions(s.Options)
	legacy, err := opts.PartitionLegacyName()
	if err != nil {
		return nil, fmt.Errorf("commit: schema %d: %w", s.ID, err)
	}
	scope, err := keyScopeOf(s, opts)
	if err != nil {
		return nil, fmt.Errorf("commit: schema %d: %w", s.ID, err)
	}
	return &tableLayout{
		schemaID:         s.ID,
		partitionKeys:    s.PartitionKeys,
		partitionTypes:   partitionTypes,
		primaryKey:       len(s.PrimaryKeys) > 0,
		keyTypes:         typesOf(keyFields),
		keyFields:        keyFields,
		keyNames:         keyNames,
		keyScope:         scope,
		defaultPartition: opts.PartitionDefaultName(),
		legacyPartition:  legacy,
	}, nil
}

func fieldTypes(s *spec.TableSchema, names []string) ([]spec.DataType, error) {
	fields, err := fieldsNamed(s, names)
	return typesOf(fields), err
}

func fieldsNamed(s *spec.TableSchema, names []string) ([]spec.DataField, error) {
	fields := make([]spec.DataField, len(names))
	for i, name := range names {
		idx := s.FieldIndex(name)
		if idx < 0 {
			return nil, fmt.Errorf("commit: schema %d names column %q that it does not have: %w", s.ID, name, lakeerr.ErrCorruption)
		}
		fields[i] = s.Fields[idx]
	}
	return fields, nil
}

func typesOf(fields []spec.DataField) []spec.DataType {
	types := make([]spec.DataType, len(fields))
	for i, f := range fields {
		types[i] = f.Type
	}
	return types
}

// keyScopeOf says where a key of the table can live (see KeyScope): a
// primary key without every partition key lets an update move a key
// between partitions; buckets other than a fixed count place it in any
// bucket of its partition.
func keyScopeOf(s *spec.TableSchema, opts spec.CoreOptions) (KeyScope, error) {
	for _, p := range s.PartitionKeys {
		if !slices.Contains(s.PrimaryKeys, p) {
			return KeysAnywhere, nil
		}
	}
	buckets, err := opts.Bucket()
	if err != nil || buckets > 0 {
		return KeysInBucket, err
	}
	return KeysInPartition, nil
}

func (t *tableLayout) partitioned() bool { return len(t.partitionKeys) > 0 }

// decodePartition decodes a serialized partition row of this table.
func (t *tableLayout) decodePartition(partition []byte) ([]any, error) {
	values, err := spec.DeserializeBinaryRow(t.partitionTypes, partition)
	if err != nil {
		return nil, fmt.Errorf("commit: partition %x: %w", partition, err)
	}
	return values, nil
}

// formatPartition renders a partition as its directory, "dt=2024-01-01",
// so that an error names it the way an operator finds it on disk; bytes
// that do not decode are shown in hex rather than hidden.
func (t *tableLayout) formatPartition(partition []byte) string {
	if !t.partitioned() {
		return ""
	}
	values, err := t.decodePartition(partition)
	if err != nil {
		return fmt.Sprintf("%x", partition)
	}
	name, err := spec.PartitionPath(t.partitionKeys, t.partitionTypes, values, t.defaultPartition, t.legacyPartition)
	if err != nil {
		return fmt.Sprintf("%x", partition)
	}
	return name
}

// keyComparator orders serialized key rows of a primary-key table. The
// conflict checker's comparator cannot fail, so the first key that does not
// decode is kept in *decodeErr for the caller to report; such a key
// compares as raw bytes meanwhile.
func (t *tableLayout) keyComparator(decodeErr *error) func(a, b []byte) int {
	decode := func(key []byte) ([]any, bool) {
		values, err := spec.DeserializeBinaryRow(t.keyTypes, key)
		if err != nil && *decodeErr == nil {
			*decodeErr = fmt.Errorf("commit: file key %x: %w", key, err)
		}
		return values, err == nil
	}
	return func(a, b []byte) int {
		va, okA := decode(a)
		vb, okB := decode(b)
		if !okA || !okB {
			return bytes.Compare(a, b)
		}
		return spec.CompareRows(t.keyTypes, va, vb)
	}
}
