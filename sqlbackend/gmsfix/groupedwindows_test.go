package gmsfix

import "testing"

// Only statements that say OVER are walked for window functions.
func TestMentionsOver(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT ROW_NUMBER() OVER () FROM t":                   true,
		"select sum(k) over w from t window w as (order by k)": true,
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')":              false,
		"SELECT ov, er FROM t":                                 false,
	} {
		if got := mentionsOver(q); got != want {
			t.Errorf("mentionsOver(%q) = %v, want %v", q, got, want)
		}
	}
}
