package metamorphic

import (
	"fmt"
	"slices"
)

// model is the expected content of the table after a prefix of the
// snapshot log (see the package comment for the rule it applies).
type model struct {
	pk bool
	// keyed holds, for a primary-key table, the winning record of each
	// (dt, pk), retractions included: a DELETE with a larger sequence
	// still hides an older row committed later.
	keyed map[[2]any]record
	// rows holds every row of an append table.
	rows []record
}

func newModel(pk bool) *model { return &model{pk: pk, keyed: map[[2]any]record{}} }

// apply replays the part of b that snapshot kind published.
func (m *model) apply(b *batch, part string) {
	if part == partCompact {
		return // an upgrade moves a file; no row changes
	}
	if b.overwrite {
		m.clear(b.target())
	}
	for _, r := range b.records {
		m.add(r)
	}
}

func (m *model) clear(target map[string]bool) {
	for k, r := range m.keyed {
		if target[r.dt] {
			delete(m.keyed, k)
		}
	}
	m.rows = slices.DeleteFunc(m.rows, func(r record) bool { return target[r.dt] })
}

func (m *model) add(r record) {
	if !m.pk {
		m.rows = append(m.rows, r)
		return
	}
	k := [2]any{r.dt, r.pk}
	if old, ok := m.keyed[k]; !ok || old.seq < r.seq {
		m.keyed[k] = r
	}
}

// render returns the visible rows as table.Read's rows render, sorted.
func (m *model) render() []string {
	var out []string
	if m.pk {
		for _, r := range m.keyed {
			if !r.retracted {
				out = append(out, renderRecord(r))
			}
		}
	} else {
		for _, r := range m.rows {
			out = append(out, renderRecord(r))
		}
	}
	slices.Sort(out)
	return out
}

func renderRecord(r record) string { return fmt.Sprintf("%s|%d|%d|%d", r.dt, r.pk, r.v, r.seq) }

// renderRow renders a row read from the table like renderRecord.
func renderRow(row []any) string {
	out := ""
	for i, v := range row {
		if i > 0 {
			out += "|"
		}
		if v == nil {
			out += "NULL"
		} else {
			out += fmt.Sprint(v)
		}
	}
	return out
}
