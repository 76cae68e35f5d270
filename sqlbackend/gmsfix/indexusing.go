package gmsfix

import (
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// indexTypeFirst moves an index type given after the key parts (`ADD
// INDEX i (c) USING HASH`, `CREATE INDEX i ON t (c) USING BITMAP`) to
// before them, where MySQL equally accepts it: GMS v0.20.0 reads only
// the one before (IndexSpec.Using) and silently drops the other, so a
// backend would create an index of a type the statement did not ask for.
func indexTypeFirst(stmt ast.Statement) {
	alter, ok := stmt.(*ast.AlterTable)
	if !ok {
		return
	}
	for _, ddl := range alter.Statements {
		spec := ddl.IndexSpec
		if spec == nil || !spec.Using.IsEmpty() {
			continue
		}
		for _, o := range spec.Options {
			if o.Using != "" {
				spec.Using = ast.NewColIdent(o.Using)
			}
		}
	}
}
