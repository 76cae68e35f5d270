package rewrite

// setPassword rewrites MySQL's SET PASSWORD [FOR account] = 'secret' into
// ALTER USER account IDENTIFIED BY 'secret', which go-mysql-server
// parses and persists (vitess v0.20.0 has no SET PASSWORD and reads the
// FOR-less form as an assignment to a variable named PASSWORD). Without
// FOR the account is the session's own, rw.account. It reports whether
// the statement was one; sc is then at its end.
func (rw *rewriter) setPassword(sc *scanner, first token) (bool, error) {
	look := *sc
	if !look.next().is(rw.src, "PASSWORD") {
		return false, nil
	}
	account := rw.account
	t := look.next()
	if t.is(rw.src, "FOR") {
		var err error
		if account, t, err = rw.passwordAccount(&look); err != nil {
			return false, err
		}
	}
	if !t.isPunct(rw.src, '=') {
		return false, syntaxError("SET PASSWORD: expected '=' but found %s", describe(t, rw.src))
	}
	secret := look.next()
	if secret.kind != tokString {
		return false, syntaxError("SET PASSWORD takes the password as a quoted string (MySQL 8.0 has no PASSWORD() function), not %s", describe(secret, rw.src))
	}
	after := look
	if n := after.next(); n.kind != tokEnd && n.kind != tokSemicolon {
		return false, syntaxError("SET PASSWORD: unexpected text after the password")
	}
	if account == "" {
		return false, unsupported("SET PASSWORD without FOR needs a client session")
	}
	rw.replace(first.start, secret.end, "ALTER USER "+account+" IDENTIFIED BY "+secret.text(rw.src))
	*sc = look
	return true, nil
}

// passwordAccount reads the account after SET PASSWORD FOR, as written
// ('user'@'host', user@host or user), and the token after it.
func (rw *rewriter) passwordAccount(sc *scanner) (string, token, error) {
	start, end := -1, -1
	for {
		t := sc.next()
		if t.kind == tokEnd || t.kind == tokSemicolon || t.isPunct(rw.src, '=') {
			if start < 0 {
				return "", t, syntaxError("SET PASSWORD FOR: expected an account but found %s", describe(t, rw.src))
			}
			return rw.src[start:end], t, nil
		}
		if start < 0 {
			start = t.start
		}
		end = t.end
	}
}
