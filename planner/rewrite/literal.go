package rewrite

import "strings"

// unquoteString returns the value of a '…' or "…" literal token the way
// vitess decodes it: a doubled quote is one quote, \0 \b \n \r \t \Z are
// control bytes, and a backslash before any other byte is dropped. Text
// without escapes is returned without copying.
func unquoteString(lit string) string {
	quote := lit[0]
	body := lit[1:]
	if strings.HasSuffix(body, string(quote)) {
		body = body[:len(body)-1]
	}
	if strings.IndexByte(body, '\\') < 0 && strings.IndexByte(body, quote) < 0 {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			b.WriteByte(unescape(body[i]))
		case c == quote && i+1 < len(body) && body[i+1] == quote:
			i++
			b.WriteByte(quote)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func unescape(c byte) byte {
	switch c {
	case '0':
		return 0
	case 'b':
		return '\b'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'Z':
		return 26
	}
	return c
}

// quoteString renders s as a single-quoted literal that unquoteString (and
// vitess) decode back to s.
func quoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(s[i])
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// unquoteIdent returns the name of a bare or `…` quoted identifier token.
func unquoteIdent(t token, src string) string {
	text := t.text(src)
	if t.kind != tokIdent {
		return text
	}
	body := strings.TrimPrefix(text, "`")
	body = strings.TrimSuffix(body, "`")
	return strings.ReplaceAll(body, "``", "`")
}

// keepPatternEscapes doubles the backslash of \% and \_ in the string
// literal t. MySQL keeps both characters of these two escapes: LIKE reads
// them as a literal % and _, and anywhere else the string holds them as
// written. Vitess drops the backslash, so GMS stored '50\%' as 50% and
// read LIKE '50\%' as the wildcard pattern 50%.
func (rw *rewriter) keepPatternEscapes(t token) {
	lit := rw.src[t.start:t.end]
	if !strings.Contains(lit, `\%`) && !strings.Contains(lit, `\_`) {
		return
	}
	var b strings.Builder
	b.Grow(len(lit) + 4)
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c == '\\' && i+1 < len(lit) {
			i++
			if lit[i] == '%' || lit[i] == '_' {
				b.WriteByte('\\')
			}
			b.WriteByte('\\')
			c = lit[i]
		}
		b.WriteByte(c)
	}
	rw.replace(t.start, t.end, b.String())
}
