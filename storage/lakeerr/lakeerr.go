// Package lakeerr holds the failure classes shared by every storage package.
//
// Each class is one sentinel. Errors are wrapped with context and the class
// with %w, so callers (and the SQL layer, which maps each class to one MySQL
// error) test the class with errors.Is and never match on message text.
package lakeerr

import "errors"

var (
	// ErrCorruption marks metadata or data that cannot be decoded: a bad
	// checksum, a truncated file, an impossible offset. Never retried.
	ErrCorruption = errors.New("corruption")

	// ErrUnsupported marks a valid table that uses a feature lakesql does not
	// implement yet. It is reported instead of guessing at the rows.
	ErrUnsupported = errors.New("unsupported")

	// ErrNotFound marks a snapshot, tag, schema or table that does not exist
	// (or no longer exists, for an expired snapshot).
	ErrNotFound = errors.New("not found")

	// ErrRetryableConflict marks a commit that lost to a concurrent commit in a
	// way that re-planning from the new latest snapshot can fix. The SQL layer
	// reports it as MySQL error 1213 / SQLSTATE 40001.
	ErrRetryableConflict = errors.New("retryable commit conflict")

	// ErrTerminalConflict marks a commit that can never succeed as written,
	// for example because files it deletes were removed by another commit.
	ErrTerminalConflict = errors.New("terminal commit conflict")

	// ErrUnknownOutcome marks a commit whose publish may or may not have
	// landed (an I/O error after the put was sent). It is resolved by reading
	// the snapshot back, never by guessing.
	ErrUnknownOutcome = errors.New("unknown commit outcome")
)
