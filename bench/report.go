package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// kind says what a result's samples are and how to show them. Samples are
// always costs, lower is better; rates are shown as their inverse.
type kind string

const (
	kindTime  kind = "seconds"          // shown as µs/ms/s
	kindBytes kind = "bytes"            // shown as MB
	kindRate  kind = "seconds per item" // shown as items per second
)

// side is one column of a result: polyproxy, PolyGlot, or the reference
// (the engine alone, cat).
type side struct {
	Label   string    `json:"label"`
	Summary *summary  `json:"summary,omitempty"`
	Samples []float64 `json:"samples,omitempty"`
	// Error is why the side has no figure (n/a).
	Error string `json:"error,omitempty"`
	// Memory is what was read with each memory sample.
	Memory []procMemory `json:"memory,omitempty"`
}

func newSide(label, unavailable string) *side { return &side{Label: label, Error: unavailable} }

func (s *side) ok() bool { return s != nil && s.Error == "" }

// fail marks the side n/a, keeping the first reason.
func (s *side) fail(err error) {
	if s.Error == "" {
		s.Error = err.Error()
	}
}

func (s *side) finish() {
	if s == nil {
		return
	}
	if s.Error != "" {
		s.Samples = nil // a side that failed part-way shows no figure
		return
	}
	if len(s.Samples) == 0 {
		s.Error = "no samples"
		return
	}
	sum := summarize(s.Samples)
	s.Summary = &sum
}

type result struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  kind   `json:"kind"`
	// Item names what a rate counts ("lines", "probes").
	Item      string `json:"item,omitempty"`
	Polyproxy *side  `json:"polyproxy"`
	PolyGlot  *side  `json:"polyglot"`
	Reference *side  `json:"reference,omitempty"`
	// Ratio is polyproxy's median over PolyGlot's, in the unit shown (for
	// rates: polyproxy's rate over PolyGlot's). 0 when either is n/a.
	Ratio float64  `json:"ratio,omitempty"`
	Notes []string `json:"notes,omitempty"`
}

func (r *result) finish() {
	r.Polyproxy.finish()
	r.PolyGlot.finish()
	r.Reference.finish()
	if r.Polyproxy.ok() && r.PolyGlot.ok() {
		pp, pg := r.Polyproxy.Summary.Median, r.PolyGlot.Summary.Median
		if r.Kind == kindRate {
			pp, pg = 1/pp, 1/pg
		}
		if pg != 0 {
			r.Ratio = pp / pg
		}
	}
}

// alternate runs rounds rounds; in each, every side still standing runs
// once in the order given (A B A B ...). A side whose run fails is out for
// the rest of the measurement, with the reason kept.
func alternate(rounds int, runs []sideRun) {
	for round := 0; round < rounds; round++ {
		for _, sr := range runs {
			if !sr.side.ok() {
				continue
			}
			samples, err := sr.run(round)
			if err != nil {
				sr.side.fail(err)
				continue
			}
			sr.side.Samples = append(sr.side.Samples, samples...)
		}
	}
}

type sideRun struct {
	side *side
	run  func(round int) ([]float64, error)
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// format shows a cost sample in the result's unit.
func (r *result) format(v float64) string {
	switch r.Kind {
	case kindTime:
		return formatDuration(v)
	case kindBytes:
		return fmt.Sprintf("%.1f MB", v/1e6)
	case kindRate:
		return formatRate(1/v) + " " + r.Item + "/s"
	}
	return fmt.Sprint(v)
}

// formatRatio keeps two significant digits for small ratios, which would
// all print as 0.00 otherwise.
func formatRatio(r float64) string {
	if r < 0.1 {
		return fmt.Sprintf("%.2g", r)
	}
	return fmt.Sprintf("%.2f", r)
}

func formatDuration(s float64) string {
	if s < 0 { // an added cost below the reference's (see addedCosts)
		return "-" + formatDuration(-s)
	}
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}

func formatRate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2f M", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.0f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// markdown renders the machine line, the table and its notes. n/a cells
// point to a note with the reason.
func (r *runner) markdown() string {
	var b strings.Builder
	m := r.machine
	fmt.Fprintf(&b, "Measured %s on %s, %d CPUs (%s), kernel %s, %s.\n", m.Date, m.OS, m.CPUs, m.CPUModel, m.Kernel, m.GoVersion)
	fmt.Fprintf(&b, "polyproxy %s; PolyGlot: %s; engine: %s; book: %s.\n", m.Polyproxy, m.PolyGlot, m.Engine, m.Book)
	fmt.Fprintf(&b, "Command: `%s` (%s).\n\n", m.Command, m.Duration)
	b.WriteString("| measurement | polyproxy median | p99 | PolyGlot median | p99 | polyproxy/PolyGlot | reference | median | p99 |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|---|--:|--:|\n")
	var notes []string
	note := func(text string) string {
		for i, n := range notes {
			if n == text {
				return fmt.Sprintf("[%d]", i+1)
			}
		}
		notes = append(notes, text)
		return fmt.Sprintf("[%d]", len(notes))
	}
	cells := func(res *result, s *side) (string, string) {
		if s == nil {
			return "", ""
		}
		if !s.ok() {
			return "n/a " + note(s.Label+": "+s.Error), ""
		}
		return res.format(s.Summary.Median), res.format(s.Summary.P99)
	}
	for _, res := range r.results {
		title := res.Title
		for _, n := range res.Notes {
			title += " " + note(n)
		}
		ppMed, ppP99 := cells(res, res.Polyproxy)
		pgMed, pgP99 := cells(res, res.PolyGlot)
		ratio := "n/a"
		if res.Ratio != 0 {
			ratio = formatRatio(res.Ratio)
			if res.Kind == kindRate {
				ratio += " (higher is better)"
			}
		}
		refLabel, refMed, refP99 := "", "", ""
		if res.Reference != nil {
			refLabel = res.Reference.Label
			refMed, refP99 = cells(res, res.Reference)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", title, ppMed, ppP99, pgMed, pgP99, ratio, refLabel, refMed, refP99)
	}
	b.WriteString("\nMedians and p99 (nearest rank; for rates, the rate at the 99th-percentile cost) per side; ratios below 1 mean polyproxy is faster or smaller, except where marked.\n")
	if len(notes) > 0 {
		b.WriteString("\n")
		for i, n := range notes {
			fmt.Fprintf(&b, "%d. %s\n", i+1, oneLine(n))
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "|", "/")), " ")
}

const (
	beginMarker = "<!-- bench:begin -->"
	endMarker   = "<!-- bench:end -->"
)

// replaceBetweenMarkers puts text between the markers in path, so the
// manual's table (docs/benchmarks.md) is always exactly what the runner printed.
func replaceBetweenMarkers(path, text string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i := strings.Index(s, beginMarker)
	j := strings.Index(s, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s ... %s section to replace", path, beginMarker, endMarker)
	}
	s = s[:i+len(beginMarker)] + "\n" + text + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
