// Package interop checks that real Paimon readers read exactly what lakesql
// writes (issue 14, part 1): Java Paimon 1.4.2 and 1.3.1 through the Maven
// tool in java/, and pypaimon 2.1.0 through pypaimon/dump.py.
//
// The tests carry the build tag interop, so plain go test ./... never needs
// Java or Python; .ci/interop installs the readers and runs them:
//
//	.ci/interop                                  # everything
//	.ci/interop -run 'TestJavaReads/append_types' # one case
//
// Each case of cases_test.go creates one table over the MySQL protocol and
// runs its statements (DML, ALTER, sys procedures); then, for every snapshot
// still there and every tag, the rows lakesql returns AS OF it are compared
// with each reader's, after both sides are brought to the canonical form of
// README.md. A mismatch names the case, the snapshot or tag, the reader and
// the first differing row. What was found is in FINDINGS.md.
//
// This file only documents the package; it has no non-test code.
package interop
