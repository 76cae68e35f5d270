package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// DefaultKeyLookupRows bounds the rows a KeyLookup keeps when its options
// name no bound: about the rows of a day of a large payment table.
const DefaultKeyLookupRows = 1 << 20

// ErrKeyLookupUnsupported is returned by NewKeyLookup for plans whose keys
// it cannot route exactly; callers read such lookups with a filtered scan.
var ErrKeyLookupUnsupported = errors.New("key lookup not supported for this plan")

// KeyLookupOptions configure a KeyLookup.
type KeyLookupOptions struct {
	// Columns are the columns of the rows Lookup returns, in this order;
	// nil returns every column of the plan's schema.
	Columns []string
	// MaxRows bounds the rows kept; 0 is DefaultKeyLookupRows. Past it the
	// splits loaded first are dropped, and read again when a later key
	// lands in them.
	MaxRows int
}

// KeyLookup answers lookups of whole primary keys against one plan the way a
// hash join would. The first key that lands in a split reads the split, merged
// exactly as a scan reads it, and keeps its rows by key, so a lookup join of n
// keys reads each split once instead of planning and decoding files for each
// key (a join of 100 K keys into a 1 M-row table had not finished after 10
// minutes key by key). A key is routed without I/O: to the partition its
// partition fields name, to the bucket the default bucket function gives it
// (every bucket of the partition for other bucket modes), and to the splits
// whose files' key ranges hold it. Safe for concurrent use.
type KeyLookup struct {
	t    *Table
	plan *Plan
	// read are the columns read: the caller's, then the primary-key
	// columns the caller did not ask for; out is how many are the
	// caller's.
	read []string
	out  int
	// keyAt are the positions in a read row of the primary-key fields,
	// in primary-key order; keyTypes their types.
	keyAt    []int
	keyTypes []spec.DataType
	route    keyRoute
	// splitsOf maps a canonical partition and bucket to the indexes of
	// their splits in plan.Splits; ranges are each split's files' key
	// ranges, in the read schema's trimmed-key types.
	splitsOf    map[bucketID][]int
	partitionOf map[string]string
	ranges      [][]lsm.FileMeta[*spec.DataFileMeta]
	compareKeys lsm.RowComparator
	maxRows     int

	mu sync.Mutex
	// loaded are the rows of the splits read so far, by encoded key;
	// loadOrder is the order they were read in, which eviction follows.
	loaded     map[int]map[string][][]any
	loadOrder  []int
	loadedRows int
}

// keyRoute says which primary-key fields name a key's partition and its
// bucket: positions in the primary key, and their types.
type keyRoute struct {
	partitionAt    []int
	partitionTypes []spec.DataType
	// bucketAt is nil when keys are not routed to one bucket: dynamic,
	// postponed or unaware buckets, or a bucket function other than the
	// default one.
	bucketAt    []int
	bucketTypes []spec.DataType
	trimmedAt   []int
}

// NewKeyLookup prepares lookups of primary keys against plan, which must
// be a plan without a filter. It reads nothing yet. Plans it cannot route
// exactly (no primary key, a fallback branch, floating-point keys whose
// equal values can differ in bits) return ErrKeyLookupUnsupported.
func (t *Table) NewKeyLookup(ctx context.Context, plan *Plan, opts KeyLookupOptions) (*KeyLookup, error) {
	s := plan.Schema
	if err := keyLookupSupported(plan); err != nil {
		return nil, err
	}
	k := &KeyLookup{t: t, plan: plan, maxRows: opts.MaxRows, loaded: map[int]map[string][][]any{},
		compareKeys: scan.KeyComparator(s)}
	if k.maxRows <= 0 {
		k.maxRows = DefaultKeyLookupRows
	}
	k.read = opts.Columns
	if k.read == nil {
		k.read = fieldNames(s)
	}
	k.out = len(k.read)
	k.read = appendMissing(k.read, s.PrimaryKeys)
	for _, name := range s.PrimaryKeys {
		k.keyAt = append(k.keyAt, indexOf(k.read, name))
		k.keyTypes = append(k.keyTypes, s.Fields[s.FieldIndex(name)].Type)
	}
	var err error
	if k.route, err = newKeyRoute(s); err != nil {
		return nil, err
	}
	if err := k.indexSplits(ctx); err != nil {
		return nil, err
	}
	return k, nil
}

