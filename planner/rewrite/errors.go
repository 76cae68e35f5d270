package rewrite

import (
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

var (
	// ErrSyntax classes a statement this package recognises (INSERT
	// OVERWRITE) but cannot read; the backend reports it as a MySQL syntax
	// error (1064).
	ErrSyntax = errors.New("syntax error")

	// ErrInvalidAsOf classes an AS OF value that names no snapshot id, tag
	// or time, or whose spelling contradicts its value.
	ErrInvalidAsOf = errors.New("invalid AS OF value")
)

// Error is what Rewrite and ParseAsOf return. Its message is written for the
// SQL user and is complete on its own; Class (lakeerr.ErrUnsupported,
// ErrSyntax or ErrInvalidAsOf) is what errors.Is matches and what the backend
// maps to a MySQL error code.
type Error struct {
	Class error
	Msg   string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Class }

func unsupported(format string, args ...any) error {
	return &Error{Class: lakeerr.ErrUnsupported, Msg: fmt.Sprintf(format, args...)}
}

func syntaxError(format string, args ...any) error {
	return &Error{Class: ErrSyntax, Msg: fmt.Sprintf(format, args...)}
}

func invalidAsOf(format string, args ...any) error {
	return &Error{Class: ErrInvalidAsOf, Msg: fmt.Sprintf(format, args...)}
}
