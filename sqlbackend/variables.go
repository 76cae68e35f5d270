package sqlbackend

import (
	"math"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// Session variables that set the identity and watermark of the session's
// commits.
const (
	// VarCommitUser names the commit user; "" gives each session its own.
	VarCommitUser = "lakesql_commit_user"
	// VarCommitIdentifier, when positive, is the identifier of the next
	// commit. Re-running a statement with an already-committed (user,
	// identifier) writes nothing: that is how batch corrections are made
	// idempotent.
	VarCommitIdentifier = "lakesql_commit_identifier"
	// VarCommitWatermark, when set, advances the table watermark with the
	// next commit (epoch milliseconds).
	VarCommitWatermark = "lakesql_commit_watermark"
	// VarConflictCheck says which autocommit writes fail on a primary key
	// a concurrent commit wrote: 'derived' (the default), those whose rows
	// derive from rows they read; 'all', blind upserts (INSERT, REPLACE)
	// too. Writes in explicit transactions are always checked.
	VarConflictCheck = "lakesql_conflict_check"
	// VarPlannerRewrites, ON by default, turns lakesql's planner rewrites
	// on or off for reads: filter pushdown into scans, the PRIMARY index
	// and so lookup joins, aggregates answered from manifests and COUNT(*)
	// from row counts; and for INSERT … VALUES of exact literals, written
	// straight into the table writer (literalinsert.go). OFF leaves plain
	// go-mysql-server plans over full scans and GMS's INSERT, which the
	// differential tests compare the rewritten ones with. A
	// DELETE on an append table needs its pushed partition filter, so it
	// fails with rewrites OFF.
	VarPlannerRewrites = "lakesql_planner_rewrites"
	// VarExecutor says where reads run: 'duckdb' (the default) hands the
	// reads duckplan translates exactly to the vectorized executor, 'gms'
	// runs everything on go-mysql-server. A server built without the
	// executor runs everything on go-mysql-server whatever it says.
	VarExecutor = "lakesql_executor"
	// VarExecutorMinRows is how many rows the tables a read would hand
	// to the vectorized executor must hold together for it to: DuckDB's
	// fixed cost per statement (a connection, the relations, its plan)
	// exceeds what go-mysql-server spends on a few thousand rows. 0 hands
	// over every read it translates, as the differential tests do.
	VarExecutorMinRows = "lakesql_executor_min_rows"
)

// defaultExecutorMinRows is VarExecutorMinRows' default.
const defaultExecutorMinRows = 10_000

// Values of VarConflictCheck.
const (
	ConflictCheckDerived = "derived"
	ConflictCheckAll     = "all"
)

var registerOnce sync.Once

// registerGlobals adds lakesql's session variables and analyzer rule to
// GMS's process-wide registries, once, before any session exists.
func registerGlobals() {
	registerOnce.Do(func() {
		analyzer.AlwaysBeforeDefault = append(analyzer.AlwaysBeforeDefault,
			analyzer.Rule{Id: ruleDetectDuplicates, Apply: markReadModifyWrite},
			analyzer.Rule{Id: ruleWritesReadAllLevels, Apply: readAllLevelsToWrite},
			analyzer.Rule{Id: ruleShowCreateTable, Apply: replaceShowCreateTable},
			analyzer.Rule{Id: ruleQualifiedTruncate, Apply: truncateQualifiedDelete})
		session := sql.GetMysqlScope(sql.SystemVariableScope_Session)
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
			&sql.MysqlSystemVariable{Name: VarCommitUser, Scope: session, Dynamic: true,
				Type: types.NewSystemStringType(VarCommitUser), Default: ""},
			&sql.MysqlSystemVariable{Name: VarCommitIdentifier, Scope: session, Dynamic: true,
				Type: types.NewSystemIntType(VarCommitIdentifier, 0, math.MaxInt64, false), Default: int64(0)},
			&sql.MysqlSystemVariable{Name: VarCommitWatermark, Scope: session, Dynamic: true,
				Type: types.NewSystemIntType(VarCommitWatermark, -1, math.MaxInt64, true), Default: int64(-1)},
			&sql.MysqlSystemVariable{Name: VarConflictCheck, Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both), Dynamic: true,
				Type:    types.NewSystemEnumType(VarConflictCheck, ConflictCheckDerived, ConflictCheckAll),
				Default: ConflictCheckDerived},
			&sql.MysqlSystemVariable{Name: VarPlannerRewrites, Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both), Dynamic: true,
				Type: types.NewSystemBoolType(VarPlannerRewrites), Default: int8(1)},
			&sql.MysqlSystemVariable{Name: VarExecutor, Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both), Dynamic: true,
				Type: types.NewSystemEnumType(VarExecutor, EngineDuckDB, EngineGMS), Default: EngineDuckDB},
			&sql.MysqlSystemVariable{Name: VarExecutorMinRows, Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both), Dynamic: true,
				Type: types.NewSystemIntType(VarExecutorMinRows, 0, math.MaxInt64, false), Default: int64(defaultExecutorMinRows)},
		})
	})
}

func commitWatermark(ctx *sql.Context) *int64 {
	w, ok := intVar(ctx, VarCommitWatermark)
	if !ok || w < 0 {
		return nil
	}
	return &w
}

func stringVar(ctx *sql.Context, name string) (string, bool) {
	v, err := ctx.GetSessionVariable(ctx, name)
	s, ok := v.(string)
	return s, err == nil && ok
}

func intVar(ctx *sql.Context, name string) (int64, bool) {
	v, err := ctx.GetSessionVariable(ctx, name)
	if err != nil {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int8:
		return int64(n), true
	}
	return 0, false
}

// conflictCheckAll reports whether lakesql_conflict_check is 'all'.
func conflictCheckAll(ctx *sql.Context) bool {
	v, _ := stringVar(ctx, VarConflictCheck)
	return strings.EqualFold(v, ConflictCheckAll)
}

// rewritesOn reports whether lakesql_planner_rewrites is ON; a context
// without the variable, as in tests building plans directly, has them on.
func rewritesOn(ctx *sql.Context) bool {
	n, ok := intVar(ctx, VarPlannerRewrites)
	return !ok || n != 0
}
