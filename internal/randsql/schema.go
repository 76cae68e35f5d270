package randsql

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Dialect is the engine a statement is written for.
type Dialect int

// The two engines: lakesql (with its planner rewrites on or off, one
// database) and the MariaDB reference.
const (
	LakeSQL Dialect = iota
	MariaDB
)

func (d Dialect) String() string {
	if d == LakeSQL {
		return "lakesql"
	}
	return "mariadb"
}

// Column is a column of a generated table.
type Column struct {
	Name    string
	Type    Type
	NotNull bool
	values  domain
}

// Table is the logical schema of a generated table; CreateTable renders
// it for each engine.
type Table struct {
	Name          string
	Columns       []Column
	PrimaryKey    []string // empty: an append table
	PartitionKeys []string // lakesql's LIST COLUMNS partitions
	BucketKey     []string // lakesql's KEY (…) buckets; empty: no bucket key
	Buckets       int
	Options       []Option // Paimon options in lakesql's COMMENT
	// Indexes are lakesql's file indexes (KEY clauses): they only let
	// scans skip files, so MariaDB's table goes without them.
	Indexes []Index
}

// Index is a file index on one column: a bloom filter, or a bitmap.
type Index struct {
	Column string
	Bitmap bool
}

// Option is one Paimon table option.
type Option struct{ Key, Value string }

// Column returns the named column.
func (t *Table) Column(name string) Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	panic("randsql: no column " + name + " in " + t.Name)
}

// isKey reports whether the column is part of the primary key (which
// includes the partition keys).
func (t *Table) isKey(name string) bool { return slices.Contains(t.PrimaryKey, name) }

// isPartitionKey reports whether the column is a partition key.
func (t *Table) isPartitionKey(name string) bool { return slices.Contains(t.PartitionKeys, name) }

// CreateTable is the table's DDL for the engine. MariaDB gets the same
// columns and primary key without partitioning: it refuses lakesql's
// partition clauses without partition definitions, and the partitioning of
// a table never changes the answer of a query.
func (t *Table) CreateTable(d Dialect) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.Name)
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + c.Type.SQL())
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
	}
	if len(t.PrimaryKey) > 0 {
		fmt.Fprintf(&b, ", PRIMARY KEY (%s)", strings.Join(t.PrimaryKey, ", "))
	}
	if d == LakeSQL {
		for _, ix := range t.Indexes {
			fmt.Fprintf(&b, ", KEY ix_%s (%s)", ix.Column, ix.Column)
			if ix.Bitmap {
				b.WriteString(" USING BITMAP")
			}
		}
	}
	b.WriteString(")")
	if d == LakeSQL {
		b.WriteString(t.lakeSQLClauses())
	}
	return b.String()
}

// lakeSQLClauses are the Paimon options comment and the partition and
// bucket clauses README's SQL section describes.
func (t *Table) lakeSQLClauses() string {
	var b strings.Builder
	if len(t.Options) > 0 {
		var opts []string
		for _, o := range t.Options {
			opts = append(opts, fmt.Sprintf("%q:%q", o.Key, o.Value))
		}
		fmt.Fprintf(&b, " COMMENT 'paimon:{%s}'", strings.Join(opts, ","))
	}
	keys := strings.Join(t.BucketKey, ", ")
	switch {
	case len(t.PartitionKeys) > 0:
		fmt.Fprintf(&b, " PARTITION BY LIST COLUMNS (%s)", strings.Join(t.PartitionKeys, ", "))
		if t.Buckets > 0 {
			fmt.Fprintf(&b, " SUBPARTITION BY KEY (%s) SUBPARTITIONS %d", keys, t.Buckets)
		}
	case t.Buckets > 0:
		fmt.Fprintf(&b, " PARTITION BY KEY (%s) PARTITIONS %d", keys, t.Buckets)
	}
	return b.String()
}

// columnKinds are the columns a table may have besides its keys. Names
// fix the type and the domain, so that same-named columns of different
// tables join.
var columnKinds = []Column{
	{Name: "k", Type: Type{Kind: KindInt}, values: smallDomain},
	{Name: "n", Type: Type{Kind: KindBigInt}, values: countDomain},
	{Name: "amt", Type: Type{Kind: KindDecimal, Precision: 12, Scale: 2}, values: amountDomain},
	{Name: "rate", Type: Type{Kind: KindDecimal, Precision: 9, Scale: 3}, values: rateDomain},
	{Name: "qty", Type: Type{Kind: KindDecimal, Precision: 6, Scale: 0}, values: qtyDomain},
	{Name: "score", Type: Type{Kind: KindDouble}, values: doubleDomain},
	{Name: "tag", Type: Type{Kind: KindVarChar, Length: 8}, values: tagDomain},
	{Name: "note", Type: Type{Kind: KindVarChar, Length: 16}, values: noteDomain},
	{Name: "dt", Type: Type{Kind: KindDate}, values: dateDomain},
	{Name: "ts", Type: Type{Kind: KindDateTime}, values: datetimeDomain},
	{Name: "code", Type: Type{Kind: KindVarChar, Length: 4, Fixed: true}, values: codeDomain},
}

