package parquetio

import (
	"fmt"
	"sort"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// RowRange is rows [From, To) of row group Group, counted from the
// group's first row.
type RowRange struct {
	Group    int
	From, To int64
}

// PageStats are the statistics of one page of a column chunk, from the
// file's column index.
type PageStats struct {
	// FirstRow is the page's first row in its row group.
	FirstRow int64
	// OnlyNulls marks a page whose values are all NULL; Min and Max are
	// then nil.
	OnlyNulls bool
	Min, Max  any
}

// PageStats returns the statistics of the pages of a top-level primitive
// column in a row group, in row order, from the file's column and offset
// indexes (Java's and lakesql's writers emit them); ok is false when the
// file lacks the column or the indexes. Text bounds may be shortened
// prefixes, which still bound the values.
func (r *Reader) PageStats(rowGroup int, column ColumnRequest) (pages []PageStats, ok bool, err error) {
	defer recoverCorruption(r.name, &err)
	node := r.findColumn(column)
	if rowGroup < 0 || rowGroup >= len(r.rowGroups) || node == nil || !node.isLeaf() || node.isRepeated() {
		return nil, false, nil
	}
	chunk := &r.meta.RowGroups[rowGroup].Columns[node.leaf]
	if chunk.ColumnIndexLength <= 0 || chunk.OffsetIndexLength <= 0 {
		return nil, false, nil
	}
	decode, err := (&readerBuilder{file: r.name}).decoderFor(node, column.Type, node.name())
	if err != nil {
		return nil, false, err
	}
	src := &trackedSource{src: r.src, size: r.size}
	index, err := r.columnIndex(src, rowGroup, node.leaf)
	if err != nil {
		return nil, false, err
	}
	locations, err := r.pageLocations(src, rowGroup, node.leaf)
	if err != nil {
		return nil, false, err
	}
	n := len(locations)
	if len(index.NullPages) != n || len(index.MinValues) != n || len(index.MaxValues) != n {
		return nil, false, corruptionf(r.name, "column %s: column index of %d pages, offset index of %d", node.name(), len(index.NullPages), n)
	}
	pages = make([]PageStats, n)
	for i, loc := range locations {
		pages[i] = PageStats{FirstRow: loc.FirstRowIndex, OnlyNulls: index.NullPages[i]}
		if !index.NullPages[i] {
			pages[i].Min = decodeStat(node, decode, index.MinValues[i])
			pages[i].Max = decodeStat(node, decode, index.MaxValues[i])
		}
	}
	return pages, true, nil
}

// chunkIndex names the page index of one column chunk in a Footer's
// cache of decoded ones.
type chunkIndex struct {
	rowGroup, leaf int
	offsets        bool // the offset index, else the column index
}

// columnIndex reads the column index of a column chunk, decoded once per
// Footer.
func (r *Reader) columnIndex(src *trackedSource, rowGroup, leaf int) (*format.ColumnIndex, error) {
	key := chunkIndex{rowGroup: rowGroup, leaf: leaf}
	if v, ok := r.decodedIndexes.Load(key); ok {
		return v.(*format.ColumnIndex), nil
	}
	chunk := &r.meta.RowGroups[rowGroup].Columns[leaf]
	index := new(format.ColumnIndex)
	if err := r.readIndex(src, columnPathString(chunk.MetaData.PathInSchema), chunk.ColumnIndexOffset, chunk.ColumnIndexLength, index); err != nil {
		return nil, err
	}
	r.decodedIndexes.Store(key, index)
	return index, nil
}

// pageLocations reads the offset index of a column chunk, decoded and
// checked once per Footer.
func (r *Reader) pageLocations(src *trackedSource, rowGroup, leaf int) ([]format.PageLocation, error) {
	key := chunkIndex{rowGroup: rowGroup, leaf: leaf, offsets: true}
	if v, ok := r.decodedIndexes.Load(key); ok {
		return v.([]format.PageLocation), nil
	}
	locations, err := r.readPageLocations(src, rowGroup, leaf)
	if err != nil {
		return nil, err
	}
	r.decodedIndexes.Store(key, locations)
	return locations, nil
}

// readPageLocations reads and checks the offset index of a column chunk:
// its pages lie in order within the chunk, the first holding row 0, each
// holding rows.
func (r *Reader) readPageLocations(src *trackedSource, rowGroup, leaf int) ([]format.PageLocation, error) {
	chunk := &r.meta.RowGroups[rowGroup].Columns[leaf]
	meta := &chunk.MetaData
	path := columnPathString(meta.PathInSchema)
	index := new(format.OffsetIndex)
	if err := r.readIndex(src, path, chunk.OffsetIndexOffset, chunk.OffsetIndexLength, index); err != nil {
		return nil, err
	}
	locations := index.PageLocations
	end := meta.DataPageOffset + meta.TotalCompressedSize
	if meta.DictionaryPageOffset != 0 {
		end = meta.DictionaryPageOffset + meta.TotalCompressedSize
	}
	rows := r.rowGroups[rowGroup].NumRows
	for i, loc := range locations {
		ordered := i == 0 && loc.FirstRowIndex == 0 && loc.Offset == meta.DataPageOffset ||
			i > 0 && loc.FirstRowIndex > locations[i-1].FirstRowIndex && loc.Offset >= locations[i-1].Offset+int64(locations[i-1].CompressedPageSize)
		if !ordered || loc.CompressedPageSize <= 0 || loc.Offset+int64(loc.CompressedPageSize) > end || loc.FirstRowIndex >= rows {
			return nil, corruptionf(r.name, "column %s: offset index page %d at %d (+%d), row %d", path, i, loc.Offset, loc.CompressedPageSize, loc.FirstRowIndex)
		}
	}
	if len(locations) == 0 {
		return nil, corruptionf(r.name, "column %s: offset index of no pages", path)
	}
	return locations, nil
}

// readIndex reads a page index structure stored at [offset, +length).
func (r *Reader) readIndex(src *trackedSource, path string, offset int64, length int32, v any) error {
	if offset < 4 || int64(length) > r.size-offset {
		return corruptionf(r.name, "column %s: page index at [%d,+%d) outside file of %d bytes", path, offset, length, r.size)
	}
	data, err := r.indexBytes(src, offset, length)
	if err != nil {
		return err
	}
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data, v); err != nil {
		return corruptionf(r.name, "column %s: page index: %v", path, err)
	}
	return nil
}

