package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/cli"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// shots, when set, is a folder the browser tests write their screenshots
// to: docs/images/two-books.png is made, in this folder, with
//
//	go test -run TestBrowserTwoBooks -shots ../docs/images
var shots = flag.String("shots", "", "write the browser tests' screenshots to this `folder`")

// browser is a headless Chromium on a page of the server, watching for
// what must never happen: a console error, an uncaught exception, a
// request to anywhere but the server.
type browser struct {
	t    *testing.T
	ctx  context.Context
	mu   sync.Mutex
	bad  []string
	host string
	// refused are the server's refusals of a position (400), which the
	// browser logs as errors; a test that asks for a position that cannot
	// be shown expects them.
	refused, expectRefused bool
}

// screen is a browser window's size; a phone's also has its viewport
// meta tag honoured.
type screen struct {
	width, height int64
	phone         bool
}

// laptop is the window the tests use unless they say otherwise.
var laptop = screen{1440, 860, false}

func (sc screen) String() string {
	if sc.phone {
		return fmt.Sprintf("a %d×%d phone", sc.width, sc.height)
	}
	return fmt.Sprintf("%d×%d", sc.width, sc.height)
}

func (sc screen) emulate() chromedp.Action[chromedp.Void] {
	if sc.phone {
		return chromedp.EmulateViewport(sc.width, sc.height, chromedp.EmulateMobile, chromedp.EmulatePortrait)
	}
	return chromedp.EmulateViewport(sc.width, sc.height)
}

// chromiumStarts is how many times a test starts Chromium before it
// gives up. On a loaded machine Debian's Chromium now and then dies of a
// segmentation fault before it listens (1 start in 40 with two test runs
// beside it, none of 40 on a quiet machine); that says nothing of the
// page, so the test starts it again.
// A browser that never comes up still fails the test, with what it printed.
const chromiumStarts = 3

// startChromium starts a browser with the options given, in a fresh
// profile, and returns the context of its first tab.
func startChromium(t *testing.T, opts []chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	for try := 1; ; try++ {
		// A fresh profile each time: a browser that died may leave its
		// profile locked.
		withProfile := append(slices.Clip(opts), chromedp.UserDataDir(t.TempDir()))
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), withProfile...)
		bctx, cancelC := chromedp.NewContext(actx)
		// The browser starts with a context of no deadline: a deadline on
		// the first call would stop the whole browser when it passes.
		err := chromedp.Do(bctx)
		if err == nil {
			t.Cleanup(func() { cancelC(); cancelA() })
			return bctx
		}
		cancelC()
		cancelA()
		if try == chromiumStarts || !strings.Contains(err.Error(), "chrome failed to start") {
			t.Fatalf("start %d of Chromium: %v", try, err)
		}
		t.Logf("start %d of Chromium failed, starting it again: %v", try, err)
	}
}

// openBrowser starts Chromium (Debian's, headless, in a fresh profile, with
// nothing of its own on the network) at the server's address.
func openBrowser(t *testing.T, s *served, path string) *browser {
	return openBrowserOn(t, s, path, laptop)
}

// openBrowserOn is openBrowser with the page loaded on a screen of the
// size given.
func openBrowserOn(t *testing.T, s *served, path string, sc screen) *browser {
	t.Helper()
	exe := testenv.Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1440, 860),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("no-pings", true),
	}
	bctx := startChromium(t, opts)
	ctx, cancelT := context.WithTimeout(bctx, 60*time.Second)
	t.Cleanup(cancelT)
	b := &browser{t: t, ctx: ctx, host: s.host}
	err := chromedp.Listen(bctx, func(ev any) {
		var bad string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				bad = fmt.Sprintf("console %s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			bad = "exception: " + ev.ExceptionDetails.Text
			if e := ev.ExceptionDetails.Exception; e != nil {
				bad += " " + e.Description
			}
		case *log.EventEntryAdded:
			if u, err := url.Parse(ev.Entry.URL); err == nil && u.Host == b.host && u.Path == "/api/position" &&
				ev.Entry.Source == log.EntrySourceNetwork && strings.Contains(ev.Entry.Text, "status of 400") {
				b.mu.Lock()
				b.refused = true
				b.mu.Unlock()
			} else if ev.Entry.Level == log.EntryLevelError {
				bad = "log: " + ev.Entry.Text + " " + ev.Entry.URL
			}
		case *network.EventRequestWillBeSent:
			if u, err := url.Parse(ev.Request.URL); err != nil || u.Host != b.host && u.Scheme != "data" {
				bad = "request outside the server: " + ev.Request.URL
			}
		}
		if bad != "" {
			b.mu.Lock()
			b.bad = append(b.bad, bad)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	b.run(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{})
		return err
	}))
	b.open(s.ts.URL+path, sc)
	return b
}

