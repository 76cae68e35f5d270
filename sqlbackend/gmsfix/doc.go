// Package gmsfix corrects go-mysql-server (GMS) v0.20.0 where it departs
// from MySQL or plans badly, for any backend: it reads no lakesql table,
// pin or session, only GMS's statements, plans and expressions. Each file
// holds one correction and says, with the GMS source it works around,
// what GMS did, what MySQL does and why the fix is where it is.
//
// The corrections hook into GMS at four points, and the engine
// (sqlbackend.NewEngine) installs them:
//
//   - after parsing, before binding (Parser): statements the plan builder
//     mis-binds are rewritten as ASTs, namely EXISTS in single-table
//     UPDATE and DELETE, HAVING aggregates of a column another table has
//     too, named windows and windows beside grouping, GROUP_CONCAT of
//     several expressions, and decimal literals compared with a column;
//   - in the analyzer: MySQL's result types and exact arithmetic (SUM,
//     AVG, /, COALESCE and CASE, set operations, numeric comparisons,
//     derived tables' columns; RegisterTypeRules and the type rule
//     variables), the subqueries GMS unnests or evaluates wrongly
//     (InsertSubqueryRules), join conditions its join reordering loses,
//     hash joins and DISTINCTs, and EXPLAIN of one-row queries. The
//     engine places the rules it lists itself (the variables of rules.go)
//     among its own, in one order;
//   - in join costing (RebuildCoster): the rebuilds of nested-loop joins;
//   - in execution (ExecBuilder): window functions over no rows, their
//     default frames and their peers, and RANGE frames.
//
// Two corrections are there for speed and follow lakesql's planner
// rewrites switch (ConnectCrossJoins, RebuildCoster); the others change
// results, so they always apply.
//
// Most tests of these corrections need the whole engine over real tables
// and are sqlbackend's, in files named after the ones here.
package gmsfix
