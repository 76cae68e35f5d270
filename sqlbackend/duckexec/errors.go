package duckexec

import "errors"

// ErrUnsupported marks a query the executor refuses before running it: a
// column type it cannot hand to DuckDB or convert back exactly. The caller
// runs such a statement on go-mysql-server instead.
var ErrUnsupported = errors.New("duckexec: unsupported")
