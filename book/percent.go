package book

import (
	"math"
	"strconv"
)

// AppendPercent appends p, a fraction from 0 to 1, as a percentage with
// one decimal, or with as many more (up to 6) as it takes not to read as
// 0% or 100% when it is neither: a move played once in 5,000 games is
// 0.02%, never 0.0%. Every percentage the proxy, probe and explore print
// is written so.
func AppendPercent(dst []byte, p float64) []byte {
	pct := 100 * p
	prec := 1
	for prec < 6 && (pct != 0 && roundsTo(pct, 0, prec) || pct != 100 && roundsTo(pct, 100, prec)) {
		prec++
	}
	return append(strconv.AppendFloat(dst, pct, 'f', prec, 64), '%')
}

// halfUnit is half the last digit of a number written with i decimals.
var halfUnit = [...]float64{0.5, 0.05, 0.005, 0.0005, 0.00005, 0.000005, 0.0000005}

// roundsTo reports whether x written with prec decimals reads as v.
func roundsTo(x, v float64, prec int) bool { return math.Abs(x-v) < halfUnit[prec] }

// percent is AppendPercent as a string.
func percent(p float64) string { return string(AppendPercent(nil, p)) }
