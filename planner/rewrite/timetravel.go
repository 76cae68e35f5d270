package rewrite

import "strings"

// asOfMeaning is what the spelling of an AS OF clause says its value is.
// go-mysql-server passes only the value on, so a spelling that contradicts
// the value is caught here, where the spelling is still visible.
type asOfMeaning uint8

const (
	meansAnything asOfMeaning = iota // AS OF, FOR SYSTEM_TIME AS OF: GMS's own spellings
	meansVersion                     // FOR VERSION AS OF, VERSION AS OF: a snapshot id or tag
	meansTime                        // FOR TIMESTAMP / FOR TIME / TIMESTAMP AS OF: a point in time
)

// asOfClause is a time-travel clause, from its first keyword to OF.
type asOfClause struct {
	spelling string // as written, upper-cased, for messages
	meaning  asOfMeaning
	// canonical, when set, replaces src[start:keywordsEnd], the keywords
	// before AS OF, with a spelling the parser accepts.
	canonical          string
	start, keywordsEnd int
}

const bindAsOfMessage = "AS OF with a bind parameter is not supported; inline the snapshot id, tag or timestamp"

// timeTravel recognises the AS OF clause starting at the word t (FOR, AS,
// VERSION or TIMESTAMP), rewrites a spelling the parser rejects, and checks
// the value that follows; or the incremental clause FOR … BETWEEN (between).
func (rw *rewriter) timeTravel(sc *scanner, t token) error {
	look := *sc
	if incremental, err := rw.between(&look, t); incremental || err != nil {
		*sc = look
		return err
	}
	look = *sc
	clause, ok := rw.clauseAt(&look, t)
	if !ok {
		return nil
	}
	if clause.canonical != "" {
		rw.replace(clause.start, clause.keywordsEnd, clause.canonical)
	}
	*sc = look
	value := look
	rw.asOfValue = value.next().start
	return rw.checkAsOfValue(look, clause)
}

// clauseAt reads the clause starting at t and leaves look after OF.
func (rw *rewriter) clauseAt(look *scanner, t token) (asOfClause, bool) {
	src := rw.src
	c := asOfClause{start: t.start, keywordsEnd: t.end}
	switch {
	case t.is(src, "AS"):
		c.spelling = "AS OF"
		return c, look.next().is(src, "OF")
	case t.is(src, "FOR"):
		if !rw.afterFor(look, t, &c) {
			return c, false
		}
	case t.is(src, "VERSION"):
		// Spark's spelling. Without FOR it cannot be anything else: OF is
		// reserved, so "x VERSION AS OF" is a syntax error as written.
		c.spelling, c.meaning, c.canonical = "VERSION AS OF", meansVersion, "FOR VERSION"
	case t.is(src, "TIMESTAMP"):
		c.spelling, c.meaning, c.canonical = "TIMESTAMP AS OF", meansTime, "FOR SYSTEM_TIME"
	default:
		return c, false
	}
	return c, look.next().is(src, "AS") && look.next().is(src, "OF")
}

// afterFor reads the keyword after FOR into c.
func (rw *rewriter) afterFor(look *scanner, forToken token, c *asOfClause) bool {
	src := rw.src
	kw := look.next()
	c.keywordsEnd = kw.end
	// vitess joins FOR SYSTEM_TIME and FOR VERSION into one token only when
	// nothing but blanks separates the two words.
	blankGap := strings.Trim(src[forToken.end:kw.start], " \t\r\n") == ""
	switch {
	case kw.is(src, "SYSTEM_TIME"):
		c.spelling = "FOR SYSTEM_TIME AS OF"
		if !blankGap {
			c.canonical = "FOR SYSTEM_TIME"
		}
	case kw.is(src, "VERSION"):
		c.spelling, c.meaning = "FOR VERSION AS OF", meansVersion
		if !blankGap {
			c.canonical = "FOR VERSION"
		}
	case kw.is(src, "TIMESTAMP"):
		c.spelling, c.meaning, c.canonical = "FOR TIMESTAMP AS OF", meansTime, "FOR SYSTEM_TIME"
	case kw.is(src, "TIME"):
		c.spelling, c.meaning, c.canonical = "FOR TIME AS OF", meansTime, "FOR SYSTEM_TIME"
	default:
		return false
	}
	return true
}

// checkAsOfValue looks at the token after OF. A bind parameter there makes
// go-mysql-server v0.20.0 dereference a nil expression and panic
// (go-mysql-server.md §0 item 6), so it is refused; and a literal whose
// kind contradicts the spelling would silently select the wrong snapshot
// once ParseAsOf sees only the value.
func (rw *rewriter) checkAsOfValue(look scanner, c asOfClause) error {
	v := look.next()
	text := v.text(rw.src)
	switch v.kind {
	case tokParam:
		return unsupported(bindAsOfMessage)
	case tokNumber:
		if c.meaning == meansTime && isInteger(text) {
			return timeSpellingMismatch(c, text, text)
		}
	case tokString:
		value := strings.TrimSpace(unquoteString(text))
		if c.meaning == meansTime && isInteger(value) {
			return timeSpellingMismatch(c, text, value)
		}
		if _, isTime := scanDatetime(value); c.meaning == meansVersion && isTime {
			return invalidAsOf("%s %s names a tag or snapshot id, but lakesql reads %s as a timestamp; "+
				"write FOR SYSTEM_TIME AS OF %s to read the table as of that time "+
				"(a tag named like a date cannot be selected with AS OF)", c.spelling, text, text, text)
		}
	}
	return nil
}

func timeSpellingMismatch(c asOfClause, written, id string) error {
	return invalidAsOf("%s %s names a point in time, but lakesql would read %s as snapshot id %s; "+
		"write FOR VERSION AS OF %s to read that snapshot, or give a timestamp such as '2026-04-16 10:00:00'",
		c.spelling, written, written, id, id)
}
