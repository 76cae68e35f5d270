package spec

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// DefaultPartitionName is the default of partition.default-name: the path
// value Java writes for a null or whitespace-only partition value.
const DefaultPartitionName = "__DEFAULT_PARTITION__"

// pathCharsToEscape are the printable ASCII characters
// PartitionPathUtils.escapePathName escapes; control characters and DEL are
// escaped too. Non-ASCII characters never are.
const pathCharsToEscape = "\"#%'*/:=?\\{}[]^"

// PartitionPath returns the partition directory "k1=v1/k2=v2" (no trailing
// slash) that Java derives for a partition (InternalRowPartitionComputer +
// PartitionPathUtils.generatePartitionPath): keys and value strings are
// escaped, and a null or whitespace-only value string becomes defaultName.
//
// With legacyName (partition.legacy-name, default true) the value string is
// Java's toString of the internal value: DATE as its epoch-day number, TIME
// as milliseconds of the day, TIMESTAMP as LocalDateTime.toString
// ("2024-01-01T12:00"), DECIMAL as toPlainString. Otherwise values are CAST
// to STRING ("2024-01-01", "2024-01-01 12:00:00"); Java formats a
// TIMESTAMP_LTZ in the JVM time zone there, lakesql in UTC. FLOAT and DOUBLE
// follow JDK 19+ Float/Double.toString. Legacy BINARY values (Java prints an
// object identity) and composite types fail with lakeerr.ErrUnsupported.
func PartitionPath(keys []string, types []DataType, values []any, defaultName string, legacyName bool) (string, error) {
	if len(types) != len(keys) || len(values) != len(keys) {
		return "", fmt.Errorf("spec: %d partition keys with %d types and %d values: %w",
			len(keys), len(types), len(values), lakeerr.ErrUnsupported)
	}
	parts := make([]string, len(keys))
	for i, key := range keys {
		s, err := partitionValueString(types[i], values[i], legacyName)
		if err != nil {
			return "", fmt.Errorf("spec: partition key %s: %w", key, err)
		}
		if isJavaWhitespaceOnly(s) {
			s = defaultName
		}
		if key == "" || s == "" {
			return "", fmt.Errorf("spec: empty partition path component for %q: %w", key, lakeerr.ErrUnsupported)
		}
		parts[i] = escapePathName(key) + "=" + escapePathName(s)
	}
	return strings.Join(parts, "/"), nil
}

// ParsePartitionPath is the inverse of PartitionPath: it reads the values of
// keys from a relative partition path "k1=v1/k2=v2" (a trailing slash is
// allowed), mapping defaultName back to null. A path whose keys do not
// match or whose values do not parse as their types fails with
// lakeerr.ErrCorruption.
func ParsePartitionPath(path string, keys []string, types []DataType, defaultName string, legacyName bool) ([]any, error) {
	components := strings.Split(strings.Trim(path, "/"), "/")
	if path == "" || strings.Trim(path, "/") == "" {
		components = nil
	}
	if len(components) != len(keys) || len(types) != len(keys) {
		return nil, corruptDataf("partition path %q does not have the %d keys %v", path, len(keys), keys)
	}
	values := make([]any, len(keys))
	for i, component := range components {
		// Java matches ([^/]+)=([^/]+) greedily, so the last '=' separates.
		eq := strings.LastIndexByte(component, '=')
		if eq <= 0 || eq == len(component)-1 || unescapePathName(component[:eq]) != keys[i] {
			return nil, corruptDataf("partition path component %q is not %s=<value>", component, keys[i])
		}
		v, err := ParsePartitionValue(types[i], unescapePathName(component[eq+1:]), defaultName, legacyName)
		if err != nil {
			return nil, corruptDataf("partition path component %q: %v", component, err)
		}
		values[i] = v
	}
	return values, nil
}

// ParsePartitionValue reads one partition value, as a user writes it in a
// partition spec ("dt=2026-04-10": the value's type's string form, or with
// legacyName the form legacy directory names use), in type t; defaultName
// stands for null. Unlike ParsePartitionPath, a value that does not parse
// is the caller's mistake, not corruption: the error has no class.
func ParsePartitionValue(t DataType, value, defaultName string, legacyName bool) (any, error) {
	if value == defaultName {
		return nil, nil
	}
	v, err := parsePartitionValue(t, value, legacyName)
	if err != nil {
		return nil, fmt.Errorf("%q is not a valid %s value: %v", value, t, err)
	}
	return v, nil
}

// escapePathName is PartitionPathUtils.escapePathName: escaped characters
// become '%' and two upper-case hex digits.
func escapePathName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(pathCharsToEscape, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescapePathName is PartitionPathUtils.unescapePathName: "%XX" becomes
// the character XX when two characters follow the '%' and parse as a
// non-negative hex int (Java's parseInt also takes a sign); anything else is
// kept literally.
func unescapePathName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if code, ok := javaParseHex(s[i+1 : i+3]); ok {
				b.WriteRune(rune(code))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func javaParseHex(s string) (int64, bool) {
	code, err := strconv.ParseInt(s, 16, 32)
	return code, err == nil && code >= 0
}

// isJavaWhitespaceOnly is StringUtils.isNullOrWhitespaceOnly, which uses
// Character.isWhitespace: Unicode space separators except the no-break
// ones, plus \t \n \v \f \r and the separators U+001C..U+001F.
func isJavaWhitespaceOnly(s string) bool {
	for _, r := range s {
		switch {
		case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x1f:
		case r == 0xa0 || r == 0x2007 || r == 0x202f:
			return false
		case unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
		default:
			return false
		}
	}
	return true
}
