package compact

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// ParsePartitions reads a partition filter as CALL sys.compact takes it:
// specs separated by ';' (any of them), each a ','-separated list of
// key=value pairs (all of them), e.g. "dt=2024-01-01,hr=3;dt=2024-01-02".
// An empty string selects every partition (nil).
func ParsePartitions(s string) ([]map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []map[string]string
	for _, spec := range strings.Split(s, ";") {
		m := map[string]string{}
		for _, pair := range strings.Split(spec, ",") {
			k, v, ok := strings.Cut(pair, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("compact: partition %q: want key=value pairs separated by ','", spec)
			}
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("compact: partition %q names %s twice", spec, k)
			}
			m[k] = strings.TrimSpace(v)
		}
		out = append(out, m)
	}
	return out, nil
}

// partitionFilter selects serialized partitions by their values.
type partitionFilter struct {
	keys  []string
	types []spec.DataType
	// specs hold, per spec, the typed value of each key it names (nil for
	// the default partition name, which stands for NULL).
	specs []map[int]any
	// memo caches decisions by serialized partition.
	memo map[string]bool
}

// ErrInvalidPartition classes a partition spec that names a column that is
// not a partition key, or a value the key's type cannot hold: the
// caller's argument is wrong, nothing in the table.
var ErrInvalidPartition = errors.New("invalid partition spec")

// newPartitionFilter parses each spec's values in the partition key types;
// a nil filter selects everything.
func newPartitionFilter(s *spec.TableSchema, specs []map[string]string) (*partitionFilter, error) {
	if specs == nil {
		return nil, nil
	}
	types, err := s.PartitionTypes()
	if err != nil {
		return nil, err
	}
	f := &partitionFilter{keys: s.PartitionKeys, types: types, memo: map[string]bool{}}
	o := s.CoreOptions()
	legacy, err := o.PartitionLegacyName()
	if err != nil {
		return nil, err
	}
	for _, m := range specs {
		typed := map[int]any{}
		for k, v := range m {
			i := indexOf(f.keys, k)
			if i < 0 {
				return nil, fmt.Errorf("compact: %s is not a partition key of the table (keys: %v): %w", k, f.keys, ErrInvalidPartition)
			}
			value, err := parseSpecValue(v, f.types[i], o.PartitionDefaultName(), legacy)
			if err != nil {
				return nil, fmt.Errorf("compact: partition value %s=%s: %v: %w", k, v, err, ErrInvalidPartition)
			}
			typed[i] = value
		}
		f.specs = append(f.specs, typed)
	}
	return f, nil
}

// parseSpecValue reads a partition value as Java's procedures do, in the
// type's string form (a DATE is 2024-02-29), whatever form the directory
// names use; a table with partition.legacy-name names DATE partitions by
// their epoch day, which is accepted as well.
func parseSpecValue(value string, t spec.DataType, defaultName string, legacy bool) (any, error) {
	v, err := spec.ParsePartitionValue(t, value, defaultName, false)
	if err != nil && legacy {
		v, err = spec.ParsePartitionValue(t, value, defaultName, true)
	}
	return v, err
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// matches reports whether a serialized partition is selected.
func (f *partitionFilter) matches(partition []byte) (bool, error) {
	if f == nil {
		return true, nil
	}
	if ok, seen := f.memo[string(partition)]; seen {
		return ok, nil
	}
	values, err := spec.DeserializeBinaryRow(f.types, partition)
	if err != nil {
		return false, err
	}
	ok := false
	for _, typed := range f.specs {
		if f.specMatches(typed, values) {
			ok = true
			break
		}
	}
	f.memo[string(partition)] = ok
	return ok, nil
}

func (f *partitionFilter) specMatches(typed map[int]any, values []any) bool {
	for i, want := range typed {
		got := values[i]
		if (want == nil) != (got == nil) {
			return false
		}
		if want != nil && spec.CompareValues(f.types[i], want, got) != 0 {
			return false
		}
	}
	return true
}
