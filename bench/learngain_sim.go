package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	ppconfig "github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
)

// The learning benchmark's simulated tournament. A book of a few dozen
// lines for White, each ending with a hidden expected score, plays 10,000
// games: our moves are the real decision's (book.Chooser.Choose, under
// each policy as the configuration builds it), the opponent's are drawn
// by its weights, the result is drawn from the line's hidden score, and
// each game is learned as `polyproxy learn` learns it, one game at a
// time: its PGN read by learn.FromPGN and counted into the book file by
// book.LearnFile.Apply (the live session counts a game the same way,
// from the host's PGN; going through the file rather than the proxy
// keeps 10,000 games a policy within seconds).

const (
	simGames = 10_000
	simRuns  = 3 // tournaments of simGames games a policy, each with its own seed
	// simShortRuns more tournaments of simShortGames games a policy make
	// the early shares less noisy.
	simShortRuns  = 20
	simShortGames = 1000
	// simEarlyRuns tournaments of simEarlyGames games a policy more make
	// the shares after 200 games precise enough to compare with 2%.
	simEarlyRuns  = 100
	simEarlyGames = 200
)

// simCheckpoints are the games after which the book's chances are read.
var simCheckpoints = []int{0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000}

// simPolicy is a choice compared: its name and the chooser options.
type simPolicy struct {
	name string
	opts book.Options
	// learns: its games are learned (BookLearn); without, the book is
	// never written, and choosing by it would change nothing.
	learns bool
}

func simPolicies() []simPolicy {
	c := ppconfig.Default("")
	none := c.ChooserOptions(learn.Weight)
	c.BookLearnWeight = true
	factor := c.ChooserOptions(learn.Weight)
	near := func(tol int) book.Options {
		d := c.Clone()
		d.BookLearnPolicy, d.BookLearnTolerance = ppconfig.LearnNearBest, tol
		return d.ChooserOptions(learn.Weight)
	}
	// Plain Thompson sampling: each move's chance the probability that
	// it is the best, the author's weights ignored.
	thompson := none
	thompson.Mode, thompson.NearBest, thompson.Tolerance = book.Uniform, true, 0
	return []simPolicy{
		{"no learning", none, false},
		{"factor (PolyGlot 2.0)", factor, true},
		{"nearbest, tolerance 2%", near(2), true},
		{"nearbest, tolerance 5% (default)", near(ppconfig.DefaultLearnTolerance), true},
		{"nearbest, tolerance 10%", near(10), true},
		{"Thompson sampling", thompson, true},
	}
}

// simLeaf is where a line of the book ends: its hidden expected score
// for White.
type simLeaf struct {
	score float64
	kind  string // "losing", "sound" or "equal"
}

// simTree is the book's lines: the book's entries and, by the position
// where a line ends, its hidden score.
type simTree struct {
	entries []book.Entry
	leaves  map[board.Key]simLeaf
	seen    map[board.Key]bool
	rng     *rand.Rand
}

// newSimTree grows the book from the start position: White chooses among
// 4 moves there and 2 or 3 after, one of which loses every game at the
// start and at half the positions after; Black replies with 2 moves; lines end at several depths, sound ones at 0.55, equal ones at
// an even 0.5.
func newSimTree(seed uint64) *simTree {
	t := &simTree{leaves: map[board.Key]simLeaf{}, seen: map[board.Key]bool{}, rng: rand.New(rand.NewPCG(seed, 1))}
	start := board.StartPosition()
	t.seen[start.Key()] = true
	t.white(start, 0)
	slices.SortStableFunc(t.entries, func(a, b book.Entry) int { return cmp.Compare(a.Key, b.Key) })
	return t
}

// fresh are n of pos's legal moves to positions not in the book yet, in
// a random order.
func (t *simTree) fresh(pos *board.Position, n int) []board.Move {
	moves := pos.LegalMoves()
	t.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	var out []board.Move
	for _, m := range moves {
		if k := pos.KeyAfter(m); !t.seen[k] && len(out) < n {
			t.seen[k] = true
			out = append(out, m)
		}
	}
	return out
}

