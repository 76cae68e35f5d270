package table

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// Data evolution (data-evolution.enabled, on row-tracking append tables):
// Paimon writes new values of some columns of existing rows (MERGE INTO,
// a backfilled column) as a file holding only those columns (_WRITE_COLS)
// for the same row ids (_FIRST_ROW_ID, _ROW_COUNT) as the rows' first
// file. A read groups the files of a split whose row-id ranges overlap;
// every file of a group covers the same rows in the same order, and each
// column comes from the newest file (highest max sequence number) that
// holds it, as Java's DataEvolutionSplitRead merges them. Nothing prunes
// a group's files or their row groups: filters run on merged rows.

// openEvolution reads a split of a data-evolution table group by group.
func (r *reader) openEvolution(ctx context.Context, b *BucketPlan, s *Split) (rowSource, error) {
	if len(b.DeletionFiles) > 0 {
		return nil, unsupported("deletion vectors on a data-evolution table")
	}
	groups, err := rowIDGroups(s.Files)
	if err != nil {
		return nil, err
	}
	return &chain[rowIDGroup]{items: groups, open: func(g *rowIDGroup) (rowSource, error) {
		return r.openGroup(ctx, b, g)
	}}, nil
}

// rowIDGroup is the files that hold columns of one range of row ids.
type rowIDGroup struct {
	// data are the group's data files, newest (highest max sequence
	// number) first; each covers the whole range.
	data []spec.DataFileMeta
	// blobs are, per BLOB column, the blob files holding its values for
	// the range, in row-id order (a writer rolls a column's blobs over
	// several files).
	blobs [][]spec.DataFileMeta
	// partition is the serialized partition of the group's split, set
	// where global indexes are applied.
	partition string
}

// bunches are the group's sources of columns in the order a column is
// looked for: data files newest first, then blob columns.
func (g *rowIDGroup) bunches() [][]spec.DataFileMeta {
	out := make([][]spec.DataFileMeta, 0, len(g.data)+len(g.blobs))
	for i := range g.data {
		out = append(out, g.data[i:i+1])
	}
	return append(out, g.blobs...)
}

