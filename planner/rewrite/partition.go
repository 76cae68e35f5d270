package rewrite

import "strings"

// partition refuses MySQL partition syntax that go-mysql-server v0.20.0
// parses and then ignores (go-mysql-server.md §0 item 8 and §4.3): a
// partition list after a table name, which would make a DELETE hit every
// partition, and ALTER TABLE partition management, which reports success
// and does nothing. t is the word PARTITION or PARTITIONING; before and
// prev are the two tokens before it.
func (rw *rewriter) partition(sc *scanner, st statement, before, prev, t token) error {
	if st.kind == stmtAlter {
		return rw.alterPartition(st, prev, t)
	}
	look := *sc
	if !t.is(rw.src, "PARTITION") || !look.next().isPunct(rw.src, '(') {
		return nil
	}
	selection := prev.text(rw.src) + " PARTITION (" + rw.parenthesised(look) + ")"
	switch {
	case st.kind == stmtDelete:
		return unsupported("DELETE … %s is not supported: the partition list would be ignored and rows deleted from every partition; "+
			"delete a partition's rows with DELETE FROM %s WHERE <partition column> = …", selection, prev.text(rw.src))
	case st.kind == stmtUpdate:
		return unsupported("UPDATE %s is not supported: the partition list would be ignored and rows updated in every partition; "+
			"add WHERE <partition column> = … instead", selection)
	case (st.kind == stmtInsert || st.kind == stmtReplace) && (before.is(rw.src, "INTO") || before == st.first):
		return unsupported("%s … %s is not supported: the partition list would be ignored; "+
			"give the partition columns' values in the inserted rows, or replace a partition with "+
			"INSERT OVERWRITE %s PARTITION (<column> = <value>) …", strings.ToUpper(st.first.text(rw.src)), selection, prev.text(rw.src))
	}
	return unsupported("%s: selecting partitions is not supported: the partition list would be ignored and every partition read; "+
		"filter on the partition columns with WHERE instead", selection)
}

// parenthesised returns the text inside the parentheses whose '(' was just
// read by look, for messages.
func (rw *rewriter) parenthesised(look scanner) string {
	start, end, depth := look.pos, look.pos, 1
	for depth > 0 {
		t := look.next()
		switch {
		case t.kind == tokEnd || t.kind == tokSemicolon:
			return rw.src[start:end]
		case t.isPunct(rw.src, '('):
			depth++
		case t.isPunct(rw.src, ')'):
			depth--
		}
		if depth > 0 {
			end = t.end
		}
	}
	return strings.TrimSpace(rw.src[start:end])
}

// alterPartition refuses any ALTER statement that mentions partitions.
func (rw *rewriter) alterPartition(st statement, prev, t token) error {
	table := rw.alterTarget(st)
	op := ""
	if prev.kind == tokWord {
		op = strings.ToUpper(prev.text(rw.src))
	}
	switch op {
	case "DROP", "TRUNCATE":
		return unsupported("ALTER TABLE %s %s PARTITION is not supported (go-mysql-server would accept it and do nothing); "+
			"delete a partition's rows with DELETE FROM %s WHERE <partition column> = …", table, op, table)
	case "EXCHANGE":
		return unsupported("ALTER TABLE %s EXCHANGE PARTITION is not supported (go-mysql-server would accept it and do nothing); "+
			"replace a partition with INSERT OVERWRITE %s PARTITION (<column> = <value>) SELECT … FROM <other table>", table, table)
	}
	clause := strings.ToUpper(t.text(rw.src))
	if alterPartitionOps[op] {
		clause = op + " " + clause
	}
	return unsupported("ALTER TABLE %s … %s is not supported: a Paimon table's partitions follow the partition keys it was created with "+
		"and cannot be changed with ALTER TABLE", table, clause)
}

// alterPartitionOps are the MySQL ALTER TABLE operations written as
// "<op> PARTITION" or "REMOVE PARTITIONING".
var alterPartitionOps = map[string]bool{
	"ADD": true, "ANALYZE": true, "CHECK": true, "COALESCE": true, "DISCARD": true, "IMPORT": true,
	"OPTIMIZE": true, "REBUILD": true, "REMOVE": true, "REORGANIZE": true, "REPAIR": true,
}

// alterTarget names the table of ALTER TABLE name, for messages.
func (rw *rewriter) alterTarget(st statement) string {
	sc := newScanner(rw.src)
	sc.pos = st.first.end
	if !sc.next().is(rw.src, "TABLE") {
		return "<table>"
	}
	qn, ok := scanQualifiedName(&sc, rw.src)
	if !ok {
		return "<table>"
	}
	return rw.src[qn.start:qn.end]
}