// open loads address on a screen of the size given, and waits for the
// page to show its first position. An address that differs from the one
// shown only after '#' is loaded anew too (a browser only moves to the
// fragment).
func (b *browser) open(address string, sc screen) {
	b.t.Helper()
	b.run(sc.emulate(), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Evaluate[bool](`window.shownBefore = true`)(ctx, t); err != nil {
			return err
		}
		if _, err := chromedp.Navigate(address)(ctx, t); err != nil {
			return err
		}
		same, err := chromedp.Evaluate[bool](`window.shownBefore === true`)(ctx, t)
		if err == nil && same {
			_, err = chromedp.Reload()(ctx, t)
		}
		return err
	}), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
}

func (b *browser) run(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval is the value of a JavaScript expression in the page.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// clean fails the test for anything the page must never do.
func (b *browser) clean() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.bad {
		b.t.Error(s)
	}
	if b.refused && !b.expectRefused {
		b.t.Error("the server refused a position the page asked for")
	}
}

// shot writes a screenshot of the screen, with -shots.
func (b *browser) shot(name string) { b.t.Helper(); b.capture(name, chromedp.CaptureScreenshot()) }

// shotPage writes a screenshot of the whole page, below the screen's end
// too, with -shots.
func (b *browser) shotPage(name string) { b.t.Helper(); b.capture(name, chromedp.FullScreenshot(100)) }

