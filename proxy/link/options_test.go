package link

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/uci"
)

func TestFitOption(t *testing.T) {
	spin := uci.Option{Name: "Threads", Type: "spin", Default: "1", Min: "1", Max: "1024"}
	combo := uci.Option{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}
	check := uci.Option{Name: "Ponder", Type: "check", Default: "false"}
	str := uci.Option{Name: "SyzygyPath", Type: "string"}
	for _, tc := range []struct {
		o       uci.Option
		value   string
		want    string
		warning string // a part of it; "": none
		ok      bool
	}{
		{spin, "4", "4", "", true},
		{spin, " 4 ", "4", "", true},
		{spin, "0", "1", "0 is below the option's minimum: 1 sent", true},
		{spin, "-3", "1", "below the option's minimum", true},
		{spin, "5000", "1024", "5000 is above the option's maximum: 1024 sent", true},
		{spin, "four", "", `"four" is not a whole number: not sent`, false},
		{uci.Option{Type: "spin"}, "99999", "99999", "", true}, // no range announced
		{check, "yes", "true", "", true},
		{check, "maybe", "", "not true or false", false},
		{combo, "risky", "Risky", "", true},
		{combo, "Wild", "", `"Wild" is not one of Solid, Normal, Risky: not sent`, false},
		{str, "/tb/a;/tb/b", "/tb/a;/tb/b", "", true},
	} {
		v, warning, ok := FitOption(tc.o, tc.value)
		if v != tc.want || ok != tc.ok || (tc.warning == "") != (warning == "") || !strings.Contains(warning, tc.warning) {
			t.Errorf("%s = %q: got %q, %q, %t", tc.o.Name, tc.value, v, warning, ok)
		}
	}
}

// Configured values outside an option's range are clamped into it, with a
// warning, and the GUI is never shown a default outside min..max; a value
// that cannot fit is not sent, and the engine's own default is shown.
