package rewrite

import "strings"

// tokenKind classifies a token just finely enough for the rewrites: words
// (keywords and bare identifiers) are the only tokens ever matched as
// keywords, so nothing quoted can be mistaken for one.
type tokenKind uint8

const (
	tokEnd       tokenKind = iota // end of the input
	tokWord                       // bare identifier or keyword
	tokNumber                     // numeric literal
	tokString                     // '…' or "…" string literal
	tokIdent                      // `…` quoted identifier
	tokParam                      // bind parameter: ? or :name
	tokVar                        // @user or @@system variable
	tokSemicolon                  // statement separator
	tokPunct                      // any other operator or punctuation byte
)

// token is a span of the scanned text; its text is src[start:end].
type token struct {
	kind       tokenKind
	start, end int
}

// scanner splits SQL text into tokens the way the vitess tokenizer used by
// go-mysql-server v0.20.0 does where it matters for safety: quotes,
// backslash escapes and doubled quotes, and the comment forms it skips
// ("-- " and also "--" without the space, "#", "//", "/* */"). The body of a
// MySQL /*! … */ comment is scanned as SQL because vitess parses it as SQL.
// A scanner is a small value, so copying it is a free lookahead.
type scanner struct {
	src string
	pos int
	// specialEnd is the offset of the "*/" that closes the /*! … */ comment
	// being scanned as SQL, or -1 outside one.
	specialEnd int
}

func newScanner(src string) scanner {
	return scanner{src: src, specialEnd: -1}
}

// limit is where the current token must stop: the end of the text, or the
// end of the /*! … */ body being scanned.
func (s *scanner) limit() int {
	if s.specialEnd >= 0 {
		return s.specialEnd
	}
	return len(s.src)
}

// next returns the next token, skipping blanks and comments.
func (s *scanner) next() token {
	s.skipBlanksAndComments()
	limit := s.limit()
	start := s.pos
	if start >= limit {
		return token{kind: tokEnd, start: start, end: start}
	}
	kind := s.scanToken(limit)
	return token{kind: kind, start: start, end: s.pos}
}

func (s *scanner) scanToken(limit int) tokenKind {
	c := s.src[s.pos]
	switch {
	case c == '\'' || c == '"':
		s.skipQuoted(c, true, limit)
		return tokString
	case c == '`':
		s.skipQuoted(c, false, limit)
		return tokIdent
	case isDigit(c) || c == '.' && s.pos+1 < limit && isDigit(s.src[s.pos+1]):
		return s.scanNumber(limit)
	case isWordByte(c):
		s.skipWord(limit)
		return tokWord
	case c == '?':
		s.pos++
		return tokParam
	case c == ':':
		return s.scanColon(limit)
	case c == '@':
		s.pos++
		if s.pos < limit && s.src[s.pos] == '@' {
			s.pos++
		}
		s.skipWord(limit)
		return tokVar
	case c == ';':
		s.pos++
		return tokSemicolon
	}
	s.pos++
	return tokPunct
}

// scanColon mirrors vitess: ":name" and "::name" are bind parameters, any
// other colon (":=") is punctuation.
func (s *scanner) scanColon(limit int) tokenKind {
	p := s.pos + 1
	if p < limit && s.src[p] == ':' {
		p++
	}
	if p < limit && isLetter(s.src[p]) {
		s.pos = p
		s.skipWord(limit)
		return tokParam
	}
	s.pos++
	return tokPunct
}

// scanNumber consumes a numeric literal. Like vitess, a number running into
// letters ("1abc") is an identifier instead.
func (s *scanner) scanNumber(limit int) tokenKind {
	p := s.pos
	if s.src[p] == '0' && p+1 < limit && (s.src[p+1] == 'x' || s.src[p+1] == 'X') {
		s.pos = p + 2
		s.skipWord(limit)
		return tokNumber
	}
	p = skipDigits(s.src, p, limit)
	if p < limit && s.src[p] == '.' {
		p = skipDigits(s.src, p+1, limit)
	}
	if p < limit && (s.src[p] == 'e' || s.src[p] == 'E') {
		q := p + 1
		if q < limit && (s.src[q] == '+' || s.src[q] == '-') {
			q++
		}
		if q < limit && isDigit(s.src[q]) {
			p = skipDigits(s.src, q, limit)
		}
	}
	s.pos = p
	if p < limit && isWordByte(s.src[p]) {
		s.skipWord(limit)
		return tokWord
	}
	return tokNumber
}

