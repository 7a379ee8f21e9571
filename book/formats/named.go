package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
)

// Named are what books' formats know beyond their entries (a format's
// report, the facts of a position or a move: book.Report, book.Facts),
// each under its format's JSON name (NameOf: "ctg", "abk"). The JSON of
// probe, explore and info-book gives them beside their own fields, as
// keys of their objects (AddTo, NamedIn), so that a format added to the
// table shows what it knows with no other change.
type Named map[string]json.RawMessage

// NameOf is f's name in JSON: its Name in lower case.
func NameOf(f book.Format) string { return strings.ToLower(f.Name()) }

// Add puts v (nil: nothing) under f's name.
func (n *Named) Add(f book.Format, v any) error {
	if v == nil || f == nil {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	if *n == nil {
		*n = Named{}
	}
	(*n)[NameOf(f)] = raw
	return nil
}

// AddTo appends n's keys, in order, to obj, a JSON object.
func (n Named) AddTo(obj []byte) []byte {
	if len(n) == 0 {
		return obj
	}
	end := bytes.LastIndexByte(obj, '}')
	out := append([]byte(nil), obj[:end]...)
	empty := bytes.Equal(bytes.TrimSpace(obj[bytes.IndexByte(obj, '{')+1:end]), nil)
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !empty {
			out = append(out, ',')
		}
		empty = false
		name, _ := json.Marshal(k)
		out = append(append(append(out, name...), ':'), n[k]...)
	}
	return append(out, obj[end:]...)
}

// NamedIn are the keys of obj, a JSON object, that name a format: what
// AddTo added.
func NamedIn(obj []byte) (Named, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(obj, &all); err != nil {
		return nil, err
	}
	var n Named
	for _, f := range All {
		if raw, ok := all[NameOf(f)]; ok {
			if n == nil {
				n = Named{}
			}
			n[NameOf(f)] = raw
		}
	}
	return n, nil
}