func (t *simTree) add(pos *board.Position, m board.Move, w int) {
	t.entries = append(t.entries, book.Entry{Key: pos.Key(), Move: pos.ToBook(m), Weight: uint16(w)})
}

func (t *simTree) white(pos *board.Position, depth int) {
	n := 2 + t.rng.IntN(2)
	if depth == 0 {
		n = 4
	}
	moves := t.fresh(pos, n)
	for i, m := range moves {
		t.add(pos, m, 10+t.rng.IntN(91))
		next := *pos
		next.Play(m)
		switch {
		case i == 0 && (depth == 0 || t.rng.IntN(2) == 0):
			// An always-losing move beside the others, the author's weight
			// as any other's.
			t.leaves[next.Key()] = simLeaf{0, "losing"}
		case depth == 2 || depth == 1 && t.rng.IntN(3) == 0:
			t.leaf(&next)
		default:
			t.black(&next, depth)
		}
	}
}

func (t *simTree) leaf(pos *board.Position) {
	if t.rng.IntN(2) == 0 {
		t.leaves[pos.Key()] = simLeaf{0.55, "sound"}
	} else {
		t.leaves[pos.Key()] = simLeaf{0.5, "equal"}
	}
}

func (t *simTree) black(pos *board.Position, depth int) {
	for _, m := range t.fresh(pos, 2) {
		t.add(pos, m, 1+t.rng.IntN(100))
		next := *pos
		next.Play(m)
		t.white(&next, depth+1)
	}
}

// best is the best expected score from pos: the best of our moves, the
// opponent's replies weighed as it draws them.
func (t *simTree) best(b *book.Book, pos *board.Position) float64 {
	if l, ok := t.leaves[pos.Key()]; ok {
		return l.score
	}
	es := b.Entries(pos.Key())
	var v, total float64
	for _, e := range es {
		next := *pos
		next.Play(pos.ToPlayed(e.Move))
		s := t.best(b, &next)
		if pos.WhiteToMove() {
			v = max(v, s)
		} else {
			v += float64(e.Weight) * s
			total += float64(e.Weight)
		}
	}
	if !pos.WhiteToMove() {
		v /= total
	}
	return v
}

// reach is where the book's games end, as its chances stand: each
// line's chance, by the position it ends at; and the choices a game
// makes, expected.
func (t *simTree) reach(c *book.Chooser, b *book.Book, l *board.Line, p float64, out map[board.Key]float64, choices *float64) {
	pos := &l.Pos
	if pos.WhiteToMove() {
		d := c.Decide(book.Both(b), book.Game{Line: l})
		if _, ok := d.Likeliest(); !ok {
			out[pos.Key()] += p
			return
		}
		*choices += p
		// The chooser's candidates are valid until its next decision.
		for _, cd := range slices.Clone(d.Candidates) {
			if cd.Chance > 0 {
				t.reach(c, b, simAfter(l, cd.Move), p*cd.Chance, out, choices)
			}
		}
		return
	}
	es := b.Entries(pos.Key())
	if len(es) == 0 {
		out[pos.Key()] += p
		return
	}
	var total float64
	for _, e := range es {
		total += float64(e.Weight)
	}
	for _, e := range es {
		t.reach(c, b, simAfter(l, pos.ToPlayed(e.Move)), p*float64(e.Weight)/total, out, choices)
	}
}

func simAfter(l *board.Line, m board.Move) *board.Line {
	next := &board.Line{Pos: l.Pos, Keys: slices.Clone(l.Keys)}
	next.Play(m)
	return next
}

// simState is what the chances at a checkpoint say: the losing lines'
// share of the games, the choices a game makes (a game into a losing
// line makes one losing choice, its last), the lines with 1% or more,
// and the sound and equal ones among them.
type simState struct {
	losing      float64
	choices     float64
	lines       int
	soundInPlay int
}

// losingChoices is the losing lines' share of the choices.
func (s simState) losingChoices() float64 { return s.losing / s.choices }

