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
}

// openBrowser starts Chromium (Debian's, headless, in a fresh profile, with
// nothing of its own on the network) at the server's address.
func openBrowser(t *testing.T, s *served, path string) *browser {
	t.Helper()
	exe := testenv.Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 860),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("no-pings", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	// The browser starts with a context of no deadline: a deadline on the
	// first call would stop the whole browser when it passes.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatal(err)
	}
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
			if ev.Entry.Level == log.EntryLevelError {
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
	}), chromedp.Navigate(s.ts.URL+path), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
	return b
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
}

// shot writes a screenshot of the page, with -shots.
func (b *browser) shot(name string) {
	b.t.Helper()
	if *shots == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
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

// TestBrowserFits: at the common screen widths the page needs no sideways
// scrolling, and nothing in a book's column is cut or scrolled: two books
// side by side from 1280 px, one above the other at 1000 px, with the
// editor on (its column of buttons) and the widest figures of an ABK book.
func TestBrowserFits(t *testing.T) {
	o := twoBooks(t)
	o.Edit = true
	abk := books(filepath.Join("..", "book", "abk", "testdata", "small.abk"), testenv.GnuchessBook(t))
	for _, tc := range []struct {
		name string
		o    explore.Options
		path string
	}{
		{"two-books", o, "/?moves=e2e4,e7e5"},
		{"abk", abk, "/?moves=e2e4"},
	} {
		s := serve(t, tc.o)
		path := tc.path
		if tc.o.Edit {
			path += "#token=" + s.srv.Token()
		}
		b := openBrowser(t, s, path)
		for _, width := range []int64{1000, 1280, 1440, 1920} {
			b.run(chromedp.EmulateViewport(width, 900))
			b.shot(fmt.Sprintf("fits-%s-%d.png", tc.name, width))
			over := eval[[]string](b, `[document.documentElement, ...document.querySelectorAll('.col')].filter(e => e.scrollWidth > e.clientWidth).map(e => (e.id || e.tagName) + ': ' + e.scrollWidth + ' > ' + e.clientWidth)`)
			if len(over) > 0 {
				t.Errorf("%s at %d px: wider than shown: %v", tc.name, width, over)
			}
			beside := eval[bool](b, `document.getElementById('col-0').getBoundingClientRect().top === document.getElementById('col-1').getBoundingClientRect().top`)
			if beside != (width >= 1280) {
				t.Errorf("%s at %d px: columns side by side: %v", tc.name, width, beside)
			}
		}
		b.clean()
	}
}
