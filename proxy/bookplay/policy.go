package bookplay

import (
	"fmt"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// bookPolicy is what the book policies remember of the game: the book
// moves polyproxy played in it (BookMaxMoves) and the book lines measured
// in it (BookMinLine).
type bookPolicy struct {
	game  int          // the game number the records are for
	moves []playedMove // our book moves in that game
	lines lineWalk
}

// playedMove is a book move polyproxy played: from the position at ply
// (counted from the game's start), whose key was before, to after.
type playedMove struct {
	ply           int
	before, after board.Key
}

// asked notes a go at ply in game number game: whatever we answered at
// that ply and after it, in a line the GUI has left (a take-back, a jump,
// the same position again), is replaced by this answer, the engine's or
// the book's. Without it a move the engine plays where the book once
// played the same move would count as ours.
func (p *bookPolicy) asked(game, ply int) {
	if game != p.game {
		p.game, p.moves = game, p.moves[:0]
	}
	p.moves = slices.DeleteFunc(p.moves, func(m playedMove) bool { return m.ply >= ply })
}

// played records a book move sent to the GUI as played in game number
// game, at ply, from the position keyed before to after.
func (p *bookPolicy) played(game, ply int, before, after board.Key) {
	p.asked(game, ply)
	p.moves = append(p.moves, playedMove{ply, before, after})
}

// count is how many of our book moves the game l (number game) contains:
// a move taken back, or answered but never played, does not count.
func (p *bookPolicy) count(game int, l *board.Line) int {
	if game != p.game {
		return 0
	}
	n := 0
	for _, m := range p.moves {
		if m.ply+1 < len(l.Keys) && l.Keys[m.ply] == m.before && l.Keys[m.ply+1] == m.after {
			n++
		}
	}
	return n
}

// maxMovesReason is why BookMaxMoves keeps the book from answering in
// the game cur (number game), or "".
func (s *Books) maxMovesReason(cur *board.Line, game int) string {
	max := s.settings.BookMaxMoves
	if max <= 0 {
		return ""
	}
	if n := s.policy.count(game, cur); n >= max {
		return fmt.Sprintf("BookMaxMoves reached (%d book moves of ours in this game, at most %d)", n, max)
	}
	return ""
}

// shortLine is why BookMinLine keeps the book from playing move in the
// last position of the game cur (number game: the book ends too soon
// after it), or "".
func (s *Books) shortLine(cur *board.Line, game int, move board.Move) string {
	need := s.settings.BookMinLine
	if need <= 0 {
		return ""
	}
	after := cur.Pos
	after.Play(move)
	w := &s.policy.lines
	w.prepare(game, s.gen, s.chooser, s.forSide)
	plies, complete := w.longest(cur.Keys, &after, need)
	switch {
	case !complete:
		s.log.Printf("book: the line after %s was not measured to the end within %d positions: taken as long enough", move, lineBudget)
	case plies < need:
		return fmt.Sprintf("short line: the book goes on %d plies after %s, BookMinLine %d", plies, move, need)
	}
	return ""
}

// The look-ahead's bounds. A decision visits at most lineBudget positions
// (each a lookup in every book of its side, a few microseconds), so it
// costs a few milliseconds at worst; the cache of a game holds at most
// lineCacheLimit positions (a few MB).
const (
	lineBudget     = 2000
	lineCacheLimit = 1 << 16
)

// lineWalk measures the book's longest line from a position, bounded: a
// line is a sequence of book moves (the moves the book itself goes on with
// in each position, see book.Chooser.BookMoves, from the books of the side
// to move there), and it ends where the book has no move or where a move
// would repeat a position of the game or of the line (a cycle). A position
// whose lines were all followed to their end is cached for the rest of the
// game, so positions reached by several move orders (transpositions) are
// measured once.
type lineWalk struct {
	game    int
	by      int // the books and rules the cache was measured with (bookSet.gen)
	chooser *book.Chooser
	books   func(white bool) []*book.Book
	// cache holds the exact length of the longest line from a position,
	// for positions whose every line was followed to its end without a
	// cycle. Only such results hold wherever the position is reached from
	// (one exception: a book line that returns to a position the game
	// passed through after it was cached, which only a book with cycles
	// has; the length is then overstated by the part after the repetition).
	cache map[board.Key]int32

	// One walk's state.
	path     []board.Key  // the positions of the game and of the line being followed
	moves    []board.Move // the moves of every position on the path, a stack
	visited  int
	exceeded bool
}

// prepare readies the walk for game number game with the books and rules
// of generation by: the cache holds while neither changes.
func (w *lineWalk) prepare(game, by int, c *book.Chooser, books func(white bool) []*book.Book) {
	if w.cache == nil || game != w.game || by != w.by || len(w.cache) > lineCacheLimit {
		w.cache = map[board.Key]int32{}
		w.game, w.by = game, by
	}
	w.chooser, w.books = c, books
}

// longest is min(the longest book line from pos, need) in plies, pos
// being reached from the game whose positions are keyed by game (a line
// also ends where it would repeat one of them). complete is false when the
// walk ran out of its budget before it knew: the line is then taken as
// long enough (need), since a book too bushy to measure is not ending.
func (w *lineWalk) longest(game []board.Key, pos *board.Position, need int) (plies int, complete bool) {
	w.path = append(w.path[:0], game...)
	w.moves = w.moves[:0]
	w.visited, w.exceeded = 0, false
	plies, _ = w.walk(pos, need)
	return plies, !w.exceeded
}

// walk returns min(longest line from pos, need), and whether that is the
// exact length, the same wherever pos is reached from: every line was
// followed to its end (none reached need, none was cut by a cycle or the
// budget).
func (w *lineWalk) walk(pos *board.Position, need int) (int, bool) {
	if need <= 0 {
		return 0, false
	}
	key := pos.Key()
	if l, ok := w.cache[key]; ok {
		return min(int(l), need), int(l) < need
	}
	if w.visited >= lineBudget {
		w.exceeded = true
		return need, false
	}
	w.visited++
	w.path = append(w.path, key)
	start := len(w.moves)
	w.moves = w.chooser.BookMoves(w.books(pos.WhiteToMove()), pos, w.moves)
	end := len(w.moves)
	best, exact := 0, true
	for i := start; i < end && best < need; i++ {
		next := *pos
		next.Play(w.moves[i])
		if slices.Contains(w.path, next.Key()) {
			exact = false // the line would go round: it ends before the repetition
			continue
		}
		sub, subExact := w.walk(&next, need-1)
		exact = exact && subExact
		best = max(best, sub+1)
	}
	w.moves = w.moves[:start]
	w.path = w.path[:len(w.path)-1]
	exact = exact && best < need
	if exact {
		w.cache[key] = int32(best)
	}
	return best, exact
}