func keyLookupSupported(plan *Plan) error {
	s := plan.Schema
	switch {
	case len(s.PrimaryKeys) == 0:
		return fmt.Errorf("%w: no primary key", ErrKeyLookupUnsupported)
	case plan.Fallback != nil:
		return fmt.Errorf("%w: a fallback branch", ErrKeyLookupUnsupported)
	case plan.Scan != nil && plan.Scan.Filter != nil && !scan.IsTrue(plan.Scan.Filter.Full):
		return fmt.Errorf("%w: a filtered plan", ErrKeyLookupUnsupported)
	}
	for _, name := range s.PrimaryKeys {
		switch s.Fields[s.FieldIndex(name)].Type.Root {
		case spec.Float, spec.Double:
			return fmt.Errorf("%w: floating-point key %s", ErrKeyLookupUnsupported, name)
		}
	}
	return nil
}

func newKeyRoute(s *spec.TableSchema) (keyRoute, error) {
	var r keyRoute
	for _, name := range s.PartitionKeys {
		at := indexOf(s.PrimaryKeys, name)
		if at < 0 {
			return keyRoute{}, fmt.Errorf("%w: partition field %s is not in the primary key", ErrKeyLookupUnsupported, name)
		}
		r.partitionAt = append(r.partitionAt, at)
		r.partitionTypes = append(r.partitionTypes, s.Fields[s.FieldIndex(name)].Type)
	}
	for _, name := range s.TrimmedPrimaryKeys() {
		r.trimmedAt = append(r.trimmedAt, indexOf(s.PrimaryKeys, name))
	}
	opts := s.CoreOptions()
	n, err := opts.Bucket()
	if err != nil {
		return keyRoute{}, err
	}
	if fn, ok := opts.Get(optionBucketFunctionType); n <= 0 || (ok && !strings.EqualFold(fn, "default")) {
		return r, nil
	}
	bucketKey := opts.BucketKey()
	if len(bucketKey) == 0 {
		bucketKey = s.TrimmedPrimaryKeys()
	}
	for _, name := range bucketKey {
		at := indexOf(s.PrimaryKeys, name)
		if at < 0 {
			return keyRoute{}, fmt.Errorf("%w: bucket key %s is not in the primary key", ErrKeyLookupUnsupported, name)
		}
		r.bucketAt = append(r.bucketAt, at)
		r.bucketTypes = append(r.bucketTypes, s.Fields[s.FieldIndex(name)].Type)
	}
	return r, nil
}

// optionBucketFunctionType selects the bucket function; keys are routed
// to one bucket only under the default hash.
const optionBucketFunctionType = "bucket-function.type"

// indexSplits groups the plan's splits by canonical partition and bucket,
// and decodes their files' key ranges.
func (k *KeyLookup) indexSplits(ctx context.Context) error {
	k.splitsOf = map[bucketID][]int{}
	k.partitionOf = map[string]string{}
	k.ranges = make([][]lsm.FileMeta[*spec.DataFileMeta], len(k.plan.Splits))
	for i, sp := range k.plan.Splits {
		b := k.plan.Buckets[sp.Bucket]
		part, err := k.canonicalPartition(b.Partition)
		if err != nil {
			return err
		}
		id := bucketID{part, b.Bucket}
		k.splitsOf[id] = append(k.splitsOf[id], i)
		if k.ranges[i], err = scan.KeyRanges(k.plan.Schema, k.t.schemaOf(ctx), sp.Files); err != nil {
			return err
		}
	}
	return nil
}

// canonicalPartition re-serializes a partition row with this package's
// encoder, so that a partition written by Java and one computed from a key
// compare as the same bytes whatever padding their writers left.
func (k *KeyLookup) canonicalPartition(serialized []byte) (string, error) {
	if c, ok := k.partitionOf[string(serialized)]; ok {
		return c, nil
	}
	values, err := spec.DeserializeBinaryRow(k.route.partitionTypes, serialized)
	if err != nil {
		return "", err
	}
	c, err := spec.SerializeBinaryRow(k.route.partitionTypes, values)
	if err != nil {
		return "", err
	}
	k.partitionOf[string(serialized)] = string(c)
	return string(c), nil
}

// Lookup returns the rows whose primary key is key, in the columns the
// options named. key holds one value per primary-key field, in
// primary-key order, of the plan schema's types; a nil value matches
// nothing, as no primary-key field is NULL.
func (k *KeyLookup) Lookup(ctx context.Context, key []any) ([][]any, error) {
	for _, v := range key {
		if v == nil {
			return nil, nil
		}
	}
	encoded, err := spec.SerializeBinaryRow(k.keyTypes, key)
	if err != nil {
		return nil, err
	}
	splits, err := k.candidateSplits(key)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var out [][]any
	for _, i := range splits {
		rows, err := k.splitRows(ctx, i)
		if err != nil {
			return nil, err
		}
		for _, row := range rows[string(encoded)] {
			out = append(out, row[:k.out:k.out])
		}
	}
	return out, nil
}

