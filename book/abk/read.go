package abk

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Info is what reading an ABK book found: its settings, its records
// and the problems of its tree.
type Info struct {
	Settings      Settings `json:"settings"`       // as stored in the header
	Records       int      `json:"records"`        // move records after the header
	TrailingBytes int      `json:"trailing_bytes"` // after the last whole record (ignored)
	Reached       int      `json:"reached"`        // records reached from the root
	Deleted       int      `json:"deleted"`        // of them, marked deleted (skipped with their replies)
	Unreached     int      `json:"unreached"`      // records no line reaches (free space Arena leaves)
	Depth         int      `json:"depth"`          // the longest line, in plies
	Positions     int      `json:"positions"`      // distinct positions with moves (within max ply)
	Moves         int      `json:"moves"`          // distinct (position, move) pairs (within max ply)
	Merged        int      `json:"merged"`         // records whose (position, move) another line has too
	// SyntheticGames: the header says the game counts carry a converted
	// book's chances (SyntheticGames): the entries' learn fields hold the
	// games played alone.
	SyntheticGames bool      `json:"synthetic_games,omitempty"`
	Problems       []Problem `json:"problems"` // corrupt parts, in the order met
}

// maxWarnings is how many of an ABK tree's problems become warnings of
// the opened book (a thoroughly corrupt file could have thousands);
// info-book lists them all.
const maxWarnings = 10

// Open reads an ABK book whole and opens it as the Polyglot book it
// amounts to (see Read), held in memory, so that every tool and policy
// works on it unchanged; InfoOf gives what reading found.
func Open(path string) (*book.Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	}
	info, entries, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("open book %s: %w", path, err)
	}
	var warnings []string
	if info.TrailingBytes != 0 {
		warnings = append(warnings, fmt.Sprintf("ABK size %d is not a whole number of 28-byte records: the last %d byte(s) are ignored", len(data), info.TrailingBytes))
	}
	for i, p := range info.Problems {
		if i == maxWarnings {
			warnings = append(warnings, fmt.Sprintf("ABK tree: %d more problems (info-book lists them)", len(info.Problems)-i))
			break
		}
		warnings = append(warnings, "ABK tree: "+p.Error()+"; the rest of the book is used")
	}
	return book.New(path, Format, &source{Table: book.Memory(entries), path: path, synthetic: info.SyntheticGames}, info, warnings), nil
}

// source is an ABK book read whole: its entries, and what its records
// hold of each move beyond them (Describe).
type source struct {
	book.Table
	path      string
	synthetic bool // the counts are a converted book's chances (SyntheticGames)
	once      sync.Once
	totals    map[MoveID]Totals // read the first time they are asked for
	err       error
}

// Describe gives each of pos's moves asked what its records hold: its
// priority and totals (MoveFacts). They are read from the file the first
// time: the proxy, which never asks, holds no more than the entries.
func (s *source) Describe(pos *board.Position, moves []board.Move) (book.Facts, error) {
	s.once.Do(func() {
		data, err := os.ReadFile(s.path)
		if err == nil {
			s.totals, err = ReadTotals(data)
		}
		s.err = err
	})
	if s.err != nil {
		return book.Facts{}, s.err
	}
	f := book.Facts{Moves: make([]book.Row, len(moves)), Columns: []string{"priority", "games", "won", "lost", "records"}}
	if s.synthetic {
		// A converted book's counts: the chance, then the games played.
		f.Columns = []string{"priority", "chance units", "games", "won", "lost", "records"}
	}
	for i, m := range moves {
		if t, ok := s.totals[MoveID{Key: pos.Key(), Move: pos.ToBook(m)}]; ok {
			f.Moves[i] = factsOf(t, pos.WhiteToMove(), s.synthetic)
		}
	}
	return f, nil
}

// MoveFacts are an ABK move's priority and statistics, as the side that
// plays it sees them (the file keeps White's), over the records that play
// it.
type MoveFacts struct {
	Priority int8  `json:"priority"`
	Games    int64 `json:"games"`
	Won      int64 `json:"won"`
	Lost     int64 `json:"lost"`
	Records  int   `json:"records"` // the records that play it (transpositions)
	// Synthetic is set in a converted book (SyntheticGames): the part of
	// Games that carries the move's chance, in units of SyntheticUnit, no
	// games played; the rest of Games, and Won and Lost, are games played.
	Synthetic *int64 `json:"synthetic_games,omitempty"`
}

