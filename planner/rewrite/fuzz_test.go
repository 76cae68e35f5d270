package rewrite

import (
	"strings"
	"testing"
)

// triggerWords are the words every rule starts from; a text with none of
// them, in any case, cannot match a rule.
var triggerWords = []string{"of", "between", "partition", "overwrite", "prepare"}

func hasTriggerWord(s string) bool {
	lower := strings.ToLower(s)
	for _, w := range triggerWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func addSeeds(f *testing.F) {
	for _, tc := range timeTravelCases {
		f.Add(tc.in)
	}
	for _, tc := range errorCases {
		f.Add(tc.in)
	}
	for _, tc := range overwriteCases {
		f.Add(tc.in)
	}
	f.Add("SELECT 'a\\")
	f.Add("/*!")
	f.Add("/*!12345 SELECT * FROM t AS OF ? */")
	f.Add("INSERT OVERWRITE t PARTITION (a='")
}

// FuzzRewrite: Rewrite never panics; a text without a trigger word comes
// back unchanged; and a rewritten text is stable under a second Rewrite.
func FuzzRewrite(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, query string) {
		got, err := Rewrite(query)
		if !hasTriggerWord(query) {
			if err != nil || got.Query != query || got.Overwrite != nil {
				t.Fatalf("Rewrite(%q) = %+v, %v; want the input unchanged", query, got, err)
			}
			return
		}
		if err != nil {
			return
		}
		again, err := Rewrite(got.Query)
		if err != nil || again.Query != got.Query {
			t.Fatalf("Rewrite(%q) = %q, then %q, %v; want it stable", query, got.Query, again.Query, err)
		}
	})
}

// FuzzRewriteLeavesQuotedTextAlone puts arbitrary text, time-travel and
// partition spellings included, inside a string literal, a quoted
// identifier and comments; none of it may be rewritten or refused.
func FuzzRewriteLeavesQuotedTextAlone(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		ident := "`" + strings.ReplaceAll(text, "`", "``") + "`"
		block := "/* " + strings.ReplaceAll(text, "*/", "* /") + " */"
		line := "-- " + strings.NewReplacer("\n", " ", "\r", " ").Replace(text) + "\n"
		for _, query := range []string{
			"SELECT " + quoteString(text) + " FROM t",
			`SELECT "` + strings.NewReplacer(`\`, `\\`, `"`, `""`).Replace(text) + `" FROM t`,
			"SELECT a AS " + ident + " FROM t",
			block + " SELECT 1",
			line + "SELECT 1",
		} {
			got, err := Rewrite(query)
			if err != nil || got.Query != query || got.Overwrite != nil {
				t.Fatalf("Rewrite(%q) = %+v, %v; want the input unchanged", query, got, err)
			}
		}
	})
}
