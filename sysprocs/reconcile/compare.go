// Package reconcile compares a lake table with its source table in MySQL
// or MariaDB by primary key, the way pt-table-checksum compares a replica
// with its primary: both sides are walked in key order, chunk by chunk;
// the source computes each chunk's row count and checksum itself, and
// only the rows of chunks whose counts or checksums differ are fetched and
// compared row by row. Values are compared as the MySQL text the source
// would send for them, so a lake value and a source value are equal when
// a client would print them alike.
package reconcile

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"io"
	"strings"
)

// Separator joins a row's column texts before they are hashed, on both
// sides: CHAR(31), the ASCII unit separator, which text columns rarely
// hold.
const Separator = "\x1f"

// Column is one compared column.
type Column struct {
	// Name is the lake column's name.
	Name string
	// Source is the SQL expression of the same value on the source, the
	// quoted column of the same name unless mapped.
	Source string
	// Key marks the primary key's columns, in key order.
	Key bool
	// BinaryOrder compares the key column's values byte by byte on the
	// source, as the lake orders them: a string column's collation may
	// order them otherwise. The source's index on the key cannot serve
	// such a comparison, so each chunk is then a scan. Without it, the
	// lake's chunk bounds need not be ordered in the source's order, and a
	// source row may be compared in a chunk the lake did not put its key
	// in (or in two): it is reported missing or extra though both sides
	// hold it. Such differences are false, but none is missed: the chunks
	// (b0, b1], (b1, b2], … from no bound to none cover every key in any
	// order, and each lake row is in exactly one.
	BinaryOrder bool
}

// Row is one row as both sides compare it: each column's text, nil for
// NULL, in the order of the columns.
type Row []*string

// Lake is the lake side: its rows in primary-key order.
type Lake interface {
	// Next returns the next row, or io.EOF after the last.
	Next() (Row, error)
}

// Source is the source side: its rows of a key range, counted and hashed
// where they are, or fetched. A range is (lo, hi] in key order, lo nil
// for no lower bound and hi nil for no upper one; bounds are the key
// columns' texts.
type Source interface {
	Checksum(ctx context.Context, lo, hi Row) (count int64, sum uint64, err error)
	Rows(ctx context.Context, lo, hi Row, each func(Row) error) error
}

// Options bound a comparison.
type Options struct {
	// ChunkRows is how many lake rows one chunk holds; default 1000.
	ChunkRows int
	// Limit is how many differences are kept for the report; every one
	// is counted. Default 100.
	Limit int
	// Progress, when set, is called after each chunk.
	Progress func(Report)
}

// DifferenceKind says how a key differs.
type DifferenceKind string

const (
	MissingInLake DifferenceKind = "missing_in_lake"
	ExtraInLake   DifferenceKind = "extra_in_lake"
	Differs       DifferenceKind = "differs"
)

// Difference is one key whose rows differ.
type Difference struct {
	Kind DifferenceKind
	// Key is the key columns' texts.
	Key Row
	// Columns are the names of the columns that differ (Differs only).
	Columns []string
	// Lake and Source are the rows; nil on the side that has none.
	Lake, Source Row
}

// Report is what a comparison found.
type Report struct {
	LakeRows, SourceRows      int64
	Missing, Extra, Differing int64
	Chunks, ChunksCompared    int64
	Differences               []Difference
}

// Matches reports whether the two sides hold the same rows.
func (r *Report) Matches() bool { return r.Missing == 0 && r.Extra == 0 && r.Differing == 0 }

