package ctg

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Format is ChessBase's CTG format as the book decision and the tools
// see it, with DroidFish's weights under the default options (see
// WithOptions): a book found by position, read a few pages a probe (its
// book.Source finds a position's moves by the position itself), with what
// the book holds beyond its entries (Describe: PositionFacts, MoveFacts);
// read only.
var Format book.Format = format{}

// WithOptions is the CTG format reading weights under opt (tournament
// mode, main-line preference).
func WithOptions(opt Options) book.Format { return format{opt} }

type format struct{ opt Options }

func (format) Name() string    { return "CTG" }
func (format) Ext() string     { return ".ctg" }
func (format) Chess960() bool  { return false }
func (format) ReadWhole() bool { return false }

// Fits never holds: a CTG file has no signature, and one of the three
// tells nothing of the others. A CTG book is known by its files' names
// (Claims).
func (format) Fits(io.ReaderAt, int64) error {
	return errors.New("a CTG book is known by its files' names (.ctg, .cto, .ctb), not by the content of one")
}

// Claims reports a name of one of a CTG book's three files: the name
// alone makes the book CTG.
func (format) Claims(path string) bool { return IsPath(path) }

// Open opens the CTG book named by any of its three files as a book found
// by position.
func (f format) Open(path string) (*book.Book, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	p := &prober{r: r, opt: f.opt, format: f}
	return book.New(path, f, p, p.info(nil), nil), nil
}

// prober is an open CTG book as the book decision asks it: a
// book.Source that finds a position's moves by the position.
type prober struct {
	r      *Book
	opt    Options
	format format
}

// Info is what a CTG book opened as a book.Book holds and, read whole,
// what its walk found: a Book's Report (InfoOf).
type Info struct {
	Pages        int64   `json:"pages"`         // data pages of the .ctg
	TableEntries int64   `json:"table_entries"` // of the .cto
	LowerBound   int32   `json:"lower_bound"`   // the .ctb's page bounds
	UpperBound   int32   `json:"upper_bound"`
	Games        uint32  `json:"games"` // the header's count of the games it was made from
	Options      Options `json:"options"`
	// Walk is what reading the book whole found (nil for a book read a
	// probe at a time).
	Walk *WalkInfo `json:"walk,omitempty"`
}

// WalkInfo is what reading a CTG book whole found: the positions its walk
// reached and those of its pages it did not.
type WalkInfo struct {
	MaxPly    int `json:"max_ply"`   // plies of moves walked from the start position (0: no limit)
	Positions int `json:"positions"` // reached (mirror twins apart)
	Depth     int `json:"depth"`     // the deepest ply of a position reached
	// Entries are the book's positions the walk reached, of InPages
	// (mirror twins are one); Unreached the rest, left out.
	Entries   int       `json:"entries"`
	InPages   int       `json:"in_pages"`
	Unreached int       `json:"unreached"`
	Problems  []Problem `json:"problems"` // the faults met, in the order met
}

func (p *prober) info(walk *WalkInfo) *Info {
	lower, upper := p.r.Bounds()
	return &Info{Pages: p.r.Pages(), TableEntries: p.r.TableSize(), LowerBound: lower, UpperBound: upper,
		Games: p.r.Games(), Options: p.opt, Walk: walk}
}

// String is what the proxy's log says of the book opened: "118 pages,
// table of 255 entries, made from 292 games".
func (i *Info) String() string {
	s := fmt.Sprintf("%d pages, table of %d entries, made from %d games", i.Pages, i.TableEntries, i.Games)
	if i.Options.TournamentMode {
		s += ", tournament mode"
	}
	if i.Options.PreferMainLines {
		s += ", main lines preferred"
	}
	return s
}

