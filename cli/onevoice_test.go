package cli

// One voice: the proxy (the book move it plays, with the chance and share
// its info line gives, and CECP's book window), probe -json and explore's
// /api/position tell the same numbers for random books, policies and
// games, Polyglot, ABK and CTG books among them.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/probe"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// voiceTree is a seeded tree of book lines from the start position: up
// to four moves a position, twelve plies deep.
func voiceTree(r *rand.Rand) []book.Entry {
	var entries []book.Entry
	has := map[[2]uint64]bool{}
	var walk func(pos board.Position, depth int)
	walk = func(pos board.Position, depth int) {
		legal := pos.LegalMoves()
		if depth >= 12 || len(entries) > 800 || len(legal) == 0 {
			return
		}
		r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		for _, m := range legal[:min(1+r.IntN(4), len(legal))] {
			id := [2]uint64{uint64(pos.Key()), uint64(m)}
			if has[id] {
				continue
			}
			has[id] = true
			entries = append(entries, book.Entry{Key: pos.Key(), Move: pos.ToBook(m)})
			if r.IntN(5) > 0 {
				walk(*pos.Next(m), depth+1)
			}
		}
	}
	walk(*board.StartPosition(), 0)
	return entries
}

// voiceBook writes a book of most of tree's moves at path, with weights
// of its own from 0 to 65535 (a few tiny ones among heavy ones) and
// learned results.
func voiceBook(t *testing.T, r *rand.Rand, tree []book.Entry, path string) string {
	t.Helper()
	var entries []book.Entry
	for _, e := range tree {
		if r.IntN(10) == 0 {
			continue
		}
		switch r.IntN(8) {
		case 0:
			e.Weight = uint16(r.IntN(3)) // 0 (never played) or tiny
		case 1:
			e.Weight = uint16(10000 + r.IntN(55536))
		default:
			e.Weight = uint16(1 + r.IntN(1000))
		}
		games := r.IntN(20)
		e.Learn = book.MakeLearn(int64(games), int64(r.IntN(2*games+1)))
		entries = append(entries, e)
	}
	if err := os.Rename(fixture.WriteEntries(t, entries), path); err != nil {
		t.Fatal(err)
	}
	return path
}

// voiceCase is a random set of books and book settings.
type voiceCase struct {
	white, black, both []string // BookFileWhite, BookFileBlack, BookFile
	mode               book.Mode
	threshold, width   int
	minWeight, minLine int
	maxMoves, depth    int
	learnWeight        bool
	// nearBest: BookLearnWeight chooses by BookLearnPolicy nearbest,
	// within tolerance percent.
	nearBest  bool
	tolerance int
}

func newVoiceCase(r *rand.Rand, books []string) voiceCase {
	pick := func() []string {
		var l []string
		for _, i := range r.Perm(len(books))[:1+r.IntN(2)] {
			l = append(l, books[i])
		}
		return l
	}
	c := voiceCase{both: pick(), mode: book.Modes()[r.IntN(3)], threshold: []int{0, 5, 5, 50, 200}[r.IntN(5)],
		width: r.IntN(4), minWeight: []int{0, 0, 0, 50, 2000}[r.IntN(5)], minLine: []int{0, 0, 0, 1, 2, 3}[r.IntN(6)],
		maxMoves: []int{0, 0, 0, 1, 2, 4}[r.IntN(6)], depth: []int{256, 256, 256, 3, 5}[r.IntN(5)], learnWeight: r.IntN(3) == 0}
	if c.learnWeight && r.IntN(2) == 0 {
		c.nearBest, c.tolerance = true, []int{0, 5, 20}[r.IntN(3)]
	}
	if r.IntN(2) == 0 {
		c.white = pick()
	}
	if r.IntN(2) == 0 {
		c.black = pick()
	}
	return c
}

