package table

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/globalindex"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// Global indexes (Paimon 1.4, on data-evolution tables) are index files of
// the index manifest with a GlobalIndexMeta: each indexes one column over
// an inclusive range of row ids, numbering rows from the range's start.
// A bitmap global index file is a data-file bitmap index of that column
// (Java's BitmapGlobalIndex wraps BitmapFileIndex), so fileindex reads it
// and answers =, IN and IS NULL; a btree one is an SST file of the sorted
// keys (package globalindex), which answers =, IN and ranges.
//
// A read uses them only to leave out whole row-id groups (a group's files
// share their rows, so no file of one can be dropped alone) whose rows the
// index proves cannot match. Java answers a filter from the index alone
// and loses rows the index does not cover (FINDINGS F35); here a group is
// left out only when
//   - one index file of the column covers every row id of the group;
//   - the column's values are those the rows were first written with: no
//     data file of the group but the oldest holds the column, so no later
//     partial write can have left the index stale;
//   - the oldest file holds the column with the filter's type, the type
//     the index keys were written in.
// Anything else is read and filtered as before.

// globalIndexFile is a global index file of a column and the row ids it
// covers, first and last included, in its partition: Java has numbered
// each partition's rows from 0 (the fixture
// append_with_global_index_with_partition), so a range means nothing in
// another partition.
type globalIndexFile struct {
	meta        spec.IndexFileMeta
	partition   string
	first, last int64
}

// Global index types a read uses (GlobalIndexerFactory identifiers).
const (
	globalIndexBitmap = "bitmap"
	globalIndexBTree  = "btree"
)

// readableGlobalIndexes are the bitmap and btree global index files of a
// snapshot's index files, by indexed field id.
func readableGlobalIndexes(entries []spec.IndexManifestEntry) map[int32][]globalIndexFile {
	out := map[int32][]globalIndexFile{}
	for _, e := range entries {
		g := e.IndexFile.GlobalIndex
		kind := e.IndexFile.IndexType
		if g == nil || kind != globalIndexBitmap && kind != globalIndexBTree || len(g.ExtraFieldIDs) > 0 {
			continue
		}
		out[g.IndexFieldID] = append(out[g.IndexFieldID], globalIndexFile{meta: e.IndexFile, partition: string(e.Partition), first: g.RowRangeStart, last: g.RowRangeEnd})
	}
	return out
}

// applyGlobalIndexes drops from a data-evolution table's plan the row-id
// groups its global indexes prove hold no row matching the filter, and
// records them as PrunedByGlobalIndex.
func (t *Table) applyGlobalIndexes(ctx context.Context, sp *scan.Plan, index []spec.IndexManifestEntry) error {
	evolution, err := sp.Schema.CoreOptions().DataEvolutionEnabled()
	if err != nil || !evolution {
		return err
	}
	p := &globalPruner{table: t, indexes: readableGlobalIndexes(index), bodies: map[string][]byte{}, matches: map[matchKey]matchingRows{}}
	if len(p.indexes) == 0 || !p.mayAnswer(sp.Filter.Full) {
		return nil
	}
	dropped := map[string]bool{}
	for _, split := range sp.Splits {
		groups, err := rowIDGroups(split.Files)
		if err != nil {
			// The read reports the malformed split.
			continue
		}
		for i := range groups {
			groups[i].partition = string(split.Partition)
			cannot, err := p.cannot(ctx, &groups[i], sp.Filter.Full)
			if err != nil {
				return err
			}
			if cannot {
				for _, bunch := range groups[i].bunches() {
					for _, f := range bunch {
						dropped[f.FileName] = true
					}
				}
			}
		}
	}
	sp.DropFiles(dropped, scan.PrunedByGlobalIndex)
	return nil
}

// globalPruner decides, group by group, whether global indexes refute a
// filter.
type globalPruner struct {
	table   *Table
	indexes map[int32][]globalIndexFile
	// bodies are the index files read, each read once for all the
	// leaves it answers.
	bodies map[string][]byte
	// matches are each index file's answer to each leaf, looked up once
	// for all the groups the file covers.
	matches map[matchKey]matchingRows
}

