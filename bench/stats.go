package main

import (
	"math"
	"sort"
)

// summary describes one side's samples of one measurement. Samples are
// always costs (seconds, bytes, seconds per line...): lower is better, so
// p99 is the bad tail whatever the unit shown.
type summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P99    float64 `json:"p99"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// summarize returns the order statistics of samples; it does not modify
// its argument.
func summarize(samples []float64) summary {
	if len(samples) == 0 {
		return summary{}
	}
	s := append([]float64(nil), samples...)
	sort.Float64s(s)
	return summary{
		N:      len(s),
		Median: median(s),
		P99:    percentile(s, 99),
		Min:    s[0],
		Max:    s[len(s)-1],
	}
}

// median of sorted samples: the mean of the two middle values for an even
// count.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// percentile of sorted samples by the nearest-rank method: the smallest
// sample with at least p% of the samples at or below it. It never
// interpolates, so every reported figure is one that was measured.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	if rank < 1 {
		rank = 1
	}
	if rank > n {
		rank = n
	}
	return sorted[rank-1]
}
