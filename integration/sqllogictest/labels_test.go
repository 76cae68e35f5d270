package sqllogictest

import (
	"testing"

	"github.com/lakesql/lakesql/internal/sqllogictest"
)

// TestCorpusLabelsAgree checks the property that lets the runner skip the
// original harness's label check (records sharing a label must hash
// alike): in every vendored script, the records of one label expect the
// same result. A record that matches its own expected result then also
// agrees with the rest of its label.
func TestCorpusLabelsAgree(t *testing.T) {
	for _, file := range corpusFiles(t) {
		first := map[string]string{}
		for _, rec := range loadScript(t, file) {
			if rec.Kind != sqllogictest.Query || rec.Label == "" {
				continue
			}
			want := expectedHash(rec)
			if prev, ok := first[rec.Label]; ok && prev != want {
				t.Errorf("%s:%d: label %s expects %s, an earlier record %s", file, rec.Line, rec.Label, want, prev)
			}
			first[rec.Label] = want
		}
	}
}

// expectedHash is the hash line of a record's expected result, whether the
// script lists the values or their hash.
func expectedHash(rec sqllogictest.Record) string {
	if sqllogictest.IsHashLine(rec.Expected) {
		return rec.Expected[0]
	}
	return sqllogictest.HashLine(rec.Expected)
}