type matchKey struct {
	file string
	leaf *predicate.LeafPredicate
}

// matchingRows are the rows, numbered from the index file's first row
// id, that may make a leaf TRUE; ok false when the index cannot say.
type matchingRows struct {
	rows rowSet
	ok   bool
}

// rowSet is a set of row numbers: a bitmap index's 32-bit bitmap or a
// btree's 64-bit one.
type rowSet interface {
	// intersects reports whether a row in [from, to) is in the set.
	intersects(from, to uint64) bool
}

type bitmap32 struct{ *roaring.Bitmap }

func (b bitmap32) intersects(from, to uint64) bool { return b.IntersectsWithInterval(from, to) }

type bitmap64 struct{ *roaring64.Bitmap }

func (b bitmap64) intersects(from, to uint64) bool {
	before := uint64(0)
	if from > 0 {
		before = b.Rank(from - 1)
	}
	return b.Rank(to-1) > before
}

// mayAnswer reports whether p has a leaf a global index answers.
func (p *globalPruner) mayAnswer(pred predicate.Predicate) bool {
	return predicate.AnyLeaf(pred, func(l *predicate.LeafPredicate) bool {
		return slices.ContainsFunc(p.indexes[int32(l.Column().ID)], func(f globalIndexFile) bool { return answers(f.meta.IndexType, l) })
	})
}

// answers reports whether an index of the type answers leaf l.
func answers(indexType string, l *predicate.LeafPredicate) bool {
	switch l.Op() {
	case predicate.OpEq, predicate.OpIn:
		return true
	case predicate.OpIsNull:
		return indexType == globalIndexBitmap
	case predicate.OpLt, predicate.OpLe, predicate.OpGt, predicate.OpGe:
		return indexType == globalIndexBTree
	}
	return false
}

// cannot reports whether the indexes prove that no row of group g makes
// pred TRUE.
func (p *globalPruner) cannot(ctx context.Context, g *rowIDGroup, pred predicate.Predicate) (bool, error) {
	return predicate.Refuted(pred, func(l *predicate.LeafPredicate) (bool, error) { return p.leafCannot(ctx, g, l) })
}

func (p *globalPruner) leafCannot(ctx context.Context, g *rowIDGroup, l *predicate.LeafPredicate) (bool, error) {
	first, rows := *g.data[0].FirstRowID, g.data[0].RowCount
	file, ok := coveringIndex(p.indexes[int32(l.Column().ID)], l, g.partition, first, first+rows-1)
	if !ok {
		return false, nil
	}
	field, ok, err := unchangedField(g, l.Column(), p.table.schemaOf(ctx))
	if !ok || err != nil {
		return false, err
	}
	matching, err := p.matching(ctx, file, field, l)
	if !matching.ok || err != nil {
		return false, err
	}
	from := uint64(first - file.first)
	return !matching.rows.intersects(from, from+uint64(rows)), nil
}

// matching is the answer of index file to leaf l on field.
func (p *globalPruner) matching(ctx context.Context, file globalIndexFile, field spec.DataField, l *predicate.LeafPredicate) (matchingRows, error) {
	key := matchKey{file.meta.FileName, l}
	if m, ok := p.matches[key]; ok {
		return m, nil
	}
	body, err := p.body(ctx, file.meta)
	if err != nil {
		return matchingRows{}, err
	}
	var m matchingRows
	if file.meta.IndexType == globalIndexBTree {
		m, err = btreeMatching(body, field, l)
	} else {
		m, err = bitmapMatching(body, field, l)
	}
	if err != nil {
		return matchingRows{}, fmt.Errorf("global index %s: %w", file.meta.FileName, err)
	}
	p.matches[key] = m
	return m, nil
}

// body is an index file's bytes, read once per plan.
func (p *globalPruner) body(ctx context.Context, meta spec.IndexFileMeta) ([]byte, error) {
	if body, ok := p.bodies[meta.FileName]; ok {
		return body, nil
	}
	body, err := p.table.globalIndexBody(ctx, meta)
	if err == nil {
		p.bodies[meta.FileName] = body
	}
	return body, err
}

