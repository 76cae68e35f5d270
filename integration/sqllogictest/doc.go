// Package sqllogictest runs the vendored subset of SQLite's sqllogictest
// corpus (testdata/sqllogictest) against an in-process lakesql server and,
// when LAKESQL_MARIADB_DSN is set, against MariaDB, and checks lakesql's
// pass count per file against the recorded floors. It has no non-test
// code; this file only documents it.
//
//	go test ./integration/sqllogictest/                 # evidence/*, select1, random/expr/*
//	go test ./integration/sqllogictest/ -slt.all        # every vendored file (.ci/sqllogictest)
//	go test ./integration/sqllogictest/ -slt.files 'select[45]' -slt.failures /tmp/f.txt
//
// A run fails when a file passes fewer records than its floor in
// testdata/sqllogictest/floors.txt, when a lakesql record takes longer
// than 10 s, or when lakesql drops the connection. After lakesql answers
// more records correctly, raise the floors with -slt.update-floors (on the
// files the run covered, -slt.all for all of them) and commit the new
// floors.txt; a lower floor in that diff is a regression that needs a
// reason in review.
package sqllogictest
