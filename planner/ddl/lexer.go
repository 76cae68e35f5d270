package ddl

import (
	"fmt"
	"strings"
)

// tokenKind classifies the tokens of the small scanner below.
type tokenKind int

const (
	// wordToken is a keyword, bare identifier or number.
	wordToken tokenKind = iota
	// quotedIdentToken is a `backquoted` identifier.
	quotedIdentToken
	// stringToken is a '…' or "…" literal.
	stringToken
	// punctToken is any other single character: ( ) , = ; …
	punctToken
)

// token is one lexical token with its byte range in the statement, so that
// a clause can be cut out of the text and a literal handed to vitess to
// unescape.
type token struct {
	kind       tokenKind
	text       string
	start, end int
}

// is reports whether the token is the keyword or punctuation s (keywords
// compare case-insensitively).
func (t token) is(s string) bool {
	return (t.kind == wordToken || t.kind == punctToken) && strings.EqualFold(t.text, s)
}

// ident returns the identifier the token names: the word itself, or the
// backquoted name with doubled backquotes undone.
func (t token) ident() (string, bool) {
	switch t.kind {
	case wordToken:
		return t.text, true
	case quotedIdentToken:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "``", "`"), true
	}
	return "", false
}

// scan splits a MySQL statement into tokens the way MySQL's lexer
// delimits them: comments are dropped, except that the body of a
// /*! executable comment */ is code (mysqldump wraps PARTITION BY clauses
// in them). code is sql with the markers of executable comments blanked
// out, so that a clause cut from it leaves no empty comment behind; token
// offsets are valid in both. Only delimiting matters here; vitess does the
// real parsing.
func scan(sql string) (tokens []token, code string, err error) {
	blanked := []byte(sql)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			blanked[i] = ' '
		}
	}
	inExecutableComment := false
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case inExecutableComment && strings.HasPrefix(sql[i:], "*/"):
			inExecutableComment = false
			blank(i, i+2)
			i += 2
		case strings.HasPrefix(sql[i:], "/*!"):
			inExecutableComment = true
			start := i
			i += 3
			for i < len(sql) && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
			blank(start, i)
		case strings.HasPrefix(sql[i:], "/*"):
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return nil, "", fmt.Errorf("%w: unterminated comment at offset %d", ErrSyntax, i)
			}
			i += end + 4
		case c == '#' || isDashComment(sql[i:]):
			end := strings.IndexByte(sql[i:], '\n')
			if end < 0 {
				end = len(sql) - i
			}
			i += end
		case c == '\'' || c == '"' || c == '`':
			end, err := quotedEnd(sql, i)
			if err != nil {
				return nil, "", err
			}
			kind := stringToken
			if c == '`' {
				kind = quotedIdentToken
			}
			tokens = append(tokens, token{kind: kind, text: sql[i:end], start: i, end: end})
			i = end
		case isWordByte(c):
			end := i
			for end < len(sql) && isWordByte(sql[end]) {
				end++
			}
			tokens = append(tokens, token{kind: wordToken, text: sql[i:end], start: i, end: end})
			i = end
		default:
			tokens = append(tokens, token{kind: punctToken, text: sql[i : i+1], start: i, end: i + 1})
			i++
		}
	}
	return tokens, string(blanked), nil
}

// isDashComment reports whether s starts a "-- " comment: MySQL needs
// whitespace (or the end) after the two dashes.
func isDashComment(s string) bool {
	if !strings.HasPrefix(s, "--") {
		return false
	}
	return len(s) == 2 || strings.ContainsRune(" \t\n\r\f\v", rune(s[2]))
}

// quotedEnd returns the offset just past the quoted literal or identifier
// starting at sql[start]. A doubled quote stands for itself; inside string
// literals a backslash escapes the next character.
func quotedEnd(sql string, start int) (int, error) {
	quote := sql[start]
	for i := start + 1; i < len(sql); i++ {
		switch {
		case sql[i] == '\\' && quote != '`':
			i++
		case sql[i] == quote && i+1 < len(sql) && sql[i+1] == quote:
			i++
		case sql[i] == quote:
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("%w: unterminated %c quote at offset %d", ErrSyntax, quote, start)
}

// isWordByte reports whether c can be part of an unquoted identifier,
// keyword or number; bytes of multi-byte UTF-8 characters count, as MySQL
// allows them in identifiers.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// tokenCursor walks a token slice for the small recursive-descent parsers
// of the partition clause and ALTER TABLE options.
type tokenCursor struct {
	tokens []token
	pos    int
}

func (c *tokenCursor) done() bool { return c.pos >= len(c.tokens) }

func (c *tokenCursor) peek() token {
	if c.done() {
		return token{kind: punctToken, text: ""}
	}
	return c.tokens[c.pos]
}

// accept consumes the next token when it is the keyword or punctuation s.
func (c *tokenCursor) accept(s string) bool {
	if !c.done() && c.peek().is(s) {
		c.pos++
		return true
	}
	return false
}

func (c *tokenCursor) expect(s string) error {
	if !c.accept(s) {
		return c.errorf("expected %s", s)
	}
	return nil
}

// errorf reports a syntax error at the next token.
func (c *tokenCursor) errorf(format string, args ...any) error {
	near := "end of statement"
	if !c.done() {
		near = fmt.Sprintf("%q", c.peek().text)
	}
	return fmt.Errorf("%w: %s near %s", ErrSyntax, fmt.Sprintf(format, args...), near)
}

// identList parses "( name, … )"; allowEmpty admits "()".
func (c *tokenCursor) identList(allowEmpty bool) ([]string, error) {
	if err := c.expect("("); err != nil {
		return nil, err
	}
	var names []string
	if allowEmpty && c.accept(")") {
		return names, nil
	}
	for {
		name, ok := c.peek().ident()
		if !ok || c.done() {
			return nil, c.errorf("expected a column name")
		}
		c.pos++
		names = append(names, name)
		if c.accept(")") {
			return names, nil
		}
		if err := c.expect(","); err != nil {
			return nil, err
		}
	}
}

// skipParenthesized consumes a balanced "( … )" group.
func (c *tokenCursor) skipParenthesized() error {
	if err := c.expect("("); err != nil {
		return err
	}
	for depth := 1; depth > 0; c.pos++ {
		if c.done() {
			return c.errorf("unbalanced parentheses")
		}
		switch {
		case c.peek().is("("):
			depth++
		case c.peek().is(")"):
			depth--
		}
	}
	return nil
}
