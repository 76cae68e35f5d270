package sqltypes

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// declaredType returns the GMS type of a column declared as decl, the way
// GMS's planner builds it from CREATE TABLE.
func declaredType(t *testing.T, decl string) sql.Type {
	t.Helper()
	stmt, err := sqlparser.Parse("CREATE TABLE t (c " + decl + ")")
	if err != nil {
		t.Fatalf("%s: %v", decl, err)
	}
	typ, err := types.ColumnTypeToType(&stmt.(*sqlparser.DDL).TableSpec.Columns[0].Type)
	if err != nil {
		t.Fatalf("%s: %v", decl, err)
	}
	return typ
}

func TestPaimonTypeOfColumnDeclarations(t *testing.T) {
	cases := []struct{ decl, want string }{
		{"boolean", "BOOLEAN"},
		{"bool", "BOOLEAN"},
		{"tinyint(1)", "BOOLEAN"},
		{"tinyint", "TINYINT"},
		{"tinyint(4)", "TINYINT"},
		{"smallint", "SMALLINT"},
		{"mediumint", "INT"},
		{"int", "INT"},
		{"integer", "INT"},
		{"bigint", "BIGINT"},
		{"tinyint(1) unsigned", "SMALLINT"},
		{"tinyint unsigned", "SMALLINT"},
		{"smallint unsigned", "INT"},
		{"mediumint unsigned", "BIGINT"},
		{"int unsigned", "BIGINT"},
		{"bigint unsigned", "DECIMAL(20, 0)"},
		{"decimal(10,2)", "DECIMAL(10, 2)"},
		{"decimal", "DECIMAL(10, 0)"},
		{"numeric(38,30)", "DECIMAL(38, 30)"},
		{"decimal(38,0)", "DECIMAL(38, 0)"},
		{"float", "FLOAT"},
		{"float(30)", "DOUBLE"},
		{"double", "DOUBLE"},
		{"real", "DOUBLE"},
		{"char(3)", "CHAR(3)"},
		{"char", "CHAR(1)"},
		{"varchar(10)", "VARCHAR(10)"},
		{"varchar(16383)", "VARCHAR(16383)"},
		{"tinytext", "STRING"},
		{"text", "STRING"},
		{"mediumtext", "STRING"},
		{"longtext", "STRING"},
		{"binary(16)", "BINARY(16)"},
		{"varbinary(255)", "VARBINARY(255)"},
		{"tinyblob", "BYTES"},
		{"blob", "BYTES"},
		{"mediumblob", "BYTES"},
		{"longblob", "BYTES"},
		{"date", "DATE"},
		{"time", "TIME(0)"},
		{"time(6)", "TIME(0)"},
		{"datetime", "TIMESTAMP(0)"},
		{"datetime(3)", "TIMESTAMP(3)"},
		{"datetime(6)", "TIMESTAMP(6)"},
		{"timestamp", "TIMESTAMP(0) WITH LOCAL TIME ZONE"},
		{"timestamp(6)", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
		{"json", "STRING"},
	}
	for _, c := range cases {
		got, err := PaimonType(declaredType(t, c.decl), true)
		if err != nil {
			t.Errorf("%s: %v", c.decl, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.decl, got, c.want)
		}
	}
}

func TestPaimonTypeKeepsNullability(t *testing.T) {
	for _, nullable := range []bool{true, false} {
		got, err := PaimonType(types.Int64, nullable)
		if err != nil {
			t.Fatal(err)
		}
		if got.Nullable != nullable {
			t.Errorf("nullable %v: got %s", nullable, got)
		}
	}
}

func TestPaimonTypeRefusesTypesPaimonLacks(t *testing.T) {
	cases := []struct{ decl, mention string }{
		{"year", "year"},
		{"enum('a','b')", "enum"},
		{"set('a','b')", "set"},
		{"bit(3)", "bit"},
		{"geometry", "geometry"},
		{"point", "point"},
		{"decimal(39,0)", "at most 38"},
		{"decimal(65,30)", "decimal(65,30)"},
		{"char(0)", "char(0)"},
		{"varbinary(0)", "varbinary(0)"},
	}
	for _, c := range cases {
		_, err := PaimonType(declaredType(t, c.decl), true)
		if !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%s: got %v, want ErrUnsupported", c.decl, err)
			continue
		}
		if !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: error %q does not mention %q", c.decl, err, c.mention)
		}
	}
}

