package ddl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/lakesql/lakesql/storage/spec"
)

// optionsMarker starts a table comment that carries Paimon options.
const optionsMarker = "paimon:"

// commentOptions is a table comment split into Paimon options and the free
// text a person wrote.
type commentOptions struct {
	// set maps option keys to values; remove lists the keys given as null.
	set    map[string]string
	remove []string
	text   string
}

// parseComment splits a MySQL table comment of the form
//
//	paimon:{"merge-engine":"partial-update","sequence.field":"ts,seq"} free text
//
// into options and text. The options are a JSON object right after
// "paimon:" (spaces allowed between); its values are strings, or numbers
// and booleans taken as written; null removes an option in ALTER TABLE.
// The free text follows the object, with the whitespace before it dropped.
// A comment that does not start with "paimon:" and a "{" is all free
// text, so a plain comment (even one starting "paimon: …") stays a
// comment.
func parseComment(comment string) (commentOptions, error) {
	body, ok := optionsBody(comment)
	if !ok {
		return commentOptions{text: comment}, nil
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return commentOptions{}, fmt.Errorf("%w: table comment: the Paimon options after %q must be a JSON object "+
			`such as {"bucket":"4"}: %v`, ErrSyntax, optionsMarker, err)
	}
	parsed := commentOptions{
		set:  make(map[string]string, len(raw)),
		text: strings.TrimLeftFunc(body[dec.InputOffset():], unicode.IsSpace),
	}
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		if err := parsed.add(key, raw[key]); err != nil {
			return commentOptions{}, err
		}
	}
	return parsed, nil
}

// optionsBody returns the comment from the JSON object on, if the comment
// starts with the options marker and an object.
func optionsBody(comment string) (string, bool) {
	rest, ok := strings.CutPrefix(comment, optionsMarker)
	if !ok {
		return "", false
	}
	rest = strings.TrimLeft(rest, " ")
	return rest, strings.HasPrefix(rest, "{")
}

func (c *commentOptions) add(key string, value any) error {
	if strings.TrimSpace(key) == "" {
		return fmt.Errorf("%w: table comment: empty Paimon option key", ErrSyntax)
	}
	switch v := value.(type) {
	case string:
		c.set[key] = v
	case json.Number:
		c.set[key] = v.String()
	case bool:
		c.set[key] = fmt.Sprint(v)
	case nil:
		c.remove = append(c.remove, key)
	default:
		return fmt.Errorf("%w: table comment: Paimon option %q must be a string, number or boolean",
			ErrSyntax, key)
	}
	return nil
}

// formatComment is the inverse of parseComment: options with no values
// to show leave the text as it is, unless the text itself would read as
// options.
func formatComment(options map[string]string, text string) string {
	if len(options) == 0 {
		if _, looksLikeOptions := optionsBody(text); !looksLikeOptions {
			return text
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Option values hold paths and expressions; keep them readable.
	enc.SetEscapeHTML(false)
	if options == nil {
		options = map[string]string{}
	}
	// A map of strings always encodes.
	_ = enc.Encode(options)
	out := optionsMarker + strings.TrimSuffix(buf.String(), "\n")
	if text != "" {
		out += " " + text
	}
	return out
}

// TableComment returns the MySQL table comment of a Paimon table: its
// comment plus, in the "paimon:{…}" form ParseCreateTable reads, the
// options SHOW CREATE TABLE cannot show as PARTITION BY clauses and that
// the catalog would not fill in again. It is the comment ShowCreateTable
// prints, and what sql.CommentedTable.Comment should return so that
// information_schema.TABLES shows the same.
func TableComment(s *spec.TableSchema) string {
	text := ""
	if s.Comment != nil {
		text = *s.Comment
	}
	return formatComment(commentedOptions(s), text)
}