func factsOf(t Totals, white, synthetic bool) *MoveFacts {
	f := &MoveFacts{Priority: t.Priority, Games: t.Games, Won: t.Wins, Lost: t.Losses, Records: t.Records}
	if synthetic {
		f.Synthetic = &t.Synthetic
	}
	if !white {
		f.Won, f.Lost = f.Lost, f.Won
	}
	return f
}

// Row is the move's facts as a table's row: in a converted book, the
// chance units apart from the games played.
func (f *MoveFacts) Row() []string {
	if f.Synthetic != nil {
		return []string{fmt.Sprint(f.Priority), fmt.Sprint(*f.Synthetic / SyntheticUnit), fmt.Sprint(f.Games - *f.Synthetic),
			fmt.Sprint(f.Won), fmt.Sprint(f.Lost), fmt.Sprint(f.Records)}
	}
	return []string{fmt.Sprint(f.Priority), fmt.Sprint(f.Games), fmt.Sprint(f.Won), fmt.Sprint(f.Lost), fmt.Sprint(f.Records)}
}

func (f *MoveFacts) String() string {
	games, units := f.Games, int64(0)
	if f.Synthetic != nil {
		games, units = f.Games-*f.Synthetic, *f.Synthetic/SyntheticUnit
	}
	s := fmt.Sprintf("priority %d, %d games, +%d -%d for the side that plays it", f.Priority, games, f.Won, f.Lost)
	if f.Synthetic != nil {
		s += fmt.Sprintf(", and %d units of chance from the book converted (no games played)", units)
	}
	if f.Records > 1 {
		s += fmt.Sprintf(", in %d records", f.Records)
	}
	return s
}

// treeMove is one (position, move) of an ABK tree with the statistics of
// every record that plays it there.
type treeMove struct {
	key                 board.Key
	move                board.Move // stored form
	white               bool       // played by White
	games, wins, losses int64
	synthetic           int64 // of games, a converted book's chance units (SyntheticGames)
	priority            int8  // the highest of the records
	seq                 int   // the order first met
}

type moveID struct {
	key  board.Key
	move board.Move
}

// tree is an ABK file's records and the walk over them.
type tree struct {
	data    []byte
	records int32 // including the header's 900
	maxPly  int   // the effective max ply: moves from this ply on are not served
	info    *Info
}

func (t *tree) record(i int32) Record {
	return DecodeRecord(t.data[int(i)*RecordSize:])
}

func (t *tree) problem(rec int32, format string, args ...any) {
	t.info.Problems = append(t.info.Problems, Problem{Record: rec, Reason: fmt.Sprintf(format, args...)})
}

// visit is called for each record the reader serves: live, reached, legal,
// within the max ply. It gets the position the record's move is played in,
// the move as played, that position's ply, and the mark of the record's
// sibling chain; it returns the mark for the chain of the record's
// replies. Marks follow lines through the tree for a visitor that wants
// to (learning follows the games' lines); the reader leaves them at -1.
type visit func(rec int32, r Record, pos *board.Position, played board.Move, ply int, mark int32) int32

// walk visits the tree from record 900 depth first, siblings in chain
// order, the root chain marked root. A pointer out of range, a record
// reached a second time (a cycle, or branches sharing records) and a move
// illegal in its position are problems: reported with the record holding
// them, and not followed. Records beyond the max ply are walked for the
// info (depth, problems) but not visited: no reader serves them.
func (t *tree) walk(root int32, visit visit) {
	type chain struct {
		first int32
		from  int32 // the record pointing at first; -1 for the root
		pos   *board.Position
		ply   int
		mark  int32
	}
	if t.records == FirstRecord {
		return // the header alone: a book without moves
	}
	seen := make([]bool, t.records)
	stack := []chain{{FirstRecord, -1, board.StartPosition(), 0, root}}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		prev, what := c.from, "next move"
		for r := c.first; r > 0; {
			if r < FirstRecord || r >= t.records {
				if prev < 0 {
					t.problem(r, "the first move's record is past the end (%d records)", t.records)
				} else {
					t.problem(prev, "%s points to record %d, outside the moves (records %d to %d)", what, r, FirstRecord, t.records-1)
				}
				break
			}
			if seen[r] {
				t.problem(prev, "%s points to record %d, already read (a cycle, or lines sharing records): not followed again", what, r)
				break
			}
			seen[r] = true
			t.info.Reached++
			rec := t.record(r)
			prev, what, r = r, "next sibling", rec.Sibling
			if rec.Deleted() {
				t.info.Deleted++
				continue
			}
			played, ok := t.legal(prev, rec, c.pos, c.ply)
			if !ok {
				continue
			}
			if c.ply+1 > t.info.Depth {
				t.info.Depth = c.ply + 1
			}
			mark := int32(-1)
			if c.ply < t.maxPly {
				mark = visit(prev, rec, c.pos, played, c.ply, c.mark)
			}
			if rec.Next > 0 {
				stack = append(stack, chain{rec.Next, prev, c.pos.Next(played), c.ply + 1, mark})
			}
		}
	}
	t.info.Unreached = int(t.records) - FirstRecord - t.info.Reached
}

