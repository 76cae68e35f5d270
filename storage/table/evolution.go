package table

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

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
	return &chain[[]spec.DataFileMeta]{items: groups, open: func(g *[]spec.DataFileMeta) (rowSource, error) {
		return r.openGroup(ctx, b, *g)
	}}, nil
}

// rowIDGroups groups files whose row-id ranges overlap, in row-id order,
// each group newest first; Java requires the files of a group to cover
// the same row ids.
func rowIDGroups(files []spec.DataFileMeta) ([][]spec.DataFileMeta, error) {
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
	var groups [][]spec.DataFileMeta
	var end int64
	for _, f := range sorted {
		if len(groups) > 0 && *f.FirstRowID < end {
			groups[len(groups)-1] = append(groups[len(groups)-1], f)
			end = max(end, *f.FirstRowID+f.RowCount)
			continue
		}
		groups = append(groups, []spec.DataFileMeta{f})
		end = *f.FirstRowID + f.RowCount
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b spec.DataFileMeta) int { return cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber) })
		for _, f := range g[1:] {
			if *f.FirstRowID != *g[0].FirstRowID || f.RowCount != g[0].RowCount {
				return nil, fmt.Errorf("data files %s and %s share row ids but not all of them: %w", g[0].FileName, f.FileName, lakeerr.ErrCorruption)
			}
		}
	}
	return groups, nil
}

// openGroup reads the rows of one group. A file alone holding every
// column is read as in any append table, filters pruning its row groups.
func (r *reader) openGroup(ctx context.Context, b *BucketPlan, g []spec.DataFileMeta) (rowSource, error) {
	if len(g) == 1 && g[0].WriteCols == nil {
		return r.openRaw(ctx, b, &g[0])
	}
	suppliers, err := r.columnSuppliers(ctx, g)
	if err != nil {
		return nil, err
	}
	z := &zippedRows{width: len(r.schema.Fields), left: g[0].RowCount}
	for i := range g {
		if len(suppliers[i]) == 0 {
			continue
		}
		src, err := r.openColumns(ctx, b, &g[i], suppliers[i])
		if err != nil {
			return nil, errors.Join(err, z.Close())
		}
		z.sources = append(z.sources, src)
		z.columns = append(z.columns, suppliers[i])
	}
	return z, nil
}

// columnSuppliers assigns each column read to the newest file of the
// group that holds it, matched by field id; a column no file holds reads
// as NULL.
func (r *reader) columnSuppliers(ctx context.Context, g []spec.DataFileMeta) ([][]int, error) {
	held := make([]map[int]bool, len(g))
	for i := range g {
		fileSchema, err := r.table.schemas.Schema(ctx, g[i].SchemaID)
		if err != nil {
			return nil, err
		}
		held[i] = map[int]bool{}
		for _, f := range writtenFields(fileSchema, g[i].WriteCols) {
			held[i][f.ID] = true
		}
	}
	out := make([][]int, len(g))
	for _, c := range r.rawColumns {
		for i := range g {
			if held[i][r.schema.Fields[c].ID] {
				out[i] = append(out[i], c)
				break
			}
		}
	}
	return out, nil
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
	written.Fields = writtenFields(d.fileSchema, f.WriteCols)
	p, err := newProjection(&written, r.schema, columns)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	var ranges []parquetio.RowRange
	for g, rg := range d.format.rowGroups() {
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
