package table

import (
	"context"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// ExternalRead divides a plan between an engine outside lakesql, which
// reads data files itself, and lakesql's reader, which reads the rest.
type ExternalRead struct {
	// Files are local paths of Parquet data files whose stored rows are
	// exactly the rows lakesql's reader returns for them: read as they
	// are, the columns under their names in the read schema, keeping the
	// rows that make the plan's residual filter (Plan.Scan.Filter.Residual)
	// TRUE.
	Files []string
	// Rest is a copy of the plan restricted to every other file, and the
	// plan's fallback part; read it with ExecutePlan. nil when Files are
	// the whole read.
	Rest *Plan
}

// ExternalRead divides plan for a read of columns (nil for every column of
// plan.Schema), see ExternalRead. A file is handed out only when
// lakesql's reader does nothing to its rows but filter them with the
// residual filter:
//   - the table's FileIO is the local disk, so the path names the file;
//   - the file is Parquet;
//   - it is read without a merge: an append file, or a file of a
//     raw-convertible split of a primary-key table that records no
//     retraction;
//   - it has no deletion vector;
//   - it has every column read or filtered on under the same field id,
//     name and type as the read schema, so no schema evolution applies.
//
// The fallback branch's part is always left to Rest: its rows are mapped
// and filtered again in the main schema.
func (t *Table) ExternalRead(ctx context.Context, plan *Plan, columns []string) (ExternalRead, error) {
	needed, err := externalColumns(plan, columns)
	if err != nil {
		return ExternalRead{}, err
	}
	var out ExternalRead
	var rest []Split
	var restScanSplits []scan.Split
	_, local := t.io.(*localio.FS)
	for i, s := range plan.Splits {
		direct, other, err := t.divideSplit(ctx, plan, &s, needed, local)
		if err != nil {
			return ExternalRead{}, err
		}
		out.Files = append(out.Files, direct...)
		if len(other) == 0 {
			continue
		}
		s.Files = other
		rest = append(rest, s)
		ss := plan.Scan.Splits[i]
		ss.Files = other
		restScanSplits = append(restScanSplits, ss)
	}
	if len(rest) > 0 || plan.Fallback != nil {
		out.Rest = plan.withSplits(rest, restScanSplits)
	}
	return out, nil
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

// divideSplit returns the paths of the split's files an outside engine
// may read and the files only lakesql's reader reads right; on a FileIO
// that is not local, that is every file.
func (t *Table) divideSplit(ctx context.Context, plan *Plan, s *Split, needed []spec.DataField, local bool) (direct []string, other []spec.DataFileMeta, err error) {
	b := &plan.Buckets[s.Bucket]
	merged := len(plan.Schema.PrimaryKeys) > 0 && !s.RawConvertible
	for i := range s.Files {
		f := &s.Files[i]
		ok := local && !merged
		if ok {
			if ok, err = t.readAsStored(ctx, plan, b, f, needed); err != nil {
				return nil, nil, err
			}
		}
		if ok {
			direct = append(direct, b.DataFilePath(f))
		} else {
			other = append(other, *f)
		}
	}
	return direct, other, nil
}

// readAsStored reports whether the reader returns a file's stored rows
// unchanged, the file being read without a merge.
func (t *Table) readAsStored(ctx context.Context, plan *Plan, b *BucketPlan, f *spec.DataFileMeta, needed []spec.DataField) (bool, error) {
	if format, err := dataFileFormat(f.FileName); err != nil || format != formatParquet {
		return false, nil
	}
	if _, dv := b.DeletionFiles[f.FileName]; dv {
		return false, nil
	}
	if len(plan.Schema.PrimaryKeys) > 0 && (f.DeleteRowCount == nil || *f.DeleteRowCount != 0) {
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
