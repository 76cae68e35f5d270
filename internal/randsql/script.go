package randsql

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Script renders a case and its finding as a self-contained SQL script:
// a header saying what disagreed, the set-up statements one per line
// (tagged when only one engine runs them), the checks, and every
// session's answers as comments. ParseScript reads it back, so a script
// kept under testdata is a regression case.
func Script(c *Case, f *Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- lakesql differential case, seed %d (internal/randsql)\n", c.Seed)
	fmt.Fprintf(&b, "-- found at %s:\n", f.Where)
	for _, d := range f.Diffs {
		fmt.Fprintf(&b, "--   %s vs %s: %s\n", d.A, orNone(d.B), oneLine(d.Mismatch.String()))
	}
	b.WriteString(scriptHelp)
	p := c.Program()
	for _, l := range p.Setup {
		switch {
		case l.LakeSQL && l.MariaDB:
			b.WriteString(l.SQL + ";\n")
		case l.LakeSQL:
			b.WriteString("/* lakesql */ " + l.SQL + ";\n")
		default:
			b.WriteString("/* mariadb */ " + l.SQL + ";\n")
		}
	}
	for _, chk := range p.Checks {
		if f.Query < 0 || !chk.Dump {
			b.WriteString(checkTag(chk) + " " + chk.SQL + ";\n")
		}
	}
	b.WriteString("-- answers at " + f.Where + ":\n")
	for _, a := range f.Answers {
		b.WriteString("-- " + a.Session + ":\n")
		b.WriteString(a.Result.Format("--   "))
	}
	return b.String()
}

const scriptHelp = `--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
`

func checkTag(c Check) string {
	var b strings.Builder
	if c.Dump {
		b.WriteString("/* dump")
	} else {
		b.WriteString("/* check")
	}
	if len(c.Plan.SortKeys) > 0 {
		b.WriteString(" sort=" + joinInts(c.Plan.SortKeys))
	}
	if len(c.Plan.AvgDecimal) > 0 {
		b.WriteString(" avg=" + joinInts(c.Plan.AvgDecimal))
	}
	return b.String() + " */"
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}

var scriptLine = regexp.MustCompile(`^(?:/\* (lakesql|mariadb|check|dump)((?: [a-z]+=[0-9,]+)*) \*/ )?(.+);$`)

// ParseScript reads a script written by Script back into a program.
func ParseScript(text string) (*Program, error) {
	p := &Program{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "--") {
			continue
		}
		m := scriptLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: not a statement ending in ';': %q", n, line)
		}
		switch m[1] {
		case "":
			p.Setup = append(p.Setup, Line{SQL: m[3], LakeSQL: true, MariaDB: true})
		case "lakesql":
			p.Setup = append(p.Setup, Line{SQL: m[3], LakeSQL: true})
		case "mariadb":
			p.Setup = append(p.Setup, Line{SQL: m[3], MariaDB: true})
		default:
			plan, err := parsePlan(m[2])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			p.Checks = append(p.Checks, Check{Label: fmt.Sprintf("%s at line %d", m[1], n), SQL: m[3], Plan: plan, Dump: m[1] == "dump", Query: -1})
		}
	}
	if len(p.Checks) == 0 {
		return nil, fmt.Errorf("no /* check */ or /* dump */ statement")
	}
	return p, sc.Err()
}

func parsePlan(attrs string) (Plan, error) {
	var p Plan
	for _, attr := range strings.Fields(attrs) {
		key, list, _ := strings.Cut(attr, "=")
		var xs []int
		for _, s := range strings.Split(list, ",") {
			x, err := strconv.Atoi(s)
			if err != nil {
				return p, fmt.Errorf("%s: %w", attr, err)
			}
			xs = append(xs, x)
		}
		switch key {
		case "sort":
			p.SortKeys = xs
		case "avg":
			p.AvgDecimal = xs
		default:
			return p, fmt.Errorf("unknown attribute %q", key)
		}
	}
	return p, nil
}