// candidateSplits are the splits that can hold key: those of its
// partition and bucket whose files' key ranges hold it.
func (k *KeyLookup) candidateSplits(key []any) ([]int, error) {
	part, err := spec.SerializeBinaryRow(k.route.partitionTypes, pick(key, k.route.partitionAt))
	if err != nil {
		return nil, err
	}
	trimmed := pick(key, k.route.trimmedAt)
	var out []int
	for _, id := range k.bucketsOf(string(part), key) {
		for _, i := range k.splitsOf[id] {
			if k.holds(i, trimmed) {
				out = append(out, i)
			}
		}
	}
	return out, nil
}

// bucketsOf lists the buckets of a partition that can hold key.
func (k *KeyLookup) bucketsOf(part string, key []any) []bucketID {
	var hash int32
	routed := k.route.bucketAt != nil
	if routed {
		row, err := spec.EncodeBinaryRow(k.route.bucketTypes, pick(key, k.route.bucketAt), spec.RowKindInsert)
		if err != nil {
			routed = false
		} else {
			hash = spec.BucketHash(row)
		}
	}
	var out []bucketID
	for id := range k.splitsOf {
		if id.partition != part {
			continue
		}
		if routed && !k.bucketHolds(id, hash) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// bucketHolds reports whether a key of the given bucket-key hash belongs
// in the bucket: hash mod the bucket count its files were written with
// (partitions may be rescaled to other counts). Buckets of unknown count
// are kept.
func (k *KeyLookup) bucketHolds(id bucketID, hash int32) bool {
	for _, i := range k.splitsOf[id] {
		total := k.plan.Buckets[k.plan.Splits[i].Bucket].TotalBuckets
		if total <= 0 {
			return true
		}
		b := int64(hash) % int64(total)
		if b < 0 {
			b = -b
		}
		return int32(b) == id.bucket
	}
	return true
}

// holds reports whether some file of split i has a key range holding the
// trimmed key.
func (k *KeyLookup) holds(i int, trimmed []any) bool {
	for _, f := range k.ranges[i] {
		if k.compareKeys(f.MinKey, trimmed) <= 0 && k.compareKeys(trimmed, f.MaxKey) <= 0 {
			return true
		}
	}
	return false
}

// splitRows are the rows of split i by encoded key, read on first use.
func (k *KeyLookup) splitRows(ctx context.Context, i int) (map[string][][]any, error) {
	if rows, ok := k.loaded[i]; ok {
		return rows, nil
	}
	rows, n, err := k.readSplit(ctx, i)
	if err != nil {
		return nil, err
	}
	for k.loadedRows+n > k.maxRows && len(k.loadOrder) > 0 {
		k.evictOldest()
	}
	k.loaded[i] = rows
	k.loadOrder = append(k.loadOrder, i)
	k.loadedRows += n
	return rows, nil
}

func (k *KeyLookup) evictOldest() {
	oldest := k.loadOrder[0]
	k.loadOrder = k.loadOrder[1:]
	for _, rows := range k.loaded[oldest] {
		k.loadedRows -= len(rows)
	}
	delete(k.loaded, oldest)
}

// readSplit reads split i as a scan of the plan reads it, and indexes its
// rows by encoded primary key.
func (k *KeyLookup) readSplit(ctx context.Context, i int) (map[string][][]any, int, error) {
	one := *k.plan
	one.Splits = k.plan.Splits[i : i+1 : i+1]
	rs, err := k.t.ExecutePlan(ctx, &one, ReadOptions{Columns: k.read, Parallelism: 1})
	if err != nil {
		return nil, 0, err
	}
	defer rs.Close()
	byKey := map[string][][]any{}
	n := 0
	key := make([]any, len(k.keyAt))
	for {
		row, err := rs.Next()
		if err == io.EOF {
			return byKey, n, nil
		}
		if err != nil {
			return nil, 0, err
		}
		for j, at := range k.keyAt {
			key[j] = row[at]
		}
		encoded, err := spec.SerializeBinaryRow(k.keyTypes, key)
		if err != nil {
			return nil, 0, err
		}
		byKey[string(encoded)] = append(byKey[string(encoded)], row)
		n++
	}
}

func pick(values []any, at []int) []any {
	out := make([]any, len(at))
	for i, j := range at {
		out[i] = values[j]
	}
	return out
}

func fieldNames(s *spec.TableSchema) []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}

// appendMissing appends the names of extra that names lacks.
func appendMissing(names, extra []string) []string {
	out := append([]string(nil), names...)
	for _, n := range extra {
		if indexOf(out, n) < 0 {
			out = append(out, n)
		}
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
