package duckplan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
)

// avgScaleIncrement is what AVG adds to the scale of an exact argument
// (MySQL's div_precision_increment, 4 by default, as gmsfix types it).
const avgScaleIncrement = 4

// exactAvg is AVG of an integer or a DECIMAL arg as lakesql computes it
// (gmsfix.WrappedAvg): the exact sum of the values divided by their
// count, rounded half away from zero to the scale of typ, DECIMAL(p+4,
// s+4). DuckDB's avg is a DOUBLE and so is its division of DECIMALs, so
// the quotient is computed in HUGEINTs over unscaled values: with S the
// sum in units of the argument's scale and c the count,
//
//	S·10⁴/c = (S // c)·10⁴ + (S % c)·10⁴/c
//
// where // truncates and % takes the dividend's sign, as DuckDB's do;
// the second term, under c·10⁴ in magnitude, is rounded by adding half
// of c away from zero before truncating. The result is that unscaled
// number times 10^-(s+4), a multiplication DuckDB does exactly. Without
// values S is NULL, and so is the average.
func (x *exprs) exactAvg(arg sql.Expression, typ sql.DecimalType) (string, error) {
	s, c, err := x.value(arg)
	if err != nil {
		return "", err
	}
	if c != classInt && c != classDecimal {
		return "", fmt.Errorf("duckplan: AVG of type %s is not translated", arg.Type())
	}
	from, to := scaleOf(arg), int(typ.Scale())
	if int(typ.Precision()) > maxDuckDecimal || to != from+avgScaleIncrement {
		return "", fmt.Errorf("duckplan: AVG of type %s (a result wider than %d digits) is not translated", arg.Type(), maxDuckDecimal)
	}
	sum, err := unscaledSum(s, arg, c, x.over)
	if err != nil {
		return "", err
	}
	count := "count(" + s + ")" + x.over
	shift := "1" + strings.Repeat("0", avgScaleIncrement)
	unscaled := "((" + sum + " // " + count + ") * " + shift +
		" + ((" + sum + " % " + count + ") * " + shift + " + sign(" + sum + ") * (" + count + " // 2)) // " + count + ")"
	unit := "0." + strings.Repeat("0", to-1) + "1"
	return "(CAST(" + unscaled + " AS DECIMAL(38,0)) * CAST('" + unit + "' AS DECIMAL(" + strconv.Itoa(to) + "," + strconv.Itoa(to) + ")))", nil
}

// unscaledSum is the HUGEINT sum of the values s of arg, of class c, in
// units of arg's scale, over the window over (or the group): each DECIMAL
// value is made an integer first, which is exact where its digits and its
// scale's fit DuckDB's 38.
func unscaledSum(s string, arg sql.Expression, c class, over string) (string, error) {
	if c == classInt {
		return "CAST(sum(" + s + ")" + over + " AS HUGEINT)", nil
	}
	d := arg.Type().(sql.DecimalType)
	scale := int(d.Scale())
	if int(d.Precision())+scale > maxDuckDecimal {
		return "", errors.New("duckplan: AVG of a DECIMAL whose digits and scale exceed 38 is not translated")
	}
	if scale == 0 {
		return "sum(CAST(" + s + " AS HUGEINT))" + over, nil
	}
	shift := "1" + strings.Repeat("0", scale)
	return "sum(CAST(" + s + " * CAST(" + shift + " AS DECIMAL(" + strconv.Itoa(scale+1) + ",0)) AS HUGEINT))" + over, nil
}
