package ddl

import (
	"fmt"
	"strconv"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// partitioning is what a PARTITION BY clause says about a Paimon table.
type partitioning struct {
	partitionKeys []string
	bucketKey     []string
	buckets       int
}

// supportedPartitionForms is appended to errors about other forms.
const supportedPartitionForms = "Paimon tables take PARTITION BY LIST COLUMNS (cols) for partition keys, " +
	"PARTITION BY KEY (cols) PARTITIONS n for buckets, or both as " +
	"PARTITION BY LIST COLUMNS (cols) SUBPARTITION BY KEY (cols) SUBPARTITIONS n"

// cutPartitionClause finds the top-level PARTITION BY clause of a CREATE
// TABLE statement, parses it, and returns the statement without it, so
// that vitess parses the rest: vitess rejects forms MySQL accepts (a
// VALUES IN partition list, a multi-column SUBPARTITION BY KEY, KEY ()).
// A statement without the clause comes back unchanged, with no partitioning.
func cutPartitionClause(sql string, tokens []token) (string, partitioning, error) {
	depth := 0
	for i, t := range tokens {
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is("partition") && i+1 < len(tokens) && tokens[i+1].is("by"):
			c := &tokenCursor{tokens: tokens, pos: i + 2}
			p, err := parsePartitioning(c)
			if err != nil {
				return "", partitioning{}, err
			}
			end := len(sql)
			if !c.done() {
				end = c.peek().start
			}
			return sql[:t.start] + " " + sql[end:], p, nil
		}
	}
	return sql, partitioning{}, nil
}

// parsePartitioning parses what follows PARTITION BY. A list of partition
// definitions is skipped: Paimon creates partitions as rows arrive.
func parsePartitioning(c *tokenCursor) (partitioning, error) {
	var p partitioning
	var err error
	switch {
	case c.peek().is("list") && c.pos+1 < len(c.tokens) && c.tokens[c.pos+1].is("columns"):
		c.pos += 2
		if p.partitionKeys, err = c.identList(false); err != nil {
			return p, err
		}
		if c.accept("subpartition") {
			if err := c.expect("by"); err != nil {
				return p, err
			}
			if p.bucketKey, p.buckets, err = parseKeyBuckets(c, "SUBPARTITIONS"); err != nil {
				return p, err
			}
		}
	case c.peek().is("key"):
		if p.bucketKey, p.buckets, err = parseKeyBuckets(c, "PARTITIONS"); err != nil {
			return p, err
		}
		if c.peek().is("subpartition") {
			return p, fmt.Errorf("%w: SUBPARTITION BY under PARTITION BY KEY: %s", lakeerr.ErrUnsupported, supportedPartitionForms)
		}
	default:
		return p, unsupportedPartitioning(c)
	}
	if c.peek().is("(") {
		if err := c.skipParenthesized(); err != nil {
			return p, err
		}
	}
	return p, nil
}

// parseKeyBuckets parses "KEY (cols) PARTITIONS n" (or SUBPARTITIONS n
// under LIST COLUMNS). KEY () means the primary key, as in MySQL: Paimon's
// default bucket key.
func parseKeyBuckets(c *tokenCursor, countKeyword string) ([]string, int, error) {
	if c.peek().is("linear") || c.peek().is("hash") {
		return nil, 0, unsupportedPartitioning(c)
	}
	if err := c.expect("key"); err != nil {
		return nil, 0, err
	}
	if c.peek().is("algorithm") {
		return nil, 0, fmt.Errorf("%w: KEY ALGORITHM chooses a MySQL hash; Paimon buckets rows with its own hash, "+
			"so leave ALGORITHM out", lakeerr.ErrUnsupported)
	}
	cols, err := c.identList(true)
	if err != nil {
		return nil, 0, err
	}
	if !c.accept(countKeyword) {
		return nil, 0, c.errorf("KEY (…) needs %s n, the number of Paimon buckets", countKeyword)
	}
	count := c.peek()
	n, err := strconv.Atoi(count.text)
	if err != nil || count.kind != wordToken {
		return nil, 0, c.errorf("expected the bucket count after %s", countKeyword)
	}
	c.pos++
	if n < 1 {
		return nil, 0, fmt.Errorf("%w: %s %d: a table needs at least 1 bucket", ErrSyntax, countKeyword, n)
	}
	return cols, n, nil
}

// unsupportedPartitioning names the PARTITION BY form at the cursor.
func unsupportedPartitioning(c *tokenCursor) error {
	form := c.peek().text
	if c.pos+1 < len(c.tokens) && c.tokens[c.pos+1].kind == wordToken {
		form += " " + c.tokens[c.pos+1].text
	}
	return fmt.Errorf("%w: partitioning by %s: %s", lakeerr.ErrUnsupported, form, supportedPartitionForms)
}
