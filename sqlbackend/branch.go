package sqlbackend

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/table"
)

// branchPrefix starts the system-table kind that names a branch: Paimon's
// Identifier reads `t$branch_<name>` as branch <name> of t, whose schemas,
// snapshots and tags live in branch/branch-<name>/ of the table
// (BranchManager) while data files and manifests are shared.
const branchPrefix = "branch_"

// branchTable serves `stored$branch_<branch>`: the branch's rows, pinned
// like a table's (its latest snapshot in the statement or transaction, or
// AS OF one of its snapshots or tags). lakesql reads branches Java made;
// it does not write them (Table.readOnly).
func (d *Database) branchTable(ctx *sql.Context, stored, branch string, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	dir, err := d.backend.catalog.TablePath(d.name, stored)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	t, err := table.OpenBranch(ctx, d.backend.FileIO(), dir, branch)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, false, mysql.NewSQLError(mysql.ERNoSuchTable, "42S02",
			"table '%s.%s$%s%s' doesn't exist: %s has no branch %q", d.name, stored, branchPrefix, branch, stored, branch)
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	name := stored + "$" + branchPrefix + branch
	pin, err := pinFor(ctx, d.name, name, t, asOf)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	tbl, err := newTable(ctx, d, name, t, pin, asOf != nil)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	tbl.branch = branch
	return tbl, true, nil
}

// readOnly refuses to let a table read AS OF a snapshot, or a branch, be
// changed (done is "written" or "altered").
func (t *Table) readOnly(done string) error {
	switch {
	case t.branch != "":
		return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"unsupported: Paimon branch %q (%s.%s) cannot be %s: lakesql reads branches and writes the main branch only", t.branch, t.db.name, t.name, done)
	case t.timeTravel:
		return fmt.Errorf("%s.%s: a table read AS OF a snapshot cannot be %s", t.db.name, t.name, done)
	}
	return nil
}
