package formats_test

import (
	"encoding/json"
	"testing"

	"github.com/polyproxy/polyproxy/book/formats"
)

// Facts under a format's name go among an object's own fields and come
// back out of them, and only keys that name a format do.
func TestNamed(t *testing.T) {
	var n formats.Named
	abk, ctg := formats.ByExt(".abk"), formats.ByExt(".ctg")
	if err := n.Add(abk, map[string]int{"priority": 3}); err != nil {
		t.Fatal(err)
	}
	n.Add(ctg, nil) // nothing to add
	for _, tc := range []struct{ obj, want string }{
		{`{"move":"e2e4"}`, `{"move":"e2e4","abk":{"priority":3}}`},
		{`{}`, `{"abk":{"priority":3}}`},
		{` { } `, ` { "abk":{"priority":3}} `},
	} {
		got := string(n.AddTo([]byte(tc.obj)))
		if got != tc.want || !json.Valid([]byte(got)) {
			t.Errorf("%s: %s, want %s", tc.obj, got, tc.want)
		}
		back, err := formats.NamedIn([]byte(got))
		if err != nil || len(back) != 1 || string(back["abk"]) != `{"priority":3}` {
			t.Errorf("%s: read back %v, %v", got, back, err)
		}
	}
	if got := string(formats.Named(nil).AddTo([]byte(`{"a":1}`))); got != `{"a":1}` {
		t.Errorf("no facts: %s", got)
	}
	if back, _ := formats.NamedIn([]byte(`{"move":"e2e4","book":"x"}`)); back != nil {
		t.Errorf("keys naming no format taken: %v", back)
	}
}
