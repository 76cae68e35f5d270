package ddl

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseCommentSplitsOptionsFromText(t *testing.T) {
	cases := []struct {
		comment string
		want    commentOptions
	}{
		{"", commentOptions{}},
		{"orders by day", commentOptions{text: "orders by day"}},
		{"paimon: the lake format", commentOptions{text: "paimon: the lake format"}},
		{"Paimon:{} upper case marker is text", commentOptions{text: "Paimon:{} upper case marker is text"}},
		{`paimon:{"merge-engine":"partial-update","sequence.field":"ts,seq"} order facts`,
			commentOptions{set: map[string]string{"merge-engine": "partial-update", "sequence.field": "ts,seq"}, text: "order facts"}},
		{`paimon:  {"bucket": 4, "write-only": true}` + "\n  text",
			commentOptions{set: map[string]string{"bucket": "4", "write-only": "true"}, text: "text"}},
		{`paimon:{"data-file.external-paths":"s3://b/x=1;y"}`,
			commentOptions{set: map[string]string{"data-file.external-paths": "s3://b/x=1;y"}}},
		{`paimon:{"snapshot.num-retained.max":null}`,
			commentOptions{set: map[string]string{}, remove: []string{"snapshot.num-retained.max"}}},
	}
	for _, c := range cases {
		got, err := parseComment(c.comment)
		if err != nil {
			t.Errorf("%q: %v", c.comment, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.comment, got, c.want)
		}
	}
}

func TestParseCommentRefusesMalformedOptions(t *testing.T) {
	for _, comment := range []string{
		`paimon:{bucket: 4}`,
		`paimon:{"bucket":"4"`,
		`paimon:{"bucket":["4"]}`,
		`paimon:{"bucket":{"n":4}}`,
		`paimon:{"":"x"}`,
	} {
		if _, err := parseComment(comment); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: got %v, want ErrSyntax", comment, err)
		}
	}
}

func TestFormatCommentRoundTrips(t *testing.T) {
	options := []map[string]string{
		nil,
		{"bucket-key": "a,b"},
		{"merge-engine": "aggregation", "fields.price.aggregate-function": "sum", "path": `C:\x "y" <z> & 'w'`, "ключ": "значение"},
	}
	texts := []string{"", "plain", "paimon: not options", `paimon:{"looks":"like options"} but is text`,
		"paimon:   {", "it's \"quoted\"\nover lines", "paimon:"}
	for _, opts := range options {
		for _, text := range texts {
			comment := formatComment(opts, text)
			got, err := parseComment(comment)
			if err != nil {
				t.Errorf("%v %q -> %q: %v", opts, text, comment, err)
				continue
			}
			wantOpts := opts
			if len(opts) == 0 {
				wantOpts = nil
			}
			gotOpts := got.set
			if len(gotOpts) == 0 {
				gotOpts = nil
			}
			if !reflect.DeepEqual(gotOpts, wantOpts) || got.text != text {
				t.Errorf("%v %q -> %q -> %v %q", opts, text, comment, got.set, got.text)
			}
		}
	}
}

func TestFormatCommentLeavesPlainTextAlone(t *testing.T) {
	for _, text := range []string{"", "orders", "paimon: a lake format"} {
		if got := formatComment(nil, text); got != text {
			t.Errorf("%q: got %q", text, got)
		}
	}
	if got := formatComment(map[string]string{"bucket": "4"}, "orders"); got != `paimon:{"bucket":"4"} orders` {
		t.Errorf("got %q", got)
	}
}
