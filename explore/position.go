package explore

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/probe"
)

// Bounds on what a request may ask for: a line longer than any game, a
// FEN longer than any position's.
const (
	maxPlies    = 600
	maxFENBytes = 120
	maxMovesLen = 8 * maxPlies
)

// place is a position asked for: a start (FEN or the start position), the
// line played from it, and the ply of the line shown.
type place struct {
	fen      string // as given; "" for the start position
	chess960 bool
	start    *board.Line
	moves    []board.Move // played form
	ply      int          // 0..len(moves)
}

// parsePlace reads the position parameters of a request: fen (optional),
// moves (as board.SplitMoves reads them: UCI or SAN, separated by
// commas or blanks, move numbers and a result skipped, so a pasted PGN
// line works), ply (optional, default the end of the line) and chess960
// (optional; a FEN whose castling only Chess960 has turns it on).
func parsePlace(q url.Values) (*place, error) {
	p := &place{fen: strings.TrimSpace(q.Get("fen"))}
	if len(p.fen) > maxFENBytes {
		return nil, fmt.Errorf("fen: longer than %d bytes", maxFENBytes)
	}
	switch v := q.Get("chess960"); v {
	case "", "0", "false":
	case "1", "true":
		p.chess960 = true
	default:
		return nil, fmt.Errorf("chess960: %q is not 0 or 1", v)
	}
	p.chess960 = p.chess960 || board.Chess960FEN(p.fen)
	start, err := board.NewLineVariant(p.fen, p.chess960)
	if err != nil {
		return nil, fmt.Errorf("fen: %v", err)
	}
	p.start = start
	text := q.Get("moves")
	if len(text) > maxMovesLen {
		return nil, fmt.Errorf("moves: longer than %d bytes", maxMovesLen)
	}
	line := *start
	line.Keys = slices.Clone(line.Keys)
	if p.moves, err = line.PlayText(text); err != nil {
		// The moves before the bad one are played: the page shows them.
		return nil, &lineError{fmt.Errorf("moves: %v", err), p.movesParam()}
	}
	if len(p.moves) > maxPlies {
		return nil, fmt.Errorf("moves: more than %d", maxPlies)
	}
	p.ply = len(p.moves)
	if v := q.Get("ply"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(p.moves) {
			return nil, fmt.Errorf("ply: %q is not a number from 0 to %d", v, len(p.moves))
		}
		p.ply = n
	}
	return p, nil
}

// lineError is a line whose moves cannot all be played; Playable are
// those before the first that cannot, as the moves parameter writes them.
type lineError struct {
	err      error
	Playable string
}

func (e *lineError) Error() string { return e.err.Error() }

// lineTo is the line from the start to ply n.
func (p *place) lineTo(n int) *board.Line {
	l := *p.start
	l.Keys = append([]board.Key(nil), l.Keys...)
	for _, m := range p.moves[:n] {
		l.Play(m) // checked by parsePlace
	}
	return &l
}

// movesParam is the line's moves as the moves parameter writes them.
func (p *place) movesParam() string {
	var b strings.Builder
	for i, m := range p.moves {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// Position is /api/position's answer.
type Position struct {
	// The line: its start (FEN "" for the start position), its moves,
	// and the ply shown.
	StartFEN string     `json:"start_fen"`
	Chess960 bool       `json:"chess960"`
	Moves    []LineMove `json:"moves"`
	Ply      int        `json:"ply"`
	// The position shown: its FEN, the board from a8 to h1 (FEN letters,
	// "." for an empty square), its legal moves, and the game's end there.
	FEN    string      `json:"fen"`
	Board  string      `json:"board"`
	White  bool        `json:"white_to_move"`
	Legal  []LegalMove `json:"legal"`
	Status string      `json:"status,omitempty"` // checkmate, stalemate, draw
	Check  bool        `json:"check"`
	// Columns are the books, each as probe reports it and more.
	Columns []ColumnView `json:"columns"`
}

// LineMove is a move of the line.
type LineMove struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
}

// LegalMove is a legal move of the position shown.
type LegalMove struct {
	UCI  string `json:"uci"`
	From string `json:"from"`
	To   string `json:"to"`
	SAN  string `json:"san"`
}

// ColumnView is one column of books at the position shown.
type ColumnView struct {
	Name string `json:"name"`
	// Report is exactly what probe -json prints for the column's books,
	// policy and position.
	Report probe.Result `json:"report"`
	// Extra holds what the page shows beside each entry of Report (same
	// order).
	Extra []EntryExtra `json:"extra"`
	// Missing are the moves the first column has here that this one has
	// not (only in the columns after the first).
	Missing []LineMove `json:"missing"`
	// Along is, for each ply of the line from 0, how many book moves
	// (legal, weight above 0) the column's books have there; End is the
	// first ply at which they have none (-1: the whole line is in book).
	Along []int `json:"along"`
	End   int   `json:"end"`
	// Format is the format of the book listed, as its facts are named
	// ("polyglot", "abk", "ctg").
	Format   string `json:"format"`
	Editable bool   `json:"editable"`
}

// EntryExtra is what the page shows of an entry beyond probe's report.
type EntryExtra struct {
	SAN string `json:"san,omitempty"` // for a legal move
	// Next is how many book moves the position after the move has in the
	// column's books for the side to move then.
	Next int `json:"next"`
	// Change marks an entry of a column after the first against the
	// first: "new" (the first has no such move here), "weight", "learn"
	// (what differs), "" (the same).
	Change string `json:"change,omitempty"`
	// Facts are what the book's format holds of the move beyond its entry,
	// as the report's entry has them, under the format's name: "abk" (an
	// ABK move's priority, games, won and lost, those of the side that
	// plays it, and the records that play it), "ctg".
	Facts formats.Named `json:"-"`
}

// MarshalJSON writes the extra with its facts among its fields.
func (x EntryExtra) MarshalJSON() ([]byte, error) {
	type plain EntryExtra
	b, err := json.Marshal(plain(x))
	return x.Facts.AddTo(b), err
}

// UnmarshalJSON reads an extra with its facts.
func (x *EntryExtra) UnmarshalJSON(b []byte) error {
	type plain EntryExtra
	if err := json.Unmarshal(b, (*plain)(x)); err != nil {
		return err
	}
	var err error
	x.Facts, err = formats.NamedIn(b)
	return err
}

// bookMoves counts the book moves (legal, weight above 0) at pos in the
// first of its side's books in shelf that has any: the moves eligible in
// the decision of counter, a chooser without rules.
func bookMoves(counter *book.Chooser, shelf *book.Shelf, pos *board.Position) int {
	n := 0
	for _, cd := range counter.Decide(shelf, book.At(pos)).Candidates {
		if cd.Eligible {
			n++
		}
	}
	return n
}