// rowIDGroups groups files whose row-id ranges overlap, in row-id order.
// Java requires a group's data files to cover the same row ids, and the
// blob files of a column to cover them end to end.
func rowIDGroups(files []spec.DataFileMeta) ([]rowIDGroup, error) {
	sorted := slices.Clone(files)
	for i := range sorted {
		f := &sorted[i]
		if f.FirstRowID == nil {
			return nil, fmt.Errorf("data file %s of a data-evolution table has no first row id: %w", f.FileName, lakeerr.ErrCorruption)
		}
		if f.WriteColsSequences != nil {
			return nil, unsupported("per-column sequence numbers (_WRITE_COLS_SEQUENCES) of data file " + f.FileName)
		}
	}
	slices.SortStableFunc(sorted, func(a, b spec.DataFileMeta) int { return cmp.Compare(*a.FirstRowID, *b.FirstRowID) })
	var overlapping [][]spec.DataFileMeta
	var end int64
	for _, f := range sorted {
		if len(overlapping) > 0 && *f.FirstRowID < end {
			overlapping[len(overlapping)-1] = append(overlapping[len(overlapping)-1], f)
			end = max(end, *f.FirstRowID+f.RowCount)
			continue
		}
		overlapping = append(overlapping, []spec.DataFileMeta{f})
		end = *f.FirstRowID + f.RowCount
	}
	groups := make([]rowIDGroup, len(overlapping))
	for i, files := range overlapping {
		var err error
		if groups[i], err = newRowIDGroup(files); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

func newRowIDGroup(files []spec.DataFileMeta) (rowIDGroup, error) {
	var g rowIDGroup
	blobs := map[string]int{}
	for _, f := range files {
		if !isBlobFile(f.FileName) {
			g.data = append(g.data, f)
			continue
		}
		column := strings.Join(f.WriteCols, ",")
		i, ok := blobs[column]
		if !ok {
			i = len(g.blobs)
			blobs[column] = i
			g.blobs = append(g.blobs, nil)
		}
		g.blobs[i] = append(g.blobs[i], f)
	}
	if len(g.data) == 0 {
		return g, unsupported(fmt.Sprintf("blob file %s without a data file of its rows", files[0].FileName))
	}
	slices.SortStableFunc(g.data, func(a, b spec.DataFileMeta) int { return cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber) })
	first, rows := *g.data[0].FirstRowID, g.data[0].RowCount
	for _, f := range g.data[1:] {
		if *f.FirstRowID != first || f.RowCount != rows {
			return g, fmt.Errorf("data files %s and %s share row ids but not all of them: %w", g.data[0].FileName, f.FileName, lakeerr.ErrCorruption)
		}
	}
	for _, bunch := range g.blobs {
		if err := checkBlobBunch(bunch, first, rows); err != nil {
			return g, err
		}
	}
	return g, nil
}

// checkBlobBunch accepts the blob files of a column (in row-id order)
// when they are of one write, covering rows [first, first+rows) end to
// end. Rewritten blobs of older rows (files of several sequence numbers,
// whose placeholders fall back to older files) are not read yet.
func checkBlobBunch(bunch []spec.DataFileMeta, first, rows int64) error {
	at := first
	for _, f := range bunch {
		if f.MaxSequenceNumber != bunch[0].MaxSequenceNumber {
			return unsupported(fmt.Sprintf("blob files %s and %s of one column from different writes", bunch[0].FileName, f.FileName))
		}
		if *f.FirstRowID != at {
			return fmt.Errorf("blob file %s starts at row id %d, want %d: %w", f.FileName, *f.FirstRowID, at, lakeerr.ErrCorruption)
		}
		at += f.RowCount
	}
	if at != first+rows {
		return fmt.Errorf("blob files of rows %d..%d end at %d: %w", first, first+rows, at, lakeerr.ErrCorruption)
	}
	return nil
}

func isBlobFile(name string) bool { return strings.HasSuffix(name, "."+fileformat.Blob) }

// openGroup reads the rows of one group. A file alone holding every
// column is read as in any append table, filters pruning its row groups.
func (r *reader) openGroup(ctx context.Context, b *BucketPlan, g *rowIDGroup) (rowSource, error) {
	if len(g.data) == 1 && len(g.blobs) == 0 && g.data[0].WriteCols == nil {
		return r.openRaw(ctx, b, &g.data[0])
	}
	bunches := g.bunches()
	suppliers, err := r.columnSuppliers(ctx, bunches)
	if err != nil {
		return nil, err
	}
	z := &zippedRows{width: len(r.schema.Fields), left: g.data[0].RowCount}
	for i, bunch := range bunches {
		if len(suppliers[i]) == 0 {
			continue
		}
		columns := suppliers[i]
		z.sources = append(z.sources, &chain[spec.DataFileMeta]{items: bunch, open: func(f *spec.DataFileMeta) (rowSource, error) {
			return r.openColumns(ctx, b, f, columns)
		}})
		z.columns = append(z.columns, columns)
	}
	return z, nil
}

// columnSuppliers assigns each column read to the first bunch that holds
// it, matched by field id; a column no file holds reads as NULL.
func (r *reader) columnSuppliers(ctx context.Context, bunches [][]spec.DataFileMeta) ([][]int, error) {
	held := make([]map[int]bool, len(bunches))
	for i, bunch := range bunches {
		fileSchema, err := r.table.schemas.Schema(ctx, bunch[0].SchemaID)
		if err != nil {
			return nil, err
		}
		held[i] = map[int]bool{}
		for _, f := range r.heldFields(fileSchema, bunch[0].WriteCols) {
			held[i][f.ID] = true
		}
	}
	out := make([][]int, len(bunches))
	for _, c := range r.rawColumns {
		for i := range bunches {
			if held[i][r.schema.Fields[c].ID] {
				out[i] = append(out[i], c)
				break
			}
		}
	}
	return out, nil
}

// heldFields are the fields a file supplies to the read: those it holds,
// and with row tracking the row-tracking columns, which every file
// supplies, from its values or its positions (Java's DataEvolutionSplitRead
// reads rowTypeWithRowTracking of each file's schema), so that the first
// bunch gives them.
func (r *reader) heldFields(fileSchema *spec.TableSchema, writeCols []string) []spec.DataField {
	fields := writtenFields(fileSchema, writeCols)
	if r.rowTracking {
		fields = append(slices.Clip(fields), RowIDField, SequenceNumberField)
	}
	return fields
}

// writtenFields are the fields of a file's schema it holds: its write
// columns, or all of them.
func writtenFields(s *spec.TableSchema, writeCols []string) []spec.DataField {
	if writeCols == nil {
		return s.Fields
	}
	var out []spec.DataField
	for _, f := range s.Fields {
		if slices.Contains(writeCols, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// openColumns reads the given read columns of every row of a file.
func (r *reader) openColumns(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta, columns []int) (rowSource, error) {
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return nil, err
	}
	written := *d.fileSchema
	written.Fields = r.heldFields(d.fileSchema, f.WriteCols)
	p, err := newProjection(&written, r.schema, columns)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	var ranges []parquetio.RowRange
	for g, rg := range d.format.RowGroups() {
		ranges = append(ranges, parquetio.RowRange{Group: g, To: rg.NumRows})
	}
	it, err := d.rows(p, ranges)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return it, nil
}

// zippedRows joins the rows of a group's files position by position: each
// source's rows are as wide as the read schema and hold its columns.
type zippedRows struct {
	sources []rowSource
	columns [][]int
	width   int
	// left counts the group's rows not yet returned; with no source (no
	// column read, as for COUNT(*)) rows of NULLs stand for them.
	left int64
}

func (z *zippedRows) Next() ([]any, error) {
	if len(z.sources) == 0 {
		if z.left == 0 {
			return nil, io.EOF
		}
		z.left--
		return make([]any, z.width), nil
	}
	row, err := z.sources[0].Next()
	if err == io.EOF {
		return nil, z.allEnded()
	}
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(z.sources); i++ {
		other, err := z.sources[i].Next()
		if err == io.EOF {
			return nil, fmt.Errorf("files of one row-id range hold different row counts: %w", lakeerr.ErrCorruption)
		}
		if err != nil {
			return nil, err
		}
		for _, c := range z.columns[i] {
			row[c] = other[c]
		}
	}
	return row, nil
}

// allEnded checks that the other sources end with the first.
func (z *zippedRows) allEnded() error {
	for _, s := range z.sources[1:] {
		if _, err := s.Next(); err != io.EOF {
			return errors.Join(err, fmt.Errorf("files of one row-id range hold different row counts: %w", lakeerr.ErrCorruption))
		}
	}
	return io.EOF
}

func (z *zippedRows) Close() error {
	var errs []error
	for _, s := range z.sources {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}
