package book

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A Policy is how a game picks among a position's eligible moves: it
// gives each move its chance, and a game's move is drawn by exactly
// those chances. Each mode is one (Mode.policy); a policy that computes
// its chances another way (from learned results, say) is another
// implementation, and nothing else changes: the decision, the proxy, probe
// and explore read the chances it sets.
type Policy interface {
	fmt.Stringer // the policy's name in the log ("weighted")
	// Chances sets the Chance of every candidate of a position, cands in
	// the book's order: 0 for a move no rule leaves eligible; those of
	// the eligible moves add up to 1.
	Chances(cands []Candidate)
	// Pick is the index in cands of the move a game plays, drawn with rng
	// by the chances Chances gives: cands (in the book's order) has an
	// eligible move.
	Pick(cands []Candidate, rng *rand.Rand) int
}

// Mode is how a move is picked among the eligible entries of a position.
type Mode int

const (
	// Weighted picks a move with probability weight / sum of the eligible
	// weights (PolyGlot's BookRandom=true; the default).
	Weighted Mode = iota
	// Best picks the highest weight; ties go to the entry first in the file.
	Best
	// Uniform picks each eligible move with the same probability.
	Uniform
)

var modeNames = [...]string{Weighted: "weighted", Best: "best", Uniform: "uniform"}

func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Modes lists every mode, the default first.
func Modes() []Mode { return []Mode{Weighted, Best, Uniform} }

// ParseMode reads "weighted", "best" or "uniform" (any case).
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if strings.EqualFold(s, name) {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown book mode %q (want weighted, best or uniform)", s)
}

// policy is the mode's policy: each of the three gives every eligible
// move whole-number odds.
func (m Mode) policy() Policy { return oddsPolicy{m} }

// oddsPolicy plays each eligible move in proportion to whole-number odds:
// its weight (Weighted), 1 (Uniform), or 1 for the heaviest alone, the
// first in the file of equals (Best). A move's chance is its odds over
// the position's, and the draw is a number below their sum counted off in
// the book's order: PolyGlot's weighted pick exactly, and the chances
// exactly what it draws by.
type oddsPolicy struct{ mode Mode }

func (p oddsPolicy) String() string { return p.mode.String() }

// odds are candidate i's odds, best being the heaviest eligible
// candidate (the first in the file of equals; Best's only move).
func (p oddsPolicy) odds(cands []Candidate, best, i int) uint64 {
	switch cd := &cands[i]; {
	case !cd.Eligible:
		return 0
	case p.mode == Best:
		if i == best {
			return 1
		}
		return 0
	case p.mode == Uniform:
		return 1
	default:
		return cd.Weight // above 0: weight 0 is never eligible
	}
}

// total is the index of the heaviest eligible candidate (-1: none) and
// the sum of the candidates' odds, in one pass (odds, summed).
func (p oddsPolicy) total(cands []Candidate) (best int, sum uint64) {
	best = -1
	for i := range cands {
		cd := &cands[i]
		if !cd.Eligible {
			continue
		}
		if best < 0 || cd.Weight > cands[best].Weight {
			best = i
		}
		switch p.mode {
		case Uniform:
			sum++
		case Weighted:
			sum += cd.Weight
		}
	}
	if p.mode == Best && best >= 0 {
		sum = 1
	}
	return best, sum
}

func (p oddsPolicy) Chances(cands []Candidate) {
	best, sum := p.total(cands)
	for i := range cands {
		cands[i].Chance = 0
		if o := p.odds(cands, best, i); o > 0 {
			cands[i].Chance = float64(o) / float64(sum)
		}
	}
}

func (p oddsPolicy) Pick(cands []Candidate, rng *rand.Rand) int {
	best, sum := p.total(cands)
	if p.mode == Best {
		return best // nothing to draw: the odds are all on one move
	}
	r := rng.Uint64N(sum)
	for i := range cands {
		o := p.odds(cands, best, i)
		if r < o {
			return i
		}
		r -= o
	}
	return best // unreachable: r is below the sum
}