// partitionKinds are the columns a table may be partitioned by: a DATE, a
// date-like VARCHAR (as in README's example), a short VARCHAR and an INT.
var partitionKinds = []Column{
	{Name: "dt", Type: Type{Kind: KindDate}, values: dateDomain},
	{Name: "day", Type: Type{Kind: KindVarChar, Length: 10}, values: dayDomain},
	{Name: "region", Type: Type{Kind: KindVarChar, Length: 8}, values: regionDomain},
	{Name: "k", Type: Type{Kind: KindInt}, values: smallDomain},
}

var idColumn = Column{Name: "id", Type: Type{Kind: KindBigInt}, values: idDomain}

// optionChoices are Paimon options that change how lakesql stores and
// reads the rows but never which rows a query returns: no inline
// compaction (more sorted runs to merge on read), compaction at every
// second sorted run, and small files and splits (more files to prune and
// read in parallel).
var optionChoices = []Option{
	{"write-only", "true"},
	{"num-sorted-run.compaction-trigger", "2"},
	{"target-file-size", "1 kb"},
	{"source.split.target-size", "1 kb"},
}

// genTable draws a primary-key or append table, partitioned or not,
// bucketed or not, with 3 to 6 more columns.
func genTable(r *rand.Rand, name string) *Table {
	t := &Table{Name: name}
	pk := r.IntN(5) < 3
	var cols []Column
	for _, c := range sample(r, partitionKinds, weighted(r, 3, 5, 2)) {
		c.NotNull = true
		cols = append(cols, c)
		t.PartitionKeys = append(t.PartitionKeys, c.Name)
	}
	if pk || r.IntN(3) > 0 {
		id := idColumn
		id.NotNull = pk
		cols = append(cols, id)
	}
	if pk {
		t.PrimaryKey = append(slices.Clone(t.PartitionKeys), "id")
	}
	for _, c := range sample(r, columnKinds, 3+r.IntN(4)) {
		if !slices.ContainsFunc(cols, func(have Column) bool { return have.Name == c.Name }) {
			c.NotNull = r.IntN(8) == 0
			cols = append(cols, c)
		}
	}
	r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	t.Columns = cols
	t.pickBuckets(r)
	t.Options = sample(r, optionChoices, weighted(r, 4, 3, 1))
	t.pickIndexes(r)
	if r.IntN(2) == 0 && !(pk && slices.Contains(t.Options, Option{"write-only", "true"})) {
		// UPDATE and DELETE remove an append table's rows by deletion
		// vectors, or else by rewriting their files. A primary-key table's
		// compaction marks the rows it replaces in them, and its reads
		// skip level 0: without compaction (write-only) they would skip
		// the rows written since the last one, as Java's do.
		t.Options = append(t.Options, Option{"deletion-vectors.enabled", "true"})
	}
	return t
}

// pickIndexes gives half of the tables file indexes on up to three
// columns: bloom filters on any type but DECIMAL, bitmaps on integers,
// text and dates.
func (t *Table) pickIndexes(r *rand.Rand) {
	if r.IntN(2) == 0 {
		return
	}
	for _, c := range sample(r, t.Columns, 1+r.IntN(3)) {
		bitmap := r.IntN(3) == 0
		switch {
		case c.Type.Kind == KindDecimal:
			continue
		case c.Type.Kind == KindDouble:
			bitmap = false
		}
		t.Indexes = append(t.Indexes, Index{Column: c.Name, Bitmap: bitmap})
	}
}

// pickBuckets gives half of the tables a bucket key and 1 to 4 buckets.
// Paimon requires a primary-key table's bucket key to be part of the key
// without the partition keys, which here is id; an append table may
// bucket by any non-partition column.
func (t *Table) pickBuckets(r *rand.Rand) {
	if r.IntN(2) == 0 {
		return
	}
	var candidates []string
	for _, c := range t.Columns {
		if !t.isPartitionKey(c.Name) && (len(t.PrimaryKey) == 0 || t.isKey(c.Name)) {
			candidates = append(candidates, c.Name)
		}
	}
	t.BucketKey = []string{candidates[r.IntN(len(candidates))]}
	t.Buckets = 1 + r.IntN(4)
}

// weighted draws i with probability weights[i]/sum(weights).
func weighted(r *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	panic("unreachable")
}

// sample draws n distinct elements of s in random order (all of s when n
// is larger).
func sample[T any](r *rand.Rand, s []T, n int) []T {
	idx := r.Perm(len(s))
	out := make([]T, 0, n)
	for _, i := range idx[:min(n, len(s))] {
		out = append(out, s[i])
	}
	return out
}
