package rewrite

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/snapshot"
)

const acceptedAsOf = "AS OF takes a snapshot id (a whole number from 1, such as 5), " +
	"a timestamp ('2026-04-16 10:00:00', optionally with fractional seconds, a 'T' separator " +
	"or an offset such as +08:00, or a date such as '2026-04-16'), or a tag name"

// ParseAsOf turns the value go-mysql-server passes to
// GetTableInsensitiveAsOf into the snapshot a read pins. GMS evaluates the
// AS OF expression once and passes only a string or a time.Time; every
// literal, including a number (AS OF 5) or a bare identifier (AS OF main),
// arrives as its text (go-mysql-server.md §3).
//
// A string is, in this order:
//   - a snapshot id if it is a whole number (surrounding blanks ignored);
//     ids start at 1, so 0 and negative numbers are rejected;
//   - an error if it is any other number (5.0, 1e3, 0x10): no snapshot,
//     time or tag is named that way by accident;
//   - a timestamp if it reads as a MySQL date or datetime ('2026-04-16',
//     '2026-04-16 10:00', '2026-04-16 10:00:00.123', 'T' separator), taken
//     as wall-clock time in loc, the session time zone, unless it ends in
//     an offset (+08:00, Z or UTC). Such a string with an out-of-range
//     field is an error rather than a tag name;
//   - otherwise a tag name, verbatim. Paimon requires a tag name not to be
//     blank; lakesql also rejects '/' and control bytes, which would let
//     the name leave the tag directory.
//
// A time.Time comes from a date/time expression (TIMESTAMP('…'), NOW(),
// DATE_SUB(NOW(), INTERVAL 1 HOUR), CONVERT('…', DATETIME)). GMS builds it
// as the session's wall-clock time labelled UTC: NOW() converts the query
// time into the session time zone and then re-labels the fields as UTC,
// and TIMESTAMP('…') keeps the literal's fields. Its fields are therefore
// read as wall-clock time in loc, exactly like a timestamp string, and its
// own location is ignored.
//
// A timestamp pins the latest snapshot committed at or before it; it is
// truncated to the millisecond, which selects the same snapshot because
// commit times are whole milliseconds. A nil loc means UTC.
func ParseAsOf(v any, loc *time.Location) (snapshot.TimeTravel, error) {
	if loc == nil {
		loc = time.UTC
	}
	switch v := v.(type) {
	case string:
		return parseAsOfString(v, loc)
	case time.Time:
		wall := time.Date(v.Year(), v.Month(), v.Day(), v.Hour(), v.Minute(), v.Second(), v.Nanosecond(), loc)
		return timestampTravel(wall), nil
	}
	return snapshot.TimeTravel{}, invalidAsOf("AS OF value of type %T is not supported; %s", v, acceptedAsOf)
}

func parseAsOfString(s string, loc *time.Location) (snapshot.TimeTravel, error) {
	trimmed := strings.TrimSpace(s)
	switch {
	case trimmed == "":
		return snapshot.TimeTravel{}, invalidAsOf("AS OF %s is empty; %s", quoteString(s), acceptedAsOf)
	case isInteger(trimmed):
		return snapshotTravel(trimmed)
	case isNumber(trimmed):
		return snapshot.TimeTravel{}, invalidAsOf("AS OF %s: a snapshot id is a whole number such as 5; %s", trimmed, acceptedAsOf)
	}
	if dt, ok := scanDatetime(trimmed); ok {
		at, err := dt.in(loc)
		if err != nil {
			return snapshot.TimeTravel{}, invalidAsOf("AS OF %s is not a valid timestamp: %v", quoteString(s), err)
		}
		return timestampTravel(at), nil
	}
	if err := validateTagName(s); err != nil {
		return snapshot.TimeTravel{}, invalidAsOf("AS OF %s is not a valid tag name: %v", quoteString(s), err)
	}
	return snapshot.TimeTravel{Tag: s}, nil
}

func snapshotTravel(digits string) (snapshot.TimeTravel, error) {
	id, err := strconv.ParseInt(digits, 10, 64)
	switch {
	case err != nil:
		return snapshot.TimeTravel{}, invalidAsOf("AS OF %s: snapshot id out of range", digits)
	case id <= 0:
		return snapshot.TimeTravel{}, invalidAsOf("AS OF %s: snapshot ids start at 1", digits)
	}
	return snapshot.TimeTravel{SnapshotID: id}, nil
}

func timestampTravel(t time.Time) snapshot.TimeTravel {
	ms := t.UnixMilli()
	return snapshot.TimeTravel{TimestampMillis: &ms}
}

// isInteger reports whether s is an optionally signed run of digits.
func isInteger(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && skipDigits(s, 0, len(s)) == len(s)
}

// isNumber reports whether s is a numeric literal as MySQL spells one: a
// decimal with optional fraction and exponent, or 0x hex. Words such as
// "inf" and "nan", which strconv would accept, stay tag names.
func isNumber(s string) bool {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return strings.Trim(s[2:], "0123456789abcdefABCDEF") == ""
	}
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	p := skipDigits(s, 0, len(s))
	intDigits := p
	if p < len(s) && s[p] == '.' {
		p = skipDigits(s, p+1, len(s))
	}
	if intDigits == 0 && p <= 1 {
		return false
	}
	if p < len(s) && (s[p] == 'e' || s[p] == 'E') {
		q := p + 1
		if q < len(s) && (s[q] == '+' || s[q] == '-') {
			q++
		}
		if q == len(s) || !isDigit(s[q]) {
			return false
		}
		p = skipDigits(s, q, len(s))
	}
	return p == len(s)
}

// validateTagName checks what a tag name needs to be a file name
// tag-<name> inside the tag directory.
func validateTagName(name string) error {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '/':
			return errors.New("a tag name cannot contain '/'")
		case c < 0x20 || c == 0x7f:
			return errors.New("a tag name cannot contain control characters")
		}
	}
	return nil
}