// indexBytes are the file's bytes [offset, +length) of a page index, from
// those Open kept when they hold them.
func (r *Reader) indexBytes(src *trackedSource, offset int64, length int32) ([]byte, error) {
	if rel := offset - r.indexesAt; r.indexes != nil && rel >= 0 && rel+int64(length) <= int64(len(r.indexes)) {
		return r.indexes[rel : rel+int64(length)], nil
	}
	data := make([]byte, length)
	if _, err := src.ReadAt(data, offset); err != nil {
		return nil, src.classify(r.name, err)
	}
	return data, nil
}

// openChunkRows opens the pages of a column chunk that hold rows [from,
// to) of the row group, with the chunk's dictionary page, reading only
// those; skip is how many rows of the first page open precede from. A
// chunk without an offset index is opened whole.
func (r *Reader) openChunkRows(src *trackedSource, g, leaf int, from, to int64) (pages parquet.Pages, skip int64, err error) {
	chunk := &r.meta.RowGroups[g].Columns[leaf]
	if chunk.OffsetIndexLength <= 0 {
		pages, err := r.openChunk(src, g, leaf)
		return pages, from, err
	}
	if !supportedCodec(chunk.MetaData.Codec) {
		return nil, 0, unsupportedf(r.name, "column %s: compression codec %s", columnPathString(chunk.MetaData.PathInSchema), chunk.MetaData.Codec)
	}
	locations, err := r.pageLocations(src, g, leaf)
	if err != nil {
		return nil, 0, err
	}
	first := sort.Search(len(locations), func(i int) bool { return locations[i].FirstRowIndex > from }) - 1
	last := sort.Search(len(locations), func(i int) bool { return locations[i].FirstRowIndex >= to }) - 1
	meta := &chunk.MetaData
	start := meta.DataPageOffset
	if meta.DictionaryPageOffset != 0 {
		start = meta.DictionaryPageOffset
	}
	skip = from - locations[first].FirstRowIndex
	readPages := func() ([]byte, error) {
		return r.decompressedPages(src, meta, start, locations[first], locations[last])
	}
	if r.pageCache != nil {
		key := PageCacheKey{File: r.name, Size: r.size, RowGroup: g, Leaf: leaf, First: first, Last: last}
		pages, err = r.cachedRangePages(key, start, readPages)
		return pages, skip, err
	}
	data, err := readPages()
	if err != nil {
		return nil, 0, err
	}
	pages, err = r.decodedPagesAt(g, leaf, start, data)
	return pages, skip, err
}