// Lines are info-book's lines of what the files hold and what reading
// them whole found.
func (i *Info) Lines() [][2]string {
	lines := [][2]string{
		{"format", "CTG (ChessBase's book), read as the Polyglot book below"},
		{"CTG files", fmt.Sprintf("%d pages, a table of %d entries, page bounds %d-%d; made from %d games", i.Pages, i.TableEntries, i.LowerBound, i.UpperBound, i.Games)},
	}
	if wk := i.Walk; wk != nil {
		lines = append(lines,
			[2]string{"CTG positions", fmt.Sprintf("%d in its pages: %d reached by lines of book moves from the start position, %d not", wk.InPages, wk.Entries, wk.Unreached)},
			[2]string{"CTG walk", fmt.Sprintf("%d positions (mirror twins apart), %d plies deep", wk.Positions, wk.Depth)})
	}
	return append(lines, [2]string{"CTG weights", fmt.Sprintf("DroidFish's: tournament mode %s, prefer main lines %s", onOff(i.Options.TournamentMode), onOff(i.Options.PreferMainLines))})
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// EntriesAre says what the book's entries are.
func (i *Info) EntriesAre() string {
	if i.Walk == nil {
		return "none: its moves are found a position at a time"
	}
	return "the moves of the positions the walk reached"
}

// Faults are every fault the walk met, and the positions it left out.
func (i *Info) Faults() []string {
	if i.Walk == nil {
		return nil
	}
	var out []string
	for _, p := range i.Walk.Problems {
		out = append(out, "CTG "+p.Error()+"; the rest of the book is used")
	}
	if i.Walk.Unreached > 0 {
		out = append(out, fmt.Sprintf("CTG: %d of the book's %d positions are not reached by a line of book moves from the start position: not counted above", i.Walk.Unreached, i.Walk.InPages))
	}
	return out
}

// InfoOf is what b holds when it was opened from a CTG book, else nil:
// book.ReportOf, the one function for every format's report.
var InfoOf = book.ReportOf[*Info]

// ReaderOf is the reader behind b and the options its weights are read
// under, for a CTG book read a probe at a time (what probe shows the
// annotations and statistics from); nil otherwise.
func ReaderOf(b *book.Book) (*Book, Options) {
	if p, ok := b.Source().(*prober); ok {
		return p.r, p.opt
	}
	return nil, Options{}
}

// Probe appends pos's moves as Polyglot entries (book.Source): the
// weights DroidFish plays by, as Polyglot weights (the heaviest 65535),
// and learn fields from the statistics of the position each move leads
// to: its games, and the points (2 a win, 1 a draw) of the side that
// played the move.
func (p *prober) Probe(pos board.Position, buf []book.Found) ([]book.Found, error) {
	e, err := p.r.Probe(&pos, p.opt)
	if e == nil || err != nil {
		return buf, err
	}
	var ebuf [32]book.Entry
	for i, en := range p.entries(ebuf[:0], &pos, e) {
		buf = append(buf, book.Found{Index: i, Entry: en})
	}
	return buf, nil
}

func (p *prober) entries(buf []book.Entry, pos *board.Position, e *Position) []book.Entry {
	var wbuf [32]float64
	var sbuf [32]uint16
	weights := wbuf[:0]
	for _, m := range e.Moves {
		weights = append(weights, m.Weight)
	}
	scaled := book.ScaleWeights(sbuf[:0], weights)
	key := pos.Key()
	for i, m := range e.Moves {
		var learn book.Learn
		if n := m.Next; n != nil {
			// The next position's statistics are its side to move's: the
			// mover's wins are its losses.
			learn = book.MakeLearn(int64(n.Games), 2*int64(n.Losses)+int64(n.Draws))
		}
		buf = append(buf, book.Entry{Key: key, Move: pos.ToBook(m.Move), Weight: scaled[i], Learn: learn})
	}
	return buf
}

// maxWarnings is how many of the faults a walk met become warnings of
// the book read whole (a thoroughly corrupt file could have thousands);
// info-book lists them all.
const maxWarnings = 10

// Whole walks the book from the start position (book.Source): maxPly
// plies of moves (0: no limit), so the positions up to maxPly-1 plies
// deep give their moves.
func (p *prober) Whole(maxPly int) (*book.Book, error) {
	var entries []book.Entry
	depth := maxPly - 1
	if maxPly <= 0 {
		depth = math.MaxInt
	}
	st, err := p.r.Walk(board.StartPosition(), depth, p.opt, func(pos *board.Position, _ int, e *Position) error {
		entries = p.entries(entries, pos, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read CTG book %s: %w", p.r.Name(), err)
	}
	inPages, err := p.r.Entries()
	if err != nil {
		return nil, fmt.Errorf("read CTG book %s: %w", p.r.Name(), err)
	}
	walk := &WalkInfo{MaxPly: maxPly, Positions: st.Positions, Depth: st.Depth, Entries: st.Entries,
		InPages: inPages, Unreached: max(inPages-st.Entries, 0), Problems: p.r.Problems()}
	warnings := p.Warnings()
	if len(warnings) > maxWarnings {
		warnings = append(warnings[:maxWarnings], fmt.Sprintf("CTG: %d more faults (info-book lists them)", len(warnings)-maxWarnings))
	}
	if walk.Unreached > 0 {
		within := ""
		if maxPly > 0 {
			within = fmt.Sprintf(" within %d plies", maxPly)
		}
		warnings = append(warnings, fmt.Sprintf("CTG: %d of the book's %d positions are not reached by a line of book moves from the start position%s: left out (polyproxy playing from the CTG book itself finds them)",
			walk.Unreached, inPages, within))
	}
	return book.New(p.r.Name(), p.format, book.Memory(entries), p.info(walk), warnings), nil
}

// Warnings are the faults met so far (book.Source).
func (p *prober) Warnings() []string {
	problems := p.r.Problems()
	w := make([]string, len(problems))
	for i, pr := range problems {
		w[i] = "CTG " + pr.Error() + "; the rest of the book is used"
	}
	return w
}

func (p *prober) Close() error { return p.r.Close() }
