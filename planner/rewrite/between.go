package rewrite

import (
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/snapshot"
)

// An incremental read, `t$audit_log FOR VERSION BETWEEN 100 AND 120` or
// `FOR SYSTEM_TIME BETWEEN '…' AND '…'` (MariaDB's spelling for its
// system-versioned tables), reaches go-mysql-server as an AS OF value:
// GMS carries one AS OF value per table and refuses BETWEEN. The value is
// betweenMarker, the meaning (v for versions, t for times) and both ends,
// separated by '/'. No tag name holds a '/' (validateTagName), so the
// value cannot name a tag; an end with a '/' is refused here.
const betweenMarker = "lakesql:between"

const betweenUsage = "BETWEEN takes two literals: FOR VERSION BETWEEN <snapshot id or tag> AND <snapshot id or tag>, " +
	"or FOR SYSTEM_TIME BETWEEN '<timestamp>' AND '<timestamp>'"

// between rewrites the incremental clause starting at the word FOR, if
// that is what follows it, and leaves look after the clause; ok is false
// when it is not an incremental clause.
func (rw *rewriter) between(look *scanner, forToken token) (ok bool, err error) {
	src := rw.src
	if !forToken.is(src, "FOR") {
		return false, nil
	}
	kw := look.next()
	var meaning asOfMeaning
	switch {
	case kw.is(src, "VERSION"):
		meaning = meansVersion
	case kw.is(src, "SYSTEM_TIME") || kw.is(src, "TIMESTAMP") || kw.is(src, "TIME"):
		meaning = meansTime
	default:
		return false, nil
	}
	if !look.next().is(src, "BETWEEN") {
		return false, nil
	}
	spelling := "FOR " + strings.ToUpper(kw.text(src)) + " BETWEEN"
	start := look.next()
	and := look.next()
	end := look.next()
	if !and.is(src, "AND") {
		return true, syntaxError("%s: %s", spelling, betweenUsage)
	}
	startText, err := rw.betweenEnd(spelling, meaning, start)
	if err != nil {
		return true, err
	}
	endText, err := rw.betweenEnd(spelling, meaning, end)
	if err != nil {
		return true, err
	}
	value := strings.Join([]string{betweenMarker, meaningCode(meaning), startText, endText}, "/")
	rw.replace(forToken.start, end.end, "FOR SYSTEM_TIME AS OF "+quoteString(value))
	return true, nil
}

func meaningCode(m asOfMeaning) string {
	if m == meansTime {
		return "t"
	}
	return "v"
}

// betweenEnd checks one end of an incremental clause and returns its value.
func (rw *rewriter) betweenEnd(spelling string, meaning asOfMeaning, t token) (string, error) {
	var value string
	switch t.kind {
	case tokParam:
		return "", unsupported("%s with a bind parameter is not supported; inline the snapshot ids, tags or timestamps", spelling)
	case tokNumber:
		value = t.text(rw.src)
	case tokString:
		value = unquoteString(t.text(rw.src))
	default:
		return "", syntaxError("%s %s: %s", spelling, t.text(rw.src), betweenUsage)
	}
	if strings.Contains(value, "/") {
		return "", invalidAsOf("%s %s: a tag name cannot contain '/'", spelling, t.text(rw.src))
	}
	return value, nil
}

// ParseBetween reads an AS OF value that an incremental clause was
// rewritten into; ok is false for any other value. Ends of FOR VERSION
// BETWEEN are snapshot ids or tags, 0 standing for the table's beginning
// (the start of a range that holds the first snapshot); ends of FOR
// SYSTEM_TIME BETWEEN are timestamps, read in loc like AS OF's.
func ParseBetween(v any, loc *time.Location) (b snapshot.Between, ok bool, err error) {
	s, isString := v.(string)
	if !isString || !strings.HasPrefix(s, betweenMarker+"/") {
		return b, false, nil
	}
	parts := strings.Split(s, "/")
	if len(parts) != 4 {
		return b, true, invalidAsOf("AS OF %s is not an incremental range", quoteString(s))
	}
	meaning := meansVersion
	if parts[1] == "t" {
		meaning = meansTime
	}
	if b.Start, err = parseBetweenEnd(parts[2], meaning, loc, true); err != nil {
		return b, true, err
	}
	b.End, err = parseBetweenEnd(parts[3], meaning, loc, false)
	return b, true, err
}

func parseBetweenEnd(text string, meaning asOfMeaning, loc *time.Location, isStart bool) (snapshot.TimeTravel, error) {
	trimmed := strings.TrimSpace(text)
	if meaning == meansVersion && isStart && trimmed == "0" {
		return snapshot.TimeTravel{}, nil
	}
	tt, err := parseAsOfString(text, loc)
	if err != nil {
		return tt, err
	}
	switch {
	case meaning == meansVersion && tt.TimestampMillis != nil:
		return tt, invalidAsOf("FOR VERSION BETWEEN takes snapshot ids or tags, and %s is a timestamp; "+
			"write FOR SYSTEM_TIME BETWEEN to read the changes between two times", quoteString(text))
	case meaning == meansTime && tt.TimestampMillis == nil:
		return tt, invalidAsOf("FOR SYSTEM_TIME BETWEEN takes timestamps, and %s is not one; "+
			"write FOR VERSION BETWEEN to read the changes between two snapshots or tags", quoteString(text))
	}
	return tt, nil
}