func (t *simTree) state(c *book.Chooser, b *book.Book) simState {
	reach := map[board.Key]float64{}
	var s simState
	t.reach(c, b, &board.Line{Pos: *board.StartPosition()}, 1, reach, &s.choices)
	for k, p := range reach {
		l := t.leaves[k]
		if l.kind == "losing" {
			s.losing += p
		}
		if p >= 0.01 {
			s.lines++
			if l.kind != "losing" {
				s.soundInPlay++
			}
		}
	}
	return s
}

// simRun is one tournament of a policy: the score of its games and the
// state at each checkpoint up to its length.
type simRun struct {
	games  int
	score  float64
	states []simState
}

// simTournament plays games games with the policy into a fresh copy of
// the book at dir.
func (t *simTree) simTournament(dir string, p simPolicy, seed uint64, games int) (simRun, error) {
	path := filepath.Join(dir, "learngain.bin")
	if err := polyglot.WriteFile(path, t.entries); err != nil {
		return simRun{}, err
	}
	b, err := polyglot.Open(path)
	if err != nil {
		return simRun{}, err
	}
	defer b.Close()
	var lf *book.LearnFile
	if p.learns {
		if lf, err = book.OpenLearnFile(path, polyglot.Format); err != nil {
			return simRun{}, err
		}
		defer lf.Close()
	}
	ours := book.NewChooser(p.opts, seed)
	ours.Explain(false)
	theirs := rand.New(rand.NewPCG(seed, 2))
	results := rand.New(rand.NewPCG(seed, 3))
	run := simRun{games: games}
	var game strings.Builder
	next := 0
	for g := 0; g <= games; g++ {
		if next < len(simCheckpoints) && simCheckpoints[next] == g {
			run.states = append(run.states, t.state(ours, b))
			next++
		}
		if g == games {
			break
		}
		score, err := t.play(ours, b, lf, theirs, results, &game)
		if err != nil {
			return simRun{}, err
		}
		run.score += score
	}
	run.score /= float64(games)
	return run, nil
}

// play plays one game and learns it from its PGN into lf (nil: not
// learned).
func (t *simTree) play(ours *book.Chooser, b *book.Book, lf *book.LearnFile, theirs, results *rand.Rand, game *strings.Builder) (float64, error) {
	l := &board.Line{Pos: *board.StartPosition()}
	var moves strings.Builder
	for ply := 0; ; ply++ {
		var m board.Move
		if l.Pos.WhiteToMove() {
			d := ours.Choose(book.Both(b), book.Game{Line: l})
			cd, ok := d.Move()
			if !ok {
				break
			}
			m = cd.Move
		} else {
			es := b.Entries(l.Pos.Key())
			if len(es) == 0 {
				break
			}
			var total int
			for _, e := range es {
				total += int(e.Weight)
			}
			r := theirs.IntN(total)
			for _, e := range es {
				if r -= int(e.Weight); r < 0 {
					m = l.Pos.ToPlayed(e.Move)
					break
				}
			}
		}
		if ply%2 == 0 {
			fmt.Fprintf(&moves, "%d. ", ply/2+1)
		}
		moves.WriteString(l.Pos.SAN(m) + " ")
		l.Play(m)
	}
	leaf, ok := t.leaves[l.Pos.Key()]
	if !ok {
		return 0, fmt.Errorf("a game ended outside the lines at %s", l.Pos.FEN())
	}
	result, score := simResult(leaf.score, results)
	if lf == nil {
		return score, nil
	}
	game.Reset()
	fmt.Fprintf(game, "[White \"polyproxy\"]\n[Black \"opponent\"]\n[Result \"%s\"]\n\n%s%s\n\n", result, moves.String(), result)
	updates, _, err := learn.FromPGN(strings.NewReader(game.String()), b, "polyproxy", nil)
	if err == nil {
		_, err = lf.Apply(context.Background(), updates)
	}
	return score, err
}

// simResult draws a game's result from a line's expected score: half the
// games drawn where the score allows, the rest won or lost to make the
// score.
func simResult(expected float64, rng *rand.Rand) (string, float64) {
	draws := min(0.5, 2*expected, 2*(1-expected))
	win := expected - draws/2
	switch r := rng.Float64(); {
	case r < win:
		return "1-0", 1
	case r < win+draws:
		return "1/2-1/2", 0.5
	}
	return "0-1", 0
}

