package spec

// SimpleStats is the min/max/null-count statistics of a set of columns, as
// stored in manifests (_PARTITION_STATS, _KEY_STATS, _VALUE_STATS).
// Mirrors org.apache.paimon.stats.SimpleStats.
type SimpleStats struct {
	// MinValues and MaxValues are serialized BinaryRows (4-byte big-endian
	// arity prefix, then the row), exactly as stored.
	MinValues, MaxValues []byte
	// NullCounts has one element per column; a nil element means unknown.
	// Java always writes an array; a nil slice decodes from an Avro null
	// and is encoded as an empty array, because Java cannot read a null.
	NullCounts []*int64
}
