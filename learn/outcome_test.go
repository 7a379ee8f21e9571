package learn

import (
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		s           string
		o           Outcome
		white, blck book.Result
	}{
		{"1-0", WhiteWins, book.Win, book.Loss},
		{"0-1", BlackWins, book.Loss, book.Win},
		{"1/2-1/2", Drawn, book.Draw, book.Draw},
	} {
		o := ParseOutcome(c.s)
		if o != c.o || o.String() != c.s {
			t.Errorf("ParseOutcome(%q) = %v", c.s, o)
		}
		if o.For(true) != c.white || o.For(false) != c.blck {
			t.Errorf("%s: white %v black %v", c.s, o.For(true), o.For(false))
		}
	}
	for _, s := range []string{"*", "", "1-1", "½-½"} {
		if ParseOutcome(s) != Unknown {
			t.Errorf("ParseOutcome(%q) is not Unknown", s)
		}
	}
}
