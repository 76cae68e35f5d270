package sqltypes

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/shopspring/decimal"
)

// DecimalDefinesColumn reports whether t is a DECIMAL type that GMS
// v0.20.0 gives a table's column or a CAST (DecimalType_.definesColumn,
// which is not exported): such a type rounds the values it converts to
// its scale, compares them at it and formats them with exactly its scale
// of digits, where any other DECIMAL type (a SUM's, a division's) keeps
// each value's own scale. It is probed with a value one digit finer than
// the scale.
func DecimalDefinesColumn(t sql.Type) bool {
	d, ok := t.(sql.DecimalType)
	if !ok {
		return false
	}
	finer := decimal.New(1, -int32(d.Scale())-1)
	got, err := d.ConvertToNullDecimal(finer)
	return err != nil || !got.Decimal.Equal(finer)
}