// decompressedPages reads the dictionary page of a column chunk, if it
// has one, and its data pages from first to last, and returns them
// decompressed.
func (r *Reader) decompressedPages(src *trackedSource, meta *format.ColumnMetaData, start int64, first, last format.PageLocation) ([]byte, error) {
	var stored []byte
	if start != meta.DataPageOffset {
		var err error
		if stored, err = r.readChunkBytes(src, meta, start, meta.DataPageOffset); err != nil {
			return nil, err
		}
	}
	body, err := r.readChunkBytes(src, meta, first.Offset, last.Offset+int64(last.CompressedPageSize))
	if err != nil {
		return nil, err
	}
	return decodedChunk(r.name, columnPathString(meta.PathInSchema), append(stored, body...), meta.Codec, 0)
}

// readChunkBytes reads bytes [from, to) of a column chunk.
func (r *Reader) readChunkBytes(src *trackedSource, meta *format.ColumnMetaData, from, to int64) ([]byte, error) {
	if from < 0 || to < from || to > r.size {
		return nil, corruptionf(r.name, "column %s: pages [%d,%d) outside file of %d bytes", columnPathString(meta.PathInSchema), from, to, r.size)
	}
	data := make([]byte, to-from)
	if _, err := src.ReadAt(data, from); err != nil {
		return nil, src.classify(r.name, err)
	}
	return data, nil
}

// pagesAt decodes stored pages of a column chunk of a supported codec
// (sizeHint: their uncompressed size, if known) and serves them to parquet-go as the
// chunk's pages from its start: parquet-go reads pages one after
// another, so pages left out of the middle go unnoticed.
func (r *Reader) pagesAt(g, leaf int, start int64, stored []byte, sizeHint int64) (parquet.Pages, error) {
	meta := &r.meta.RowGroups[g].Columns[leaf].MetaData
	data, err := decodedChunk(r.name, columnPathString(meta.PathInSchema), stored, meta.Codec, sizeHint)
	if err != nil {
		return nil, err
	}
	return r.decodedPagesAt(g, leaf, start, data)
}

// decodedPagesAt serves pages decodedChunk decompressed to parquet-go,
// which reads but never writes them.
func (r *Reader) decodedPagesAt(g, leaf int, start int64, data []byte) (parquet.Pages, error) {
	chunk, ok := r.file.RowGroups()[g].ColumnChunks()[leaf].(*parquet.FileColumnChunk)
	if !ok {
		meta := &r.meta.RowGroups[g].Columns[leaf].MetaData
		return nil, corruptionf(r.name, "column %s: unexpected chunk layout", columnPathString(meta.PathInSchema))
	}
	return chunk.PagesFrom(&chunkReaderAt{base: start, data: data}), nil
}

// wholeGroups are the row ranges of whole row groups.
func (r *Reader) wholeGroups(rowGroups []int) []RowRange {
	out := make([]RowRange, len(rowGroups))
	for i, g := range rowGroups {
		out[i] = RowRange{Group: g, To: r.rowGroups[g].NumRows}
	}
	return out
}

// checkRanges rejects row ranges the file does not have.
func (r *Reader) checkRanges(ranges []RowRange) error {
	for _, rg := range ranges {
		if rg.Group < 0 || rg.Group >= len(r.rowGroups) || rg.From < 0 || rg.To < rg.From || rg.To > r.rowGroups[rg.Group].NumRows {
			return fmt.Errorf("parquetio: %s: row range %+v out of range", r.name, rg)
		}
	}
	return nil
}
