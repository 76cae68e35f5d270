package randsql

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// propertySeeds is how many seeds the generator's property tests draw.
const propertySeeds = 300

// TestGenerateIsDeterministic: a seed is the whole case.
func TestGenerateIsDeterministic(t *testing.T) {
	for seed := range uint64(20) {
		a, b := Generate(seed).Program(), Generate(seed).Program()
		if !slices.Equal(a.Setup, b.Setup) || len(a.Checks) != len(b.Checks) {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		for i := range a.Checks {
			if a.Checks[i].SQL != b.Checks[i].SQL {
				t.Fatalf("seed %d: check %d differs:\n%s\n%s", seed, i, a.Checks[i].SQL, b.Checks[i].SQL)
			}
		}
	}
}

// TestCaseSizes: 2 to 4 tables and 20 to 50 queries per seed, as the
// issue asks.
func TestCaseSizes(t *testing.T) {
	for seed := range uint64(propertySeeds) {
		c := Generate(seed)
		if len(c.Tables) < 2 || len(c.Tables) > 4 || len(c.Queries) < 20 || len(c.Queries) > 50 {
			t.Fatalf("seed %d: %d tables, %d queries", seed, len(c.Tables), len(c.Queries))
		}
	}
}

// TestLimitOnlyUnderTotalOrder: a LIMIT is deterministic only under an
// ORDER BY of every output column.
func TestLimitOnlyUnderTotalOrder(t *testing.T) {
	for seed := range uint64(propertySeeds) {
		for _, q := range Generate(seed).Queries {
			if q.Limit == 0 {
				continue
			}
			var keyed []int
			for _, k := range q.OrderBy {
				keyed = append(keyed, k.Item)
			}
			slices.Sort(keyed)
			if !slices.Equal(keyed, allColumns(len(q.Branches[0].Items))) {
				t.Fatalf("seed %d: LIMIT without a total order: %s", seed, q.SQL())
			}
		}
	}
}

// TestComputedDoubleSortKeysAreRounded: an ORDER BY of a computed DOUBLE
// (whose last digits depend on the order of addition) sorts by it rounded,
// over the query as a derived table; one of a stored column sorts by the
// column itself.
func TestComputedDoubleSortKeysAreRounded(t *testing.T) {
	rounded := 0
	for seed := range uint64(propertySeeds) {
		for _, q := range Generate(seed).Queries {
			text := q.SQL()
			for _, k := range q.OrderBy {
				round := "ROUND(" + alias(k.Item) + ", 9)"
				computed := false
				for _, s := range q.Branches {
					_, stored := s.Items[k.Item].(*Col)
					computed = computed || (!stored && s.Items[k.Item].Type().Kind == KindDouble)
				}
				if computed != strings.Contains(text, round) {
					t.Fatalf("seed %d: key %s computed=%v: %s", seed, alias(k.Item), computed, text)
				}
				if computed {
					rounded++
					if !strings.HasPrefix(text, "SELECT * FROM (") {
						t.Fatalf("seed %d: a rounded key outside a derived table: %s", seed, text)
					}
				}
			}
		}
	}
	if rounded == 0 {
		t.Fatalf("no seed of %d orders by a computed DOUBLE", propertySeeds)
	}
}

// TestGroupedBlocksSelectOnlyGroupsAndAggregates: ONLY_FULL_GROUP_BY.
func TestGroupedBlocksSelectOnlyGroupsAndAggregates(t *testing.T) {
	for seed := range uint64(propertySeeds) {
		for _, q := range Generate(seed).Queries {
			for _, s := range q.selects() {
				if !slices.ContainsFunc(s.Items, hasAggregate) && len(s.GroupBy) == 0 {
					continue
				}
				for _, e := range s.Items {
					if c, ok := e.(*Col); ok && !slices.ContainsFunc(s.GroupBy, func(g Expr) bool { return sqlOf(g) == sqlOf(c) }) {
						t.Fatalf("seed %d: %s is neither grouped nor aggregated: %s", seed, sqlOf(c), q.SQL())
					}
				}
			}
		}
	}
}

// hasAggregate reports whether e is an aggregate, which makes its block
// grouped (a window function does not).
func hasAggregate(e Expr) bool {
	switch e.(type) {
	case *Agg, *GroupConcat:
		return true
	}
	return false
}

// TestNoDistinctWindowAggregates: no window aggregate is DISTINCT, which
// MySQL refuses.
func TestNoDistinctWindowAggregates(t *testing.T) {
	for seed := range uint64(propertySeeds) {
		for _, q := range Generate(seed).Queries {
			sql := q.SQL()
			if regexp.MustCompile(`\((DISTINCT [^()]*)\) OVER`).MatchString(sql) {
				t.Fatalf("seed %d: DISTINCT window aggregate: %s", seed, sql)
			}
		}
	}
}

// TestPlainInsertsWriteNewKeys: on a primary-key table a plain INSERT
// never writes an id written before (lakesql would upsert where MySQL
// fails), and neither does UPDATE … SET id.
func TestPlainInsertsWriteNewKeys(t *testing.T) {
	setID := regexp.MustCompile(`^UPDATE (\w+) SET id = (\S+) WHERE`)
	for seed := range uint64(propertySeeds) {
		c := Generate(seed)
		written := map[string]map[string]bool{}
		for _, tb := range c.Tables {
			written[tb.Name] = map[string]bool{}
		}
		for _, s := range c.Writes {
			tb := tableNamed(c, s.Table)
			if len(tb.PrimaryKey) == 0 {
				continue
			}
			if m := setID.FindStringSubmatch(s.Text); m != nil {
				if written[tb.Name][m[2]] {
					t.Fatalf("seed %d: %s moves rows onto a written id", seed, s.Text)
				}
				written[tb.Name][m[2]] = true
			}
			if s.Insert == nil {
				continue
			}
			idCol := slices.Index(s.Insert.Columns, "id")
			for _, row := range s.Insert.Rows {
				if s.Insert.Verb == "INSERT" && s.Insert.OnDuplicate == "" && written[tb.Name][row[idCol]] {
					t.Fatalf("seed %d: plain INSERT of written id %s: %s", seed, row[idCol], s.SQL())
				}
				written[tb.Name][row[idCol]] = true
			}
		}
	}
}

// TestAppendTablesChangeRows: append tables are never upserted (they have
// no key), and across the seeds some of their UPDATEs and DELETEs select
// rows by other columns than the partition keys, with deletion vectors
// and without.
func TestAppendTablesChangeRows(t *testing.T) {
	column := regexp.MustCompile(`\bt\d+\.(\w+)`)
	rowChanges := map[bool]int{}
	for seed := range uint64(propertySeeds) {
		c := Generate(seed)
		for _, s := range c.Writes {
			tb := tableNamed(c, s.Table)
			if len(tb.PrimaryKey) > 0 || s.LakeSQLOnly {
				continue
			}
			if s.Insert != nil && (s.Insert.Verb != "INSERT" || s.Insert.OnDuplicate != "") {
				t.Fatalf("seed %d: append table upserted: %s", seed, s.SQL())
			}
			for _, m := range column.FindAllStringSubmatch(s.Text, -1) {
				if !tb.isPartitionKey(m[1]) {
					rowChanges[slices.Contains(tb.Options, Option{"deletion-vectors.enabled", "true"})]++
					break
				}
			}
		}
	}
	if rowChanges[true] == 0 || rowChanges[false] == 0 {
		t.Fatalf("row-level changes of append tables with and without deletion vectors: %v, want some of each", rowChanges)
	}
}

// TestKeysAndPartitionKeysAreNotNull: Paimon requires it, and the DDL of
// both engines says it.
func TestKeysAndPartitionKeysAreNotNull(t *testing.T) {
	for seed := range uint64(propertySeeds) {
		for _, tb := range Generate(seed).Tables {
			for _, name := range slices.Concat(tb.PrimaryKey, tb.PartitionKeys) {
				if !tb.Column(name).NotNull {
					t.Fatalf("seed %d: %s.%s may be NULL: %s", seed, tb.Name, name, tb.CreateTable(LakeSQL))
				}
			}
		}
	}
}

// TestCreateTablePerEngine: MariaDB's DDL has no partitioning and no
// Paimon options; lakesql's keeps them.
func TestCreateTablePerEngine(t *testing.T) {
	tb := &Table{
		Name:          "t1",
		Columns:       []Column{{Name: "dt", Type: Type{Kind: KindDate}, NotNull: true}, idColumn, {Name: "amt", Type: Type{Kind: KindDecimal, Precision: 12, Scale: 2}}},
		PrimaryKey:    []string{"dt", "id"},
		PartitionKeys: []string{"dt"},
		BucketKey:     []string{"id"},
		Buckets:       4,
		Options:       []Option{{"write-only", "true"}},
	}
	tb.Columns[1].NotNull = true
	want := map[Dialect]string{
		LakeSQL: `CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, amt DECIMAL(12,2), PRIMARY KEY (dt, id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 4`,
		MariaDB: `CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, amt DECIMAL(12,2), PRIMARY KEY (dt, id))`,
	}
	for d, sql := range want {
		if got := tb.CreateTable(d); got != sql {
			t.Errorf("%s:\n got %s\nwant %s", d, got, sql)
		}
	}
}

func tableNamed(c *Case, name string) *Table {
	for _, tb := range c.Tables {
		if tb.Name == name {
			return tb
		}
	}
	panic("no table " + name)
}

// TestIndexedColumnsAreFiltered: tables get bloom filters and bitmaps, and
// queries filter indexed columns by equality, so the differential suite
// checks the files indexes skip; MariaDB's DDL has no index.
func TestIndexedColumnsAreFiltered(t *testing.T) {
	var blooms, bitmaps, filtered int
	for seed := range uint64(propertySeeds) {
		c := Generate(seed)
		for _, tb := range c.Tables {
			if strings.Contains(tb.CreateTable(MariaDB), "KEY ix_") {
				t.Fatalf("seed %d: MariaDB's DDL has an index: %s", seed, tb.CreateTable(MariaDB))
			}
			for _, ix := range tb.Indexes {
				if ix.Bitmap {
					bitmaps++
				} else {
					blooms++
				}
				for _, q := range c.Queries {
					if strings.Contains(q.SQL(), ix.Column+" = ") || strings.Contains(q.SQL(), ix.Column+" IN (") {
						filtered++
					}
				}
			}
		}
	}
	if blooms < 50 || bitmaps < 20 || filtered < 100 {
		t.Errorf("over %d seeds: %d bloom filters, %d bitmaps, %d equality filters on indexed columns", propertySeeds, blooms, bitmaps, filtered)
	}
	t.Logf("over %d seeds: %d bloom filters, %d bitmaps, %d equality filters on indexed columns", propertySeeds, blooms, bitmaps, filtered)
}

// TestPrimaryKeyTablesWithDeletionVectors: some primary-key tables enable
// deletion vectors, none of them write-only (whose reads would skip every
// row written since the last compaction).
func TestPrimaryKeyTablesWithDeletionVectors(t *testing.T) {
	withVectors := 0
	for seed := range uint64(propertySeeds) {
		for _, tb := range Generate(seed).Tables {
			if len(tb.PrimaryKey) == 0 || !slices.Contains(tb.Options, Option{"deletion-vectors.enabled", "true"}) {
				continue
			}
			withVectors++
			if slices.Contains(tb.Options, Option{"write-only", "true"}) {
				t.Fatalf("seed %d: table %s is write-only with deletion vectors", seed, tb.Name)
			}
		}
	}
	if withVectors == 0 {
		t.Fatalf("no primary-key table of %d seeds has deletion vectors", propertySeeds)
	}
}
