package duckplan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/internal/testkit/gmsplan"
)

// TestTranslate runs the statements of testdata/ through GMS's analyzer
// over memory tables and shows what Translate and Replace make of the
// plans. Commands:
//
//	exec: run the statements (one per line) that set the tables up;
//	translate: Translate the whole plan of the query: its SQL and leaves,
//	  or the refusal;
//	replace: Replace over the plan: its decisions, and the SQL of each
//	  replaced subtree.
//
// Rewrite the expected outputs with go test -rewrite.
func TestTranslate(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := gmsplan.New(t)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "exec":
				for _, s := range strings.Split(strings.TrimSpace(d.Input), "\n") {
					h.Exec(t, s)
				}
				return ""
			case "translate":
				return translateOutput(t, h, d.Input)
			case "replace":
				return replaceOutput(t, h, d.Input)
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

func planOf(t *testing.T, h *gmsplan.Harness, query string) sql.Node {
	t.Helper()
	n, err := h.Plan(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func translateOutput(t *testing.T, h *gmsplan.Harness, query string) string {
	q, leaves, err := Translate(planOf(t, h, query), gmsplan.IsTableRead)
	if err != nil {
		return "refused: " + err.Error() + "\n"
	}
	if !q.Schema.Equals(planOf(t, h, query).Schema()) {
		t.Errorf("%s: the query's schema is not the plan's", query)
	}
	return q.SQL + "\n" + describeLeaves(leaves)
}

func describeLeaves(leaves []sql.Node) string {
	var b strings.Builder
	for i, l := range leaves {
		fmt.Fprintf(&b, "t%d: %s%s\n", i, nodeName(l), columnNames(l.Schema()))
	}
	return b.String()
}

func columnNames(s sql.Schema) []string {
	names := make([]string, len(s))
	for i, c := range s {
		names[i] = c.Source + "." + c.Name
	}
	return names
}

// duckNode stands for the executor's node in Replace's output.
type duckNode struct {
	sql.Node
	q *Query
}

func replaceOutput(t *testing.T, h *gmsplan.Harness, query string) string {
	var built []*Query
	build := func(q *Query, leaves []sql.Node, original sql.Node) sql.Node {
		if len(leaves) == 0 {
			t.Errorf("%s: a subtree without leaves was replaced", query)
		}
		built = append(built, q)
		return &duckNode{Node: original, q: q}
	}
	_, decisions := Replace(planOf(t, h, query), gmsplan.IsTableRead, build)
	var b strings.Builder
	for _, d := range decisions {
		fmt.Fprintf(&b, "%s %s", d.Engine, nodeName(d.Node))
		if d.Reason != "" {
			fmt.Fprintf(&b, ": %s", d.Reason)
		}
		b.WriteString("\n")
	}
	for _, q := range built {
		b.WriteString(q.SQL + "\n")
	}
	return b.String()
}
