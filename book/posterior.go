package book

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/polyproxy/polyproxy/internal/lazy"
)

// The choice that learns (Options.NearBest, BookLearnPolicy nearbest):
// each eligible move's odds (its weight under Weighted, 1 under Uniform)
// are multiplied by the probability, after the results its learn field
// holds, that its expected score is within Options.Tolerance of the
// position's best move.
//
// A move's score (points per game, 0 to 1) is believed to follow a Beta
// distribution: priorGames games at an even score before any was played,
// then its games and points. So an unplayed book plays exactly as its
// author weighed it, a move that loses again and again soon has almost
// no chance left beside moves that do not, and moves that score alike
// keep the author's proportions between them however many games they
// played: the tolerance is the variety kept. Under Uniform with
// tolerance 0 the chance is the probability that the move is the best:
// plain Thompson sampling. The probability is an integral over the
// score, summed on a fixed grid, so a chance is the same number every
// time it is computed (probe, explore and the proxy's draw agree).

// priorGames are the games at an even score every move is believed to
// have played before its own: one, half a win and half a loss (Jeffreys'
// belief, the usual one that assumes least about a rate). Two (a flat
// belief) turned away from losing lines more slowly in the simulated
// tournament: 2.67% of the games into them after 200 games, not 2.25%.
const priorGames = 1

// scoreGrid is the number of points the score's integral is summed on,
// at the middle of equal cells of [0, 1].
const scoreGrid = 256

// gridLogs are log(x) and log(1-x) at the grid's points, computed on
// first use: only a posterior policy reads them, and every run of the
// proxy would pay.
var gridLogs = lazy.Value[*logTables]{New: newLogTables}

type logTables struct{ score, miss [scoreGrid]float64 }

func newLogTables() *logTables {
	t := new(logTables)
	for k := range scoreGrid {
		x := (float64(k) + 0.5) / scoreGrid
		t.score[k], t.miss[k] = math.Log(x), math.Log1p(-x)
	}
	return t
}

// posteriorPolicy is the Policy of Options.Posterior, its mode giving the
// odds. It keeps its sums between decisions: a chooser is one goroutine's.
type posteriorPolicy struct {
	mode      Mode
	tolerance float64
	shift     int // the tolerance in grid cells
	// Per decision: the distinct beliefs (games, points) of the eligible
	// moves, each's mass on the grid and its distribution shifted by the
	// tolerance; each candidate's belief; their product.
	beliefs []belief
	of      []int
	product [scoreGrid]float64
}

type belief struct {
	games, points uint16
	mass, below   [scoreGrid]float64
	lo, hi        int // the cells with mass: lo to hi-1
}

func newPosteriorPolicy(m Mode, tolerance float64) *posteriorPolicy {
	tolerance = min(max(tolerance, 0), 1)
	return &posteriorPolicy{mode: m, tolerance: tolerance, shift: int(math.Round(tolerance * scoreGrid))}
}

func (p *posteriorPolicy) String() string {
	return "nearbest " + p.mode.String() + " (tolerance " + strconv.FormatFloat(p.tolerance*100, 'g', 3, 64) + "%)"
}

// odds are a move's odds before learning: its weight, or 1 under
// Uniform (Best plays the move with the highest product, the heaviest
// of an unplayed position).
func (p *posteriorPolicy) odds(cd *Candidate) float64 {
	if p.mode == Uniform {
		return 1
	}
	return float64(cd.Weight)
}

// Chances sets each eligible move's chance to its odds times the
// probability that it is within the tolerance of the best, normalised.
// Where no eligible move has played a game, that probability is the same
// for all, and the chances are the odds' exactly.
func (p *posteriorPolicy) Chances(cands []Candidate) {
	played := false
	for i := range cands {
		cands[i].Chance = 0
		if cands[i].Eligible && cands[i].Entry.Learn.Games() > 0 {
			played = true
		}
	}
	if played {
		p.believe(cands)
	}
	best, sum := -1, 0.0
	for i := range cands {
		cd := &cands[i]
		if !cd.Eligible {
			continue
		}
		cd.Chance = p.odds(cd)
		if played {
			cd.Chance *= p.nearBest(i)
		}
		if best < 0 || cd.Chance > cands[best].Chance {
			best = i
		}
		sum += cd.Chance
	}
	if best < 0 {
		return
	}
	if p.mode == Best || sum == 0 {
		for i := range cands {
			cands[i].Chance = 0
		}
		cands[best].Chance = 1
		return
	}
	for i := range cands {
		cands[i].Chance /= sum
	}
}

