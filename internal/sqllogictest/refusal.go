package sqllogictest

import (
	"errors"
	"regexp"
	"slices"

	"github.com/go-sql-driver/mysql"
)

// Refusal is a statement an engine refuses on purpose. A record that
// expects such a statement to succeed is skipped, not failed, when the
// engine answers it with the refusal's error.
type Refusal struct {
	// Statement matches the SQL of the refused statements.
	Statement *regexp.Regexp
	// Codes are the MySQL error numbers of the refusal; empty means any
	// error the server answers with, for statements that cannot succeed
	// on the engine whatever they say.
	Codes []uint16
	// Message, when set, must match the error message too, where the code
	// alone is shared with other errors.
	Message *regexp.Regexp
	// Why is the engine's documented reason.
	Why string
}

// indexShape is lakesql's refusal of an index a Paimon file index cannot
// be (README, Indexes): a UNIQUE one, since it enforces nothing, and one
// of several columns, since it covers one.
var indexShape = regexp.MustCompile(`UNIQUE indexes: a Paimon file index only lets reads skip files|indexes of several columns: a Paimon file index covers one column`)

// LakesqlRefusals are the statements of the corpus that lakesql refuses
// by design, each documented in the README. Nothing may be added here
// without such documentation: a wrong answer is a failure, never a skip.
var LakesqlRefusals = []Refusal{
	{
		Statement: regexp.MustCompile(`(?is)^\s*CREATE\s+(UNIQUE\s+)?INDEX\b`),
		Codes:     []uint16{1235},
		Message:   indexShape,
		Why:       "UNIQUE indexes and indexes of several columns are refused with 1235: a Paimon file index covers one column and enforces nothing",
	},
	{
		// The same indexes inside CREATE TABLE; the message keeps out
		// other 1235 errors of CREATE TABLE.
		Statement: regexp.MustCompile(`(?is)^\s*CREATE\s+TABLE\b`),
		Codes:     []uint16{1235},
		Message:   indexShape,
		Why:       "UNIQUE in CREATE TABLE is refused with 1235: a Paimon file index enforces nothing",
	},
	{
		// Any error: the corpus spells DROP INDEX in SQLite's syntax,
		// without ON table, which the MySQL parser rejects.
		Statement: regexp.MustCompile(`(?is)^\s*DROP\s+INDEX\b`),
		Why:       "DROP INDEX in SQLite's syntax (without ON table) is not MySQL",
	},
	{
		// Any error: lakesql refuses every trigger, and the corpus spells
		// them in SQLite's syntax, which the MySQL parser rejects before
		// the refusal is reached.
		Statement: regexp.MustCompile(`(?is)^\s*CREATE\s+TRIGGER\b`),
		Why:       "triggers are refused",
	},
	{
		Statement: regexp.MustCompile(`(?is)^\s*DROP\s+TRIGGER\b`),
		Why:       "triggers are refused, so there is no trigger to drop",
	},
}

// refusedBy returns the refusal that explains err for the statement, or
// nil. Only an error the server answered with can be a refusal; a lost
// connection never is.
func refusedBy(refusals []Refusal, statement string, err error) *Refusal {
	var merr *mysql.MySQLError
	if !errors.As(err, &merr) {
		return nil
	}
	for i := range refusals {
		r := &refusals[i]
		if r.Statement.MatchString(statement) &&
			(len(r.Codes) == 0 || slices.Contains(r.Codes, merr.Number)) &&
			(r.Message == nil || r.Message.MatchString(merr.Message)) {
			return r
		}
	}
	return nil
}
