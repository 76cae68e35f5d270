package gmsfix

import (
	"testing"

	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// assignRoutines is skipped for a plan without a routine table, and runs
// for one that reads information_schema.ROUTINES, however deep.
func TestReadsRoutineTable(t *testing.T) {
	ctx := sql.NewEmptyContext()
	is := information_schema.NewInformationSchemaDatabase()
	routines, ok, err := is.GetTableInsensitive(ctx, "routines")
	if err != nil || !ok {
		t.Fatalf("information_schema.routines: %v, %v", ok, err)
	}
	db := memory.NewDatabase("d")
	plain := memory.NewTable(db, "t", sql.PrimaryKeySchema{}, nil)
	read := func(t sql.Table) sql.Node { return plan.NewResolvedTable(t, db, nil) }
	joined := plan.NewCrossJoin(read(plain), plan.NewSubqueryAlias("r", "", read(routines)))
	for _, c := range []struct {
		node sql.Node
		want bool
	}{
		{read(plain), false},
		{plan.NewCrossJoin(read(plain), read(plain)), false},
		{read(routines), true},
		{joined, true},
	} {
		if got := readsRoutineTable(c.node); got != c.want {
			t.Errorf("readsRoutineTable(%s) = %v, want %v", c.node, got, c.want)
		}
	}
}