func (b *browser) capture(name string, take chromedp.Action[[]byte]) {
	b.t.Helper()
	if *shots == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, take)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(*shots, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*shots, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// shownRow is a book move as the page shows it.
type shownRow struct {
	Move   string  `json:"move"`
	Chance float64 `json:"chance"`
	Share  float64 `json:"share"`
	Weight int     `json:"weight"`
	Shown  string  `json:"shown"` // the chance as written on the page
	Out    string  `json:"out"`   // the rule named instead, for a move left out
}

// rows reads the book moves the page shows in column c.
func (b *browser) rows(c int) []shownRow {
	b.t.Helper()
	return eval[[]shownRow](b, fmt.Sprintf(`[...document.querySelectorAll('#col-%d tr.entry')].map(r => ({move: r.dataset.move,
		chance: +r.dataset.chance, share: +r.dataset.share, weight: +r.dataset.weight,
		shown: r.querySelector('td.chance .bar .txt')?.textContent || '', out: r.querySelector('td.chance .why')?.dataset.out || ''}))`, c))
}

// sameAsProbe fails when the moves, shares and chances shown in the first
// column differ from probe -json's for the position: a move probe leaves
// out shows the rule that does, the others their chance.
func (b *browser) sameAsProbe(what string, args ...string) {
	b.t.Helper()
	want := probeJSON(b.t, args...)
	got := b.rows(0)
	if len(got) != len(want.Entries) {
		b.t.Fatalf("%s: the page shows %d moves, probe %d: %+v", what, len(got), len(want.Entries), got)
	}
	for i, e := range want.Entries {
		g := got[i]
		shown := strconv.FormatFloat(100*e.Chance, 'f', 1, 64) + "%"
		if e.Out != "" {
			shown = ""
		}
		if g.Move != e.Move || g.Weight != int(e.Weight) || math.Abs(g.Share-e.Share) > 1e-12 || math.Abs(g.Chance-e.Chance) > 1e-12 ||
			g.Shown != shown || g.Out != e.Out {
			b.t.Errorf("%s: move %d: the page shows %+v, probe %+v", what, i, g, e)
		}
	}
}

// currentPly is the ply the page's move list marks as the current one.
func (b *browser) waitPly(ply int) {
	b.t.Helper()
	if ply == 0 {
		b.run(chromedp.WaitNotPresent(chromedp.CSS(`#movelist .mv.current`)))
		return
	}
	b.run(chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#movelist .mv.current[data-ply="%d"]`, ply))))
}

// TestBrowserNavigation plays 1.e4 e5 2.Nf3 by clicking book moves on the
// gnuchess book, holds every position shown to probe -json, goes back
// with the arrow key, moves a piece on the board, and loads a FEN.
func TestBrowserNavigation(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	s := serve(t, books(gnu))
	b := openBrowser(t, s, "/")
	var played []string
	b.sameAsProbe("start", "-book", gnu)
	for i, mv := range []string{"e2e4", "e7e5", "g1f3"} {
		b.run(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#col-0 tr[data-move="%s"] td.san`, mv))))
		b.waitPly(i + 1)
		played = append(played, mv)
		b.sameAsProbe(strings.Join(played, " "), "-book", gnu, "-moves", strings.Join(played, " "))
	}
	b.shot("navigation.png")
	if loc := eval[string](b, `location.search`); loc != "?moves=e2e4%2Ce7e5%2Cg1f3" {
		t.Errorf("the address holds %q", loc)
	}
	b.run(chromedp.KeyEvent(kb.ArrowLeft))
	b.waitPly(2)
	b.sameAsProbe("back to 1.e4 e5", "-book", gnu, "-moves", "e2e4 e7e5")
	// A move on the board that leaves the book: a piece dragged, f1 to a6.
	b.run(mouseDrag("f1", "a6"))
	b.waitPly(3)
	b.sameAsProbe("1.e4 e5 2.Ba6", "-book", gnu, "-moves", "e2e4 e7e5 f1a6")
	if !eval[bool](b, `!!document.querySelector('#col-0 .empty')`) {
		t.Error("out of book, the column does not say so")
	}
	if ends := eval[string](b, `document.getElementById('ends').textContent`); ends != "book.bin: out of book after 2. Ba6" {
		t.Errorf("the line says %q", ends)
	}

	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	b.run(chromedp.SetValue(chromedp.ID("fen"), fen), chromedp.Click(chromedp.CSS(`#fen-form button`)),
		chromedp.WaitNotPresent(chromedp.CSS(`#movelist .mv`)))
	if shown := eval[string](b, `document.getElementById('fen-shown').textContent`); shown != fen {
		t.Errorf("after loading a FEN the page shows %q", shown)
	}
	b.sameAsProbe("the FEN", "-book", gnu, "-fen", fen)

	// The pieces are drawn (pieces.svg loaded): every piece on the board
	// has its drawing's size, and so has each piece a promotion offers.
	if smallest := eval[float64](b, `Math.min(...[...document.querySelectorAll('#board use')].map((u) => u.getBBox().width))`); smallest < 20 {
		t.Errorf("a piece on the board is drawn %g units wide", smallest)
	}
	b.run(chromedp.SetValue(chromedp.ID("fen"), "k7/4P3/8/8/8/8/8/K7 w - - 0 1"), chromedp.Click(chromedp.CSS(`#fen-form button`)),
		chromedp.WaitVisible(chromedp.CSS(`#board use[data-on="e7"]`)))
	b.run(mouseDrag("e7", "e8"), chromedp.WaitVisible(chromedp.ID("promo")))
	if offered := eval[[]float64](b, `[...document.querySelectorAll('#promo use')].map((u) => u.getBBox().width)`); len(offered) != 4 || slices.Min(offered) < 20 {
		t.Errorf("the promotion offers pieces drawn %v units wide", offered)
	}
	b.run(chromedp.Click(chromedp.CSS(`#promo button[data-promo="n"]`)))
	b.waitPly(1)
	if sans, _ := b.moveList(); !slices.Equal(sans, []string{"e8=N"}) {
		t.Errorf("promoted to a knight, the line is %v", sans)
	}
	b.clean()
}

// mouseDrag presses the mouse on one square of the board and lets it go
// on another (the board is not flipped).
func mouseDrag(from, to string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		box, err := chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.left, r.top, r.width]; })()`)(ctx, t)
		if err != nil {
			return err
		}
		at := func(sq string) (float64, float64) {
			f, r := float64(sq[0]-'a'), float64(sq[1]-'1')
			return box[0] + (f+0.5)*box[2]/8, box[1] + (7-r+0.5)*box[2]/8
		}
		x1, y1 := at(from)
		x2, y2 := at(to)
		_, err = chromedp.Steps(
			chromedp.MouseEvent(chromedp.MousePressed, x1, y1, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, x2, y2, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseReleased, x2, y2, chromedp.ButtonLeft),
		)(ctx, t)
		return err
	})
}

// TestBrowserEdit edits a copy of the gnuchess book from the page: a
// weight set, a move deleted, a move added, and the last change undone;
// probe and info-book read the book as edited, without a problem.
func TestBrowserEdit(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	b := openBrowser(t, s, "/#token="+s.srv.Token())
	edit := func(move string, fields map[string]string, button string) {
		t.Helper()
		b.run(chromedp.SetValue(chromedp.CSS(`#col-0 .ed-move`), move))
		eval[bool](b, `document.querySelector('#col-0 .ed-move').dispatchEvent(new Event('change'))`)
		for cls, v := range fields {
			b.run(chromedp.SetValue(chromedp.CSS(`#col-0 .`+cls), v))
		}
		b.run(chromedp.Click(chromedp.CSS(`#col-0 .` + button)))
	}
	edit("d2d4", map[string]string{"ed-weight": "20000"}, "ed-save")
	b.run(chromedp.WaitVisible(chromedp.CSS(`#col-0 tr[data-move="d2d4"][data-weight="20000"]`)))
	edit("c2c4", nil, "ed-delete")
	b.run(chromedp.WaitNotPresent(chromedp.CSS(`#col-0 tr[data-move="c2c4"]`)))
	edit("h2h3", map[string]string{"ed-weight": "123"}, "ed-add")
	b.run(chromedp.WaitVisible(chromedp.CSS(`#col-0 tr[data-move="h2h3"][data-weight="123"]`)))
	b.shot("edit.png")

	check := func(what string, want map[string]int) {
		t.Helper()
		got := map[string]int{}
		for _, e := range probeJSON(t, "-book", path, "-threshold", "0").Entries {
			got[e.Move] = int(e.Weight)
		}
		for m, w := range want {
			if got[m] != w {
				t.Errorf("%s: probe reads %s with weight %d, want %d (%v)", what, m, got[m], w, got)
			}
		}
		var out, errb bytes.Buffer
		if code := cli.Run([]string{"info-book", "-json", "-bin", path}, nil, &out, &errb); code != 0 {
			t.Fatalf("info-book: %s", errb.String())
		}
		var info struct{ Warnings []string }
		if err := json.Unmarshal(out.Bytes(), &info); err != nil || len(info.Warnings) != 0 {
			t.Errorf("%s: info-book: %v %v", what, info.Warnings, err)
		}
		b.sameAsProbe(what, "-book", path)
	}
	check("edited", map[string]int{"d2d4": 20000, "c2c4": 0, "h2h3": 123, "e2e4": 12135})
	b.run(chromedp.Click(chromedp.ID("undo")), chromedp.WaitNotPresent(chromedp.CSS(`#col-0 tr[data-move="h2h3"]`)))
	check("undone", map[string]int{"d2d4": 20000, "c2c4": 0, "h2h3": 0})
	b.clean()
}