// config is the case's settings, as the proxy and explore read them.
func (c voiceCase) config(dir string) *config.Config {
	cfg := config.Default(dir)
	cfg.EngineArgv = []string{"fake"}
	cfg.Book = true
	cfg.BookFiles, cfg.BookFilesWhite, cfg.BookFilesBlack = c.both, c.white, c.black
	cfg.BookMode, cfg.BookThreshold, cfg.BookWidth = c.mode, c.threshold, c.width
	cfg.BookMinWeight, cfg.BookMinLine, cfg.BookMaxMoves, cfg.BookDepth = c.minWeight, c.minLine, c.maxMoves, c.depth
	cfg.BookLearnWeight = c.learnWeight
	if c.nearBest {
		cfg.BookLearnPolicy, cfg.BookLearnTolerance = config.LearnNearBest, c.tolerance
	}
	return cfg
}

// probeArgs are probe's flags for the case.
func (c voiceCase) probeArgs() []string {
	args := []string{"-book", strings.Join(c.both, ";"), "-mode", c.mode.String(), "-threshold", strconv.Itoa(c.threshold),
		"-width", strconv.Itoa(c.width), "-min-weight", strconv.Itoa(c.minWeight), "-min-line", strconv.Itoa(c.minLine),
		"-max-moves", strconv.Itoa(c.maxMoves), "-book-depth", strconv.Itoa(c.depth)}
	if c.white != nil {
		args = append(args, "-book-white", strings.Join(c.white, ";"))
	}
	if c.black != nil {
		args = append(args, "-book-black", strings.Join(c.black, ";"))
	}
	if c.learnWeight {
		args = append(args, "-learn-weight")
	}
	if c.nearBest {
		args = append(args, "-learn-policy", config.LearnNearBest, "-learn-tolerance", strconv.Itoa(c.tolerance))
	}
	return args
}

var infoBookMove = regexp.MustCompile(`^info string book move (\S+) \(weight (\d+), chance ([\d.]+%), share ([\d.]+%), (.+)\)$`)

func TestOneVoice(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 1))
	dir := t.TempDir()
	var books []string
	tree := voiceTree(r)
	for _, name := range []string{"a.bin", "b.bin", "c.bin"} {
		books = append(books, voiceBook(t, r, tree, filepath.Join(dir, name)))
	}
	abk := filepath.Join(dir, "d.abk")
	if code, _, errOut := runCmd(t, "convert-book", "-in", books[1], "-out", abk); code != 0 {
		t.Fatalf("convert-book: %s", errOut)
	}
	books = append(books, abk, ctgBook("games", ".ctg"))
	cases := 100
	if testing.Short() {
		cases = 20
	}
	tally := &voiceTally{formats: map[string]int{}}
	for n := range cases {
		vc := newVoiceCase(r, books)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Logf("%+v", vc)
			playVoiceGame(t, r, vc, tally)
		})
	}
	t.Logf("%d book moves of the proxy (%d with a chance below 1; from %v; %d under nearbest), %d of the engine, %d book windows compared",
		tally.bookMoves, tally.chancesBelow1, tally.formats, tally.nearBest, tally.engineMoves, tally.windows)
	if tally.bookMoves < cases/2 || tally.engineMoves == 0 || tally.chancesBelow1 == 0 || len(tally.formats) < 3 || tally.nearBest == 0 {
		t.Error("the games did not try the voices enough")
	}
}

// voices are the three that tell the book's answer in one game.
type voices struct {
	vc      voiceCase
	uci     *proxytest.Harness
	cecp    *proxytest.Harness // nil under BookMaxMoves: its game has no book moves of ours
	explore *httptest.Server
	line    []string // the game's moves
	toCECP  int      // how many of them CECP has
	tally   *voiceTally
}

// voiceTally counts what the test compared.
type voiceTally struct {
	bookMoves, engineMoves, windows, chancesBelow1 int
	nearBest                                       int            // book moves under BookLearnPolicy nearbest
	formats                                        map[string]int // of the books that answered
}

