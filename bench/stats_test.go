package main

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	cases := []struct {
		name           string
		in             []float64
		median, p99    float64
		minimum, maxim float64
	}{
		{"one", []float64{7}, 7, 7, 7, 7},
		{"odd unsorted", []float64{5, 1, 3}, 3, 5, 1, 5},
		{"even takes the mean of the middle two", []float64{4, 1, 3, 2}, 2.5, 4, 1, 4},
		// 1..100: nearest rank puts p99 at the 99th value, not the maximum.
		{"hundred", seq(100), 50.5, 99, 1, 100},
		// 1..1000: the 990th value.
		{"thousand", seq(1000), 500.5, 990, 1, 1000},
		// Up to 99 samples p99 is the maximum: a single outlier shows.
		{"outlier in ten", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 50}, 1, 50, 1, 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := append([]float64(nil), c.in...)
			s := summarize(c.in)
			if s.N != len(c.in) || s.Median != c.median || s.P99 != c.p99 || s.Min != c.minimum || s.Max != c.maxim {
				t.Errorf("summarize(%v) = %+v, want n=%d median=%v p99=%v min=%v max=%v",
					c.in, s, len(c.in), c.median, c.p99, c.minimum, c.maxim)
			}
			for i := range before {
				if before[i] != c.in[i] {
					t.Fatalf("summarize reordered its input: %v, was %v", c.in, before)
				}
			}
		})
	}
}

func TestSummarizeEmpty(t *testing.T) {
	if s := summarize(nil); s.N != 0 {
		t.Errorf("summarize(nil) = %+v, want zero", s)
	}
	if !math.IsNaN(median(nil)) || !math.IsNaN(percentile(nil, 99)) {
		t.Error("median/percentile of no samples must be NaN, not a number that looks measured")
	}
}

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(n - i) // descending, so sorting matters
	}
	return s
}
