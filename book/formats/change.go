package formats

import (
	"math"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Keeping is f writing a book that plays as its source does under a
// threshold of thresholdPerMille: a format that weighs moves by rules of
// its own (ABK's settings) writes what makes its readers give each move
// the source's chance, the moves the threshold leaves out unplayed. A
// format whose weights are the source's (Polyglot) is f itself.
func Keeping(f book.Format, thresholdPerMille int) book.Format {
	if k, ok := f.(interface {
		Keeping(thresholdPerMille int) book.Format
	}); ok {
		return k.Keeping(thresholdPerMille)
	}
	return f
}

// ChanceChange is how far a written book's chances are from its source's
// (CompareChances): the largest change of a move's chance, and where.
type ChanceChange struct {
	Positions int // positions compared
	// Largest is the largest change of a move's chance, 0 to 1; Line (the
	// moves from the start position, played form), Move, From and To say
	// where: the move's chance in the source and in the book written.
	Largest  float64
	Line     []board.Move
	Move     board.Move
	From, To float64
}

// CompareChances compares the chances of dst, a book written from src,
// with src's, both read by the book decision (book.Chooser.Decide,
// weighted, under a threshold of thresholdPerMille): at every position
// the lines of src's legal moves from the start position reach, breadth
// first, each once, within maxPly plies of moves.
func CompareChances(src, dst *book.Book, thresholdPerMille, maxPly int) ChanceChange {
	opts := book.Options{Mode: book.Weighted, ThresholdPerMille: thresholdPerMille}
	fromSrc, fromDst := book.NewChooser(opts, 1), book.NewChooser(opts, 1)
	srcShelf, dstShelf := book.Both(src), book.Both(dst)
	type node struct {
		pos    *board.Position
		ply    int
		parent int // index into nodes, -1 for the start position
		move   board.Move
	}
	nodes := []node{{board.StartPosition(), 0, -1, 0}}
	seen := map[board.Key]bool{nodes[0].pos.Key(): true}
	var c ChanceChange
	var was, now []moveChance
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if n.ply >= maxPly {
			continue
		}
		was = chancesOf(fromSrc.Decide(srcShelf, book.At(n.pos)), was)
		now = chancesOf(fromDst.Decide(dstShelf, book.At(n.pos)), now)
		if len(was) == 0 && len(now) == 0 {
			continue
		}
		c.Positions++
		for _, list := range [2][]moveChance{was, now} {
			for _, m := range list {
				from, to := chanceIn(was, m.move), chanceIn(now, m.move)
				if d := math.Abs(to - from); d > c.Largest {
					c.Largest, c.Move, c.From, c.To = d, m.move, from, to
					c.Line = c.Line[:0]
					for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
						c.Line = append(c.Line, nodes[j].move)
					}
				}
			}
		}
		for _, m := range was {
			next := n.pos.Next(m.move)
			if k := next.Key(); !seen[k] {
				seen[k] = true
				nodes = append(nodes, node{next, n.ply + 1, i, m.move})
			}
		}
	}
	for i, j := 0, len(c.Line)-1; i < j; i, j = i+1, j-1 {
		c.Line[i], c.Line[j] = c.Line[j], c.Line[i]
	}
	return c
}

// moveChance is a legal move of a position and its chance.
type moveChance struct {
	move   board.Move
	chance float64
}

// chancesOf are the legal moves of a decision, each once (entries of one
// move, e1h1 and e1g1, added), with their chances.
func chancesOf(d book.Decision, out []moveChance) []moveChance {
	out = out[:0]
	for _, cd := range d.Candidates {
		if !cd.Legal {
			continue
		}
		found := false
		for i := range out {
			if out[i].move == cd.Move {
				out[i].chance += cd.Chance
				found = true
			}
		}
		if !found {
			out = append(out, moveChance{cd.Move, cd.Chance})
		}
	}
	return out
}

func chanceIn(list []moveChance, m board.Move) float64 {
	for _, x := range list {
		if x.move == m {
			return x.chance
		}
	}
	return 0
}