// learnedCopy is a copy of the gnuchess book changed as a tournament and
// its operator would: after 1.e4 e5, Bc4's weight set, f4 deleted and a4
// added, then two games learned, one won and one drawn by the player.
func learnedCopy(t *testing.T, gnu string) string {
	t.Helper()
	after := filepath.Join(t.TempDir(), "learned.bin")
	if err := os.WriteFile(after, fixture.ReadFile(t, gnu), 0o644); err != nil {
		t.Fatal(err)
	}
	es := serve(t, explore.Options{Columns: books(after).Columns, Edit: true})
	for _, e := range []map[string]any{
		{"moves": "e2e4,e7e5", "op": "weight", "move": "f1c4", "weight": 4000},
		{"moves": "e2e4,e7e5", "op": "delete", "move": "f2f4"},
		{"moves": "e2e4,e7e5", "op": "add", "move": "a2a4", "weight": 600},
	} {
		if res, body := es.post("/api/edit", e); res.StatusCode != 200 {
			t.Fatalf("%v: %s %s", e, res.Status, body)
		}
	}
	var out, errb bytes.Buffer
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	games := `[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[White "B"]
[Black "A"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 1/2-1/2
`
	if err := os.WriteFile(pgn, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := cli.Run([]string{"learn", "-book", after, "-pgn", pgn, "-player", "A"}, nil, &out, &errb); code != 0 {
		t.Fatalf("learn: %s", errb.String())
	}
	return after
}

// twoBooks is the gnuchess book before and after learnedCopy.
func twoBooks(t *testing.T) explore.Options {
	gnu := testenv.GnuchessBook(t)
	o := books(gnu, learnedCopy(t, gnu))
	o.Columns[0].Name = "book.bin (before)"
	o.Columns[1].Name = "learned.bin (after)"
	return o
}

// TestBrowserTwoBooks shows the gnuchess book beside a copy changed by
// learning and edits, and an ABK book: the second column marks what
// changed, and the learn statistics show as the server gives them (games,
// points and score, and for ABK won, drawn and lost too).
func TestBrowserTwoBooks(t *testing.T) {
	s := serve(t, twoBooks(t))
	b := openBrowser(t, s, "/?moves=e2e4,e7e5")
	tags := eval[[]string](b, `[...document.querySelectorAll('#col-1 tr.entry')].map(r => r.dataset.move + ':' + (r.querySelector('.tag')?.textContent || ''))`)
	want := map[string]string{"f1c4": "weight", "a2a4": "new", "g1f3": "learn", "b1c3": ""}
	for _, tg := range tags {
		m, tag, _ := strings.Cut(tg, ":")
		if w, ok := want[m]; ok && w != tag {
			t.Errorf("%s marked %q, want %q", m, tag, w)
		}
	}
	if missing := eval[string](b, `document.querySelector('#col-1 .missing')?.textContent || ''`); !strings.Contains(missing, "f4") {
		t.Errorf("missing: %q", missing)
	}
	// The player won one game with 2.Nf3 as White: 1 point of 1 game.
	if got := b.learnShown(1, "g1f3"); got != "100%|1/1|1|1" {
		t.Errorf("learn statistics of 2.Nf3 after learning: %q", got)
	}
	if got := b.learnShown(0, "g1f3"); got != "" {
		t.Errorf("learn statistics of 2.Nf3 before learning: %q", got)
	}
	b.shot("two-books.png")
	b.run(chromedp.Click(chromedp.CSS(`#col-0 tr[data-move="g1f3"] td.san`)))
	b.waitPly(3)
	b.clean()

	abkPath := filepath.Join("..", "book", "abk", "testdata", "small.abk")
	abk := serve(t, books(abkPath))
	a := openBrowser(t, abk, "/?moves=e2e4")
	if eval[int](a, `document.querySelectorAll('#col-0 .wdl .w').length`) == 0 {
		t.Error("no win/draw/loss bar for the ABK book")
	}
	// Each ABK move shows its won, drawn and lost, its points of games
	// and its score, as the server reads them.
	pos := abk.position(url.Values{"moves": {"e2e4"}})
	for i, e := range pos.Columns[0].Report.Entries {
		x := abkExtra(pos.Columns[0].Extra[i])
		drawn := x.Games - x.Won - x.Lost
		half := 2*x.Won + drawn
		want := fmt.Sprintf("%.0f%%|+%d =%d −%d|%s/%d|%d|%g", 100*float64(half)/float64(2*x.Games), x.Won, drawn, x.Lost, halfPoints(half), x.Games, x.Games, float64(half)/2)
		if got := a.learnShown(0, e.Move); got != want {
			t.Errorf("ABK move %s: learn shown %q, want %q", e.Move, got, want)
		}
	}
	a.shot("abk.png")
	a.clean()
}

// halfPoints writes half points as a chess score: 27½.
func halfPoints(half int64) string {
	s := strconv.FormatInt(half/2, 10)
	if half%2 == 1 {
		if half == 1 {
			s = ""
		}
		s += "½"
	}
	return s
}

// learnShown is a move's learn statistics as column c shows them: the
// score, the texts under the bar, and the games and points it holds;
// "" when it shows none.
func (b *browser) learnShown(c int, move string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(() => { const l = document.querySelector('#col-%d tr[data-move="%s"] td.learn .learn');
		return l ? [l.querySelector('.txt').textContent, ...[...l.querySelectorAll('.learn-txt span')].map(s => s.textContent), l.dataset.games, l.dataset.points].join('|') : ''; })()`, c, move))
}

// screens are the sizes the page is held to: phones from 360 px, a tablet
// upright, a small laptop, the common laptop and desktop screens.
var screens = []screen{{360, 740, true}, {390, 844, true}, {768, 1024, false}, {1000, 900, false}, {1280, 900, false},
	{1366, 768, false}, {1440, 900, false}, {1920, 1080, false}}

// longLine is a Ruy Lopez of 32 plies, all in the gnuchess book: its move
// list is longer than the list's box on a laptop.
const longLine = "e2e4,e7e5,g1f3,b8c6,f1b5,a7a6,b5a4,g8f6,e1g1,f8e7,f1e1,b7b5,a4b3,d7d6,c2c3,e8g8," +
	"h2h3,c6a5,b3c2,c7c5,d2d4,d8c7,b1d2,c5d4,c3d4,a5c6,d2b3,a6a5,c1e3,a5a4,b3d2,c8d7"

// TestBrowserFits: on every screen of screens, each kind of page (a book,
// two books with the editor on, an ABK book beside a Polyglot one, a CTG
// book with all its marks, a long line, an address with a bad move) loads
// without scrolling itself, needs no sideways scrolling, and has nothing
// cut at the screen's edge or in a column (a phone's "Set position"
// button was); two books stand side by side from 1280 px, one above the
// other below; from 1366 px the books reach the screen's right edge (one
// book at 1440 px left 40% of the screen empty).
func TestBrowserFits(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	two := twoBooks(t)
	two.Edit = true
	abk := books(abkFromGnuchess(t), gnu)
	abk.Edit = true
	for _, tc := range []struct {
		name string
		o    explore.Options
		path string
	}{
		{"book", books(gnu), "/?moves=e2e4,e7e5"},
		{"two-books", two, "/?moves=e2e4,e7e5"},
		{"abk", abk, "/?moves=e2e4,c7c5"},
		{"ctg", books(filepath.Join("..", "book", "ctg", "testdata", "annotations.ctg")), "/?moves=d2d4"},
		{"line", books(gnu), "/?moves=" + longLine},
		{"bad-move", books(gnu), "/?moves=e2e4,e7e5,g1f3,g1f3"},
	} {
		// A page a subtest: its server and browser end with it.
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, tc.o)
			path := tc.path
			if tc.o.Edit {
				path += "#token=" + s.srv.Token()
			}
			b := openBrowserOn(t, s, path, screens[0])
			b.expectRefused = tc.name == "bad-move"
			for i, sc := range screens {
				if i > 0 {
					b.open(s.ts.URL+path, sc)
				}
				b.shot(fmt.Sprintf("fits-%s-%d.png", tc.name, sc.width))
				if sc.phone {
					b.shotPage(fmt.Sprintf("fits-%s-%d-page.png", tc.name, sc.width))
				}
				b.fits(tc.name, sc, len(tc.o.Columns))
			}
			b.clean()
		})
	}
}

// abkFromGnuchess is an ABK book made from the gnuchess book by
// convert-book, as a user makes one.
func abkFromGnuchess(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gnuchess.abk")
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"convert-book", "-in", testenv.GnuchessBook(t), "-out", path}, nil, &out, &errb); code != 0 {
		t.Fatalf("convert-book: %s", errb.String())
	}
	return path
}

// layout is where the page's parts are, as fits judges them.
type layout struct {
	Width   float64      `json:"width"`   // of the screen, without a scroll bar
	ScrollY float64      `json:"scrollY"` // how far the page scrolled
	Cut     []string     `json:"cut"`     // elements past the screen's left or right edge
	Over    []string     `json:"over"`    // the page or a column wider than shown
	Columns [][3]float64 `json:"columns"` // each column's left, top and right
}

// fits fails the test for what the page on sc does wrong: it scrolled by
// itself, an element is cut at the screen's edge, it or a column scrolls
// sideways; with columns books, they do not stand side by side from
// 1280 px, or do below; from 1366 px they leave the screen's right side
// empty.
func (b *browser) fits(what string, sc screen, columns int) {
	b.t.Helper()
	l := eval[layout](b, `(() => {
		const width = document.documentElement.clientWidth;
		const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.getAttribute('class') ? '.' + e.getAttribute('class').replaceAll(' ', '.') : '') +
			(e.textContent ? ' "' + e.textContent.trim().slice(0, 20) + '"' : '');
		const cut = [...document.querySelectorAll('body *')].filter((e) => {
			const r = e.getBoundingClientRect();
			return r.width > 0 && (r.left < -0.5 || r.right > width + 0.5);
		}).map((e) => name(e) + ': ' + Math.round(e.getBoundingClientRect().left) + ' to ' + Math.round(e.getBoundingClientRect().right));
		const over = [document.documentElement, ...document.querySelectorAll('.col')].filter((e) => e.scrollWidth > e.clientWidth)
			.map((e) => name(e).slice(0, 30) + ': ' + e.scrollWidth + ' > ' + e.clientWidth);
		const columns = [...document.querySelectorAll('.col')].map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right]; });
		return { width, scrollY: window.scrollY, cut, over, columns };
	})()`)
	at := what + " on " + sc.String()
	if l.ScrollY != 0 {
		b.t.Errorf("%s: the page scrolled itself %g px down", at, l.ScrollY)
	}
	if len(l.Cut) > 0 {
		b.t.Errorf("%s: cut at the screen's edge: %v", at, l.Cut)
	}
	if len(l.Over) > 0 {
		b.t.Errorf("%s: wider than shown: %v", at, l.Over)
	}
	if len(l.Columns) != columns {
		b.t.Fatalf("%s: %d columns shown, want %d", at, len(l.Columns), columns)
	}
	if beside := columns > 1 && l.Columns[0][1] == l.Columns[1][1]; columns > 1 && beside != (sc.width >= 1280) {
		b.t.Errorf("%s: columns side by side: %v", at, beside)
	}
	right := 0.0
	for _, c := range l.Columns {
		right = max(right, c[2])
	}
	if sc.width >= 1366 && right < l.Width-40 {
		b.t.Errorf("%s: the books end at %.0f px of %.0f: the screen's right side is empty", at, right, l.Width)
	}
}

// moveList is the line as the page's move list shows it, and the ply it
// marks as the current one.
func (b *browser) moveList() (sans []string, current int) {
	b.t.Helper()
	l := eval[struct {
		SANs    []string `json:"sans"`
		Current int      `json:"current"`
	}](b, `({sans: [...document.querySelectorAll('#movelist .mv[data-ply]')].map((m) => m.firstChild.textContent),
		current: +(document.querySelector('#movelist .mv.current')?.dataset.ply || 0)})`)
	return l.SANs, l.Current
}

// banner is the error the page shows ("" for none).
func (b *browser) banner() string {
	b.t.Helper()
	return eval[string](b, `(() => { const e = document.getElementById('error'); return e.hidden ? '' : e.textContent; })()`)
}

// TestBrowserLineScrollsAlone: on a 1366×768 laptop, a page opened at a
// long line (32 plies) shows the top bar, the board and the books where
// they are, and the move list scrolls to the current move; going through
// the line (End, Home, the arrow keys, the buttons) moves only the list.
// The page loaded 204 px down, the current move scrolled into view on the
// whole page.
func TestBrowserLineScrollsAlone(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	b := openBrowserOn(t, s, "/?moves="+longLine, screen{1366, 768, false})
	type view struct {
		ScrollY    float64   `json:"scrollY"`
		ListScroll float64   `json:"listScroll"`
		Seen       bool      `json:"seen"` // the current move is inside the list's box and the screen
		BoardTop   float64   `json:"boardTop"`
		Rects      []float64 `json:"rects"`
	}
	check := func(what string, ply int, scrolled bool) {
		t.Helper()
		b.waitPly(ply)
		v := eval[view](b, `(() => {
			const list = document.getElementById('movelist').getBoundingClientRect();
			const cur = document.querySelector('#movelist .mv.current')?.getBoundingClientRect();
			return {scrollY: window.scrollY, listScroll: document.getElementById('movelist').scrollTop,
				seen: !cur || cur.top >= list.top && cur.bottom <= list.bottom + 0.5 && cur.bottom <= innerHeight,
				rects: [list.top, list.bottom, cur?.top, cur?.bottom, innerHeight],
				boardTop: document.getElementById('board').getBoundingClientRect().top};
		})()`)
		if v.ScrollY != 0 || v.BoardTop < 0 || !v.Seen || scrolled != (v.ListScroll > 0) {
			t.Errorf("%s: %+v (the page scrolled %g px; the move list %g px)", what, v, v.ScrollY, v.ListScroll)
		}
	}
	check("opened at ply 32", 32, true)
	b.shot("line-1366.png")
	b.run(chromedp.KeyEvent(kb.Home))
	check("Home", 0, true) // no current move: the list stays where it was
	b.run(chromedp.KeyEvent(kb.ArrowRight))
	check("→ to ply 1", 1, false)
	b.run(chromedp.KeyEvent(kb.End))
	check("End", 32, true)
	b.run(chromedp.Click(chromedp.ID("back")))
	check("back to ply 31", 31, true)
	b.clean()
}

// TestBrowserBadLine: an address whose line cannot be played shows the
// same red banner as the line typed into the moves box, and the part
// that can be played; an address that cannot be shown at all shows the
// banner over the start position; the next position shown takes the
// banner away. The error was drawn, then wiped by the start position.
func TestBrowserBadLine(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	b := openBrowser(t, s, "/?moves=e2e4,e2e4")
	b.expectRefused = true
	sans, ply := b.moveList()
	if banner := b.banner(); !strings.Contains(banner, "move 2 (e2e4)") || !strings.Contains(banner, "stops before it") ||
		!slices.Equal(sans, []string{"e4"}) || ply != 1 {
		t.Errorf("?moves=e2e4,e2e4: banner %q, line %v at ply %d", banner, sans, ply)
	}
	if loc := eval[string](b, `location.search`); loc != "?moves=e2e4" {
		t.Errorf("the address holds %q", loc)
	}
	b.shot("bad-address.png")
	addressBanner := b.banner()
	b.run(chromedp.Click(chromedp.CSS(`#col-0 tr[data-move="e7e5"] td.san`)))
	b.waitPly(2)
	if banner := b.banner(); banner != "" {
		t.Errorf("after a move played, the banner still says %q", banner)
	}

	// The same line typed: the same banner.
	b.run(chromedp.SetValue(chromedp.ID("moves-input"), "e2e4 e2e4"), chromedp.Click(chromedp.CSS(`#moves-form button`)))
	b.waitPly(1)
	if typed := b.banner(); typed != addressBanner {
		t.Errorf("typed, the banner says %q; from the address %q", typed, addressBanner)
	}
	b.run(chromedp.SetValue(chromedp.ID("moves-input"), "1. e4 e5 2. Nf3 Nf3"), chromedp.Click(chromedp.CSS(`#moves-form button`)))
	b.waitPly(3)
	if sans, _ := b.moveList(); !strings.Contains(b.banner(), "move 4 (Nf3)") || !slices.Equal(sans, []string{"e4", "e5", "Nf3"}) {
		t.Errorf("typed 1. e4 e5 2. Nf3 Nf3: banner %q, line %v", b.banner(), sans)
	}
	b.run(chromedp.Click(chromedp.CSS(`#col-0 tr[data-move="b8c6"] td.san`)))
	b.waitPly(4)
	if banner := b.banner(); banner != "" {
		t.Errorf("after a move played, the banner still says %q", banner)
	}

	b.open(s.ts.URL+"/?fen=not+a+fen&moves=e2e4", laptop)
	if sans, ply := b.moveList(); !strings.Contains(b.banner(), "fen") || len(sans) != 0 || ply != 0 ||
		eval[string](b, `document.getElementById('fen-shown').textContent`) != board.StartFEN {
		t.Errorf("?fen=not a fen: banner %q, line %v", b.banner(), sans)
	}
	b.clean()
}

