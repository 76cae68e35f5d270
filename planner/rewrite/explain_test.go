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
