package rewrite

import "testing"

func TestStatementStart(t *testing.T) {
	for query, want := range map[string]string{
		"SELECT 1":                        "SELECT 1",
		"  \n\tselect 1":                  "select 1",
		"/* app=billing */ INSERT INTO t": "INSERT INTO t",
		"-- note\nUPDATE t":               "UPDATE t",
		"# note\n/* a */ ((SELECT 1))":    "SELECT 1))",
		"/* unterminated":                 "",
		"-- only a comment":               "",
		"CREATE OR REPLACE VIEW v AS ...": "CREATE OR REPLACE VIEW v AS ...",
	} {
		if got := StatementStart(query); got != want {
			t.Errorf("StatementStart(%q) = %q, want %q", query, got, want)
		}
	}
}
