package maintenance

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// partitionTimeExtractor reads a time out of partition values, as Java's
// PartitionTimeExtractor: the first value, or the pattern with each $key
// replaced by that key's value, parsed with a DateTimeFormatter pattern
// (or, without one, as "yyyy-MM-dd[ HH:mm:ss[.fraction]]"). A pattern
// without time fields parses to midnight. Times are wall-clock readings,
// returned as UTC.
type partitionTimeExtractor struct {
	pattern string
	layout  *javaLayout
}

func newPartitionTimeExtractor(pattern, formatter string) (*partitionTimeExtractor, error) {
	e := &partitionTimeExtractor{pattern: pattern}
	if formatter != "" {
		layout, err := parseJavaLayout(formatter)
		if err != nil {
			return nil, err
		}
		e.layout = layout
	}
	return e, nil
}

func (e *partitionTimeExtractor) extract(keys, values []string) (time.Time, error) {
	text := values[0]
	if e.pattern != "" {
		text = e.pattern
		for i, key := range keys {
			text = strings.ReplaceAll(text, "$"+key, values[i])
		}
	}
	if e.layout == nil {
		return parseDefaultTimestamp(text)
	}
	return e.layout.parse(text)
}

// defaultTimestamp is PartitionTimeExtractor's TIMESTAMP_FORMATTER, with
// the DATE_FORMATTER fallback folded in as the optional time part.
var defaultTimestamp = regexp.MustCompile(`^(\d{1,10})-(\d{1,2})-(\d{1,2})(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,9}))?)?$`)

// parseDefaultTimestamp parses leniently, as Java's ResolverStyle.LENIENT:
// out-of-range fields roll over into the next larger one.
func parseDefaultTimestamp(text string) (time.Time, error) {
	m := defaultTimestamp.FindStringSubmatch(text)
	if m == nil {
		return time.Time{}, fmt.Errorf("%q is not a yyyy-MM-dd[ HH:mm:ss] time", text)
	}
	n := make([]int, 7)
	for i := range n {
		if m[i+1] != "" {
			n[i], _ = strconv.Atoi(m[i+1])
		}
	}
	if m[7] != "" {
		n[6] = fractionNanos(m[7])
	}
	return time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], n[6], time.UTC), nil
}

func fractionNanos(digits string) int {
	nanos, _ := strconv.Atoi((digits + "000000000")[:9])
	return nanos
}

// javaLayout is a java.time.format.DateTimeFormatter pattern, restricted
// to the fields a partition time needs: year (y, u), month (M), day (d),
// hour (H), minute (m), second (s), fraction (S), quoted and plain
// literals.
type javaLayout struct {
	source string
	tokens []layoutToken
}

type layoutToken struct {
	field   byte // 0 for a literal
	count   int
	literal string
}

const layoutFields = "yuMdHmsS"

func parseJavaLayout(pattern string) (*javaLayout, error) {
	l := &javaLayout{source: pattern}
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			lit, next, err := quotedLiteral(pattern, i)
			if err != nil {
				return nil, err
			}
			l.tokens = append(l.tokens, layoutToken{literal: lit})
			i = next
		case strings.IndexByte(layoutFields, c) >= 0:
			j := i
			for j < len(pattern) && pattern[j] == c {
				j++
			}
			l.tokens = append(l.tokens, layoutToken{field: c, count: j - i})
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return nil, fmt.Errorf("timestamp formatter %q: pattern letter %q is not supported: %w", pattern, c, ErrInvalidArgument)
		default:
			l.tokens = append(l.tokens, layoutToken{literal: string(c)})
			i++
		}
	}
	if !l.has('y') && !l.has('u') || !l.has('M') || !l.has('d') {
		return nil, fmt.Errorf("timestamp formatter %q: needs a year, a month and a day: %w", pattern, ErrInvalidArgument)
	}
	return l, nil
}

// quotedLiteral reads a quoted literal starting at pattern[i]; two
// quotes in a row stand for one quote character.
func quotedLiteral(pattern string, i int) (string, int, error) {
	if strings.HasPrefix(pattern[i:], "''") {
		return "'", i + 2, nil
	}
	var b strings.Builder
	for j := i + 1; j < len(pattern); j++ {
		if pattern[j] != '\'' {
			b.WriteByte(pattern[j])
			continue
		}
		if j+1 < len(pattern) && pattern[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return b.String(), j + 1, nil
	}
	return "", 0, fmt.Errorf("timestamp formatter %q: unterminated quote: %w", pattern, ErrInvalidArgument)
}

func (l *javaLayout) has(field byte) bool {
	for _, t := range l.tokens {
		if t.field == field {
			return true
		}
	}
	return false
}

// parse reads text with the layout. A field followed directly by another
// takes exactly its letter count of digits (Java's adjacent value parsing,
// which makes "yyyyMMdd" work); otherwise a single letter takes one or two
// digits and a year as many as there are. Days past the end of the month
// are clamped to it, as Java's default SMART resolver does.
func (l *javaLayout) parse(text string) (time.Time, error) {
	v := map[byte]int{'M': 1, 'd': 1}
	rest := text
	for i, tok := range l.tokens {
		if tok.field == 0 {
			if !strings.HasPrefix(rest, tok.literal) {
				return time.Time{}, fmt.Errorf("%q does not match %q", text, l.source)
			}
			rest = rest[len(tok.literal):]
			continue
		}
		adjacent := i+1 < len(l.tokens) && l.tokens[i+1].field != 0
		digits, err := takeDigits(rest, tok, adjacent)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q does not match %q: %w", text, l.source, err)
		}
		rest = rest[len(digits):]
		if tok.field == 'S' {
			v['S'] = fractionNanos(digits)
			continue
		}
		v[tok.field], _ = strconv.Atoi(digits)
	}
	if rest != "" {
		return time.Time{}, fmt.Errorf("%q does not match %q: trailing %q", text, l.source, rest)
	}
	return resolveSmart(v, text)
}

func takeDigits(s string, tok layoutToken, adjacent bool) (string, error) {
	lo, hi := tok.count, tok.count
	switch {
	case tok.field == 'S' || adjacent:
	case tok.field == 'y' || tok.field == 'u':
		hi = 10
	case tok.count == 1:
		hi = 2
	}
	n := 0
	for n < len(s) && n < hi && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n < lo {
		return "", fmt.Errorf("expected %d digits for %q", lo, strings.Repeat(string(tok.field), tok.count))
	}
	return s[:n], nil
}

func resolveSmart(v map[byte]int, text string) (time.Time, error) {
	year := v['y'] + v['u']
	month, day := v['M'], v['d']
	if month < 1 || month > 12 || day < 1 || day > 31 || v['H'] > 23 || v['m'] > 59 || v['s'] > 59 {
		return time.Time{}, fmt.Errorf("%q is not a valid date-time", text)
	}
	lastDay := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return time.Date(year, time.Month(month), min(day, lastDay), v['H'], v['m'], v['s'], v['S'], time.UTC), nil
}