// legal is the move of record rec (r) as played at pos (ply), or a problem
// when it is none there.
func (t *tree) legal(rec int32, r Record, pos *board.Position, ply int) (board.Move, bool) {
	m, ok := r.Move()
	if !ok {
		t.problem(rec, "no move: squares %d-%d, promotion %d", r.From, r.To, r.Promo)
		return 0, false
	}
	if white := pos.WhiteToMove(); r.Promo != 0 && (r.Promo < 0) != white {
		// Arena writes White's negative: the other sign is a corrupt
		// record, and DroidFish's reader finds no such move.
		t.problem(rec, "%s has the promotion code %d, which is the other side's", m, r.Promo)
		return 0, false
	}
	if castling := pos.ToPlayed(m); castling != m && r.Promo == 0 {
		// Polyglot's form of castling, the king taking its own rook. ABK
		// stores castling as the king's two-square move, and Arena's
		// readers take this record as the king moving onto its rook:
		// DroidFish's never matches it to the castling played, and offers
		// no book move at all where it is listed.
		t.problem(rec, "%s is castling written as the king taking its own rook (Polyglot's form; ABK writes the king's move, %s): not a move here (ply %d), its replies are skipped", m, castling, ply+1)
		return 0, false
	}
	played, err := pos.LegalMove(m)
	if err != nil {
		t.problem(rec, "%s is not legal in its position (ply %d): its replies are skipped", m, ply+1)
		return 0, false
	}
	return played, true
}

// newTree checks the size of an ABK file's bytes.
func newTree(data []byte) (*tree, error) {
	if len(data) < HeaderSize {
		return nil, fmt.Errorf("ABK book of %d bytes: too short for its header (%d bytes)", len(data), HeaderSize)
	}
	if len(data)/RecordSize > math.MaxInt32 {
		return nil, fmt.Errorf("ABK book of %d bytes: too many records", len(data))
	}
	records := int32(len(data) / RecordSize)
	info := &Info{
		Settings:       DecodeSettings(data),
		Records:        int(records) - FirstRecord,
		TrailingBytes:  len(data) % RecordSize,
		SyntheticGames: SyntheticGames(data),
	}
	return &tree{data: data, records: records, maxPly: int(info.Settings.Effective().MaxPly), info: info}, nil
}

