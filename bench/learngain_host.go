package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// The real run of the learning benchmark: Stockfish through polyproxy
// against Stockfish in cutechess-cli (through a proxy too, whose book
// leads every game to the positions where ours decides), the proxy's book offering, among
// sound moves, a few that give a bishop away at once, with BookLearn on
// (choosing by BookLearnPolicy nearbest) and off, the two matches side
// by side. Both engines play at a node limit, which no load on the
// machine can make them lose on time, with a Skill Level below 20 so
// that the games differ (Stockfish at a node limit is otherwise the same
// game every time).

// hostLosingMoves are the book moves that give a bishop away: White's
// second move Ba6 after 1.e4 e5 and Bh6 after 1.d4 d5, Black's second
// move Ba3 after 1.d4 e6 2.c4.
var hostLosingMoves = []string{"f1a6", "c1h6", "f8a3"}

// hostBookLine is a book move after moves from the start position.
type hostBookLine struct {
	after, move string
	weight      uint16
}

// hostBook is the proxy's book: 1.e4 or 1.d4, then Nf3, Nc3 or the
// bishop given away after 1.e4 e5, Nf3, c4 or the bishop given away
// after 1.d4 d5; as Black 1...e6 to 1.d4, then Nf6, d5 or the bishop
// given away after 2.c4. Each losing move weighs 40 of its position's
// 140: the book plays it 28.6% of the time until it learns.
var hostBook = []hostBookLine{
	{"", "e2e4", 100}, {"", "d2d4", 100},
	{"e2e4 e7e5", "g1f3", 60}, {"e2e4 e7e5", "b1c3", 40}, {"e2e4 e7e5", "f1a6", 40},
	{"d2d4 d7d5", "g1f3", 60}, {"d2d4 d7d5", "c2c4", 40}, {"d2d4 d7d5", "c1h6", 40},
	{"d2d4", "e7e6", 100},
	{"d2d4 e7e6 c2c4", "g8f6", 60}, {"d2d4 e7e6 c2c4", "d7d5", 40}, {"d2d4 e7e6 c2c4", "f8a3", 40},
}

// hostOpponentBook is the opponent's, a proxy that does not learn: its
// one move in each position leads the games to the positions where the
// proxy's book decides (Stockfish alone would spread its replies over
// positions the book learns apart).
var hostOpponentBook = []hostBookLine{
	{"", "d2d4", 1}, {"e2e4", "e7e5", 1}, {"d2d4", "d7d5", 1}, {"d2d4 e7e6", "c2c4", 1},
}

// writeHostBook writes a book of lines at path.
func writeHostBook(path string, lines []hostBookLine) error {
	var es []book.Entry
	for _, l := range lines {
		line, err := board.NewLine("")
		if err == nil {
			err = line.PlayMoves(strings.Fields(l.after), 0)
		}
		if err != nil {
			return err
		}
		es = append(es, book.Entry{Key: line.Pos.Key(), Move: line.Pos.ToBook(mustMove(l.move)), Weight: l.weight})
	}
	slices.SortStableFunc(es, func(a, b book.Entry) int { return cmp.Compare(a.Key, b.Key) })
	return polyglot.WriteFile(path, es)
}

func mustMove(s string) board.Move {
	m, err := board.ParseMove(s)
	if err != nil {
		panic(err)
	}
	return m
}

// hostGame is what the real run keeps of a game: the proxy's score (0,
// 0.5, 1) and whether it played a losing book move.
type hostGame struct {
	score  float64
	losing bool
}

