// Package integration holds tests that run lakesql the way it is deployed:
// several OS processes writing one table in a local warehouse, with no
// coordination but the file system. They are pure Go (the processes are
// re-executions of the test binary) and part of go test ./...; they have no
// non-test code, and this file only documents them.
package integration