// TestBrowserTokenEitherOrder: the -edit address explore prints, with a
// line put where it shows (?moves= before the #token), and the same line
// added after the token (as users append it to the whole address), open
// the line with the token working: a change is made from each.
func TestBrowserTokenEitherOrder(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	printed := s.srv.Address(s.host)
	if !strings.HasSuffix(printed, "/?moves=#token="+s.srv.Token()) {
		t.Fatalf("explore -edit prints %s", printed)
	}
	const line = "e2e4,e7e5"
	slot := strings.Replace(printed, "?moves=", "?moves="+line, 1)
	b := openBrowser(t, s, strings.TrimPrefix(slot, s.ts.URL))
	for i, address := range []string{slot, printed + "?moves=" + line, printed + "&moves=" + line, s.ts.URL + "/#token=" + s.srv.Token() + "?moves=" + line + "&ply=1"} {
		b.open(address, laptop)
		want := 2
		if strings.HasSuffix(address, "ply=1") {
			want = 1
		}
		b.waitPly(want)
		weight := strconv.Itoa(1000 + i)
		move := map[int]string{2: "g1f3", 1: "e7e5"}[want]
		b.run(chromedp.SetValue(chromedp.CSS(`#col-0 .ed-move`), move))
		eval[bool](b, `document.querySelector('#col-0 .ed-move').dispatchEvent(new Event('change'))`)
		b.run(chromedp.SetValue(chromedp.CSS(`#col-0 .ed-weight`), weight), chromedp.Click(chromedp.CSS(`#col-0 .ed-save`)),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#col-0 tr[data-move="%s"][data-weight="%s"]`, move, weight))))
		if banner := b.banner(); banner != "" {
			t.Errorf("%s: %s", address, banner)
		}
		// The address is written back in one order: the position, then the token.
		wantAddress := "?moves=e2e4%2Ce7e5" + map[int]string{2: "", 1: "&ply=1"}[want] + "#token=" + s.srv.Token()
		if got := eval[string](b, `location.search + location.hash`); got != wantAddress {
			t.Errorf("%s: the address becomes %s, want %s", address, got, wantAddress)
		}
	}
	b.clean()
}

// TestBrowserCTGMarks: a CTG book's marks show beside each move as the
// API gives them, in its order: the annotation after the move (!, ?, !?,
// only move, an unknown byte), the mark of the position it leads to (main
// line, avoid), a legend naming each mark shown, and the games of the
// position after the move as won, drawn and lost.
func TestBrowserCTGMarks(t *testing.T) {
	s := serve(t, books(filepath.Join("..", "book", "ctg", "testdata", "annotations.ctg")))
	b := openBrowser(t, s, "/?moves=d2d4")
	b.shot("ctg.png")
	type shown struct {
		Move       string `json:"move"`
		Annotation string `json:"annotation"`
		Mark       string `json:"mark"`
		Record     string `json:"record"`
	}
	rows := eval[[]shown](b, `[...document.querySelectorAll('#col-0 tr.entry')].map((r) => {
		const marks = [...r.querySelectorAll('td.san [data-mark]')].map((m) => m.dataset.mark);
		const mark = marks.find((m) => m === 'main line' || m === 'avoid') || '';
		return {move: r.dataset.move, annotation: marks.find((m) => m !== mark) || '', mark,
			record: r.querySelector('td.learn .learn-txt span')?.textContent || ''};
	})`)
	legend := eval[[]string](b, `[...document.querySelectorAll('#col-0 .legend [data-mark]')].map((m) => m.dataset.mark)`)
	pos := s.position(url.Values{"moves": {"d2d4"}})
	entries := pos.Columns[0].Report.Entries
	if len(rows) != len(entries) {
		t.Fatalf("the page shows %d moves, the API %d", len(rows), len(entries))
	}
	marks := map[string]bool{}
	for i, e := range entries {
		var g struct { // the CTG facts the page reads
			Annotation, Mark string
			Won, Drawn, Lost int
		}
		if err := json.Unmarshal(e.Facts["ctg"], &g); err != nil {
			t.Fatalf("move %d: ctg facts %s: %v", i, e.Facts["ctg"], err)
		}
		want := shown{e.Move, g.Annotation, g.Mark, fmt.Sprintf("+%d =%d −%d", g.Won, g.Drawn, g.Lost)}
		if rows[i] != want {
			t.Errorf("move %d: the page shows %+v, the API %+v", i, rows[i], want)
		}
		marks[g.Annotation], marks[g.Mark] = true, true
	}
	delete(marks, "")
	for _, m := range []string{"!", "?", "!?", "only move", "0x07", "main line", "avoid"} {
		if !marks[m] {
			t.Errorf("the position has no %q: the test does not show it", m)
		}
	}
	if len(legend) != len(marks) {
		t.Errorf("the legend names %v, the table shows %v", legend, marks)
	}
	for _, m := range legend {
		if !marks[m] {
			t.Errorf("the legend names %q, which the table does not show", m)
		}
	}
	b.clean()
}

// TestBrowserConvertedABK: a book convert-book made ABK keeps each move's
// chance in its game counts; the page shows no score for them (the
// gnuchess book, converted, had a 50% bar for every move), but "converted",
// and a move's games learned since as any book's.
func TestBrowserConvertedABK(t *testing.T) {
	path := abkFromGnuchess(t)
	s := serve(t, books(path))
	b := openBrowser(t, s, "/?moves=e2e4,e7e5")
	pos := s.position(url.Values{"moves": {"e2e4,e7e5"}})
	moves := len(pos.Columns[0].Report.Entries)
	if got := eval[int](b, `document.querySelectorAll('#col-0 td.learn .synthetic').length`); moves < 5 || got != moves {
		t.Errorf("%d moves marked converted of %d", got, moves)
	}
	if got := eval[int](b, `document.querySelectorAll('#col-0 td.learn .learn').length`); got != 0 {
		t.Errorf("%d scores shown for counts no games made", got)
	}
	if got := eval[string](b, `document.querySelector('#col-0 tr[data-move="g1f3"] td.learn .synthetic').title`); !strings.Contains(got, "65535 units of the chance") {
		t.Errorf("the mark of 2.Nf3 says %q", got)
	}
	b.shot("converted-abk.png")
	b.clean()
}
