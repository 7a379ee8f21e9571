package flagval

import (
	"math"
	"testing"
)

// hostileNumbers are refused by every numeric flag, whatever its range.
var hostileNumbers = []string{
	"nan", "NaN", "inf", "+Inf", "-inf", "1e400", "-1e400",
	"99999999999999999999", "-99999999999999999999",
	"9223372036854775808", "-9223372036854775809", "", "ten", "0x10",
}

// FuzzRangeFlags: whatever text a numeric flag is given, it is refused or
// gives a number within the flag's range (never NaN), and a refused
// value leaves the setting as it was.
func FuzzRangeFlags(f *testing.F) {
	for _, s := range append([]string{"0", "1", "100", "-0", "1e2", "0.5", " 7 ", "+3", "1_000"}, hostileNumbers...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 42
		ir := &IntRange{&n, 1, 256}
		if err := ir.Set(s); err != nil && n != 42 || err == nil && (n < 1 || n > 256) {
			t.Fatalf("int flag %q: %d, %v", s, n, err)
		}
		x := 42.0
		fr := &FloatRange{&x, 0, 100}
		if err := fr.Set(s); err != nil && x != 42 || err == nil && (math.IsNaN(x) || x < 0 || x > 100) {
			t.Fatalf("float flag %q: %g, %v", s, x, err)
		}
	})
}
