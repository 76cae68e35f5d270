package table

import (
	"context"
	"fmt"

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
// latest schema decides, even when an older snapshot is read.
func (t *Table) resolveFallback(ctx context.Context, plan *Plan, tt snapshot.TimeTravel) error {
	latest, err := t.schemas.Latest(ctx)
	if err != nil {
		return err
	}
	branch, ok := latest.CoreOptions().Get(optionFallbackBranch)
	if !ok || branch == "" || branch == t.branch {
		return nil
	}
	fb, err := OpenBranch(ctx, t.io, t.dir, branch)
	if err != nil {
		return fmt.Errorf("fallback branch %s: %w", branch, err)
	}
	fbPlan, err := fb.PlanRead(ctx, tt)
	if err != nil {
		return fmt.Errorf("fallback branch %s: %w", branch, err)
	}
	covered := map[string]bool{}
	for _, b := range plan.Buckets {
		covered[string(b.Partition)] = true
	}
	kept := fbPlan.Buckets[:0]
	for _, b := range fbPlan.Buckets {
		if !covered[string(b.Partition)] {
			kept = append(kept, b)
		}
	}
	fbPlan.Buckets = kept
	plan.Fallback = &FallbackRead{Branch: branch, Table: fb, Plan: fbPlan}
	return nil
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
