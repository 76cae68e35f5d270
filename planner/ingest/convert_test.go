package ingest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

func TestConvertersKeepExactValuesAndRefuseTheRest(t *testing.T) {
	dec := spec.DataType{Root: spec.Decimal, Precision: 6, Scale: 2}
	wideDec := spec.DataType{Root: spec.Decimal, Precision: 30, Scale: 4}
	varchar3 := spec.DataType{Root: spec.VarChar, Length: 3}
	char3 := spec.DataType{Root: spec.Char, Length: 3}
	ts3 := spec.DataType{Root: spec.Timestamp, Precision: 3}
	for _, c := range []struct {
		typ  spec.DataType
		text string
		want string // %v of the value, or "error NNNN"
	}{
		{spec.DataType{Root: spec.BigInt}, "-9223372036854775808", "-9223372036854775808"},
		{spec.DataType{Root: spec.BigInt}, "9223372036854775808", "error 1264"},
		{spec.DataType{Root: spec.Int}, "+42", "42"},
		{spec.DataType{Root: spec.Int}, "2147483648", "error 1264"},
		{spec.DataType{Root: spec.TinyInt}, "-129", "error 1264"},
		{spec.DataType{Root: spec.Int}, "", "error 1366"},
		{spec.DataType{Root: spec.Int}, "1.0", "error 1366"},
		{spec.DataType{Root: spec.Int}, " 1", "error 1366"},
		{spec.DataType{Root: spec.Boolean}, "2", "true"},
		{spec.DataType{Root: spec.Double}, "-1.5e3", "-1500"},
		{spec.DataType{Root: spec.Double}, "0x10", "error 1366"},
		{spec.DataType{Root: spec.Double}, "NaN", "error 1366"},
		{spec.DataType{Root: spec.Float}, ".25", "0.25"},
		{dec, "1234.56", "1234.56"},
		{dec, "-0.005", "-0.01"},
		{dec, "0.004", "0.00"},
		{dec, "9999.994", "9999.99"},
		{dec, "9999.995", "error 1264"},
		{dec, "00012.5", "12.50"},
		{dec, "5.", "5.00"},
		{dec, "12345", "error 1264"},
		{dec, "1e2", "error 1366"},
		{dec, "-", "error 1366"},
		{wideDec, "12345678901234567890123456.12345", "12345678901234567890123456.1235"},
		{wideDec, "-12345678901234567890123456.1", "-12345678901234567890123456.1000"},
		{varchar3, "héé", "héé"},
		{varchar3, "abc  ", "abc"},
		{varchar3, "abcd", "error 1406"},
		{varchar3, "\xff", "error 1366"},
		{char3, "ab  ", "ab"},
		{spec.DataType{Root: spec.Date}, "2024-02-29", "2024-02-29"},
		{spec.DataType{Root: spec.Date}, "2024-1-5", "2024-01-05"},
		{spec.DataType{Root: spec.Date}, "2023-02-29", "error 1292"},
		{spec.DataType{Root: spec.Date}, "0000-00-00", "error 1292"},
		{spec.DataType{Root: spec.Date}, "2024-01-01 00:00:00", "error 1292"},
		{ts3, "2024-01-01 23:59:59.9996", "2024-01-02 00:00:00.000"},
		{ts3, "2024-01-01T10:11:12.5", "2024-01-01 10:11:12.500"},
		{ts3, "2024-01-01", "2024-01-01 00:00:00.000"},
		{ts3, "2024-01-01 24:00:00", "error 1292"},
	} {
		t.Run(fmt.Sprintf("%v %q", c.typ.Root, c.text), func(t *testing.T) {
			convert, ok := ConverterFor(c.typ)
			if !ok {
				t.Fatal("no converter")
			}
			v, err := convert([]byte(c.text))
			if got := render(v, err, c.typ); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func render(v any, err error, typ spec.DataType) string {
	var ve *ValueError
	if errors.As(err, &ve) {
		return fmt.Sprintf("error %d", ve.Code)
	}
	if err != nil {
		return err.Error()
	}
	switch x := v.(type) {
	case spec.DecimalValue:
		return x.String()
	case spec.TimestampValue:
		return x.Format(typ.Precision)
	}
	return fmt.Sprint(v)
}

func TestTargetChecksFieldCountsAndNulls(t *testing.T) {
	fields := []spec.DataField{
		{Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "note", Type: spec.DataType{Root: spec.VarChar, Length: 10, Nullable: true}},
	}
	target, ok := NewTarget(fields, []int{1, 0})
	if !ok {
		t.Fatal("no target")
	}
	row, err := target.Row([]Field{{Null: true}, {Text: []byte("7")}}, 1)
	if err != nil || fmt.Sprint(row) != "[7 <nil>]" {
		t.Fatalf("row %v, error %v", row, err)
	}
	for _, c := range []struct {
		line []Field
		want string
	}{
		{[]Field{{Text: []byte("x")}}, "Row 3 doesn't contain data for all columns"},
		{[]Field{{Text: []byte("x")}, {Text: []byte("1")}, {}}, "Row 3 was truncated; it contained more data than there were input columns"},
		{[]Field{{Text: []byte("x")}, {Null: true}}, "Column 'id' cannot be null"},
		{[]Field{{Text: []byte("x")}, {Text: []byte("y")}}, "Incorrect integer value: 'y' for column 'id' at row 3"},
	} {
		if _, err := target.Row(c.line, 3); err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %s", c.line, err, c.want)
		}
	}
}
