package spec

import (
	"math/big"
	"testing"
)

func TestDecimalFitsPrecision(t *testing.T) {
	huge, _ := new(big.Int).SetString("-99999999999999999999", 10) // 20 digits
	cases := []struct {
		d         DecimalValue
		precision int
		want      bool
	}{
		{NewDecimal(99999, 2), 5, true},
		{NewDecimal(-99999, 2), 5, true},
		{NewDecimal(100000, 2), 5, false},
		{NewDecimal(0, 0), 1, true},
		{NewDecimalBig(huge, 0), 20, true},
		{NewDecimalBig(huge, 0), 19, false},
		{NewDecimal(999999999999999999, 0), 18, true},
		{NewDecimal(-1000000000000000000, 0), 18, false},
	}
	for _, c := range cases {
		if got := c.d.FitsPrecision(c.precision); got != c.want {
			t.Errorf("%s fits %d digits: got %v, want %v", c.d, c.precision, got, c.want)
		}
	}
}

func TestDecimalStringKeepsScale(t *testing.T) {
	for d, want := range map[DecimalValue]string{
		NewDecimal(1230, 2): "12.30", NewDecimal(-5, 3): "-0.005", NewDecimal(7, 0): "7", NewDecimal(0, 2): "0.00",
	} {
		if got := d.String(); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

func TestParseRowKindReadsWhatStringWrites(t *testing.T) {
	for k := RowKindInsert; k <= RowKindDelete; k++ {
		if got, err := ParseRowKind(k.String()); err != nil || got != k {
			t.Errorf("ParseRowKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if _, err := ParseRowKind("+X"); err == nil {
		t.Error(`ParseRowKind("+X") succeeded`)
	}
}
