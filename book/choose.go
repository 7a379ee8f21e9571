package book

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
)

// Options control choosing.
type Options struct {
	Mode Mode
	// ThresholdPerMille is PolyGlot's BookTreshold: a move is eligible only
	// when its weight is more than this many thousandths of the total
	// weight of the position's legal entries. 0 admits every move with a
	// weight above 0.
	ThresholdPerMille int
	// AvoidRepetition skips moves leading to a position the game has
	// already reached (needs the seen function of Choose).
	AvoidRepetition bool
	// Weight, when set, is the effective weight of an entry in place of
	// its stored weight: the hook for weighting by learned results
	// (BookLearnWeight). It must return at most 1<<40 so sums cannot
	// overflow.
	Weight func(Entry) uint64
	// NearBest, when set, is a choice that learns (BookLearnPolicy
	// nearbest, see posterior.go): each move's odds under Mode times the
	// probability, after its learned results, that it scores within
	// Tolerance (points per game, 0 to 1) of the best. Weight is then the
	// stored weight (no Weight hook): the author's, which the threshold,
	// Width and the shares go by.
	NearBest  bool
	Tolerance float64
	// Width, when above 0, keeps only the moves among the Width highest
	// effective weights of the otherwise eligible ones (moves tied with
	// the last one kept are kept too); the mode then picks among them.
	// Width 1 is the best move, with ties drawn by the mode.
	Width int
	// MinWeight, when above 0, puts a position out of book when the
	// stored weights of its moves that pass the threshold add up to less:
	// a thin position is statistics on a game or two, not theory. Stored
	// weights, not learned ones: learning rescales weights relative to
	// each other, while this measures how much the book knows.
	MinWeight uint64
	// MaxMoves, when above 0, puts the book out of a game that holds
	// this many book moves of ours (BookMaxMoves; Game.Played).
	MaxMoves int
	// Depth, when not 0, is the last full move the book plays
	// (BookDepth): a position after it is out of book; below 0, every
	// position is (BookDepth 0).
	Depth int
	// MinLine, when above 0, leaves out a move after which the book's
	// longest line goes on fewer plies (BookMinLine): the last moves of a
	// line are its least tested. See Lookahead.
	MinLine int
}

// Rule is the rule that leaves a book entry out of the choice.
type Rule int

// The rules, in the order they apply; an entry is out by the first that
// excludes it.
const (
	RuleNone       Rule = iota // eligible
	RuleIllegal                // not a legal move here (or not in searchmoves, or invalid)
	RuleWeight0                // weight 0: the book's author never plays it
	RuleThreshold              // below BookTreshold
	RuleRepetition             // would repeat a position of the game (BookAvoidRepetition)
	RuleWidth                  // not among the BookWidth highest
	RuleMinWeight              // the position is thinner than BookMinWeight
	RuleDepth                  // the game is past BookDepth
	RuleMaxMoves               // the game holds BookMaxMoves book moves of ours
	RuleMinLine                // the book's line ends too soon after it (BookMinLine)
)

var ruleNames = [...]string{RuleNone: "", RuleIllegal: "legal", RuleWeight0: "weight", RuleThreshold: "threshold",
	RuleRepetition: "repetition", RuleWidth: "width", RuleMinWeight: "min_weight",
	RuleDepth: "depth", RuleMaxMoves: "max_moves", RuleMinLine: "min_line"}

