package sysprocs

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/spec"
)

// isDefault reports whether a string argument asks for the default: NULL
// reaches a procedure as the empty string, and 0 means the default for every argument.
func isDefault(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == "0"
}

// parseOlderThan reads an older_than argument: a datetime in loc, or an age
// (a Paimon duration with a unit) before now. nil means the default.
func parseOlderThan(proc, s string, loc *time.Location, now time.Time) (*time.Time, error) {
	if isDefault(s) {
		return nil, nil
	}
	if age, ok := parseAge(s); ok {
		at := now.Add(-age)
		return &at, nil
	}
	at, err := parseDatetime(s, loc)
	if err != nil {
		return nil, badArgument(proc, "older_than %q is neither a datetime such as '2026-04-16 10:00:00' nor an age such as '12 h' or '7 d'", s)
	}
	return &at, nil
}

// parseAge reads a Paimon duration that names its unit: a bare number is
// refused, since older_than 5 is more likely a mistake than 5 ms ago.
func parseAge(s string) (time.Duration, bool) {
	trimmed := strings.TrimSpace(s)
	if strings.Trim(trimmed, "0123456789") == "" {
		return 0, false
	}
	d, err := spec.ParseDuration(trimmed)
	return d, err == nil
}

var errNotDatetime = errors.New("not a datetime")

// parseDatetime reads a MySQL date or datetime as the SQL layer reads the
// value of AS OF: wall-clock time in loc unless it ends with an offset.
func parseDatetime(s string, loc *time.Location) (time.Time, error) {
	tt, err := rewrite.ParseAsOf(s, loc)
	if err != nil {
		return time.Time{}, err
	}
	if tt.TimestampMillis == nil {
		return time.Time{}, errNotDatetime
	}
	return time.UnixMilli(*tt.TimestampMillis), nil
}

// optionalCount reads a count argument whose 0 (or NULL) means the default.
func optionalCount(proc, name string, v int64) (*int, error) {
	switch {
	case v == 0:
		return nil, nil
	case v < 0:
		return nil, badArgument(proc, "%s %d must not be negative (0 or NULL means the table's setting)", name, v)
	case v > math.MaxInt32:
		return nil, badArgument(proc, "%s %d is too large", name, v)
	}
	n := int(v)
	return &n, nil
}

// parseRetention reads a tag's time_retained, a Paimon duration ('1 d',
// '12 h'); the empty string (or NULL) and 0 mean the tag is kept until deleted.
func parseRetention(proc, s string) (*time.Duration, error) {
	if isDefault(s) {
		return nil, nil
	}
	d, err := spec.ParseDuration(s)
	if err != nil {
		return nil, badArgument(proc, "time_retained %q is not a duration such as '1 d' or '12 h': %v", s, err)
	}
	return &d, nil
}

// parseRollbackTarget reads a snapshot id (a whole number) or a tag name.
// A negative number is an out-of-range snapshot id: looking it up as a tag
// would answer rollback_to(t, -1) with "tag -1 not found", which is not
// what the caller meant.
func parseRollbackTarget(proc, s string) (maintenance.RollbackTarget, error) {
	trimmed := strings.TrimSpace(s)
	if trimmed == "" {
		return maintenance.RollbackTarget{}, badArgument(proc, "name a snapshot id or a tag to roll back to")
	}
	if isDigits(strings.TrimPrefix(trimmed, "-")) {
		id, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil || id < 1 {
			return maintenance.RollbackTarget{}, badArgument(proc, "snapshot id %s is out of range; snapshot ids start at 1", trimmed)
		}
		return maintenance.RollbackTarget{SnapshotID: id}, nil
	}
	return maintenance.RollbackTarget{Tag: s}, nil
}

// checkTagName refuses a tag name that reads as a number, signed or
// padded: rollback_to and AS OF read such a name as a snapshot id, so the
// tag could never be reached by its name. Paimon Java 0.5 and 0.6 refused
// purely numeric names too (TagManager.createTag); 0.7 allowed them for
// its date-formatted automatic tags, which it still finds because its
// scan.version looks a tag up before a snapshot, as lakesql's AS OF does
// not.
func checkTagName(proc, tag string) error {
	if trimmed := strings.TrimSpace(tag); isSignedInteger(trimmed) {
		return badArgument(proc, "tag name %q is a number: rollback_to and AS OF read a number as a snapshot id, so the tag could not be reached by its name; give it a name that is not a number, such as 'v%s'",
			tag, trimmed)
	}
	return nil
}

// isSignedInteger reports whether s is a run of ASCII digits, optionally
// signed, as AS OF reads a snapshot id.
func isSignedInteger(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return isDigits(s)
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// parseWatermark reads the value wait_watermark waits for: epoch
// milliseconds, or a datetime in loc.
func parseWatermark(proc, s string, loc *time.Location) (int64, error) {
	trimmed := strings.TrimSpace(s)
	if trimmed == "" {
		return 0, badArgument(proc, "name the watermark to wait for, in epoch milliseconds or as a datetime")
	}
	if ms, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
		return ms, nil
	}
	at, err := parseDatetime(trimmed, loc)
	if err != nil {
		return 0, badArgument(proc, "watermark %q is neither epoch milliseconds nor a datetime such as '2026-04-16 10:00:00'", s)
	}
	return at.UnixMilli(), nil
}
