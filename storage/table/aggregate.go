package table

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// AggFunc is an aggregate function Aggregate computes.
type AggFunc uint8

const (
	// AggCountStar is COUNT(*): the number of rows.
	AggCountStar AggFunc = iota + 1
	// AggCount is COUNT(column): the number of non-null values.
	AggCount
	// AggSum is SUM(column) of a numeric column.
	AggSum
	// AggMin and AggMax are MIN(column) and MAX(column), in the order of
	// spec.CompareValues.
	AggMin
	AggMax
)

func (f AggFunc) String() string {
	switch f {
	case AggCountStar, AggCount:
		return "COUNT"
	case AggSum:
		return "SUM"
	case AggMin:
		return "MIN"
	case AggMax:
		return "MAX"
	}
	return fmt.Sprintf("AggFunc(%d)", uint8(f))
}

// AggSpec is one aggregate of the read rows: a function and the column of
// the read schema it reads ("" for COUNT(*)).
type AggSpec struct {
	Func   AggFunc
	Column string
}

// AggResult is the value of one aggregate, in the spec Go type of Type;
// nil is SQL NULL (SUM, MIN, MAX of no non-null value).
//
// Types follow MySQL: COUNT is a BIGINT; SUM of TINYINT..BIGINT is an
// exact DECIMAL(min(38, digits+22), 0) and SUM of DECIMAL(p, s) is
// DECIMAL(min(38, p+22), s), a sum beyond 38 digits being an error; SUM of
// FLOAT and DOUBLE is a DOUBLE; MIN and MAX have the column's type.
type AggResult struct {
	Type  spec.DataType
	Value any
}

// Aggregate computes aggregates over the rows a Read with opts would
// return (opts.Columns, Limit and Unordered do not apply). It answers
// from file metadata when scan.Plan.CountRows and Extremes can; otherwise
// splits read without merging are decoded into vectors, filtered and
// summed without boxing a value, as are the files of splits that need a
// merge whose engine keeps stored records whole, less the rows a merge
// over their keys deletes (see ExternalRead); other merged splits (and
// files whose columns do not vectorize) go through the row reader.
// Splits are read in parallel by opts.Parallelism workers.
func (t *Table) Aggregate(ctx context.Context, opts ReadOptions, specs []AggSpec) ([]AggResult, error) {
	plan, err := t.PlanScan(ctx, opts.At, opts.Filter)
	if err != nil {
		return nil, err
	}
	if err := t.resolveFallback(ctx, plan, opts.At, opts.Filter); err != nil {
		return nil, err
	}
	return t.AggregatePlan(ctx, plan, opts.Parallelism, specs)
}

// AggregatePlan computes aggregates over the rows of a plan, reading
// parallelism splits at once (0: GOMAXPROCS).
func (t *Table) AggregatePlan(ctx context.Context, plan *Plan, parallelism int, specs []AggSpec) ([]AggResult, error) {
	aggs, err := resolveAggregates(plan.Schema, specs)
	if err != nil {
		return nil, err
	}
	if results, ok, err := fromMetadata(plan, aggs); ok || err != nil {
		return results, err
	}
	tasks, err := t.tasks(plan, aggColumns(aggs), nil, ReadOptions{})
	if err != nil {
		return nil, err
	}
	keys, err := newKeyReader(t, plan)
	if err != nil {
		return nil, err
	}
	for i := range plan.Splits {
		tasks[i].keys = keys
	}
	if parallelism <= 0 {
		parallelism = runtime.GOMAXPROCS(0)
	}
	accs, err := runAggregates(ctx, tasks, aggs, min(parallelism, max(len(tasks), 1)))
	if err != nil {
		return nil, err
	}
	results := make([]AggResult, len(aggs))
	for i := range aggs {
		if results[i], err = accs[i].result(&aggs[i]); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// aggregate is an AggSpec resolved against the read schema.
type aggregate struct {
	fn     AggFunc
	column int // -1 for COUNT(*)
	typ    spec.DataType
	result spec.DataType
}

// maxDecimalPrecision is the widest DECIMAL a SUM returns.
const maxDecimalPrecision = 38

// sumDigits are the decimal digits of the integer types, which MySQL
// widens by 22 for a SUM.
var sumDigits = map[spec.TypeRoot]int{spec.TinyInt: 3, spec.SmallInt: 5, spec.Int: 10, spec.BigInt: 19}

func resolveAggregates(s *spec.TableSchema, specs []AggSpec) ([]aggregate, error) {
	out := make([]aggregate, len(specs))
	for i, sp := range specs {
		a := aggregate{fn: sp.Func, column: -1}
		if sp.Func == AggCountStar {
			a.result = spec.DataType{Root: spec.BigInt}
			out[i] = a
			continue
		}
		if a.column = s.FieldIndex(sp.Column); a.column < 0 {
			return nil, fmt.Errorf("%s: unknown column %q", sp.Func, sp.Column)
		}
		a.typ = s.Fields[a.column].Type
		var err error
		if a.result, err = resultType(sp.Func, a.typ); err != nil {
			return nil, fmt.Errorf("%s(%s): %w", sp.Func, sp.Column, err)
		}
		out[i] = a
	}
	return out, nil
}

func resultType(fn AggFunc, t spec.DataType) (spec.DataType, error) {
	switch fn {
	case AggCount:
		return spec.DataType{Root: spec.BigInt}, nil
	case AggMin, AggMax:
		switch t.Root {
		case spec.Array, spec.Map, spec.Multiset, spec.Row, spec.Variant, spec.Blob:
			return spec.DataType{}, fmt.Errorf("%w: MIN/MAX of %s", lakeerr.ErrUnsupported, t)
		}
		return t.WithNullable(true), nil
	case AggSum:
		if digits, ok := sumDigits[t.Root]; ok {
			return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: min(maxDecimalPrecision, digits+22)}, nil
		}
		switch t.Root {
		case spec.Decimal:
			return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: min(maxDecimalPrecision, t.Precision+22), Scale: t.Scale}, nil
		case spec.Float, spec.Double:
			return spec.DataType{Root: spec.Double, Nullable: true}, nil
		}
		return spec.DataType{}, fmt.Errorf("%w: SUM of %s", lakeerr.ErrUnsupported, t)
	}
	return spec.DataType{}, fmt.Errorf("%w: aggregate function %d", lakeerr.ErrUnsupported, fn)
}

