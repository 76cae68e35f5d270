package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleRefuseSecondaryIndexes is the analyzer rule id of refuseSecondaryIndexes.
const ruleRefuseSecondaryIndexes analyzer.RuleId = 10_009

// refuseSecondaryIndexes refuses, before anything of the statement runs,
// DDL adding a secondary index (CREATE INDEX, ALTER TABLE … ADD INDEX or
// UNIQUE, an INDEX, KEY or UNIQUE clause of CREATE TABLE) or a CHECK
// constraint of CREATE TABLE: Paimon tables have neither. It cannot wait
// for Table.CreateIndex: GMS creates a table's indexes and checks after the
// table (rowexec buildCreateTable), so an error there fails the statement
// and leaves the table created.
func refuseSecondaryIndexes(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	var err error
	transform.Inspect(n, func(n sql.Node) bool {
		if err == nil {
			err = refusedDDL(n)
		}
		return err == nil
	})
	return n, transform.SameTree, err
}

func refusedDDL(n sql.Node) error {
	switch x := n.(type) {
	case *plan.CreateTable:
		for _, def := range x.Indexes() {
			if !def.IsPrimary() {
				return errSecondaryIndex(x.Name(), def.Name, def.ColumnNames())
			}
		}
		if len(x.Checks()) > 0 {
			return unsupportedf("CHECK constraints are not supported yet: Paimon tables have none (table %s)", x.Name())
		}
	case *plan.AlterIndex:
		if x.Action == plan.IndexAction_Create {
			columns := make([]string, len(x.Columns))
			for i, c := range x.Columns {
				columns[i] = c.Name
			}
			return errSecondaryIndex(x.Table.Name(), x.IndexName, columns)
		}
	}
	return nil
}

// errSecondaryIndex is MySQL's 1235 (ER_NOT_SUPPORTED_YET) for an index
// other than the primary key.
func errSecondaryIndex(table, name string, columns []string) error {
	index := fmt.Sprintf("(%s)", strings.Join(columns, ", "))
	if name != "" {
		index = name + " " + index
	}
	return unsupportedf("secondary indexes are not supported yet: Paimon tables have no index but the primary key (index %s on %s); queries prune by partition, bucket and file statistics", index, table)
}
