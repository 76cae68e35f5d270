package sqllogictest

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// dependencies follows what a script's refused-by-design statements take
// away from the records after them. A refused CREATE TABLE leaves a
// table missing; a refused write, or a write skipped for reading a
// missing table, leaves its target table without rows the script expects
// it to have. A later record that names such a table cannot be judged: it
// still runs, so that the database evolves as the script intends, but it
// is skipped with the reason, whether its answer happens to match or not.
// Counting only the failures would hide wrong answers among the skips;
// counting only the passes would credit answers over the wrong data.
type dependencies struct {
	// missing are the tables whose CREATE TABLE was refused.
	missing map[string]string
	// incomplete are the tables that lack a refused or skipped write.
	incomplete map[string]string
}

var (
	createdTable = regexp.MustCompile("(?is)^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?`?(\\w+)")
	writtenTable = regexp.MustCompile("(?is)^\\s*(?:(?:INSERT|REPLACE)\\s+(?:INTO\\s+)?|UPDATE\\s+|DELETE\\s+FROM\\s+)`?(\\w+)")
	word         = regexp.MustCompile(`\w+`)
)

// refused notes what a statement refused by design leaves out.
func (d *dependencies) refused(rec *Record) {
	if m := createdTable.FindStringSubmatch(rec.SQL); m != nil {
		note(&d.missing, m[1], fmt.Sprintf("its CREATE TABLE (line %d) was refused by design", rec.Line))
		return
	}
	d.lacksWrite(rec, "was refused by design")
}

// judge skips a record that names a missing or incomplete table. A
// statement that writes a table then leaves that table incomplete too.
func (d *dependencies) judge(rec *Record, res *Result, err error) {
	if res.Outcome == Skipped {
		return
	}
	table, why := d.missingTable(rec.SQL, err)
	if table == "" {
		table, why = d.incompleteTable(rec.SQL)
	}
	if table == "" {
		return
	}
	res.Outcome, res.Reason = Skipped, fmt.Sprintf("needs %s: %s", table, why)
	d.lacksWrite(rec, fmt.Sprintf("was skipped as it needs %s", table))
}

// errNoSuchTable is MySQL's ER_NO_SUCH_TABLE.
const errNoSuchTable = 1146

// missingTable returns the table of a refused CREATE TABLE that sql names,
// when it failed for a missing table; any other error still fails it.
func (d *dependencies) missingTable(sql string, err error) (table, why string) {
	var merr *mysql.MySQLError
	if len(d.missing) == 0 || !errors.As(err, &merr) || merr.Number != errNoSuchTable {
		return "", ""
	}
	return named(d.missing, sql)
}

func (d *dependencies) incompleteTable(sql string) (table, why string) {
	return named(d.incomplete, sql)
}

// lacksWrite marks the table a write statement targets as lacking its
// rows.
func (d *dependencies) lacksWrite(rec *Record, what string) {
	if m := writtenTable.FindStringSubmatch(rec.SQL); m != nil {
		note(&d.incomplete, m[1], fmt.Sprintf("it lacks the write of line %d, which %s", rec.Line, what))
	}
}

func note(tables *map[string]string, table, why string) {
	if *tables == nil {
		*tables = map[string]string{}
	}
	table = strings.ToLower(table)
	if _, ok := (*tables)[table]; !ok {
		(*tables)[table] = why
	}
}

// named returns the first word of sql that is one of tables.
func named(tables map[string]string, sql string) (table, why string) {
	if len(tables) == 0 {
		return "", ""
	}
	for _, w := range word.FindAllString(sql, -1) {
		if why, ok := tables[strings.ToLower(w)]; ok {
			return strings.ToLower(w), why
		}
	}
	return "", ""
}
