package rewrite

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// parseAll parses every statement of text with the parser go-mysql-server
// v0.20.0 uses, the way its handler walks a multi-statement text.
func parseAll(text string) ([]sqlparser.Statement, error) {
	var stmts []sqlparser.Statement
	for rest := text; ; {
		stmt, next, err := sqlparser.ParseOne(context.Background(), rest)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, stmt)
		if next <= 0 || next >= len(rest) {
			return stmts, nil
		}
		rest = rest[next:]
		if isOnlyComment(rest) {
			return stmts, nil
		}
	}
}

// isOnlyComment reports whether text holds no token.
func isOnlyComment(text string) bool {
	sc := newScanner(text)
	for t := sc.next(); t.kind != tokEnd; t = sc.next() {
		if t.kind != tokSemicolon {
			return false
		}
	}
	return true
}

func TestParseAllParsesEveryStatement(t *testing.T) {
	stmts, err := parseAll("SELECT 1; SELECT 2 ; -- done")
	if err != nil || len(stmts) != 2 {
		t.Errorf("parseAll = %d statements, %v; want 2, nil", len(stmts), err)
	}
	if _, err := parseAll("SELECT 1; SELECT * FROM t FOR TIME AS OF '2026-04-16'"); err == nil {
		t.Error("parseAll accepted a bad second statement")
	}
}

// TestRewrittenTimeTravelParses checks every rewritten spelling with the
// real parser, and that the spellings rewritten are ones it rejects.
func TestRewrittenTimeTravelParses(t *testing.T) {
	for _, tc := range timeTravelCases {
		t.Run(tc.name, func(t *testing.T) {
			stmts, err := parseAll(tc.want)
			if err != nil {
				t.Fatalf("parse %q: %v", tc.want, err)
			}
			if prep, ok := stmts[0].(*sqlparser.Prepare); ok {
				if _, err := parseAll(prep.Expr); err != nil {
					t.Fatalf("parse prepared text %q: %v", prep.Expr, err)
				}
			}
			// The parser accepts FOR … BETWEEN, which go-mysql-server
			// then refuses ("invalid AS OF expression type").
			incremental := strings.Contains(strings.ToUpper(tc.in), " BETWEEN ") && strings.Contains(tc.want, betweenMarker)
			if tc.in != tc.want && !strings.HasPrefix(tc.in, "PREPARE") && !incremental {
				if _, err := parseAll(tc.in); err == nil {
					t.Errorf("the parser accepts %q as written; the rewrite is not needed", tc.in)
				}
			}
		})
	}
}

func TestRewrittenInsertOverwriteParses(t *testing.T) {
	for _, tc := range overwriteCases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseAll(tc.in); err == nil {
				t.Errorf("the parser accepts %q as written", tc.in)
			}
			stmts, err := parseAll(tc.query)
			if err != nil {
				t.Fatalf("parse %q: %v", tc.query, err)
			}
			ins, ok := stmts[0].(*sqlparser.Insert)
			if !ok {
				t.Fatalf("parsed %q as %T, want *sqlparser.Insert", tc.query, stmts[0])
			}
			if got := ins.Table.Name.String(); got != tc.want.Table {
				t.Errorf("parsed table %q, want %q", got, tc.want.Table)
			}
			if len(ins.Partitions) != 0 {
				t.Errorf("parsed partitions %v, want none", ins.Partitions)
			}
		})
	}
}

// TestRewrittenAsOfBindsToTheRightTable parses rewritten texts and lists
// each table reference with its AS OF value as the parser sees them.
func TestRewrittenAsOfBindsToTheRightTable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"SELECT * FROM orders FOR TIMESTAMP AS OF '2026-04-16' o JOIN payments VERSION AS OF 3 p ON o.id = p.order_id",
			[]string{"orders as of '2026-04-16' as o", "payments as of 3 as p"}},
		{"SELECT x.a FROM t FOR TIME AS OF '2026-04-16 10:00:00' AS x",
			[]string{"t as of '2026-04-16 10:00:00' as x"}},
		{"SELECT * FROM (SELECT * FROM t TIMESTAMP AS OF '2026-04-16') s WHERE s.a IN (SELECT a FROM u FOR TIME AS OF '2026-04-15')",
			[]string{"t as of '2026-04-16'", "u as of '2026-04-15'"}},
		{"SELECT 'FOR TIME AS OF 1' FROM t FOR TIMESTAMP AS OF TIMESTAMP '2026-04-16 10:00:00'",
			[]string{"t as of '2026-04-16 10:00:00'"}},
	} {
		got, err := Rewrite(tc.in)
		if err != nil {
			t.Fatalf("Rewrite(%q): %v", tc.in, err)
		}
		stmt, err := sqlparser.Parse(got.Query)
		if err != nil {
			t.Fatalf("parse %q: %v", got.Query, err)
		}
		if tables := asOfTables(stmt); !reflect.DeepEqual(tables, tc.want) {
			t.Errorf("%q: tables %q, want %q", got.Query, tables, tc.want)
		}
	}
}

func asOfTables(stmt sqlparser.Statement) []string {
	var tables []string
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if t, ok := node.(*sqlparser.AliasedTableExpr); ok && t.AsOf != nil {
			tables = append(tables, sqlparser.String(t))
		}
		return true, nil
	}, stmt)
	return tables
}

// TestRejectedPartitionSyntaxParses pins why the partition rules exist:
// the parser accepts these statements (so GMS would run them with the
// partition list ignored) or, for Hive's spelling, rejects them with a
// message that says nothing useful.
func TestRejectedPartitionSyntaxParses(t *testing.T) {
	for _, tc := range errorCases {
		if !strings.Contains(strings.ToUpper(tc.in), "PARTITION") {
			continue
		}
		_, parseErr := parseAll(tc.in)
		hive := strings.Contains(tc.in, "dt='")
		if (parseErr == nil) == hive {
			t.Errorf("parse %q: err = %v; want it to parse unless it is Hive syntax", tc.in, parseErr)
		}
		var e *Error
		if _, err := Rewrite(tc.in); !errors.As(err, &e) {
			t.Errorf("Rewrite(%q) = %v, want an *Error", tc.in, err)
		}
	}
}