func bitmapMatching(body []byte, field spec.DataField, l *predicate.LeafPredicate) (matchingRows, error) {
	container := &fileindex.Container{Entries: []fileindex.Entry{{Column: field.Name, Type: spec.FileIndexBitmap, Body: body}}}
	rows, ok, err := fileindex.NewEvaluator(container, []spec.DataField{field}).Rows(l)
	if !ok || err != nil {
		return matchingRows{}, err
	}
	return matchingRows{rows: bitmap32{rows}, ok: true}, nil
}

// btreeMatching looks up l's keys: one range for a comparison, one key
// for each literal of = and IN. A key type or literal the btree reader
// does not compare leaves the rows to be read.
func btreeMatching(body []byte, field spec.DataField, l *predicate.LeafPredicate) (matchingRows, error) {
	tree, err := globalindex.OpenBTree(body, field.Type)
	if errors.Is(err, globalindex.ErrUnsupportedKey) {
		return matchingRows{}, nil
	}
	if err != nil {
		return matchingRows{}, err
	}
	out := roaring64.New()
	for _, r := range btreeRanges(l) {
		rows, err := tree.Range(r[0], r[1])
		if errors.Is(err, globalindex.ErrUnsupportedKey) {
			return matchingRows{}, nil
		}
		if err != nil {
			return matchingRows{}, err
		}
		out.Or(rows)
	}
	return matchingRows{rows: bitmap64{out}, ok: true}, nil
}

// btreeRanges are the key ranges whose rows may make l TRUE.
func btreeRanges(l *predicate.LeafPredicate) [][2]globalindex.Bound {
	open := globalindex.Bound{Open: true}
	at := func(v any, inclusive bool) globalindex.Bound { return globalindex.Bound{Key: v, Inclusive: inclusive} }
	lits := l.Literals()
	switch l.Op() {
	case predicate.OpLt:
		return [][2]globalindex.Bound{{open, at(lits[0], false)}}
	case predicate.OpLe:
		return [][2]globalindex.Bound{{open, at(lits[0], true)}}
	case predicate.OpGt:
		return [][2]globalindex.Bound{{at(lits[0], false), open}}
	case predicate.OpGe:
		return [][2]globalindex.Bound{{at(lits[0], true), open}}
	}
	var out [][2]globalindex.Bound
	for _, v := range lits {
		if v != nil {
			out = append(out, [2]globalindex.Bound{at(v, true), at(v, true)})
		}
	}
	return out
}

// coveringIndex is an index file that answers l and covers row ids first
// to last of a partition.
func coveringIndex(files []globalIndexFile, l *predicate.LeafPredicate, partition string, first, last int64) (globalIndexFile, bool) {
	for _, f := range files {
		if answers(f.meta.IndexType, l) && f.partition == partition && f.first <= first && last <= f.last {
			return f, true
		}
	}
	return globalIndexFile{}, false
}

// unchangedField is col's field in the group's oldest data file when that
// file holds it with col's type and no newer data file of the group holds
// it: the values an index of these rows was built from.
func unchangedField(g *rowIDGroup, col predicate.Column, schemaOf func(int64) (*spec.TableSchema, error)) (spec.DataField, bool, error) {
	oldest := len(g.data) - 1
	for i := range g.data {
		s, err := schemaOf(g.data[i].SchemaID)
		if err != nil {
			return spec.DataField{}, false, err
		}
		for _, f := range writtenFields(s, g.data[i].WriteCols) {
			if f.ID != col.ID {
				continue
			}
			if i != oldest || f.Type.WithNullable(true).String() != col.Type.WithNullable(true).String() {
				return spec.DataField{}, false, nil
			}
			return f, true, nil
		}
	}
	return spec.DataField{}, false, nil
}

// globalIndexBody reads a global index file: at its external path, or in
// the table's index directory (Java's globalIndexFileFactory().toPath).
func (t *Table) globalIndexBody(ctx context.Context, meta spec.IndexFileMeta) ([]byte, error) {
	p := path.Join(t.dir, "index", meta.FileName)
	if meta.ExternalPath != nil {
		p = localPath(*meta.ExternalPath)
	}
	body, err := t.io.ReadFile(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("global index %s: %w", meta.FileName, err)
	}
	return body, nil
}
