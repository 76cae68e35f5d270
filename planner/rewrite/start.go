package rewrite

import "strings"

// StatementStart is a statement text from its first word on: leading white
// space, comments (/* */, -- and #) and opening parentheses are skipped.
// It is a cheap look at the first words, for classifying a statement (the
// metrics' statement kinds, CREATE OR REPLACE VIEW), not the tokenizer
// Rewrite runs: an unterminated comment leaves nothing.
func StatementStart(q string) string {
	for {
		q = strings.TrimLeft(q, " \t\r\n(")
		switch {
		case strings.HasPrefix(q, "/*"):
			end := strings.Index(q[2:], "*/")
			if end < 0 {
				return ""
			}
			q = q[2+end+2:]
		case strings.HasPrefix(q, "--"), strings.HasPrefix(q, "#"):
			end := strings.IndexByte(q, '\n')
			if end < 0 {
				return ""
			}
			q = q[end+1:]
		default:
			return q
		}
	}
}