// Read reads the bytes of an ABK book: what it found, and its moves as
// Polyglot entries in a book file's order. Each position the tree reaches
// within the book's max ply is keyed the Polyglot way; a move met there
// under several lines (a transposition) is one entry with the records'
// games, wins and losses added (and the highest priority). Weights follow
// the book's settings (Weights); the learn field holds the games and the
// points of the side that played the move. Errors are for files that are
// no ABK book at all; a corrupt tree is read as far as it goes, its
// problems in the info.
func Read(data []byte) (*Info, []book.Entry, error) {
	t, err := newTree(data)
	if err != nil {
		return nil, nil, err
	}
	// Sized for every record at once (growing them was half the time),
	// up to a million: a big file may be mostly records no line reaches.
	size := min(t.info.Records, 1<<20)
	moves := make([]treeMove, 0, size)
	index := make(map[moveID]int, size)
	t.walk(-1, func(rec int32, r Record, pos *board.Position, played board.Move, ply int, _ int32) int32 {
		id := moveID{pos.Key(), pos.ToBook(played)}
		i, ok := index[id]
		if !ok {
			i = len(moves)
			index[id] = i
			moves = append(moves, treeMove{key: id.key, move: id.move, white: pos.WhiteToMove(), priority: r.Priority, seq: i})
		} else {
			t.info.Merged++
		}
		m := &moves[i]
		m.games += int64(r.Games)
		if t.info.SyntheticGames {
			m.synthetic += syntheticPart(r.Games)
		}
		m.wins += int64(r.Wins)
		m.losses += int64(r.Losses)
		m.priority = max(m.priority, r.Priority)
		return -1
	})
	// A position's moves together, in the order met (record numbers grow
	// in the walk's order of first meeting). Not a stable sort: without a
	// buffer it costs a second per 150,000 moves in moves.
	slices.SortFunc(moves, func(x, y treeMove) int {
		if c := cmp.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.seq, y.seq)
	})
	entries := make([]book.Entry, 0, len(moves))
	eff := t.info.Settings.Effective()
	var weigh weighing
	for first := 0; first < len(moves); {
		last := first + 1
		for last < len(moves) && moves[last].key == moves[first].key {
			last++
		}
		pos := moves[first:last]
		weights := weigh.weights(weigh.statsOf(pos), eff)
		n := len(entries)
		for i, m := range pos {
			entries = append(entries, book.Entry{Key: m.key, Move: m.move, Weight: weights[i], Learn: learnField(m.games-m.synthetic, m.wins, m.losses, m.white)})
		}
		slices.SortStableFunc(entries[n:], book.CompareEntries) // a position's few: the file's order
		t.info.Positions++
		first = last
	}
	t.info.Moves = len(moves)
	return t.info, entries, nil
}

// MoveStats is what weighs a move of an ABK position: its priority and
// its games, with the wins and losses of the side that plays it.
type MoveStats struct {
	Priority         int8
	Games, Won, Lost int64
	WhiteToMove      bool
}

// weighing weighs one position after another in the same buffers: a
// hundred thousand positions made as many allocations each.
type weighing struct {
	stats []MoveStats
	w     []float64
	parts [][3]float64
	out   []uint16
}

func (a *weighing) statsOf(moves []treeMove) []MoveStats {
	out := a.stats[:0]
	for _, m := range moves {
		won, lost := m.wins, m.losses
		if !m.white {
			won, lost = lost, won
		}
		out = append(out, MoveStats{Priority: m.priority, Games: m.games, Won: won, Lost: lost, WhiteToMove: m.white})
	}
	a.stats = out
	return out
}

// scale raises a part of a move's weight to the power its importance
// gives: 0 leaves the part out, 1 and 2 flatten it, 3 keeps it as it is,
// each step above sharpens it by a sixth.
func scale(v float64, importance int32) float64 {
	var e float64
	switch importance {
	case 0:
		return 0
	case 1:
		e = 0.66
	case 2:
		e = 0.86
	default:
		e = 1 + float64(importance-3)/6
	}
	return math.Pow(v, e)
}

// FloatWeights are the relative weights of a position's moves under
// settings s (effective): NaN for a move the settings filter out (fewer
// games or won games than the minimums, a lower score than the side's
// minimum percent, or no games at all, whose score is undefined). Each of
// priority, games and score is raised to the power its importance gives,
// taken as a share of the position's sum, and the three shares weighted by
// e^(0.624 importance) (the score's by 1.4 more) are added. When every
// offered move weighs 0 they all weigh 1. This is Arena's book setting as
// DroidFish's reader implements it.
func FloatWeights(moves []MoveStats, s Settings) []float64 {
	var a weighing
	return a.floatWeights(moves, s)
}

func (a *weighing) floatWeights(moves []MoveStats, s Settings) []float64 {
	w := a.w[:0]
	for range moves {
		w = append(w, 0)
	}
	parts := a.parts[:0]
	defer func() { a.w, a.parts = w, parts }()
	var sums [3]float64
	for i, m := range moves {
		draws := m.Games - m.Won - m.Lost
		score := (float64(m.Won) + float64(draws)*0.5) / float64(m.Games)
		minPercent := s.MinWinPercentBlack
		if m.WhiteToMove {
			minPercent = s.MinWinPercentWhite
		}
		if m.Games <= 0 || m.Games < int64(s.MinGames) || m.Won < int64(s.MinWonGames) || !(score*100 >= float64(minPercent)) {
			w[i] = math.NaN()
			parts = append(parts, [3]float64{})
			continue
		}
		p := [3]float64{
			scale(float64(max(m.Priority, 0)), s.PriorityImportance),
			scale(float64(m.Games), s.GamesImportance),
			scale(score, s.ScoreImportance),
		}
		parts = append(parts, p)
		for j := range sums {
			sums[j] += p[j]
		}
	}
	factors := [3]float64{
		math.Exp(0.624 * float64(s.PriorityImportance)),
		math.Exp(0.624 * float64(s.GamesImportance)),
		math.Exp(0.624*float64(s.ScoreImportance)) * 1.4,
	}
	anyPositive := false
	for i := range moves {
		if math.IsNaN(w[i]) {
			continue
		}
		for j := range sums {
			if sums[j] > 0 {
				w[i] += parts[i][j] / sums[j] * factors[j]
			}
		}
		anyPositive = anyPositive || w[i] > 0
	}
	if !anyPositive {
		for i := range w {
			if !math.IsNaN(w[i]) {
				w[i] = 1
			}
		}
	}
	return w
}

