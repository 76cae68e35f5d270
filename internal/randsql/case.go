package randsql

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Case is everything one seed runs: 2 to 4 tables, their data changes,
// and 20 to 50 queries.
type Case struct {
	Seed    uint64
	Tables  []*Table
	Writes  []*Stmt
	Queries []*Query
}

// Generate draws the case of a seed. The same seed gives the same case:
// everything is drawn up front from a PCG seeded with it, never from what
// the engines answer.
func Generate(seed uint64) *Case {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	c := &Case{Seed: seed}
	wg := &writeGen{r: r}
	for i := range 2 + r.IntN(3) {
		t := genTable(r, fmt.Sprintf("t%d", i+1))
		c.Tables = append(c.Tables, t)
		wg.tables = append(wg.tables, &tableState{Table: t, usedIDs: map[string]bool{}})
	}
	c.Writes = wg.stmts()
	qg := &queryGen{r: r, tables: c.Tables}
	for range 20 + r.IntN(31) {
		c.Queries = append(c.Queries, qg.query())
	}
	return c
}

// Line is one set-up statement of a program, for one engine or both.
type Line struct {
	SQL     string
	LakeSQL bool // run on lakesql
	MariaDB bool // run on MariaDB
}

// Check is a statement whose answers the engines must agree on: a full
// ordered dump of a table (checked after the set-up, before any query),
// or a query.
type Check struct {
	Label string
	SQL   string
	Plan  Plan
	Dump  bool
	Query int // the index of the query in its case; -1 for others
}

// Program is what the runner executes: a case lowered to SQL text, or a
// regression script parsed back.
type Program struct {
	Setup  []Line
	Checks []Check
}

// Program lowers the case: each table's DDL for each engine, the data
// changes (compactions on lakesql only), a dump of each table, then the
// queries.
func (c *Case) Program() *Program {
	p := &Program{}
	for _, t := range c.Tables {
		p.Setup = append(p.Setup,
			Line{SQL: t.CreateTable(LakeSQL), LakeSQL: true},
			Line{SQL: t.CreateTable(MariaDB), MariaDB: true})
	}
	for _, s := range c.Writes {
		p.Setup = append(p.Setup, Line{SQL: s.SQL(), LakeSQL: true, MariaDB: !s.LakeSQLOnly})
	}
	for _, t := range c.Tables {
		p.Checks = append(p.Checks, dumpCheck(t))
	}
	for i, q := range c.Queries {
		p.Checks = append(p.Checks, queryCheck(i, q))
	}
	return p
}

func queryCheck(i int, q *Query) Check {
	return Check{Label: fmt.Sprintf("query %d", i), SQL: q.SQL(), Plan: q.Plan(), Query: i}
}

// dumpCheck selects every row of t ordered by every column.
func dumpCheck(t *Table) Check {
	names := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		names[i] = col.Name
	}
	list := strings.Join(names, ", ")
	return Check{
		Label: "dump " + t.Name,
		SQL:   fmt.Sprintf("SELECT %s FROM %s ORDER BY %s", list, t.Name, list),
		Plan:  Plan{SortKeys: allColumns(len(names))},
		Dump:  true,
		Query: -1,
	}
}