func skipDigits(src string, p, limit int) int {
	for p < limit && isDigit(src[p]) {
		p++
	}
	return p
}

func (s *scanner) skipWord(limit int) {
	for s.pos < limit && isWordByte(s.src[s.pos]) {
		s.pos++
	}
}

// skipQuoted consumes a quoted span starting at the opening quote. A doubled
// quote stands for itself; in string literals a backslash escapes the next
// byte. An unterminated span runs to the limit, as vitess then rejects the
// whole text anyway.
func (s *scanner) skipQuoted(quote byte, backslash bool, limit int) {
	p := s.pos + 1
	for p < limit {
		c := s.src[p]
		switch {
		case backslash && c == '\\':
			p += 2
		case c == quote && p+1 < limit && s.src[p+1] == quote:
			p += 2
		case c == quote:
			s.pos = p + 1
			return
		default:
			p++
		}
	}
	s.pos = limit
}

func (s *scanner) skipBlanksAndComments() {
	for {
		if s.specialEnd >= 0 && s.pos >= s.specialEnd {
			s.pos = min(s.specialEnd+2, len(s.src))
			s.specialEnd = -1
			continue
		}
		limit := s.limit()
		if s.pos >= limit {
			return
		}
		if !s.skipOne(limit) {
			return
		}
	}
}

// skipOne skips one blank byte or one comment at s.pos and reports whether
// it did.
func (s *scanner) skipOne(limit int) bool {
	rest := s.src[s.pos:limit]
	switch {
	case isBlank(rest[0]):
		s.pos++
	case strings.HasPrefix(rest, "--") || strings.HasPrefix(rest, "//"):
		s.skipLine(limit)
	case rest[0] == '#':
		s.skipLine(limit)
	case strings.HasPrefix(rest, "/*!") && s.specialEnd < 0:
		s.enterSpecialComment()
	case strings.HasPrefix(rest, "/*"):
		end := strings.Index(rest[2:], "*/")
		if end < 0 {
			s.pos = limit
		} else {
			s.pos += 2 + end + 2
		}
	default:
		return false
	}
	return true
}

func (s *scanner) skipLine(limit int) {
	end := strings.IndexByte(s.src[s.pos:limit], '\n')
	if end < 0 {
		s.pos = limit
		return
	}
	s.pos += end + 1
}

// enterSpecialComment starts scanning the body of a /*!NNNNN … */ comment as
// SQL. Like vitess, the body ends at the first "*/", quotes or not.
func (s *scanner) enterSpecialComment() {
	body := s.pos + 3
	end := strings.Index(s.src[body:], "*/")
	if end < 0 {
		s.specialEnd = len(s.src)
	} else {
		s.specialEnd = body + end
	}
	p := body
	for p < s.specialEnd && p < body+5 && isDigit(s.src[p]) {
		p++
	}
	s.pos = p
}

// isBlank reports whether c is one of the blanks vitess skips between
// tokens.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// isWordByte reports whether c continues a bare identifier. Bytes of
// multi-byte UTF-8 characters and '$' count, so such an identifier stays one
// token even though vitess would reject it.
func isWordByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '$' || c >= 0x80
}

// is reports whether t is the bare word kw, case-insensitively.
func (t token) is(src, kw string) bool {
	return t.kind == tokWord && t.end-t.start == len(kw) && strings.EqualFold(src[t.start:t.end], kw)
}

// isPunct reports whether t is the single punctuation byte c.
func (t token) isPunct(src string, c byte) bool {
	return t.kind == tokPunct && src[t.start] == c
}

func (t token) text(src string) string { return src[t.start:t.end] }