// Weights are FloatWeights as Polyglot weights: the heaviest move
// 65535, the others in proportion (at least 1 when above 0), a filtered
// move 0 (never played, still listed).
func Weights(moves []MoveStats, s Settings) []uint16 {
	var a weighing
	return a.weights(moves, s)
}

func (a *weighing) weights(moves []MoveStats, s Settings) []uint16 {
	a.out = book.ScaleWeights(a.out[:0], a.floatWeights(moves, s))
	return a.out
}

// learnField is a Polyglot learn field for a move from an ABK record's
// statistics (White's view): games, and the points (in half points) of
// the side that played it (MakeLearn).
func learnField(games, wins, losses int64, white bool) book.Learn {
	if games <= 0 {
		return 0
	}
	won, lost := wins, losses
	if !white {
		won, lost = lost, won
	}
	won, lost = max(won, 0), max(lost, 0)
	draws := max(games-won-lost, 0)
	return book.MakeLearn(games, 2*won+draws)
}

// String is what the proxy's log says of a book read: "142776 records,
// 112294 positions, 180358 moves".
func (i *Info) String() string {
	return fmt.Sprintf("%d records, %d positions, %d moves", i.Records, i.Positions, i.Moves)
}

// Lines are info-book's lines of what the header and the tree hold.
func (i *Info) Lines() [][2]string {
	e := i.Settings.Effective()
	lines := [][2]string{
		{"format", "ABK (Arena's book), read as the Polyglot book below"},
		{"ABK records", fmt.Sprintf("%d after the header: %d on the tree, %d of them deleted; %d unreached", i.Records, i.Reached, i.Deleted, i.Unreached)},
		{"ABK depth", fmt.Sprintf("%d plies; %d moves met again under another move order (merged)", i.Depth, i.Merged)},
		{"ABK filters", fmt.Sprintf("min games %d, min won games %d, min win %% %d (White) %d (Black)", e.MinGames, e.MinWonGames, e.MinWinPercentWhite, e.MinWinPercentBlack)},
		{"ABK importances", fmt.Sprintf("priority %d, games %d, score %d", e.PriorityImportance, e.GamesImportance, e.ScoreImportance)},
		{"ABK max ply", fmt.Sprint(e.MaxPly)},
	}
	if i.SyntheticGames {
		lines = append(lines, [2]string{"ABK game counts", fmt.Sprintf("converted by polyproxy: each move's games are its chance in units of %d (no games played), plus the games played since", SyntheticUnit)})
	}
	if st := i.Settings; e != st {
		lines = append(lines, [2]string{"ABK settings as stored", fmt.Sprintf("%d %d %d %d, %d %d %d, %d (out of range, or the filters are off with every importance 0)",
			st.MinGames, st.MinWonGames, st.MinWinPercentWhite, st.MinWinPercentBlack, st.PriorityImportance, st.GamesImportance, st.ScoreImportance, st.MaxPly)})
	}
	return lines
}

// EntriesAre says what the book's entries are.
func (i *Info) EntriesAre() string { return "the tree's positions and moves to its max ply" }

// Faults are every fault of the file and its tree, in words.
func (i *Info) Faults() []string {
	var out []string
	if i.TrailingBytes != 0 {
		out = append(out, fmt.Sprintf("ABK size is not a whole number of 28-byte records: the last %d byte(s) are ignored", i.TrailingBytes))
	}
	for _, p := range i.Problems {
		out = append(out, "ABK tree: "+p.Error()+"; the rest of the book is used")
	}
	return out
}