// RowChecksum is a row's checksum: the first 8 bytes of the MD5 of its
// non-NULL texts and then its NULL flags ('1' for NULL, '0' otherwise),
// joined by Separator. The source computes the same in SQL (see
// ChecksumExpr); a chunk's checksum is the XOR of its rows'.
func RowChecksum(r Row) uint64 {
	var scratch [256]byte
	buf := scratch[:0]
	texts := 0
	for _, v := range r {
		if v == nil {
			continue
		}
		if texts > 0 {
			buf = append(buf, Separator...)
		}
		buf = append(buf, *v...)
		texts++
	}
	if texts > 0 {
		buf = append(buf, Separator...)
	}
	for _, v := range r {
		if v == nil {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
	}
	sum := md5.Sum(buf)
	return binary.BigEndian.Uint64(sum[:8])
}

// Compare walks the lake's rows chunk by chunk and compares each chunk
// with the source's rows of the same key range.
func Compare(ctx context.Context, columns []Column, lake Lake, source Source, opts Options) (*Report, error) {
	c := &comparison{columns: columns, lake: lake, source: source, opts: withDefaults(opts), report: &Report{}}
	for i, col := range columns {
		if col.Key {
			c.keyIdx = append(c.keyIdx, i)
		}
	}
	if len(c.keyIdx) == 0 {
		return nil, errors.New("reconcile: no key column")
	}
	chunks, stop := c.readAhead()
	defer stop()
	var lo Row
	for next := range chunks {
		if next.err != nil {
			return nil, next.err
		}
		var hi Row
		if !next.done {
			hi = c.key(next.rows[len(next.rows)-1])
		}
		if err := c.compareChunk(ctx, lo, hi, next.rows); err != nil {
			return nil, err
		}
		if c.opts.Progress != nil {
			c.opts.Progress(*c.report)
		}
		if next.done {
			return c.report, nil
		}
		lo = hi
	}
	return nil, errors.New("reconcile: the lake's rows ended without a last chunk")
}

// lakeChunk is a chunk of lake rows, or the error that ended the read.
type lakeChunk struct {
	rows []Row
	done bool
	err  error
}

// readAhead reads the lake's chunks on a goroutine of its own, one ahead
// of the comparison, so that reading and formatting the lake's rows
// overlaps the source's work on the chunk before. stop ends the reading
// and returns once the goroutine is gone: the lake is not touched after.
func (c *comparison) readAhead() (chunks <-chan lakeChunk, stop func()) {
	out := make(chan lakeChunk, 1)
	quit := make(chan struct{})
	go func() {
		defer close(out)
		for {
			rows, done, err := c.nextChunk()
			select {
			case out <- lakeChunk{rows: rows, done: done, err: err}:
			case <-quit:
				return
			}
			if done || err != nil {
				return
			}
		}
	}()
	return out, func() {
		close(quit)
		for range out {
		}
	}
}

func withDefaults(o Options) Options {
	if o.ChunkRows <= 0 {
		o.ChunkRows = 1000
	}
	if o.Limit <= 0 {
		o.Limit = 100
	}
	return o
}

type comparison struct {
	columns []Column
	keyIdx  []int
	lake    Lake
	source  Source
	opts    Options
	report  *Report
}

// nextChunk reads up to ChunkRows lake rows; done is true when the lake
// has no row after them, and the chunk then takes every source key above
// the one before.
func (c *comparison) nextChunk() (chunk []Row, done bool, err error) {
	for len(chunk) < c.opts.ChunkRows {
		row, err := c.lake.Next()
		if err == io.EOF {
			return chunk, true, nil
		}
		if err != nil {
			return nil, false, err
		}
		chunk = append(chunk, row)
	}
	return chunk, false, nil
}

func (c *comparison) key(r Row) Row {
	k := make(Row, len(c.keyIdx))
	for i, j := range c.keyIdx {
		k[i] = r[j]
	}
	return k
}

func (c *comparison) compareChunk(ctx context.Context, lo, hi Row, chunk []Row) error {
	count, sum, err := c.source.Checksum(ctx, lo, hi)
	if err != nil {
		return err
	}
	var lakeSum uint64
	for _, r := range chunk {
		lakeSum ^= RowChecksum(r)
	}
	c.report.Chunks++
	c.report.LakeRows += int64(len(chunk))
	c.report.SourceRows += count
	if count == int64(len(chunk)) && sum == lakeSum {
		return nil
	}
	c.report.ChunksCompared++
	return c.compareRows(ctx, lo, hi, chunk)
}

// compareRows compares a chunk's rows by key: the lake's are held, the
// source's streamed past them.
func (c *comparison) compareRows(ctx context.Context, lo, hi Row, chunk []Row) error {
	lakeByKey := make(map[string]Row, len(chunk))
	for _, r := range chunk {
		lakeByKey[keyText(c.key(r))] = r
	}
	err := c.source.Rows(ctx, lo, hi, func(s Row) error {
		k := keyText(c.key(s))
		l, ok := lakeByKey[k]
		if !ok {
			c.add(Difference{Kind: MissingInLake, Key: c.key(s), Source: s})
			return nil
		}
		delete(lakeByKey, k)
		if cols := c.differingColumns(l, s); len(cols) > 0 {
			c.add(Difference{Kind: Differs, Key: c.key(s), Columns: cols, Lake: l, Source: s})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range chunk {
		if _, left := lakeByKey[keyText(c.key(r))]; left {
			c.add(Difference{Kind: ExtraInLake, Key: c.key(r), Lake: r})
		}
	}
	return nil
}

func (c *comparison) differingColumns(l, s Row) []string {
	var out []string
	for i, col := range c.columns {
		if !sameText(l[i], s[i]) {
			out = append(out, col.Name)
		}
	}
	return out
}

func sameText(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func (c *comparison) add(d Difference) {
	switch d.Kind {
	case MissingInLake:
		c.report.Missing++
	case ExtraInLake:
		c.report.Extra++
	case Differs:
		c.report.Differing++
	}
	if len(c.report.Differences) < c.opts.Limit {
		c.report.Differences = append(c.report.Differences, d)
	}
}

// keyText joins a key's texts into one map key; NULL (which a primary key
// does not hold) is kept apart from every text.
func keyText(k Row) string {
	var b strings.Builder
	for _, v := range k {
		if v == nil {
			b.WriteString("\x00N")
		} else {
			b.WriteString("\x00V")
			b.WriteString(*v)
		}
	}
	return b.String()
}
