package duckexec

import "github.com/lakesql/lakesql/sqlbackend/duckplan"

// ErrUnsupported marks a query the executor refuses before running it: a
// column type it cannot hand to DuckDB or convert back exactly. It is
// duckplan's sentinel, which the backend tests for without linking DuckDB
// and then runs the statement on go-mysql-server instead.
var ErrUnsupported = duckplan.ErrUnsupported