// learnGainHost plays the two matches at once and reports each one's
// quarters.
func (r *runner) learnGainHost(w io.Writer) error {
	if r.ppErr != "" || r.engineErr != "" {
		return fmt.Errorf("needs polyproxy and the engine: %s%s", r.ppErr, r.engineErr)
	}
	host, why := findProgram(r.cfg.cutechess, "cutechess-cli", "build it from its public repository")
	if why != "" {
		return errors.New(why)
	}
	games := r.cfg.learnGainHostGames
	fmt.Fprintf(w, "\n### A real run: Stockfish against Stockfish in cutechess-cli\n\n")
	fmt.Fprintf(w, "%d games each, nodes=%d a move for both, Skill Level %d for both, learning on (BookLearnPolicy nearbest, tolerance 5%%) and off, at once on the machine.\n\n",
		games, r.cfg.learnGainHostNodes, r.cfg.learnGainHostSkill)
	fmt.Fprintf(w, "The book's chance of a losing move before any game: %s.\n\n", hostLosingShare())
	results := make([][]hostGame, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, learnOn := range []bool{true, false} {
		wg.Go(func() { results[i], errs[i] = r.hostMatch(host, learnOn, games) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(w, "| learning | quarter | games | losing lines played | score |\n|---|---|---|---|---|\n")
	for i, label := range []string{"on", "off"} {
		gs := results[i]
		for q := range 4 {
			part := gs[q*len(gs)/4 : (q+1)*len(gs)/4]
			p, pe := hostRate(part, func(g hostGame) float64 { return b2f(g.losing) })
			s, se := hostRate(part, func(g hostGame) float64 { return g.score })
			fmt.Fprintf(w, "| %s | %d | %d | %.1f%% ± %.1f | %.3f ± %.3f |\n", label, q+1, len(part), 100*p, 100*se2(pe), s, se2(se))
		}
	}
	fmt.Fprintf(w, "\n(± is 1.96 standard errors: a 95%% interval.)\n")
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func se2(se float64) float64 { return 1.96 * se }

// hostRate is the mean of f over games and its standard error.
func hostRate(games []hostGame, f func(hostGame) float64) (mean, se float64) {
	if len(games) < 2 {
		return 0, 0
	}
	var sum, sq float64
	for _, g := range games {
		sum += f(g)
	}
	mean = sum / float64(len(games))
	for _, g := range games {
		sq += (f(g) - mean) * (f(g) - mean)
	}
	return mean, math.Sqrt(sq / float64(len(games)-1) / float64(len(games)))
}

// hostMatch plays one match in a folder of its own and reads its games.
func (r *runner) hostMatch(host string, learnOn bool, games int) ([]hostGame, error) {
	dir := filepath.Join(r.workdir, "learngain-off")
	if learnOn {
		dir = filepath.Join(r.workdir, "learngain-on")
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	bookPath, games_ := filepath.Join(dir, "book.bin"), filepath.Join(dir, "games.pgn")
	oppBook := filepath.Join(dir, "opponent.bin")
	if err := writeHostBook(bookPath, hostBook); err != nil {
		return nil, err
	}
	if err := writeHostBook(oppBook, hostOpponentBook); err != nil {
		return nil, err
	}
	skill := "option.Skill Level=" + strconv.Itoa(r.cfg.learnGainHostSkill)
	proxy := []string{"-noini", "-ec", r.engine[0], "-pg", "Book=true", "-pg", "BookFile=" + bookPath,
		"-pg", "BookLearn=" + strconv.FormatBool(learnOn), "-pg", "BookLearnPGN=" + games_,
		"-pg", "BookLearnWeight=true", "-pg", "BookLearnPolicy=nearbest", "-log", "true", "-lf", filepath.Join(dir, "proxy.log")}
	args := []string{"-engine", "name=proxy", "cmd=" + r.ppBin}
	for _, a := range proxy {
		args = append(args, "arg="+a)
	}
	args = append(args, "proto=uci", skill, "-engine", "name=sf", "cmd="+r.ppBin)
	for _, a := range []string{"-noini", "-ec", r.engine[0], "-pg", "Book=true", "-pg", "BookFile=" + oppBook} {
		args = append(args, "arg="+a)
	}
	args = append(args, "proto=uci", skill,
		"-each", "tc=inf", "nodes="+strconv.Itoa(r.cfg.learnGainHostNodes), "option.Hash=16", "option.Threads=1",
		"-games", strconv.Itoa(games), "-recover", "-maxmoves", "150",
		"-draw", "movenumber=34", "movecount=8", "score=20", "-resign", "movecount=3", "score=600",
		"-pgnout", games_)
	cmd := exec.Command(host, args...)
	cmd.Dir = dir
	out, err := os.Create(filepath.Join(dir, "host.out"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("cutechess-cli (%s): %w", dir, err)
	}
	r.logf("   learngain host match (learning %v): %d games in %v", learnOn, games, time.Since(t0).Round(time.Second))
	return readHostGames(games_)
}

// readHostGames reads the proxy's games from the match's PGN in the order
// they were played (by round).
func readHostGames(path string) ([]hostGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type numbered struct {
		round int
		hostGame
	}
	var gs []numbered
	pr := pgn.NewReader(f)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		white := g.Tag("White") == "proxy"
		var score float64
		switch g.Tag("Result") {
		case "1-0":
			score = b2f(white)
		case "0-1":
			score = b2f(!white)
		case "1/2-1/2":
			score = 0.5
		default:
			continue
		}
		losing := false
		ply := 0
		_ = g.Replay(func(pos *board.Position, m board.Move) {
			if ply < 5 && pos.WhiteToMove() == white && slices.Contains(hostLosingMoves, m.String()) {
				losing = true
			}
			ply++
		})
		round, _ := strconv.Atoi(g.Tag("Round"))
		gs = append(gs, numbered{round, hostGame{score, losing}})
	}
	slices.SortStableFunc(gs, func(a, b numbered) int { return cmp.Compare(a.round, b.round) })
	out := make([]hostGame, len(gs))
	for i, g := range gs {
		out[i] = g.hostGame
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no finished game", path)
	}
	return out, nil
}

// hostLosingShare is the chance, before any game, that the book plays a
// losing move in a game of either colour: what learning starts from.
func hostLosingShare() string {
	var parts []string
	for _, after := range []string{"e2e4 e7e5", "d2d4 d7d5", "d2d4 e7e6 c2c4"} {
		var total, losing float64
		for _, l := range hostBook {
			if l.after == after {
				total += float64(l.weight)
				if slices.Contains(hostLosingMoves, l.move) {
					losing += float64(l.weight)
				}
			}
		}
		parts = append(parts, fmt.Sprintf("after %s %.1f%%", after, 100*losing/total))
	}
	return strings.Join(parts, ", ")
}