// believe sums each eligible move's belief on the grid, once for moves
// with the same games and points, and their product.
func (p *posteriorPolicy) believe(cands []Candidate) {
	p.beliefs, p.of = p.beliefs[:0], p.of[:0]
	for k := range p.product {
		p.product[k] = 1
	}
	for i := range cands {
		cd := &cands[i]
		p.of = append(p.of, -1)
		if !cd.Eligible {
			continue
		}
		g, pts := cd.Entry.Learn.Games(), cd.Entry.Learn.Points()
		b := -1
		for j := range p.beliefs {
			if p.beliefs[j].games == g && p.beliefs[j].points == pts {
				b = j
				break
			}
		}
		if b < 0 {
			b = len(p.beliefs)
			if b < cap(p.beliefs) {
				p.beliefs = p.beliefs[:b+1]
			} else {
				p.beliefs = append(p.beliefs, belief{})
			}
			p.beliefs[b].sum(g, pts, priorGames, p.shift)
		}
		p.of[i] = b
		for k := range p.product {
			p.product[k] *= p.beliefs[b].below[k]
		}
	}
}

// sum sets the belief's mass on the grid, a Beta distribution of the
// score after prior games at an even score and games with points (half
// points; at most 2 a game counted, as real books carry more), and below:
// at each point x, the probability that the score is at most x+shift
// cells.
func (b *belief) sum(games, points uint16, prior float64, shift int) {
	b.games, b.points = games, points
	won := float64(min(points, 2*games)) / 2
	a, c := prior/2+won-1, prior/2+float64(games)-won-1
	logs := gridLogs.Get()
	logAt := func(k int) float64 { return a*logs.score[k] + c*logs.miss[k] }
	b.lo, b.hi = 0, scoreGrid
	var top float64
	if a >= 0 && c >= 0 {
		// One peak, at the cell of the mode or beside it: the mass is
		// summed outwards from it to where it falls below e^-40 of the
		// peak, nothing beside it (most of a well-played move's cells).
		mode := 0.5
		if a+c > 0 {
			mode = a / (a + c)
		}
		k := min(int(mode*scoreGrid), scoreGrid-1)
		top = logAt(k)
		for _, n := range [2]int{k - 1, k + 1} {
			if n >= 0 && n < scoreGrid && logAt(n) > top {
				k, top = n, logAt(n)
			}
		}
		b.lo, b.hi = k, k+1
		for b.lo > 0 && logAt(b.lo-1)-top > -40 {
			b.lo--
		}
		for b.hi < scoreGrid && logAt(b.hi)-top > -40 {
			b.hi++
		}
	} else {
		top = math.Inf(-1)
		for k := range scoreGrid {
			if l := logAt(k); l > top {
				top = l
			}
		}
	}
	clear(b.mass[:])
	total := 0.0
	for k := b.lo; k < b.hi; k++ {
		b.mass[k] = math.Exp(logAt(k) - top)
		total += b.mass[k]
	}
	cum := 0.0
	for k := range scoreGrid {
		if k >= b.lo && k < b.hi {
			b.mass[k] /= total
			cum += b.mass[k]
		}
		b.below[k] = cum
	}
	b.below[scoreGrid-1] = 1 // not a rounding short of it
	// Shifted by the tolerance: the score at most x+δ (1 past the grid's
	// end).
	for k := range scoreGrid {
		if k+shift < scoreGrid {
			b.below[k] = b.below[k+shift]
		} else {
			b.below[k] = 1
		}
	}
}

// nearBest is the probability that candidate i's score is at least every
// other eligible move's less the tolerance: the sum over x of its mass at
// x times the others' probabilities of being at most x+δ.
func (p *posteriorPolicy) nearBest(i int) float64 {
	b := &p.beliefs[p.of[i]]
	prob := 0.0
	for k := b.lo; k < b.hi; k++ {
		// Where its mass is above 0 its own below is too (below[k] holds
		// mass[k]): dividing it out of the product leaves the others'.
		if b.mass[k] > 0 {
			prob += b.mass[k] * p.product[k] / b.below[k]
		}
	}
	return min(prob, 1)
}

// Pick draws by the chances Chances set (the decision sets them before it
// draws): a uniform number counted off against them in the book's order.
func (p *posteriorPolicy) Pick(cands []Candidate, rng *rand.Rand) int {
	r := rng.Float64()
	last := -1
	for i := range cands {
		if c := cands[i].Chance; c > 0 {
			if r < c {
				return i
			}
			r -= c
			last = i
		}
	}
	return last // rounding left r at or above the last chance
}
