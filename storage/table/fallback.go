package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// optionFallbackBranch names a branch that supplies the partitions the
// branch being read lacks (CoreOptions scan.fallback-branch).
const optionFallbackBranch = "scan.fallback-branch"

// FallbackRead is the part of a read served by the fallback branch.
// Mirrors org.apache.paimon.table.FallbackReadFileStoreTable: the partitions
// of the main plan win; the fallback branch contributes only partitions the
// main plan has none of, read with the same time travel.
type FallbackRead struct {
	Branch string
	Table  *Table
	Plan   *Plan
}

// resolveFallback attaches the fallback branch's part of the read, if the
// table names one. Like Java, which wraps the table when it is loaded, the
// latest schema decides, even when an older snapshot is read. The
// fallback part is planned with the filter when it fits the branch's
// schema; its rows are filtered again once mapped to the main schema.
func (t *Table) resolveFallback(ctx context.Context, plan *Plan, tt snapshot.TimeTravel, filter predicate.Predicate) error {
	latest, err := t.schemas.Latest(ctx)
	if err != nil {
		return err
	}
	branch, ok := latest.CoreOptions().Get(optionFallbackBranch)
	if !ok || branch == "" || branch == t.branch {
		return nil
	}
	fb, err := t.fallbackBranch(ctx, branch)
	if err != nil {
		return fmt.Errorf("fallback branch %s: %w", branch, err)
	}
	fbPlan, err := fb.PlanScan(ctx, tt, filter)
	if errors.Is(err, scan.ErrFilterSchema) {
		fbPlan, err = fb.PlanScan(ctx, tt, nil)
	}
	if err != nil {
		return fmt.Errorf("fallback branch %s: %w", branch, err)
	}
	covered := coveredPartitions(plan.Scan)
	kept := fbPlan.Splits[:0]
	for _, s := range fbPlan.Splits {
		if !covered[string(fbPlan.Buckets[s.Bucket].Partition)] {
			kept = append(kept, s)
		}
	}
	fbPlan.Splits = kept
	plan.Fallback = &FallbackRead{Branch: branch, Table: fb, Plan: fbPlan}
	return nil
}

// coveredPartitions are the partitions the main branch serves: those with
// visible files whose partition matches the filter, even where the filter
// pruned the files themselves.
func coveredPartitions(sp *scan.Plan) map[string]bool {
	covered := map[string]bool{}
	for _, f := range sp.Explain.Files {
		switch f.Reason {
		case scan.PrunedByPartition, scan.InvisibleLevel0, scan.PostponeBucket:
		default:
			covered[f.PartitionKey] = true
		}
	}
	return covered
}

// fallbackMapping converts rows of the fallback branch's schema to the main
// read schema. Branches start as copies of the main table, so their columns
// share field ids.
func fallbackMapping(fb *FallbackRead, main *Plan) (*schema.RowMapping, error) {
	m, err := schema.NewRowMapping(fb.Plan.Schema.Fields, main.Schema.Fields, schema.Options{})
	if err != nil {
		return nil, fmt.Errorf("fallback branch %s: %w", fb.Branch, err)
	}
	return m, nil
}

// fallbackBranch returns the named branch, opening it on first use.
func (t *Table) fallbackBranch(ctx context.Context, branch string) (*Table, error) {
	if fb, ok := t.branches.Load(branch); ok {
		return fb.(*Table), nil
	}
	fb, err := OpenBranch(ctx, t.io, t.dir, branch)
	if err != nil {
		return nil, err
	}
	fb.pages = t.pages
	actual, _ := t.branches.LoadOrStore(branch, fb)
	return actual.(*Table), nil
}
