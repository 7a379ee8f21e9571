// Package suggest finds the name a user most likely meant when a word
// they typed names nothing: a command, a flag, an ini key or section,
// a player. "did you mean probe?" beats a list, and a list beats
// nothing.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Nearest is the name among names closest to word, ignoring case and
// the dashes before a flag, when it is close enough to be a typo: at most
// a third of the word's letters edited (one edit for a short word), a
// swap of two neighbours counting as one, or the word being the start
// of the name ("prob" for probe). ok is false when no name is that
// close; ties go to the earlier name.
func Nearest(word string, names []string) (name string, ok bool) {
	w := fold(word)
	if w == "" {
		return "", false
	}
	best := -1
	for _, n := range names {
		f := fold(n)
		if f == "" {
			continue
		}
		d := distance(w, f)
		if strings.HasPrefix(f, w) && utf8.RuneCountInString(w) >= 3 {
			d = min(d, 1)
		}
		if d <= allowed(w, f) && (best < 0 || d < best) {
			name, best = n, d
		}
	}
	return name, best >= 0
}

// allowed is how many edits still make a typo of the shorter of the two.
func allowed(a, b string) int {
	n := min(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	return max(1, n/3)
}

func fold(s string) string { return strings.ToLower(strings.TrimLeft(strings.TrimSpace(s), "-")) }

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, each one
// edit.
func distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// DidYouMean is ", did you mean NAME?" for the name nearest word (see
// Nearest), written as shown (say, with a flag's dash), or "" when none
// is near.
func DidYouMean(word string, names []string, show func(string) string) string {
	n, ok := Nearest(word, names)
	if !ok {
		return ""
	}
	if show != nil {
		n = show(n)
	}
	return "; did you mean " + n + "?"
}