// playVoiceGame plays a game in which the proxy plays one side (the book's
// move when it has one, else a random one) and the other side mostly book
// moves, and holds the three voices to one answer at each of the proxy's
// turns.
func playVoiceGame(t *testing.T, r *rand.Rand, vc voiceCase, tally *voiceTally) {
	v := &voices{vc: vc, tally: tally}
	cfg := vc.config(t.TempDir())
	cfg.BookSeed = 1 + r.Uint64N(1<<40)
	v.uci = proxytest.Start(t, cfg, proxy.NewFront, nil, nil)
	v.uci.Handshake()
	if vc.maxMoves == 0 {
		v.cecp = proxytest.Start(t, vc.config(t.TempDir()), proxy.NewFront, nil, nil)
		v.cecp.Send("xboard", "protover 2")
		v.cecp.Until("feature done=1")
		v.cecp.Send("new", "force")
	}
	srv, err := explore.New(explore.Options{Columns: []explore.Column{{Name: "case", Settings: vc.config(t.TempDir())}}})
	if err != nil {
		t.Fatal(err)
	}
	v.explore = httptest.NewUnstartedServer(nil)
	v.explore.Config.Handler = srv.Handler(v.explore.Listener.Addr().String())
	v.explore.Start()
	t.Cleanup(func() { v.explore.Close(); srv.Close() })

	ourWhite := r.IntN(2) == 0
	l := fixture.Line(t, "", "")
	for ply := 0; ply < 30 && len(l.Pos.LegalMoves()) > 0; ply++ {
		var m board.Move
		if l.Pos.WhiteToMove() == ourWhite {
			var inBook bool
			if m, inBook = v.ourMove(t, r, l); !inBook {
				return // the rest of the game is the engine's
			}
		} else {
			m = v.theirMove(t, r, cfg, l)
		}
		l.Play(m)
		v.line = append(v.line, m.String())
	}
}

// ourMove holds the voices to one answer at l and returns the move
// played: the proxy's book move, else a random legal one; inBook is false
// when the books have no entry for the position.
func (v *voices) ourMove(t *testing.T, r *rand.Rand, l *board.Line) (m board.Move, inBook bool) {
	t.Helper()
	moves := strings.Join(v.line, " ")
	code, out, errOut := runCmd(t, append([]string{"probe", "-json", "-moves", moves}, v.vc.probeArgs()...)...)
	if code != 0 {
		t.Fatalf("probe: %s", errOut)
	}
	var res probe.Result
	decodeOne(t, out, &res)
	if page := v.position(t, moves); !reflect.DeepEqual(page, res) {
		t.Fatalf("after %q: explore's report differs from probe's:\n%+v\n%+v", moves, page, res)
	}
	if v.cecp != nil {
		v.checkBookWindow(t, l, res)
	}
	position := "position startpos"
	if moves != "" {
		position += " moves " + moves
	}
	v.uci.Send(position, "go wtime 60000 btime 60000")
	var info []string
	for _, line := range v.uci.Until("bestmove") {
		if m := infoBookMove.FindStringSubmatch(line); m != nil {
			info = m
		}
	}
	if info == nil {
		for _, e := range res.Entries {
			if e.Eligible || e.Chance != 0 {
				t.Fatalf("after %q: the proxy left the book, probe has %s eligible (chance %g): %+v", moves, e.Move, e.Chance, res)
			}
		}
		v.tally.engineMoves++
		legal := l.Pos.LegalMoves()
		return legal[r.IntN(len(legal))], len(res.Entries) > 0
	}
	e := entryOf(res, info[1])
	weight := uint64(e.Weight)
	if e.Effective != nil {
		weight = *e.Effective
	}
	if !e.Eligible || res.Why != "" || info[2] != strconv.FormatUint(weight, 10) || info[3] != percent(e.Chance) ||
		info[4] != percent(e.Share) || info[5] != filepath.Base(res.Book) {
		t.Fatalf("after %q: the proxy says %q, probe %+v (book %s, why %q)", moves, info[0], e, res.Book, res.Why)
	}
	v.tally.bookMoves++
	if v.vc.nearBest {
		v.tally.nearBest++
	}
	v.tally.formats[filepath.Ext(res.Book)]++
	if e.Chance < 1 {
		v.tally.chancesBelow1++
	}
	m, _ = board.ParseMove(info[1])
	return m, true
}