// aggColumns are the read columns the aggregates read; never nil, since
// nil would mean every column.
func aggColumns(aggs []aggregate) []int {
	out := []int{}
	for _, a := range aggs {
		if a.column >= 0 {
			out = append(out, a.column)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// MetadataMayAnswer reports whether file metadata may answer specs over
// the rows of schema s that filter selects, as AggregatePlan tries first:
// every aggregate is COUNT(*), MIN or MAX and the filter is decided by
// partition values. When it is false, the rows are read whatever the
// snapshot's files. A filter that does not fit s cannot be answered.
func MetadataMayAnswer(s *spec.TableSchema, filter predicate.Predicate, specs []AggSpec) bool {
	for _, sp := range specs {
		if sp.Func != AggCountStar && sp.Func != AggMin && sp.Func != AggMax {
			return false
		}
	}
	f, err := scan.CompileFilter(s, filter)
	return err == nil && scan.IsTrue(f.Residual)
}

// fromMetadata answers COUNT(*), MIN and MAX from the plan's file
// statistics when every aggregate is one of them and the plan can answer
// exactly; ok is false when the rows must be read.
func fromMetadata(plan *Plan, aggs []aggregate) (results []AggResult, ok bool, err error) {
	if plan.Fallback != nil {
		return nil, false, nil
	}
	results = make([]AggResult, len(aggs))
	for i, a := range aggs {
		results[i].Type = a.result
		switch a.fn {
		case AggCountStar:
			results[i].Value, err = plan.Scan.CountRows()
		case AggMin, AggMax:
			lo, hi, extErr := plan.Scan.Extremes(plan.Schema.Fields[a.column].Name)
			results[i].Value, err = lo, extErr
			if a.fn == AggMax {
				results[i].Value = hi
			}
		default:
			return nil, false, nil
		}
		if errors.Is(err, scan.ErrCannotAnswer) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return results, true, nil
}

// runAggregates reads the tasks with a bounded pool of workers, each
// aggregating into its own accumulators, and merges them. The first error
// cancels the other workers.
func runAggregates(ctx context.Context, tasks []task, aggs []aggregate, workers int) ([]accumulator, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	partial := make([][]accumulator, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			a := newSplitAggregator(aggs)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					break
				}
				if err := a.runRecovered(ctx, &tasks[i]); err != nil {
					errs[w] = tasks[i].vanishedFileError(ctx, err)
					cancel()
					return
				}
			}
			partial[w] = a.accs
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	total := make([]accumulator, len(aggs))
	for _, accs := range partial {
		for i := range total {
			total[i].merge(&aggs[i], &accs[i])
		}
	}
	return total, nil
}

// rowsOf aggregates the rows of a split read by the row reader: merged
// splits, fallback splits and files whose columns do not vectorize.
func (a *splitAggregator) rowsOf(ctx context.Context, t *task, src rowSource) (err error) {
	defer func() { err = errors.Join(err, src.Close()) }()
	for n := 1; ; n++ {
		if n%cancelCheckRows == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		row, err := src.Next()
		if err != nil {
			return ignoreEOF(err)
		}
		row, keep, err := t.output(row)
		if err != nil {
			return err
		}
		if keep {
			a.addRow(row)
		}
	}
}

func (a *splitAggregator) addRow(row []any) {
	for i := range a.aggs {
		a.accs[i].addRow(&a.aggs[i], row)
	}
}

// runRecovered aggregates one split, turning a panic into its error (see
// recoverSplit).
func (a *splitAggregator) runRecovered(ctx context.Context, t *task) (err error) {
	defer recoverSplit(t, &err)
	return a.run(ctx, t)
}
