package randsql

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// domain draws the non-NULL literals of one column. Columns of the same
// name share a domain in every table, and domains are small, so equality
// joins, IN lists, GROUP BY and DISTINCT meet matching and repeated values.
type domain func(r *rand.Rand) string

// The domains keep every value where MySQL and MariaDB agree (doc.go,
// collation): strings are lowercase ASCII letters and digits (and '-' in
// fixed formats) without trailing spaces, and doubles are multiples of 1/4 (exact in binary, so
// sums do not depend on their order) except for a few tenths that are not.
var (
	idDomain     = intRange(1, 40)
	smallDomain  = intRange(-2, 8)
	countDomain  = intRange(0, 30)
	amountDomain = decimalSteps(-200, 800, 25, 2) // -50.00 .. 200.00 by 0.25
	rateDomain   = decimalSteps(-80, 80, 125, 3)  // -10.000 .. 10.000 by 0.125
	qtyDomain    = decimalSteps(-20, 50, 1, 0)    // whole numbers
	tagDomain    = pick("", "a", "ab", "abc", "b", "ba", "x1", "x10", "x2", "z")
	regionDomain = pick("apac", "eu", "latam", "us")
	dayDomain    = pick("2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05")
	codeDomain   = pick("", "a", "a1", "b", "zz", "zzzz")
	dateDomain   = pick("2023-12-31", "2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-02-29")
)

func intRange(lo, hi int) domain {
	return func(r *rand.Rand) string { return fmt.Sprint(lo + r.IntN(hi-lo+1)) }
}

// decimalSteps draws n·step units of 10^-scale for n in [lo, hi], written
// with exactly scale fraction digits, as MySQL prints the column.
func decimalSteps(lo, hi, step, scale int) domain {
	return func(r *rand.Rand) string {
		return formatUnits(int64((lo+r.IntN(hi-lo+1))*step), scale)
	}
}

// formatUnits writes units·10^-scale as a decimal literal.
func formatUnits(units int64, scale int) string {
	if scale == 0 {
		return fmt.Sprint(units)
	}
	unit := int64(1)
	for range scale {
		unit *= 10
	}
	sign := ""
	if units < 0 {
		sign, units = "-", -units
	}
	return fmt.Sprintf("%s%d.%0*d", sign, units/unit, scale, units%unit)
}

func pick(values ...string) domain {
	return func(r *rand.Rand) string { return quote(values[r.IntN(len(values))]) }
}

// doubleDomain draws multiples of 1/4 in [-20, 20], and one value in ten a
// multiple of 1/10, whose sums depend on the order of addition: those
// columns exercise the comparator's float tolerance.
func doubleDomain(r *rand.Rand) string {
	if r.IntN(10) == 0 {
		return fmt.Sprintf("%.1f", float64(r.IntN(401)-200)/10)
	}
	return fmt.Sprintf("%.2f", float64(r.IntN(161)-80)/4)
}

func noteDomain(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteByte(letters[r.IntN(len(letters))])
	}
	return quote(b.String())
}

func datetimeDomain(r *rand.Rand) string {
	day := 1 + r.IntN(5)
	hours := []int{0, 6, 12, 23}
	minutes := []int{0, 30, 59}
	return fmt.Sprintf("'2024-01-%02d %02d:%02d:%02d'", day, hours[r.IntN(len(hours))],
		minutes[r.IntN(len(minutes))], 59*r.IntN(2))
}

// quote is a string literal; domains never contain quotes or backslashes.
func quote(s string) string { return "'" + s + "'" }
