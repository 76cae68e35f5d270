package schema

import (
	"math"
	"math/big"
	"testing"
)

// Expected strings are what Double.toString / Float.toString print on
// JDK 19 and later.
func TestJavaDoubleString(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{100, "100.0"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{1e-5, "1.0E-5"},
		{9999999, "9999999.0"},
		{1e7, "1.0E7"},
		{12345.678, "12345.678"},
		{123456789, "1.23456789E8"},
		{1e23, "1.0E23"},
		{math.Pow(2, 63), "9.223372036854776E18"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{math.SmallestNonzeroFloat64, "4.9E-324"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, tt := range tests {
		if got := javaFloatString(tt.in, 64); got != tt.want {
			t.Errorf("Double.toString(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJavaFloatString(t *testing.T) {
	tests := []struct {
		in   float32
		want string
	}{
		{0.1, "0.1"},
		{1.1, "1.1"},
		{3.14, "3.14"},
		{-2.5, "-2.5"},
		{16777216, "1.6777216E7"},
		{9999999, "9999999.0"},
		{0.001, "0.001"},
		{math.MaxFloat32, "3.4028235E38"},
		{math.SmallestNonzeroFloat32, "1.4E-45"},
	}
	for _, tt := range tests {
		if got := javaFloatString(float64(tt.in), 32); got != tt.want {
			t.Errorf("Float.toString(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJavaParseFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"1.5", 1.5},
		{" \t1.5\n", 1.5},
		{"1.5f", 1.5},
		{"2D", 2},
		{"1e3", 1000},
		{"+.5e-1", 0.05},
		{"5.", 5},
		{".5", 0.5},
		{"-0", math.Copysign(0, -1)},
		{"0x1.8p1", 3},
		{"0X10P-4d", 1},
		{"1e400", math.Inf(1)},
		{"-1e400", math.Inf(-1)},
		{"1e-400", 0},
		{"Infinity", math.Inf(1)},
		{"-Infinity", math.Inf(-1)},
	}
	for _, tt := range tests {
		got, err := javaParseFloat(tt.in, 64)
		if err != nil || got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("parseDouble(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if got, err := javaParseFloat("NaN", 64); err != nil || !math.IsNaN(got) {
		t.Errorf("parseDouble(NaN) = %v, %v", got, err)
	}
	for _, bad := range []string{"", " ", "abc", "inf", "infinity", "nan", "1_000", "1e", "e5", ".", "1.5 f",
		"0x1.8", "0x1p", "NaNf", "1.2.3", "--1", "1e+-2", "١"} {
		if got, err := javaParseFloat(bad, 64); err == nil {
			t.Errorf("parseDouble(%q) = %v, want NumberFormatException", bad, got)
		}
	}
	if got, _ := javaParseFloat("0.1", 32); float32(got) != float32(0.1) {
		t.Errorf("parseFloat(0.1) = %v", got)
	}
}

func TestParseBigDecimal(t *testing.T) {
	tests := []struct {
		in       string
		unscaled int64
		scale    int
	}{
		{"1.5", 15, 1},
		{"-1.50", -150, 2},
		{"+7", 7, 0},
		{"1E+3", 1, -3},
		{"1e-3", 1, 3},
		{"12.5e2", 125, -1},
		{".5", 5, 1},
		{"5.", 5, 0},
		{"00012", 12, 0},
		{"١٢.٥", 125, 1}, // Arabic-Indic digits count, as Character.digit says
	}
	for _, tt := range tests {
		got, ok := parseBigDecimal(tt.in)
		if !ok || got.unscaled.Cmp(big.NewInt(tt.unscaled)) != 0 || got.scale != tt.scale {
			t.Errorf("BigDecimal(%q) = %v/%d %v; want %d/%d", tt.in, got.unscaled, got.scale, ok, tt.unscaled, tt.scale)
		}
	}
	for _, bad := range []string{"", "-", ".", " 1", "1 ", "1.2.3", "1e", "e1", "1e1.5", "0x10", "NaN", "1,5"} {
		if _, ok := parseBigDecimal(bad); ok {
			t.Errorf("BigDecimal(%q) parsed, want NumberFormatException", bad)
		}
	}
}

func TestSetScaleHalfUp(t *testing.T) {
	tests := []struct {
		unscaled int64
		scale    int
		newScale int
		want     int64
	}{
		{125, 3, 2, 13},
		{-125, 3, 2, -13},
		{124, 3, 2, 12},
		{15, 1, 0, 2},
		{-25, 1, 0, -3},
		{-24, 1, 0, -2},
		{2, 2, 3, 20},
		{5, -1, 1, 500},
	}
	for _, tt := range tests {
		got := bigDecimal{unscaled: big.NewInt(tt.unscaled), scale: tt.scale}.setScaleHalfUp(tt.newScale)
		if got.unscaled.Int64() != tt.want || got.scale != tt.newScale {
			t.Errorf("%d e-%d setScale(%d) = %v, want %d", tt.unscaled, tt.scale, tt.newScale, got.unscaled, tt.want)
		}
	}
}

func TestLowInt64Wraps(t *testing.T) {
	x, _ := new(big.Int).SetString("18446744073709551617", 10) // 2^64 + 1
	if got := lowInt64(x); got != 1 {
		t.Errorf("lowInt64(2^64+1) = %d", got)
	}
	if got := lowInt64(new(big.Int).Neg(x)); got != -1 {
		t.Errorf("lowInt64(-(2^64+1)) = %d", got)
	}
	y, _ := new(big.Int).SetString("9223372036854775808", 10) // 2^63
	if got := lowInt64(y); got != math.MinInt64 {
		t.Errorf("lowInt64(2^63) = %d", got)
	}
}

func TestJavaFloatToInt(t *testing.T) {
	tests := []struct {
		in    float64
		int32 int32
		int64 int64
	}{
		{1.9, 1, 1},
		{-1.9, -1, -1},
		{math.NaN(), 0, 0},
		{1e20, math.MaxInt32, math.MaxInt64},
		{-1e20, math.MinInt32, math.MinInt64},
		{math.Inf(1), math.MaxInt32, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := javaFloatToInt32(tt.in); got != tt.int32 {
			t.Errorf("(int) %v = %d, want %d", tt.in, got, tt.int32)
		}
		if got := javaFloatToInt64(tt.in); got != tt.int64 {
			t.Errorf("(long) %v = %d, want %d", tt.in, got, tt.int64)
		}
	}
}