// paimonTypesShownByType lists Paimon types sqltypes.Type maps, covering
// each root and the edges of every length and precision range.
func paimonTypesShownByType() []spec.DataType {
	var out []spec.DataType
	for _, root := range []spec.TypeRoot{spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int,
		spec.BigInt, spec.Float, spec.Double, spec.Date} {
		out = append(out, spec.DataType{Root: root})
	}
	for _, n := range []int{1, 2, 254, 255, 256, 16383, 16384, 65535, 65536, 4194303, 16777215, 16777216, spec.MaxVarLength} {
		for _, root := range []spec.TypeRoot{spec.Char, spec.VarChar, spec.Binary, spec.VarBinary} {
			out = append(out, spec.DataType{Root: root, Length: n})
		}
	}
	for p := 1; p <= 38; p++ {
		for s := 0; s <= p; s++ {
			out = append(out, spec.DataType{Root: spec.Decimal, Precision: p, Scale: s})
		}
	}
	for p := 0; p <= 9; p++ {
		for _, root := range []spec.TypeRoot{spec.Time, spec.Timestamp, spec.TimestampLTZ} {
			out = append(out, spec.DataType{Root: root, Precision: p})
		}
	}
	intType := spec.DataType{Root: spec.Int, Nullable: true}
	out = append(out,
		spec.DataType{Root: spec.Array, Element: &intType},
		spec.DataType{Root: spec.Multiset, Element: &intType},
		spec.DataType{Root: spec.Map, Key: &intType, Value: &intType},
		spec.DataType{Root: spec.Row, Fields: []spec.DataField{{Name: "a", Type: intType}}},
	)
	return out
}

// lossyImage returns what PaimonType(Type(t)) gives for the Paimon types
// whose GMS type several Paimon types share, and false for the types that
// come back unchanged.
func lossyImage(t spec.DataType) (spec.DataType, bool) {
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}
	bytes := spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength}
	switch {
	case t.Root == spec.Char && t.Length > 255 && t.Length <= 16383:
		return spec.DataType{Root: spec.VarChar, Length: t.Length}, true // varchar(n)
	case t.Root == spec.Binary && t.Length > 255 && t.Length <= 65535:
		return spec.DataType{Root: spec.VarBinary, Length: t.Length}, true // varbinary(n)
	case (t.Root == spec.Char || t.Root == spec.VarChar) && t.Length > 16383 && t.Length != spec.MaxVarLength,
		t.Root == spec.Char && t.Length == spec.MaxVarLength:
		return str, true // mediumtext, longtext
	case (t.Root == spec.Binary || t.Root == spec.VarBinary) && t.Length > 65535 && t.Length != spec.MaxVarLength,
		t.Root == spec.Binary && t.Length == spec.MaxVarLength:
		return bytes, true // mediumblob, longblob
	case t.Root == spec.Time && t.Precision != 0:
		return spec.DataType{Root: spec.Time}, true // time(6)
	case (t.Root == spec.Timestamp || t.Root == spec.TimestampLTZ) && t.Precision > 6:
		return spec.DataType{Root: t.Root, Precision: 6}, true // datetime(6), timestamp(6)
	case t.Root == spec.Array || t.Root == spec.Multiset || t.Root == spec.Map || t.Root == spec.Row:
		return str, true // json
	}
	return spec.DataType{}, false
}

// TestPaimonTypeInvertsType checks PaimonType(Type(t)) == t for every type
// the mapping keeps apart, and the documented image for the lossy ones.
func TestPaimonTypeInvertsType(t *testing.T) {
	var exact, lossy, unshown int
	for _, base := range paimonTypesShownByType() {
		for _, nullable := range []bool{true, false} {
			pt := base.WithNullable(nullable)
			gms, err := DeclaredType(pt)
			if err != nil {
				// GMS's decimal scale stops at 30.
				if pt.Root != spec.Decimal || pt.Scale <= 30 {
					t.Errorf("Type(%s): %v", pt, err)
				}
				unshown++
				continue
			}
			got, err := PaimonType(gms, nullable)
			if err != nil {
				t.Errorf("PaimonType(%s) of %s: %v", gms, pt, err)
				continue
			}
			want := pt
			if image, ok := lossyImage(pt); ok {
				want = image.WithNullable(nullable)
				lossy++
			} else {
				exact++
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s -> %s -> %s, want %s", pt, gms, got, want)
			}
		}
	}
	if exact == 0 || lossy == 0 || unshown == 0 {
		t.Errorf("exact %d, lossy %d, not shown %d: each class should be exercised", exact, lossy, unshown)
	}
	t.Logf("exact %d, lossy %d, not shown by Type %d", exact, lossy, unshown)
}
