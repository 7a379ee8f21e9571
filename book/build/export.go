package build

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/internal/lazy"
)

// TreeOptions chooses the part of a book's tree that TreeToPGN and
// Openings walk: from Start, book moves with a weight above 0 that are
// legal there, each with at least MinShare percent of its position's
// weight, down to MaxPly plies (0: no limit).
type TreeOptions struct {
	Start    *board.Position // nil: the standard start position
	MaxPly   int
	MinShare float64
}

func (o *TreeOptions) start() board.Position {
	if o.Start != nil {
		return *o.Start
	}
	return *board.StartPosition()
}

// treeMove is a book move of a position, with its share of the
// position's weight (legal moves with weight > 0).
type treeMove struct {
	played board.Move
	entry  book.Entry
	share  float64 // 0..1
}

// treeMoves returns a position's legal book moves by weight, heaviest
// first (file order among equals), each played move once.
func treeMoves(b *book.Book, pos *board.Position) []treeMove {
	var out []treeMove
	total := 0.0
	if pos.NoKeyReason() != "" {
		return nil
	}
	for _, e := range b.Entries(pos.Key()) {
		if e.Weight == 0 {
			continue
		}
		m, err := pos.LegalMove(pos.ToPlayed(e.Move))
		if err != nil || slices.ContainsFunc(out, func(t treeMove) bool { return t.played == m }) {
			continue
		}
		out = append(out, treeMove{played: m, entry: e})
		total += float64(e.Weight)
	}
	for i := range out {
		out[i].share = float64(out[i].entry.Weight) / total
	}
	slices.SortStableFunc(out, func(x, y treeMove) int { return int(y.entry.Weight) - int(x.entry.Weight) })
	return out
}

// TreeStats counts what TreeToPGN wrote.
type TreeStats struct {
	Moves          int // moves written
	Positions      int // positions whose moves were written
	Transpositions int // moves into a position written elsewhere, not repeated
}

// TreeToPGN writes the book's tree as one PGN game: the heaviest move is
// the main line, the others are variations (RAV) in weight order, and
// each move has a comment with its share of the position's weight, its
// weight and, when it has any, its learn counts: {62% w=1234 learn=10
// games 7.5 points}. A position reached again by another order of moves
// (a transposition) is expanded only where it is first written; the move
// into it elsewhere says {... transposes}. Any PGN reader takes it (the
// result is "*", the tags the seven the standard asks for, a FEN when
// the tree does not start from the standard position).
func TreeToPGN(w io.Writer, b *book.Book, name string, opt TreeOptions) (TreeStats, error) {
	t := &treeWriter{b: b, opt: opt, w: bufio.NewWriter(w), expanded: map[board.Key]bool{}}
	t.text.W = t.w
	start := opt.start()
	tags := [][2]string{{"Event", "Book tree of " + name}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "-"}, {"White", "?"}, {"Black", "?"}, {"Result", "*"}}
	if opt.Start != nil {
		tags = append(tags, startTags(&start)...)
	}
	tags = append(tags, [2]string{"Annotator", "polyproxy book-to-pgn"})
	for _, tg := range tags {
		fmt.Fprintf(t.w, "[%s \"%s\"]\n", tg[0], pgnEscape(tg[1]))
	}
	t.w.WriteString("\n")
	t.walk(start, 0, true)
	t.token("*")
	t.w.WriteString("\n\n")
	return t.stats, t.w.Flush()
}

// startTags are the tags of a game from start: none from the standard
// start in standard chess; SetUp and FEN from another; in Chess960 also
// Variant, as lichess writes it (the FEN's castling field in X-FEN), the
// standard start included.
func startTags(start *board.Position) [][2]string {
	var tags [][2]string
	if start.Chess960() {
		tags = append(tags, [2]string{"Variant", "Chess960"})
	} else if start.FEN() == board.StartFEN {
		return nil
	}
	return append(tags, [2]string{"SetUp", "1"}, [2]string{"FEN", start.FEN()})
}

