package table

import (
	"context"

	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// ExternalRead divides a plan between an engine outside lakesql, which
// reads data files itself, and lakesql's reader, which reads the rest.
type ExternalRead struct {
	// Files are local Parquet data files whose stored rows, less each
	// file's Deleted rows, are exactly the rows lakesql's reader returns
	// for them: read as they are, the columns under their names in the
	// read schema, keeping the rows that make the plan's residual filter
	// (Plan.Scan.Filter.Residual) TRUE.
	Files []ExternalFile
	// Rest is a copy of the plan restricted to every other file, and the
	// plan's fallback part; read it with ExecutePlan. nil when Files are
	// the whole read.
	Rest *Plan
}

// ExternalFile is a data file an outside engine reads itself.
type ExternalFile struct {
	// Path is the file's local path.
	Path string
	// Deleted lists, ascending, the positions of the file's rows that
	// are not rows of the table (0 for its first row, counted in file
	// order across row groups): versions of a key that a merge
	// supersedes, a key's last version when it retracts the key, and
	// rows of the file's deletion vector. Rows the residual filter rules
	// out may be left out of it. Empty when every stored row is a table
	// row.
	Deleted []int64
}

// ExternalRead divides plan for a read of columns (nil for every column of
// plan.Schema), see ExternalRead. A file is handed out only when it is
//   - on the table's FileIO, the local disk, so the path names the file;
//   - Parquet;
//   - holding every column read or filtered on under the same field id,
//     name and type as the read schema, so no schema evolution applies.
//
// A file read without a merge (an append file, or a file of a
// raw-convertible split of a primary-key table) must also record no
// retraction; its deletion vector's rows are its Deleted rows. A split
// that a read merges is
// handed out whole when every file qualifies and the merge engine keeps
// each key's surviving record as stored (deduplicate, first-row): its
// files are merged here over the keys and sequence fields only, which
// gives the Deleted rows of each file. Such merges run on up to
// GOMAXPROCS splits at once.
//
// The fallback branch's part is always left to Rest: its rows are mapped
// and filtered again in the main schema.
func (t *Table) ExternalRead(ctx context.Context, plan *Plan, columns []string) (ExternalRead, error) {
	needed, err := externalColumns(plan, columns)
	if err != nil {
		return ExternalRead{}, err
	}
	parts, err := t.divideSplits(ctx, plan, needed)
	if err != nil {
		return ExternalRead{}, err
	}
	var out ExternalRead
	var rest []Split
	var restScanSplits []scan.Split
	for i, part := range parts {
		out.Files = append(out.Files, part.direct...)
		if len(part.other) == 0 {
			continue
		}
		s := plan.Splits[i]
		s.Files = part.other
		rest = append(rest, s)
		ss := plan.Scan.Splits[i]
		ss.Files = part.other
		restScanSplits = append(restScanSplits, ss)
	}
	if len(rest) > 0 || plan.Fallback != nil {
		out.Rest = plan.withSplits(rest, restScanSplits)
	}
	return out, nil
}

// splitPart is how ExternalRead divides one split: the files handed out
// and the files left to lakesql's reader.
type splitPart struct {
	direct []ExternalFile
	other  []spec.DataFileMeta
}

// divideSplits divides each split of the plan, merging the keys of the
// merged splits it hands out.
func (t *Table) divideSplits(ctx context.Context, plan *Plan, needed []spec.DataField) ([]splitPart, error) {
	parts := make([]splitPart, len(plan.Splits))
	if _, local := t.io.(*localio.FS); !local {
		for i := range plan.Splits {
			parts[i].other = plan.Splits[i].Files
		}
		return parts, nil
	}
	raw, err := newReader(t, plan, nil)
	if err != nil {
		return nil, err
	}
	keys, err := newKeyReader(t, plan)
	if err != nil {
		return nil, err
	}
	var merges []int
	for i := range plan.Splits {
		s := &plan.Splits[i]
		if raw.dataEvolution && !s.RawConvertible {
			// Its files share rows: lakesql's reader joins their columns.
			parts[i].other = s.Files
			continue
		}
		if raw.engine == nil || s.RawConvertible {
			if parts[i], err = raw.divideRaw(ctx, s, needed); err != nil {
				return nil, err
			}
			continue
		}
		ok := keys != nil
		if ok {
			if ok, err = t.allStoredAsRead(ctx, plan, s, needed); err != nil {
				return nil, err
			}
		}
		if ok {
			merges = append(merges, i)
		} else {
			parts[i].other = s.Files
		}
	}
	return parts, runMerges(ctx, keys, merges, parts)
}

// divideRaw divides a split read without merging file by file; the rows
// of a file's deletion vector are its deleted rows.
func (r *reader) divideRaw(ctx context.Context, s *Split, needed []spec.DataField) (splitPart, error) {
	var part splitPart
	b := &r.plan.Buckets[s.Bucket]
	for i := range s.Files {
		f := &s.Files[i]
		ok, err := r.table.readAsStored(ctx, r.plan, f, needed)
		if err != nil {
			return splitPart{}, err
		}
		if !ok {
			part.other = append(part.other, *f)
			continue
		}
		dv, err := r.deletionVector(ctx, b, f.FileName)
		if err != nil {
			return splitPart{}, err
		}
		ext := ExternalFile{Path: b.DataFilePath(f)}
		if dv != nil {
			ext.Deleted = dv.Positions()
		}
		part.direct = append(part.direct, ext)
	}
	return part, nil
}

// allStoredAsRead reports whether every file of a merged split holds the
// needed columns as an outside engine reads them.
func (t *Table) allStoredAsRead(ctx context.Context, plan *Plan, s *Split, needed []spec.DataField) (bool, error) {
	for i := range s.Files {
		if ok, err := t.storedAsRead(ctx, plan, &s.Files[i], needed); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// readAsStored reports whether the reader returns a file's stored rows
// unchanged but for its deletion vector, the file being read without a
// merge.
func (t *Table) readAsStored(ctx context.Context, plan *Plan, f *spec.DataFileMeta, needed []spec.DataField) (bool, error) {
	if len(plan.Schema.PrimaryKeys) > 0 && (f.DeleteRowCount == nil || *f.DeleteRowCount != 0) {
		return false, nil
	}
	return t.storedAsRead(ctx, plan, f, needed)
}

// storedAsRead reports whether a file is Parquet and holds the needed
// columns as the read schema has them.
func (t *Table) storedAsRead(ctx context.Context, plan *Plan, f *spec.DataFileMeta, needed []spec.DataField) (bool, error) {
	if format, err := fileformat.Of(f.FileName); err != nil || format != fileformat.Parquet {
		return false, nil
	}
	if f.SchemaID == plan.Schema.ID {
		return true, nil
	}
	fileSchema, err := t.schemas.Schema(ctx, f.SchemaID)
	if err != nil {
		return false, err
	}
	return sameFields(fileSchema, needed), nil
}

// externalColumns are the read-schema fields a file must hold as they are:
// the columns read and those the residual filter reads.
func externalColumns(plan *Plan, columns []string) ([]spec.DataField, error) {
	_, projection, err := project(plan.Schema, columns)
	if err != nil {
		return nil, err
	}
	if projection == nil {
		projection = allColumns(len(plan.Schema.Fields))
	}
	var out []spec.DataField
	for _, i := range union(projection, predicate.Columns(plan.Scan.Filter.Residual)) {
		out = append(out, plan.Schema.Fields[i])
	}
	return out, nil
}

// sameFields reports whether the file schema has each field under the
// same id, name and type (nullability included), so that reading the
// file's column of that name needs no mapping.
func sameFields(fileSchema *spec.TableSchema, fields []spec.DataField) bool {
	for _, rf := range fields {
		ff, ok := fileSchema.FieldByID(rf.ID)
		if !ok || ff.Name != rf.Name || ff.Type.String() != rf.Type.String() {
			return false
		}
	}
	return true
}

// withSplits is a copy of the plan that reads only splits, with its
// fallback part; its scan plan lists the same splits (scanSplits), one to
// one, as a plan's do.
func (p *Plan) withSplits(splits []Split, scanSplits []scan.Split) *Plan {
	out := *p
	scanPlan := *p.Scan
	out.Splits, scanPlan.Splits = splits, scanSplits
	out.Scan = &scanPlan
	return &out
}
