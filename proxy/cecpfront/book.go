package cecpfront

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
)

// showBook answers bk, for XBoard's Book window: the moves the book has
// for the position on the board, in SAN, the likeliest first, each with
// its chance of being played, its weight and share of the position's
// weight, and its learned results when it has some, as the book decision
// sees them (the side's books, the policies); lines start with a space
// and an empty line ends the answer. It is answered in any mode, and no
// search notices it.
func (x *Front) showBook() {
	v := x.c.BookView()
	var lines []string
	if v.Book != nil {
		lines = append(lines, " "+filepath.Base(v.Book.Path())+":")
		pos := x.pos()
		for _, cd := range v.Candidates {
			if !cd.Legal {
				continue
			}
			var b strings.Builder
			b.WriteString(" " + pos.SAN(cd.Move) + " chance " + string(book.AppendPercent(nil, cd.Chance)) +
				" (weight " + strconv.FormatUint(cd.Weight, 10) + ", share " + string(book.AppendPercent(nil, cd.Share)))
			if l := cd.Entry.Learn; l.Games() > 0 {
				b.WriteString(", " + learnText(l))
			}
			b.WriteString(")")
			if !cd.Eligible {
				b.WriteString(" not played: " + cd.Why)
			}
			lines = append(lines, b.String())
		}
	}
	if v.Why != "" {
		lines = append(lines, " no book move here: "+v.Why)
	}
	for _, l := range lines {
		x.reply(l)
	}
	x.reply("")
}

// learnText is an entry's learned results: games and score.
func learnText(l book.Learn) string {
	games := "games"
	if l.Games() == 1 {
		games = "game"
	}
	score := 100 * float64(l.Points()) / (2 * float64(l.Games()))
	return strconv.Itoa(int(l.Games())) + " " + games + ", " + strconv.FormatFloat(score, 'f', 1, 64) + "% scored"
}

// hint answers hint: the book's likeliest move on the board, else the
// reply our last search expected there, else nothing.
func (x *Front) hint() {
	if x.over {
		return
	}
	v := x.c.BookView()
	if m, ok := v.Likeliest(); ok {
		x.reply("Hint: " + x.moveText(m))
		return
	}
	if x.expected.IsNull() || x.expectedAt != x.plies() {
		return
	}
	if m, ok := legalHere(x.pos(), x.expected); ok {
		x.reply("Hint: " + x.moveText(m))
	}
}