// pgnTagEscaper escapes a PGN tag value; built once, as a Replacer per
// call would be one per game written.
var pgnTagEscaper = lazy.Value[*strings.Replacer]{New: func() *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`)
}}

func pgnEscape(s string) string { return pgnTagEscaper.Get().Replace(s) }

type treeWriter struct {
	b        *book.Book
	opt      TreeOptions
	w        *bufio.Writer
	text     pgn.MoveText // over w
	open     bool         // the next token starts a variation: "(" before it
	expanded map[board.Key]bool
	stats    TreeStats
}

// token writes one token, breaking lines before 80 columns.
func (t *treeWriter) token(s string) {
	if t.open {
		s, t.open = "("+s, false
	}
	t.text.Add(s, s == ")")
}

// walk writes the moves of pos and what follows them; number says the
// next Black move needs its move number ("3...").
func (t *treeWriter) walk(pos board.Position, ply int, number bool) {
	if t.opt.MaxPly > 0 && ply >= t.opt.MaxPly || t.expanded[pos.Key()] {
		return
	}
	var moves []treeMove
	for _, m := range treeMoves(t.b, &pos) {
		if m.share*100 >= t.opt.MinShare {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return
	}
	t.expanded[pos.Key()] = true
	t.stats.Positions++
	// The children are marked as they are written, so a child that is
	// also reached deeper in an earlier sibling's line is expanded there.
	t.move(pos, moves[0], number)
	for _, alt := range moves[1:] {
		t.open = true
		t.move(pos, alt, true)
		t.follow(pos, alt, ply)
		t.token(")")
	}
	t.follow(pos, moves[0], ply)
}

// follow goes on after a move already written (Black's next move gets
// its number: a comment stands between).
func (t *treeWriter) follow(pos board.Position, m treeMove, ply int) {
	next := pos
	next.Play(m.played)
	t.walk(next, ply+1, true)
}

// move writes a move with its number (White's always, Black's when asked)
// and its comment.
func (t *treeWriter) move(pos board.Position, m treeMove, number bool) {
	san := pos.SAN(m.played)
	switch {
	case pos.WhiteToMove():
		san = fmt.Sprintf("%d. %s", pos.FullMove(), san)
	case number:
		san = fmt.Sprintf("%d... %s", pos.FullMove(), san)
	}
	t.stats.Moves++
	comment := fmt.Sprintf("{%.0f%% w=%d", m.share*100, m.entry.Weight)
	if l := m.entry.Learn; l != 0 {
		comment += fmt.Sprintf(" learn=%d games %g points", l.Games(), float64(l.Points())/2)
	}
	if t.expanded[pos.KeyAfter(m.played)] {
		t.stats.Transpositions++
		comment += " transposes"
	}
	comment += "}"
	for _, tok := range strings.Fields(san + " " + comment) {
		t.token(tok)
	}
}

// Opening is a position of an opening suite and the book line to it.
type Opening struct {
	Pos   board.Position
	Start board.Position // the tree's start
	Moves []board.Move   // played form, from Start
	Share float64        // the line's share: the product of its moves' shares
}

// Openings returns positions of the book's tree, each once: with atPly >
// 0, those reached by exactly atPly book moves; otherwise the leaves of
// the tree within opt (positions with no book move left, or at MaxPly),
// where minLine > 0 also ends a line where going on would bring its share
// (the product of its moves' shares) below minLine percent. Lines are
// followed heaviest move first, and a position met again (a
// transposition) is not followed again, so each position comes with the
// first, heaviest line to it; a line never repeats a position.
func Openings(b *book.Book, opt TreeOptions, atPly int, minLine float64) []Opening {
	type visit struct {
		key board.Key
		ply int
	}
	visited := map[visit]bool{}
	written := map[board.Key]bool{}
	onLine := map[board.Key]bool{} // a repetition is no way to a position
	var out []Opening
	var walk func(pos board.Position, line []board.Move, share float64)
	walk = func(pos board.Position, line []board.Move, share float64) {
		ply := len(line)
		v := visit{pos.Key(), ply}
		if atPly == 0 {
			v.ply = 0 // leaves: a position is followed once, whatever its ply
		}
		if visited[v] {
			return
		}
		visited[v] = true
		var next []treeMove
		if (atPly == 0 || ply < atPly) && (opt.MaxPly == 0 || ply < opt.MaxPly) {
			for _, m := range treeMoves(b, &pos) {
				if m.share*100 >= opt.MinShare && share*m.share*100 >= minLine {
					next = append(next, m)
				}
			}
		}
		if len(next) == 0 {
			if (atPly == 0 || ply == atPly) && ply > 0 && !written[pos.Key()] {
				written[pos.Key()] = true
				out = append(out, Opening{Pos: pos, Start: opt.start(), Moves: slices.Clone(line), Share: share})
			}
			return
		}
		onLine[pos.Key()] = true
		for _, m := range next {
			p := pos
			p.Play(m.played)
			if !onLine[p.Key()] {
				walk(p, append(line[:ply:ply], m.played), share*m.share)
			}
		}
		delete(onLine, pos.Key())
	}
	walk(opt.start(), nil, 1)
	return out
}

// TreeLines calls fn with every line of the tree that TreeToPGN writes,
// from the start to where it stops (no move left, MaxPly, or a position
// written before): every move of the tree lies on at least one line, so
// games of these lines give make-book the tree's moves.
func TreeLines(b *book.Book, opt TreeOptions, fn func(line []board.Move) error) error {
	expanded := map[board.Key]bool{}
	var walk func(pos board.Position, line []board.Move) error
	walk = func(pos board.Position, line []board.Move) error {
		var moves []treeMove
		if (opt.MaxPly == 0 || len(line) < opt.MaxPly) && !expanded[pos.Key()] {
			for _, m := range treeMoves(b, &pos) {
				if m.share*100 >= opt.MinShare {
					moves = append(moves, m)
				}
			}
		}
		if len(moves) == 0 {
			if len(line) == 0 {
				return nil
			}
			return fn(line)
		}
		expanded[pos.Key()] = true
		// The order TreeToPGN walks them (its variations, then the main
		// line's continuation), so that both expand a position met twice
		// at the same place, and hold the same moves.
		for _, m := range append(moves[1:], moves[0]) {
			p := pos
			p.Play(m.played)
			if err := walk(p, append(line[:len(line):len(line)], m.played)); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(opt.start(), nil)
}

// WriteLineGame writes a line of moves as a PGN game with the seven
// standard tags (and the start position's FEN when it is not the
// standard one), result "*".
func WriteLineGame(w io.Writer, event string, round int, start board.Position, line []board.Move) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[Event \"%s\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"%d\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n", pgnEscape(event), round)
	for _, tg := range startTags(&start) {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", tg[0], tg[1])
	}
	sb.WriteString("\n")
	text := pgn.MoveText{W: &sb}
	pos := start
	for i, m := range line {
		tok := pos.SAN(m)
		if pos.WhiteToMove() {
			tok = fmt.Sprintf("%d. %s", pos.FullMove(), tok)
		} else if i == 0 {
			tok = fmt.Sprintf("%d... %s", pos.FullMove(), tok)
		}
		text.Add(tok, false)
		pos.Play(m)
	}
	if !text.Empty() {
		sb.WriteString(" ")
	}
	sb.WriteString("*\n\n")
	_, err := io.WriteString(w, sb.String())
	return err
}