// position is explore's report of the game after moves.
func (v *voices) position(t *testing.T, moves string) probe.Result {
	t.Helper()
	resp, err := http.Get(v.explore.URL + "/api/position?moves=" + url.QueryEscape(moves))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page explore.Position
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != http.StatusOK || len(page.Columns) != 1 {
		t.Fatalf("/api/position: %d, %v", resp.StatusCode, err)
	}
	return page.Columns[0].Report
}

// checkBookWindow holds CECP's book window (the proxy's BookView) at l to
// probe's report res: the same legal moves in the same order, with the
// same chances, weights and shares, or the same reason for none.
func (v *voices) checkBookWindow(t *testing.T, l *board.Line, res probe.Result) {
	t.Helper()
	for ; v.toCECP < len(v.line); v.toCECP++ {
		v.cecp.Send("usermove " + v.line[v.toCECP])
	}
	v.cecp.Send("bk")
	var got []string
	for line := v.cecp.Next(); line != ""; line = v.cecp.Next() {
		got = append(got, line)
	}
	var want []string
	if len(res.Entries) > 0 {
		want = append(want, " "+filepath.Base(res.Book)+":")
	}
	for _, e := range res.Entries {
		if !e.Legal {
			continue
		}
		m, _ := board.ParseMove(e.Move)
		weight := uint64(e.Weight)
		if e.Effective != nil {
			weight = *e.Effective
		}
		s := fmt.Sprintf(" %s chance %s (weight %d, share %s", l.Pos.SAN(m), percent(e.Chance), weight, percent(e.Share))
		if e.Games > 0 {
			s += ", " + learnText(e)
		}
		s += ")"
		if !e.Eligible {
			s += " not played: " + e.Note
		}
		want = append(want, s)
	}
	if res.Why != "" {
		want = append(want, " no book move here: "+res.Why)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after %q: bk says\n%q\nprobe\n%q", v.line, got, want)
	}
	v.tally.windows++
}

// learnText is an entry's learned results as the book window gives them.
func learnText(e probe.Entry) string {
	games := "games"
	if e.Games == 1 {
		games = "game"
	}
	return fmt.Sprintf("%d %s, %s%% scored", e.Games, games, strconv.FormatFloat(100*float64(e.Points)/(2*float64(e.Games)), 'f', 1, 64))
}

// theirMove is the other side's move: one of its books' legal moves
// mostly, else a random legal move.
func (v *voices) theirMove(t *testing.T, r *rand.Rand, cfg *config.Config, l *board.Line) board.Move {
	legal := l.Pos.LegalMoves()
	if r.IntN(5) > 0 {
		var inBook []board.Move
		for _, p := range cfg.BooksFor(l.Pos.WhiteToMove()) {
			code, out, _ := runCmd(t, "probe", "-json", "-book", p, "-moves", strings.Join(v.line, " "))
			var res probe.Result
			if code == 0 && json.Unmarshal([]byte(out), &res) == nil {
				for _, e := range res.Entries {
					if m, err := board.ParseMove(e.Move); err == nil && e.Legal {
						inBook = append(inBook, m)
					}
				}
			}
		}
		if len(inBook) > 0 {
			return inBook[r.IntN(len(inBook))]
		}
	}
	return legal[r.IntN(len(legal))]
}

func entryOf(res probe.Result, move string) probe.Entry {
	for _, e := range res.Entries {
		if e.Move == move {
			return e
		}
	}
	return probe.Entry{}
}

func percent(p float64) string { return string(book.AppendPercent(nil, p)) }
