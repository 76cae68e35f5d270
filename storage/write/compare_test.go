package write

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

func randomKeyValue(rng *rand.Rand, t spec.DataType) any {
	if rng.IntN(10) == 0 {
		return nil
	}
	switch t.Root {
	case spec.BigInt:
		return int64(rng.IntN(7)) - 3 + int64(rng.IntN(2))<<62
	case spec.Int:
		return int32(rng.IntN(7) - 3)
	case spec.Date:
		return spec.DateValue(rng.IntN(5))
	case spec.Decimal:
		return spec.NewDecimal(int64(rng.IntN(9)-4), 2)
	case spec.Timestamp:
		return spec.TimestampValue{Millis: int64(rng.IntN(3)), NanoOfMilli: int32(rng.IntN(3)) * 1000}
	}
	return []string{"", "a", "a\x00", "ab", "abcdefgh", "abcdefghi", "abcdefgh\xff", "é", "\xff"}[rng.IntN(9)]
}

var keyTypes = []spec.DataType{
	bigintType, intType, stringType, {Root: spec.Date, Nullable: true},
	{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}, {Root: spec.Timestamp, Nullable: true, Precision: 6},
}

// TestKeyComparatorsMatchSpec checks the specialized key comparators and
// the sort prefixes against spec.CompareRows, the reference order.
func TestKeyComparatorsMatchSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, first := range keyTypes {
		types := []spec.DataType{first, stringType}
		compare := newRowComparator(types)
		prefixer := newKeyPrefixer(first)
		for range 2000 {
			a := []any{randomKeyValue(rng, first), randomKeyValue(rng, stringType)}
			b := []any{randomKeyValue(rng, first), randomKeyValue(rng, stringType)}
			want := spec.CompareRows(types, a, b)
			if got := compare(a, b); got != want {
				t.Fatalf("%s: compare(%v, %v) = %d, want %d", first, a, b, got, want)
			}
			if a[0] == nil || b[0] == nil {
				continue // key columns are NOT NULL
			}
			pa, pb := prefixer.prefix(a[0]), prefixer.prefix(b[0])
			first := spec.CompareValues(first, a[0], b[0])
			if (pa < pb && first > 0) || (pa > pb && first < 0) || (prefixer.exact && (pa == pb) != (first == 0)) {
				t.Fatalf("%s: prefixes %d, %d disagree with order %d of %v, %v", types[0], pa, pb, first, a[0], b[0])
			}
		}
	}
}

// TestSortedOrderIsKeyThenSequence sorts a buffer with duplicate keys and
// checks key order, then write order within a key.
func TestSortedOrderIsKeyThenSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, keyType := range keyTypes {
		ts := &tableSettings{key: columnSet{types: []spec.DataType{keyType.WithNullable(false)}},
			keyPrefix: newKeyPrefixer(keyType), keyComparator: newRowComparator([]spec.DataType{keyType})}
		ts.engine = mustEngine(t)
		buffer := &recordBuffer{}
		for i := range 3000 {
			k := randomKeyValue(rng, keyType)
			for k == nil {
				k = randomKeyValue(rng, keyType)
			}
			buffer.add(lsm.KeyValue{Key: []any{k}, Seq: int64(i), Value: []any{k}})
		}
		order := ts.sortedOrder(buffer)
		sorted := slices.IsSortedFunc(order, func(a, b sortEntry) int {
			x, y := buffer.at(a.index), buffer.at(b.index)
			if c := spec.CompareRows(ts.key.types, x.Key, y.Key); c != 0 {
				return c
			}
			return int(x.Seq - y.Seq)
		})
		if !sorted {
			t.Errorf("%s: buffer not sorted by key then sequence", keyType)
		}
	}
}

func mustEngine(t *testing.T) *lsm.Engine {
	t.Helper()
	s := &spec.TableSchema{Fields: []spec.DataField{{Name: "k", Type: notNull(bigintType)}}, PrimaryKeys: []string{"k"}, Options: map[string]string{}}
	e, err := lsm.NewEngine(s, spec.CompareValues)
	if err != nil {
		t.Fatal(fmt.Errorf("engine: %w", err))
	}
	return e
}