// String is the rule's short name ("threshold", "width", ...; "" for
// RuleNone), as probe -json writes it.
func (r Rule) String() string {
	if r >= 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Chooser picks book moves. It keeps its own random source and is meant
// for one goroutine (the proxy loop).
type Chooser struct {
	opts   Options
	policy Policy
	rng    *rand.Rand
	// Reused by every decision: no allocation per answer. buf holds the
	// candidates of the book being judged, shown those of the first book
	// with the position (what a decision without a move shows), ahead
	// those of the look-ahead's positions; found a position's entries.
	buf, shown, ahead []Candidate
	found             []Found
	// quiet: Choose gives no reasons. Formatting them was three quarters
	// of a book answer (measured: 6 µs and 50 allocations a choice on the
	// gnuchess book's start position, 1.6 µs and none without).
	quiet bool
}

// NewChooser returns a chooser with options o. A seed other than 0 makes
// every choice reproducible; 0 seeds from the operating system's random
// source, so proxies started in the same second (a tournament) still choose
// independently. (PolyGlot seeds with the clock in seconds.)
func NewChooser(o Options, seed uint64) *Chooser {
	s1, s2 := seed, seed^0x9e3779b97f4a7c15
	if seed == 0 {
		var b [16]byte
		_, _ = crand.Read(b[:]) // never fails on supported platforms (Go 1.24+)
		s1, s2 = binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
	}
	policy := o.Mode.policy()
	if o.NearBest {
		policy = newPosteriorPolicy(o.Mode, o.Tolerance)
	}
	return &Chooser{opts: o, policy: policy, rng: rand.New(rand.NewPCG(s1, s2))}
}

// Explain says whether Choose writes its reasons (on for a new chooser):
// off when nobody reads them (the proxy's log is off).
func (c *Chooser) Explain(on bool) { c.quiet = !on }

// weight is the one place the effective weight of an entry is decided.
func (c *Chooser) weight(e Entry) uint64 {
	if c.opts.Weight != nil {
		return min(c.opts.Weight(e), 1<<40)
	}
	return uint64(e.Weight)
}

// share is the one place a move's share of its position is computed.
func share(weight, total uint64) float64 {
	if total == 0 {
		return 0
	}
	return float64(weight) / float64(total)
}

// aboveThreshold reports weight*1000 > perMille*total, in 128 bits: with
// an Options.Weight hook weights reach 2^40, and the products could
// overflow 64 bits.
func aboveThreshold(weight, total, perMille uint64) bool {
	wh, wl := bits.Mul64(weight, 1000)
	th, tl := bits.Mul64(perMille, total)
	return wh > th || (wh == th && wl > tl)
}

// Candidate is one entry of a position, judged.
type Candidate struct {
	Index    int        // the entry's index in the file (for learn updates)
	Entry    Entry      // as stored
	Move     board.Move // as it would be played (castling e1g1)
	Legal    bool
	Weight   uint64  // effective weight (see Options.Weight)
	Share    float64 // Weight / total weight of the legal entries; 0 if not legal
	Eligible bool
	Out      Rule   // the first rule that leaves it out (RuleNone when eligible)
	Why      string // why it is not eligible
	// Chance is how likely a game is to play it, from the policy (set by
	// a Decision; 0 for a move no rule leaves eligible).
	Chance float64
}

// Candidates lists every entry of pos in b (At) in file order, with its
// played move, legality (pos.LegalMove), share and eligibility by the
// rules of the position alone: the book's part of a decision, before the
// game's rules (BookDepth, BookMaxMoves, BookMinLine) and the chances
// (Decide). The total
// behind the shares and the threshold counts legal entries only: an
// illegal or corrupt entry is not a move of this position, so it must not
// dilute the real ones (PolyGlot sums every entry of the key). seen may be
// nil; with AvoidRepetition it makes moves leading to a seen key
// ineligible.
func (c *Chooser) Candidates(b *Book, pos *board.Position, seen func(board.Key) bool) []Candidate {
	return c.candidates(nil, b, pos, seen, nil, true, true)
}

// candidates is Candidates appending to buf; an entry whose move is not in
// only (when only is not nil: the GUI's searchmoves) counts as not legal.
// Without explain, a move below the threshold is not told by how much
// (Choose and BestReply never show it; formatting it was a fifth of a book
// answer). Without choosing, Width is not applied: the book's own lines,
// not the moves we would pick.
func (c *Chooser) candidates(buf []Candidate, b *Book, pos *board.Position, seen func(board.Key) bool, only []board.Move, explain, choosing bool) []Candidate {
	cands := buf[:0]
	if pos.NoKeyReason() != "" || b.NoChess960() && pos.Chess960() {
		return cands
	}
	var total uint64
	c.found = b.At(pos, c.found[:0])
	for _, f := range c.found {
		// Judged in place: a candidate is a hundred bytes, copied again
		// when returned.
		cands = append(cands, Candidate{Index: f.Index, Entry: f.Entry, Move: pos.ToPlayed(f.Entry.Move), Out: RuleIllegal})
		cd := &cands[len(cands)-1]
		judge(cd, pos, only)
		if cd.Legal {
			cd.Weight = c.weight(f.Entry)
			total += cd.Weight
		}
	}
	threshold := uint64(max(c.opts.ThresholdPerMille, 0))
	var stored uint64 // of the moves above the threshold: what MinWeight measures
	for i := range cands {
		cd := &cands[i]
		if !cd.Legal {
			continue
		}
		cd.Share = share(cd.Weight, total)
		switch {
		case cd.Weight == 0:
			cd.Out, cd.Why = RuleWeight0, "weight 0"
		case !aboveThreshold(cd.Weight, total, threshold) && !explain:
			cd.Out, cd.Why = RuleThreshold, "below threshold"
		case !aboveThreshold(cd.Weight, total, threshold):
			cd.Out, cd.Why = RuleThreshold, "below threshold ("+percent(cd.Share)+" <= "+percent(float64(threshold)/1000)+")"
		case c.opts.AvoidRepetition && seen != nil && seen(pos.KeyAfter(cd.Move)):
			stored += uint64(cd.Entry.Weight)
			cd.Out, cd.Why = RuleRepetition, "repeats a position of the game"
		default:
			stored += uint64(cd.Entry.Weight)
			cd.Eligible = true
		}
	}
	if choosing && c.opts.Width > 0 {
		c.applyWidth(cands)
	}
	if c.opts.MinWeight > 0 && stored < c.opts.MinWeight {
		// Told by how much where a reason is read: the log, probe.
		why := "thin position"
		if explain || choosing && !c.quiet {
			why = fmt.Sprintf("thin position (weight %d < BookMinWeight %d)", stored, c.opts.MinWeight)
		}
		for i := range cands {
			if cd := &cands[i]; cd.Eligible {
				cd.Eligible, cd.Out, cd.Why = false, RuleMinWeight, why
			}
		}
	}
	return cands
}

// judge judges the legality of cd, an entry of pos (an entry whose move
// is not in only, when only is not nil, counts as not legal); the rules of
// choosing judge it after.
func judge(cd *Candidate, pos *board.Position, only []board.Move) {
	e := cd.Entry
	// Legality per entry (a handful of entries) instead of generating
	// every legal move: a full move list was ~45% of a book answer.
	switch {
	case e.Move.IsNull():
		cd.Why = "null move"
	case e.Move.Promo() > board.PromoQueen:
		cd.Why = fmt.Sprintf("invalid promotion code %d", e.Move.Promo())
	case !legal(pos, cd.Move):
		cd.Why = "illegal here"
	case only != nil && !slices.Contains(only, cd.Move):
		cd.Why = "not in searchmoves"
	default:
		cd.Legal, cd.Out = true, RuleNone
	}
}

// applyWidth leaves out the eligible moves with Width or more eligible
// moves weighing strictly more: the Width highest stay, ties at the cut
// included. Quadratic, but a position has a few dozen entries at most and
// nothing is allocated.
func (c *Chooser) applyWidth(cands []Candidate) {
	for i := range cands {
		cd := &cands[i]
		if !cd.Eligible {
			continue
		}
		heavier := 0
		for _, o := range cands {
			if o.Eligible && o.Weight > cd.Weight {
				heavier++
			}
		}
		if heavier >= c.opts.Width {
			// Marked after the count: a move left out still counts as
			// heavier for the lighter ones, so the result is the same in
			// any order.
			cd.Out, cd.Why = RuleWidth, "outside BookWidth "+strconv.Itoa(c.opts.Width)
		}
	}
	for i := range cands {
		if cands[i].Out == RuleWidth {
			cands[i].Eligible = false
		}
	}
}

// legal reports whether a played move is legal at pos.
func legal(pos *board.Position, m board.Move) bool {
	_, err := pos.LegalMove(m)
	return err == nil
}

// noMoveReason says why a position's candidates offer no move: what the
// last rule to leave moves out says (the rules apply in order, so it is
// the one that left out the last of them).
func noMoveReason(cands []Candidate) string {
	if len(cands) == 0 {
		return "not in book"
	}
	var legal, positive int
	last := RuleNone
	var whys []string // of the last rule
	for _, cd := range cands {
		if !cd.Legal {
			continue
		}
		legal++
		if cd.Weight == 0 {
			continue
		}
		positive++
		if cd.Out > last {
			last, whys = cd.Out, whys[:0]
		}
		if cd.Out == last {
			whys = append(whys, cd.Why)
		}
	}
	switch {
	case legal == 0:
		return fmt.Sprintf("no legal entry (%d entries, all illegal or invalid here)", len(cands))
	case positive == 0:
		return fmt.Sprintf("all weights 0 (%d legal entries)", legal)
	}
	switch last {
	case RuleMinWeight, RuleMaxMoves, RuleDepth: // the position's: one reason
		return whys[0]
	case RuleMinLine:
		if n := len(whys); n > 3 {
			whys = append(whys[:3], fmt.Sprintf("and %d more", n-3))
		}
		return "every move it would play ends its line too soon (" + strings.Join(whys, "; ") + ")"
	case RuleRepetition:
		return fmt.Sprintf("every eligible move repeats a position of the game (%d)", len(whys))
	}
	return fmt.Sprintf("all %d legal moves below the threshold", legal)
}

// BestReply is the most likely move at pos, for "bestmove X ponder Y": the
// highest-weight legal entry of the first book that has one (ties: first in
// file). Threshold and repetition are not applied.
func (c *Chooser) BestReply(books []*Book, pos *board.Position) (board.Move, bool) {
	for _, b := range books {
		var best Candidate
		found := false
		c.ahead = c.candidates(c.ahead, b, pos, nil, nil, false, false)
		for _, cd := range c.ahead {
			if cd.Legal && cd.Weight > 0 && (!found || cd.Weight > best.Weight) {
				best, found = cd, true
			}
		}
		if found {
			return best.Move, true
		}
	}
	return 0, false
}

// BookMoves appends to buf the moves the book goes on with at pos: the
// eligible moves of the first book that has one, by the book's own rules
// (weight, threshold, MinWeight), not by those of a choice in a game
// (repetition, Width, searchmoves). It is what a look-ahead along the
// book's lines follows.
func (c *Chooser) BookMoves(books []*Book, pos *board.Position, buf []board.Move) []board.Move {
	for _, b := range books {
		c.ahead = c.candidates(c.ahead, b, pos, nil, nil, false, false)
		n := len(buf)
		for _, cd := range c.ahead {
			if cd.Eligible {
				buf = append(buf, cd.Move)
			}
		}
		if len(buf) > n {
			return buf
		}
	}
	return buf
}
