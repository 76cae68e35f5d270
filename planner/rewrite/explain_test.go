package rewrite

import "testing"

func TestIsExplain(t *testing.T) {
	for query, want := range map[string]bool{
		"EXPLAIN PLAN SELECT COUNT(*) FROM t":     true,
		"  explain format=tree select 1":          true,
		"/* bi tool */ DESCRIBE SELECT 1":         true,
		"-- note\ndesc plan select max(a) from t": true,
		"SELECT 'EXPLAIN'":                        false,
		"/* EXPLAIN */ SELECT COUNT(*) FROM t":    false,
		"`explain`":                               false,
		"":                                        false,
		"EXPLAINED":                               false,
	} {
		if got := IsExplain(query); got != want {
			t.Errorf("IsExplain(%q) = %v, want %v", query, got, want)
		}
	}
}

func TestIsExplainAnalyze(t *testing.T) {
	for query, want := range map[string]bool{
		"EXPLAIN ANALYZE SELECT 1":         true,
		"/* c */ explain analyze select 1": true,
		"EXPLAIN PLAN SELECT 1":            false,
		"SELECT 'EXPLAIN ANALYZE'":         false,
		"ANALYZE TABLE t":                  false,
	} {
		if got := IsExplainAnalyze(query); got != want {
			t.Errorf("IsExplainAnalyze(%q) = %v, want %v", query, got, want)
		}
	}
}

func TestPlainExplainBecomesExplainPlan(t *testing.T) {
	for query, want := range map[string]string{
		"EXPLAIN SELECT * FROM t":                      "EXPLAIN PLAN SELECT * FROM t",
		"explain /* c */ select 1":                     "explain /* c */ PLAN select 1",
		"DESC SELECT COUNT(*) FROM t":                  "DESC PLAN SELECT COUNT(*) FROM t",
		"EXPLAIN (SELECT 1) UNION (SELECT 2)":          "EXPLAIN PLAN (SELECT 1) UNION (SELECT 2)",
		"EXPLAIN WITH c AS (SELECT 1) SELECT * FROM c": "EXPLAIN PLAN WITH c AS (SELECT 1) SELECT * FROM c",
		"EXPLAIN UPDATE t SET a = 1":                   "EXPLAIN PLAN UPDATE t SET a = 1",
		"EXPLAIN PLAN SELECT 1":                        "EXPLAIN PLAN SELECT 1",
		"EXPLAIN FORMAT=TREE SELECT 1":                 "EXPLAIN FORMAT=TREE SELECT 1",
		"EXPLAIN ANALYZE SELECT 1":                     "EXPLAIN ANALYZE SELECT 1",
		"DESCRIBE t":                                   "DESCRIBE t",
		"DESC `select`":                                "DESC `select`",
		"SELECT 'EXPLAIN SELECT'":                      "SELECT 'EXPLAIN SELECT'",
		"EXPLAIN SELECT 1; EXPLAIN SELECT 2":           "EXPLAIN PLAN SELECT 1; EXPLAIN PLAN SELECT 2",
	} {
		r, err := Rewrite(query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if r.Query != want {
			t.Errorf("Rewrite(%q) = %q, want %q", query, r.Query, want)
		}
	}
}