// learnGainSim runs every policy's tournaments and writes the tables and
// the plot.
func (r *runner) learnGainSim(w io.Writer) error {
	t0 := time.Now()
	tree := newSimTree(20261207)
	dir, err := os.MkdirTemp(simTempRoot(), "learngain")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := polyglot.WriteFile(filepath.Join(dir, "learngain.bin"), tree.entries); err != nil {
		return err
	}
	b, err := polyglot.Open(filepath.Join(dir, "learngain.bin"))
	if err != nil {
		return err
	}
	best := tree.best(b, board.StartPosition())
	b.Close()
	kinds := map[string]int{}
	for _, l := range tree.leaves {
		kinds[l.kind]++
	}
	policies := simPolicies()
	runs := make([][]simRun, len(policies))
	// The policies at once, each in a folder of its own: the machine's
	// cores, not one.
	errs := make([]error, len(policies))
	var wg sync.WaitGroup
	for i, p := range policies {
		wg.Go(func() {
			pdir := filepath.Join(dir, strconv.Itoa(i))
			if errs[i] = os.Mkdir(pdir, 0o755); errs[i] != nil {
				return
			}
			for s := range simRuns + simShortRuns + simEarlyRuns {
				games := simGames
				switch {
				case s >= simRuns+simShortRuns:
					games = simEarlyGames
				case s >= simRuns:
					games = simShortGames
				}
				run, err := tree.simTournament(pdir, p, uint64(1000*i+s+1), games)
				if err != nil {
					errs[i] = fmt.Errorf("%s: %w", p.name, err)
					return
				}
				runs[i] = append(runs[i], run)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n### A simulated tournament\n\n")
	fmt.Fprintf(w, "A book of %d lines (%d always losing, %d sound at 0.55, %d equal at 0.5), %d entries, White's moves chosen at up to three depths; %d tournaments of %d games a policy, %d more of %d and %d more of %d, each game learned before the next. The best possible score is %.3f. Run in %v.\n\n",
		len(tree.leaves), kinds["losing"], kinds["sound"], kinds["equal"], len(tree.entries), simRuns, simGames, simShortRuns, simShortGames, simEarlyRuns, simEarlyGames, best, time.Since(t0).Round(100*time.Millisecond))
	fmt.Fprintf(w, "| policy | score over 10,000 games | of the best | losing lines' share before any game | after 50 | after 200 | after 1,000 | after 10,000 | lines with 1%% or more at 10,000 (of them not losing) |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for i, p := range policies {
		score := simMean(runs[i], func(r simRun) float64 { return r.score }, simGames)
		at := func(games int) float64 {
			k := slices.Index(simCheckpoints, games)
			return 100 * simMean(runs[i], func(r simRun) float64 { return r.states[k].losing }, games)
		}
		last := len(simCheckpoints) - 1
		lines := simMean(runs[i], func(r simRun) float64 { return float64(r.states[last].lines) }, simGames)
		sound := simMean(runs[i], func(r simRun) float64 { return float64(r.states[last].soundInPlay) }, simGames)
		fmt.Fprintf(w, "| %s | %.3f | %.1f%% | %.1f%% | %.1f%% | %.2f%% | %.2f%% | %.2f%% | %.1f (%.1f) |\n",
			p.name, score, 100*score/best, at(0), at(50), at(200), at(1000), at(10_000), lines, sound)
	}
	fmt.Fprintf(w, "\n(A score and the lines in play are means over the %d tournaments of %d games, a share over every tournament that long; a share is the chance, as the book's chances stand after that many games, that the next game goes into an always-losing line; a line is in play when that chance is 1%% or more.)\n", simRuns, simGames)
	fmt.Fprintf(w, "\nCounted by the choice: a game makes one choice at each of our positions it passes, and a game into an always-losing line makes one losing choice, its last. The share of the choices that are losing, as the book's chances stand after that many games (the game's share above divided by the choices a game makes), with a 95%% interval after 200 games (%d tournaments that long):\n\n", simRuns+simShortRuns+simEarlyRuns)
	fmt.Fprintf(w, "| policy | choices a game makes, after 200 | losing choices after 50 | after 200 | after 1,000 | games into losing lines after 200 |\n|---|--:|--:|--:|--:|--:|\n")
	for i, p := range policies {
		k := func(games int) int { return slices.Index(simCheckpoints, games) }
		choices, _ := simInterval(runs[i], func(r simRun) float64 { return r.states[k(200)].choices }, 200)
		at := func(games int) float64 {
			return 100 * simMean(runs[i], func(r simRun) float64 { return r.states[k(games)].losingChoices() }, games)
		}
		c200, c200pm := simInterval(runs[i], func(r simRun) float64 { return 100 * r.states[k(200)].losingChoices() }, 200)
		g200, g200pm := simInterval(runs[i], func(r simRun) float64 { return 100 * r.states[k(200)].losing }, 200)
		fmt.Fprintf(w, "| %s | %.2f | %.2f%% | %.2f%% ± %.2f | %.2f%% | %.2f%% ± %.2f |\n", p.name, choices, at(50), c200, c200pm, at(1000), g200, g200pm)
	}
	if err := r.startPositionCase(w, dir); err != nil {
		return err
	}
	if r.cfg.learnGainSVG == "" {
		return nil
	}
	return os.WriteFile(r.cfg.learnGainSVG, learnGainSVG(policies, runs), 0o644)
}

// simMean is the mean of f over the runs of at least games games.
func simMean(runs []simRun, f func(simRun) float64, games int) float64 {
	var sum, n float64
	for _, r := range runs {
		if r.games >= games {
			sum, n = sum+f(r), n+1
		}
	}
	return sum / n
}

// simInterval is the mean of f over the runs of at least games games and
// the half-width of its 95% interval (1.96 standard errors).
func simInterval(runs []simRun, f func(simRun) float64, games int) (mean, half float64) {
	var xs []float64
	for _, r := range runs {
		if r.games >= games {
			xs = append(xs, f(r))
		}
	}
	n := float64(len(xs))
	for _, x := range xs {
		mean += x / n
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		half = 1.96 * math.Sqrt(ss/(n-1)/n)
	}
	return mean, half
}

// simTempRoot is where the books learned into live: memory when the
// system has a folder in it (each game's learning syncs nothing, but a
// disk still costs its writes).
func simTempRoot() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return ""
}

// startPositionCase is the case the factor was measured on: at the start
// position one move of 40% always loses, two of 30% score evenly; the
// losing move's chance after 200 games learned one by one, a mean over
// 40 tournaments.
func (r *runner) startPositionCase(w io.Writer, dir string) error {
	start := board.StartPosition()
	entries := []book.Entry{
		{Key: start.Key(), Move: mustMove("e2e4"), Weight: 40},
		{Key: start.Key(), Move: mustMove("d2d4"), Weight: 30},
		{Key: start.Key(), Move: mustMove("c2c4"), Weight: 30},
	}
	tree := &simTree{entries: entries, leaves: map[board.Key]simLeaf{}}
	for i, e := range entries {
		next := *start
		next.Play(e.Move)
		tree.leaves[next.Key()] = simLeaf{[]float64{0, 0.5, 0.5}[i], []string{"losing", "equal", "equal"}[i]}
	}
	fmt.Fprintf(w, "\nAt the start position, one move of 40%% always losing and two of 30%% scoring evenly, 200 games learned one by one (a mean over 40 tournaments):\n\n| policy | the losing move's chance after 200 games | the two even moves' chances |\n|---|--:|--:|\n")
	policies := simPolicies()
	rows := make([]string, len(policies))
	errs := make([]error, len(policies))
	var wg sync.WaitGroup
	for i, p := range policies {
		wg.Go(func() {
			pdir := filepath.Join(dir, "start"+strconv.Itoa(i))
			if errs[i] = os.Mkdir(pdir, 0o755); errs[i] != nil {
				return
			}
			var losing, a, b float64
			for s := range 40 {
				l, x, y, err := tree.after200(pdir, p, uint64(s+1))
				if err != nil {
					errs[i] = err
					return
				}
				losing, a, b = losing+l/40, a+x/40, b+y/40
			}
			rows[i] = fmt.Sprintf("| %s | %.2f%% | %.1f%%, %.1f%% |\n", p.name, 100*losing, 100*a, 100*b)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprint(w, strings.Join(rows, ""))
	return nil
}

// after200 is the chances of the three start moves after 200 games.
func (t *simTree) after200(dir string, p simPolicy, seed uint64) (losing, a, b float64, err error) {
	path := filepath.Join(dir, "start.bin")
	if err := polyglot.WriteFile(path, t.entries); err != nil {
		return 0, 0, 0, err
	}
	bk, err := polyglot.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer bk.Close()
	var lf *book.LearnFile
	if p.learns {
		if lf, err = book.OpenLearnFile(path, polyglot.Format); err != nil {
			return 0, 0, 0, err
		}
		defer lf.Close()
	}
	c := book.NewChooser(p.opts, seed)
	c.Explain(false)
	rng := rand.New(rand.NewPCG(seed, 3))
	var game strings.Builder
	for range 200 {
		if _, err := t.play(c, bk, lf, nil, rng, &game); err != nil {
			return 0, 0, 0, err
		}
	}
	d := c.Decide(book.Both(bk), book.At(board.StartPosition()))
	for _, cd := range d.Candidates {
		switch cd.Move.String() {
		case "e2e4":
			losing = cd.Chance
		case "d2d4":
			a = cd.Chance
		case "c2c4":
			b = cd.Chance
		}
	}
	return losing, a, b, nil
}

// learnGainSVG plots the losing lines' share against the games played, a
// line a policy, on a log scale of games.
func learnGainSVG(policies []simPolicy, runs [][]simRun) []byte {
	const width, height, left, right, top, bottom = 720, 400, 60, 250, 20, 50
	plotW, plotH := float64(width-left-right), float64(height-top-bottom)
	x := func(games int) float64 {
		return left + plotW*math.Log10(float64(games)+1)/math.Log10(simGames+1)
	}
	maxShare := 0.0
	for i := range policies {
		for k := range simCheckpoints {
			maxShare = max(maxShare, simMean(runs[i], func(r simRun) float64 { return r.states[k].losing }, simCheckpoints[k]))
		}
	}
	maxShare = math.Ceil(maxShare*10) / 10
	y := func(share float64) float64 { return top + plotH*(1-share/maxShare) }
	colors := []string{"#777777", "#d62728", "#9467bd", "#1f77b4", "#2ca02c", "#ff7f0e"}
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&s, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for _, g := range []int{0, 10, 100, 1000, 10_000} {
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#dddddd"/><text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(g), top, x(g), height-bottom, x(g), height-bottom+16, g)
	}
	for share := 0.0; share <= maxShare+1e-9; share += 0.1 {
		fmt.Fprintf(&s, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#dddddd"/><text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left, y(share), width-right, y(share), left-6, y(share)+4, 100*share)
	}
	fmt.Fprintf(&s, `<text x="%d" y="%d" text-anchor="middle">games played (learned one by one), log scale</text>`+"\n", left+int(plotW)/2, height-10)
	fmt.Fprintf(&s, `<text transform="translate(14 %d) rotate(-90)" text-anchor="middle">chance of an always-losing line</text>`+"\n", top+int(plotH)/2)
	for i, p := range policies {
		var pts []string
		for k, g := range simCheckpoints {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(g), y(simMean(runs[i], func(r simRun) float64 { return r.states[k].losing }, g))))
		}
		c := colors[i%len(colors)]
		fmt.Fprintf(&s, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, strings.Join(pts, " "))
		ly := top + 10 + 20*i
		fmt.Fprintf(&s, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/><text x="%d" y="%d">%s</text>`+"\n", width-right+10, ly, width-right+30, ly, c, width-right+36, ly+4, p.name)
	}
	s.WriteString("</svg>\n")
	return []byte(s.String())
}
