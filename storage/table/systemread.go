package table

import (
	"fmt"
	"math"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// RowKindField is the leading column of a read with row kinds. Mirrors
// SpecialFields.ROW_KIND, the first column of Java's AuditLogTable; Paimon
// reserves the name, so no table column collides with it.
var RowKindField = spec.DataField{
	ID:   math.MaxInt32 - 4,
	Name: "rowkind",
	Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true},
}

// RowIDField and SequenceNumberField are the columns Java's
// RowTrackingTable (`t$row_tracking`) appends to a row-tracking table's
// own (SpecialFields.ROW_ID and SEQUENCE_NUMBER, BIGINT NOT NULL).
var (
	RowIDField = spec.DataField{
		ID:   math.MaxInt32 - 5,
		Name: "_ROW_ID",
		Type: spec.DataType{Root: spec.BigInt},
	}
	SequenceNumberField = spec.DataField{
		ID:   math.MaxInt32 - 1,
		Name: "_SEQUENCE_NUMBER",
		Type: spec.DataType{Root: spec.BigInt},
	}
)

// withRowTracking is the plan reading the row-tracking columns after the
// table's own. A file that holds them (Java's compaction of a
// row-tracking table writes them) gives its values; otherwise, and for
// each NULL, a row's id is its file's first row id plus its position and
// its sequence number the file's largest (Java's DataFileRecordReader and
// FallbackMappingRow).
func (p *Plan) withRowTracking() (*Plan, error) {
	on, err := p.Schema.CoreOptions().RowTrackingEnabled()
	if err != nil {
		return nil, err
	}
	if !on {
		return nil, fmt.Errorf("%w: row ids of a table without row-tracking.enabled", lakeerr.ErrUnsupported)
	}
	if p.Fallback != nil {
		return nil, fmt.Errorf("%w: row ids of a table with a fallback branch", lakeerr.ErrUnsupported)
	}
	out := *p
	out.Schema = withRowTrackingFields(p.Schema)
	return &out, nil
}

// withRowTrackingFields is s with the row-tracking columns after its own.
func withRowTrackingFields(s *spec.TableSchema) *spec.TableSchema {
	out := *s
	out.Fields = append(slices.Clip(s.Fields), RowIDField, SequenceNumberField)
	return &out
}

// rowTracking fills the row-tracking columns of one file's rows where the
// file holds no value.
type rowTracking struct {
	file       string
	firstRowID *int64
	maxSeq     int64
	// rowID and seq are the columns' positions in a read row.
	rowID, seq int
}

// fill sets the row-tracking values of the row at position pos. A file
// whose manifest entry has no first row id and that holds no _ROW_ID of
// the row has lost its ids (a compaction that did not write them, as
// Flink's AppendTableCompactor does): its rows have none to give, and
// Java's read fails on them too.
func (t *rowTracking) fill(row []any, pos int64) error {
	if row[t.rowID] == nil {
		if t.firstRowID == nil {
			return fmt.Errorf("%w: data file %s of a row-tracking table has no row ids: no _ROW_ID column and no first row id", lakeerr.ErrCorruption, t.file)
		}
		row[t.rowID] = *t.firstRowID + pos
	}
	if row[t.seq] == nil {
		row[t.seq] = t.maxSeq
	}
	return nil
}

// insertsOf marks the rows of an append table as inserts, the only kind
// such a table holds.
type insertsOf struct{ rowSource }

func (i insertsOf) Next() ([]any, error) {
	row, err := i.rowSource.Next()
	if err != nil {
		return nil, err
	}
	return append(slices.Clip(row), spec.RowKindInsert), nil
}

// readOptimized restricts a plan, and its fallback part, to what Java's
// ReadOptimizedTable scans: the files of primary-key tables on the highest
// level (num-levels - 1). Such files of a bucket form one sorted run, so
// splits left without retractions are read raw. The fallback part keeps
// the partitions it was given by the unrestricted main plan.
func (p *Plan) readOptimized() (*Plan, error) {
	out, err := p.topLevelOnly()
	if err != nil || p.Fallback == nil {
		return out, err
	}
	fb := *p.Fallback
	if fb.Plan, err = fb.Plan.topLevelOnly(); err != nil {
		return nil, fmt.Errorf("fallback branch %s: %w", fb.Branch, err)
	}
	out.Fallback = &fb
	return out, nil
}

// topLevelOnly is the plan without the files below the highest level; the
// splits of the table plan and of its scan plan stay one to one.
func (p *Plan) topLevelOnly() (*Plan, error) {
	if len(p.Schema.PrimaryKeys) == 0 {
		return p, nil
	}
	numLevels, err := p.Schema.CoreOptions().NumLevels()
	if err != nil {
		return nil, err
	}
	top := int32(numLevels - 1)
	out := *p
	scanPlan := *p.Scan
	out.Scan = &scanPlan
	out.Buckets = make([]BucketPlan, len(p.Buckets))
	for i, b := range p.Buckets {
		b.Files = onLevel(b.Files, top)
		out.Buckets[i] = b
	}
	out.Splits, scanPlan.Splits = nil, nil
	for i, s := range p.Splits {
		files := onLevel(s.Files, top)
		if len(files) == 0 {
			continue
		}
		raw := s.RawConvertible || withoutRetractions(files)
		out.Splits = append(out.Splits, Split{Bucket: s.Bucket, Files: files, RawConvertible: raw})
		ss := p.Scan.Splits[i]
		ss.Files, ss.RawConvertible = files, raw
		scanPlan.Splits = append(scanPlan.Splits, ss)
	}
	return &out, nil
}

func onLevel(files []spec.DataFileMeta, level int32) []spec.DataFileMeta {
	var out []spec.DataFileMeta
	for _, f := range files {
		if f.Level == level {
			out = append(out, f)
		}
	}
	return out
}

// withoutRetractions holds when every file records that it has no -U/-D
// record; files of old writers that do not say are assumed to have some.
func withoutRetractions(files []spec.DataFileMeta) bool {
	for _, f := range files {
		if f.DeleteRowCount == nil || *f.DeleteRowCount > 0 {
			return false
		}
	}
	return true
}
