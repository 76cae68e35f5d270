package lsm

import "errors"

var (
	// ErrInvalidOptions marks table options a merge engine cannot be built
	// from: an unknown field, a conflicting pair of options, an aggregate
	// function on a column type it cannot handle. Paimon rejects the same
	// schemas when the table is created, so a Java-written table never has
	// them.
	ErrInvalidOptions = errors.New("invalid merge options")

	// ErrRejectedRecord marks a record the merge engine refuses, as Paimon
	// does: a retraction the engine cannot apply or a null in a NOT NULL
	// column. The read fails; Java reads of the same files fail too.
	ErrRejectedRecord = errors.New("record rejected by merge engine")

	// ErrArithmetic marks an aggregate whose result does not fit its integer
	// type, a division by zero, or an inexact DECIMAL division (Java's
	// ArithmeticException). DECIMAL overflow is not an error: like Java, the
	// aggregate becomes NULL.
	ErrArithmetic = errors.New("arithmetic error in aggregate")
)
