//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
	"github.com/polyproxy/polyproxy/uci"
)

// The Windows suite: polyproxy.exe and the fake engine, built for
// Windows, run under Wine and driven through pipes as a Windows GUI
// (Arena) drives them. (Go's own test binaries cannot run under Wine 8:
// it lacks FileDispositionInformationEx, so every t.TempDir cleanup
// fails there.) Every test is named TestWine...: go test -run Wine runs
// the suite alone.

// wineTimeout bounds each awaited line: Wine starts programs in
// milliseconds once its server runs, but CI machines can be slow.
const wineTimeout = 20 * time.Second

// winSetup is the shared Wine prefix with the Windows builds.
type winSetup struct {
	*testenv.Wine
	proxy, engine string // polyproxy.exe, fakeengine.exe: copy them, never change them
}

// needWine returns the Wine prefix and the Windows builds (made once per
// test run), or skips (fails under CI) without Wine and MinGW.
func needWine(t *testing.T) winSetup {
	t.Helper()
	w := testenv.NeedWine(t, filepath.Join("testdata", "wine", "bcryptprimitives.c"))
	return winSetup{
		Wine:   w,
		proxy:  testenv.Binary(t, "windows", testenv.Module),
		engine: testenv.Binary(t, "windows", testenv.FakeEnginePackage),
	}
}

// install copies src to dst, making dst's folder.
func install(t *testing.T, src, dst string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, string(data))
	return dst
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

// ini is a polyglot.ini as Windows users write them: CRLF line ends.
func ini(lines ...string) string { return strings.Join(lines, "\r\n") + "\r\n" }

// start runs the Windows program exe in dir under Wine, as a GUI does.
func (w winSetup) start(t *testing.T, dir string, env []string, exe string, args ...string) *proc {
	t.Helper()
	cmd := w.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, env...)
	return startCmd(t, cmd)
}

// run runs a book tool of polyproxy.exe in dir and returns its output.
func (w winSetup) run(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := w.Command(w.proxy, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// sendCRLF sends lines ended by CR LF, as Windows GUIs may.
func (p *proc) sendCRLF(lines ...string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, strings.Join(lines, "\r\n")+"\r\n"); err != nil {
		p.t.Fatalf("write: %v (stderr: %s)", err, p.stderr.String())
	}
}

// running lists the Windows processes named name in the prefix.
func (w winSetup) running(t *testing.T, name string) []int {
	t.Helper()
	ps, err := w.Processes()
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, p := range ps {
		if strings.EqualFold(p.Name, name) {
			pids = append(pids, p.Pid)
		}
	}
	return pids
}

// waitNoProcess fails unless every process named name is gone within 5 s.
func (w winSetup) waitNoProcess(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		pids := w.running(t, name)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still running (Windows pids %v)", name, pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// foolsMate is a text book of one line, the fool's mate: each position
// has one move, so every answer from it is known.
const foolsMate = "f2f3 e7e5 g2g4 d8h4\r\n"

// compileBook writes a text book into dir and compiles it there with
// polyproxy.exe compile-book into name.
func (w winSetup) compileBook(t *testing.T, dir, name, text string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, name+".txt"), text)
	if out, err := w.run(t, dir, "compile-book", "-txt", name+".txt", "-bin", name); err != nil {
		t.Fatalf("compile-book: %v\n%s", err, out)
	}
	return filepath.Join(dir, name)
}

// bookAndEngineAnswers plays the start position (answered from the fool's
// mate book: f2f3) and a position out of book (relayed to the fake
// engine, whose info line and move come back), in CRLF lines.
func bookAndEngineAnswers(t *testing.T, p *proc) {
	t.Helper()
	p.sendCRLF("ucinewgame", "isready")
	p.until("readyok", wineTimeout)
	p.sendCRLF("position startpos", "go wtime 60000 btime 60000")
	got := p.until("bestmove", wineTimeout)
	if last := got[len(got)-1]; !strings.HasPrefix(last, "bestmove f2f3") {
		t.Fatalf("book answer: got %q", got)
	}
	p.sendCRLF("position startpos moves a2a3", "go wtime 60000 btime 60000")
	got = p.until("bestmove", wineTimeout)
	if len(got) < 2 || !strings.HasPrefix(got[len(got)-2], "info depth 1 score cp") || got[len(got)-1] != "bestmove a7a5" {
		t.Fatalf("engine answer (the fake engine plays a7a5 after a2a3, after an info line): got %q", got)
	}
}

// handshake sends uci and returns the id name.
func handshake(t *testing.T, p *proc) string {
	t.Helper()
	p.sendCRLF("uci")
	name := ""
	for _, l := range p.until("uciok", wineTimeout) {
		if n, ok := strings.CutPrefix(l, "id name "); ok {
			name = n
		}
	}
	return name
}

// quitAndCheck sends quit and checks the proxy exits 0 and the engine
// named engine is gone.
func (w winSetup) quitAndCheck(t *testing.T, p *proc, engine string) {
	t.Helper()
	p.sendCRLF("quit")
	if code := p.waitExit(wineTimeout); code != 0 {
		t.Fatalf("exit code %d; stderr: %s", code, p.stderr.String())
	}
	w.waitNoProcess(t, engine)
}

func readLog(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("log file: %v", err)
	}
	return string(b)
}

// Arena starts an engine in its own folder with no argument: polyglot.ini
// beside polyproxy.exe is read, its relative paths (backslashes) resolved
// against that folder; the log file is written where the ini says.
func TestWineArenaLaunch(t *testing.T) {
	w := needWine(t)
	dir := filepath.Join(t.TempDir(), "Arena", "Engines", "PolyProxy")
	install(t, w.proxy, filepath.Join(dir, "polyproxy.exe"))
	install(t, w.engine, filepath.Join(dir, "engine", "arena-engine.exe"))
	w.compileBook(t, filepath.Join(dir, "books"), "fool.bin", foolsMate)
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	writeFile(t, filepath.Join(dir, "polyglot.ini"), ini(
		"[PolyGlot]",
		`EngineDir = engine`,
		"EngineCommand = arena-engine.exe", // PolyGlot's rule: in EngineDir
		"EngineName = Fake for Arena",
		"Book = true",
		`BookFile = books\fool.bin`,
		"Log = true",
		`LogFile = logs\polyglot.log`,
		"[Engine]",
		"Hash = 32",
	))
	p := w.start(t, dir, nil, filepath.Join(dir, "polyproxy.exe"))
	if name := handshake(t, p); name != "Fake for Arena" {
		t.Fatalf("id name %q, want the ini's EngineName", name)
	}
	bookAndEngineAnswers(t, p)
	w.quitAndCheck(t, p, "arena-engine.exe")
	log := readLog(t, filepath.Join(dir, "logs", "polyglot.log"))
	for _, want := range []string{">engine setoption name Hash value 32", "gui> position startpos", ">gui bestmove f2f3", "engine> bestmove a7a5"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// The ini given as the parameter, a Windows path with backslashes and
// spaces, the proxy started in another folder: relative paths are the
// ini's folder's, and an engine path with spaces is quoted.
func TestWineIniParameterWithSpaces(t *testing.T) {
	w := needWine(t)
	root := t.TempDir()
	iniDir := filepath.Join(root, "My Engines", "Poly Glot")
	engine := install(t, w.engine, filepath.Join(root, "Program Files", "Fake Engine", "spaced engine.exe"))
	w.compileBook(t, filepath.Join(root, "My Engines", "My Books"), "fool mate.bin", foolsMate)
	writeFile(t, filepath.Join(iniDir, "my polyglot.ini"), ini(
		"[PolyGlot]",
		`EngineCommand = "`+testenv.WindowsPath(engine)+`"`,
		"Book = true",
		`BookFile = ..\My Books\fool mate.bin`,
		"Log = true",
		"LogFile = poly glot.log",
	))
	gui := filepath.Join(root, "Arena")
	os.MkdirAll(gui, 0o755)
	p := w.start(t, gui, nil, w.proxy, testenv.WindowsPath(filepath.Join(iniDir, "my polyglot.ini")))
	if name := handshake(t, p); name != "FakeEngine (polyproxy)" {
		t.Fatalf("id name %q", name)
	}
	bookAndEngineAnswers(t, p)
	w.quitAndCheck(t, p, "spaced engine.exe")
	if log := readLog(t, filepath.Join(iniDir, "poly glot.log")); !strings.Contains(log, ">gui bestmove f2f3") {
		t.Errorf("log lacks the book answer:\n%s", log)
	}
}

// Folders, ini, book, engine and log with names outside ASCII.
func TestWineUnicodePaths(t *testing.T) {
	w := needWine(t)
	dir := filepath.Join(t.TempDir(), "Échecs ♞ Шахматы")
	install(t, w.proxy, filepath.Join(dir, "polyproxy.exe"))
	install(t, w.engine, filepath.Join(dir, "moteur", "moteur-é.exe"))
	w.compileBook(t, dir, "книга.bin", foolsMate)
	writeFile(t, filepath.Join(dir, "polyglot.ini"), ini(
		"[PolyGlot]",
		`EngineCommand = moteur\moteur-é.exe`,
		"Book = true",
		"BookFile = книга.bin",
		"Log = true",
		"LogFile = journal ♞.log",
	))
	p := w.start(t, dir, nil, filepath.Join(dir, "polyproxy.exe"))
	handshake(t, p)
	bookAndEngineAnswers(t, p)
	w.quitAndCheck(t, p, "moteur-é.exe")
	log := readLog(t, filepath.Join(dir, "journal ♞.log"))
	if !strings.Contains(log, "книга.bin") || !strings.Contains(log, ">gui bestmove f2f3") {
		t.Errorf("log lacks the book or its answer:\n%s", log)
	}
}

// The engine crashes mid-game: it is restarted and the pending go is
// answered; a second crash within a minute ends the proxy.
func TestWineEngineCrashRestart(t *testing.T) {
	w := needWine(t)
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, "crashing-engine.exe"))
	p := w.start(t, dir, []string{"FAKEENGINE_CRASH_ON_GO=2"}, w.proxy, "-noini", "-ec", testenv.WindowsPath(engine))
	handshake(t, p)
	p.sendCRLF("ucinewgame", "position startpos", "go wtime 1000 btime 1000")
	p.until("bestmove", wineTimeout)
	p.sendCRLF("position startpos moves e2e4 e7e5", "go wtime 1000 btime 1000")
	got := p.until("bestmove", wineTimeout)
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "info string the engine died") }) {
		t.Fatalf("no info string about the crash: %q", got)
	}
	p.sendCRLF("position startpos moves e2e4 e7e5 g1f3 b8c6", "go wtime 1000 btime 1000")
	if code := p.waitExit(wineTimeout); code == 0 {
		t.Fatal("exit code 0 after a second crash")
	}
	if !strings.Contains(p.stderr.String(), "died again") {
		t.Fatalf("stderr %q", p.stderr.String())
	}
	w.waitNoProcess(t, "crashing-engine.exe")
}

// startStubbornEngine starts a proxy whose engine ignores quit and has
// started a child that sleeps for an hour, as an engine's helper process
// might; it returns the proxy once the handshake is done and the child
// runs.
func (w winSetup) startStubbornEngine(t *testing.T, name string) *proc {
	t.Helper()
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, name))
	pidFile := filepath.Join(dir, "child.pid")
	p := w.start(t, dir, []string{"FAKEENGINE_IGNORE_QUIT=1", "FAKEENGINE_CHILD_PID=" + testenv.WindowsPath(pidFile)},
		w.proxy, "-noini", "-ec", testenv.WindowsPath(engine))
	handshake(t, p)
	readPid(t, pidFile)
	if n := len(w.running(t, name)); n != 2 {
		t.Fatalf("%d processes named %s, want the engine and its child", n, name)
	}
	return p
}

// quit ends the engine, which ignores quit, and its child.
func TestWineQuitLeavesNoEngine(t *testing.T) {
	w := needWine(t)
	p := w.startStubbornEngine(t, "stubborn-quit.exe")
	w.quitAndCheck(t, p, "stubborn-quit.exe")
}

// The proxy killed outright (TerminateProcess, as a GUI ending a hung
// engine does): the engine and its child go too.
func TestWineKilledProxyLeavesNoEngine(t *testing.T) {
	w := needWine(t)
	p := w.startStubbornEngine(t, "stubborn-kill.exe")
	p.cmd.Process.Kill()
	p.waitExit(wineTimeout)
	w.waitNoProcess(t, "stubborn-kill.exe")
}

// Two proxies learn into one book at once, each playing the fool's mate
// from the book for both sides, game after game: every game counts in
// every entry, a loss for White's moves and a win for Black's.
func TestWineTwoProxiesLearnIntoOneBook(t *testing.T) {
	w := needWine(t)
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, "learning-engine.exe"))
	bookPath := w.compileBook(t, dir, "shared.bin", foolsMate)
	const games = 8
	t.Run("proxies", func(t *testing.T) {
		for _, name := range []string{"first", "second"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				p := w.start(t, dir, nil, w.proxy, "-noini", "-ec", testenv.WindowsPath(engine),
					"-pg", "Book=true", "-pg", "BookFile=shared.bin", "-pg", "BookLearn=true")
				handshake(t, p)
				moves := strings.Fields(foolsMate)
				for range games {
					p.sendCRLF("ucinewgame", "isready")
					p.until("readyok", wineTimeout)
					for ply, want := range moves {
						p.sendCRLF(strings.TrimSpace("position startpos moves "+strings.Join(moves[:ply], " ")), "go wtime 60000 btime 60000")
						got := p.until("bestmove", wineTimeout)
						if !strings.HasPrefix(got[len(got)-1], "bestmove "+want) {
							t.Fatalf("ply %d: got %q, want the book's %s", ply, got, want)
						}
					}
				}
				p.sendCRLF("quit")
				if code := p.waitExit(wineTimeout); code != 0 {
					t.Fatalf("exit %d; stderr: %s", code, p.stderr.String())
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	data := fixture.ReadFile(t, bookPath)
	line := fixture.Line(t, "", foolsMate)
	for ply, s := range strings.Fields(foolsMate) {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g, pts := learnFieldOf(t, data, line.Keys[ply], m)
		wantPoints := uint16(0) // White is mated
		if ply%2 == 1 {
			wantPoints = 2 * 2 * games
		}
		if g != 2*games || pts != wantPoints {
			t.Errorf("ply %d: learn %d games %d points, want %d games %d points", ply, g, pts, 2*games, wantPoints)
		}
	}
}

// A book rebuilt by make-book, then by merge-book, while a proxy has it
// open: each tool replaces the file, and the proxy opens the new book at
// the next game and answers from it.
func TestWineBookRebuiltWhileInUse(t *testing.T) {
	w := needWine(t)
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, "rebuilt-engine.exe"))
	w.compileBook(t, dir, "book.bin", foolsMate)
	install(t, filepath.Join("testdata", "pgn", "small.pgn"), filepath.Join(dir, "small.pgn"))
	w.compileBook(t, dir, "other.bin", strings.Repeat("g1f3 g8f6\r\n", 5)) // weight 5: above make-book's
	// merge-book never writes over one of its inputs: it merges the book
	// make-book makes with other.bin into the book in use.
	if out, err := w.run(t, dir, "make-book", "-pgn", "small.pgn", "-bin", "made.bin"); err != nil {
		t.Fatalf("make-book: %v\n%s", err, out)
	}
	p := w.start(t, dir, nil, w.proxy, "-noini", "-ec", testenv.WindowsPath(engine),
		"-pg", "Book=true", "-pg", "BookFile=book.bin", "-pg", "BookMode=best", "-pg", "BookLearn=true")
	handshake(t, p)
	answer := func() string {
		t.Helper()
		p.sendCRLF("ucinewgame", "position startpos", "go wtime 60000 btime 60000")
		got := p.until("bestmove", wineTimeout)
		return strings.Join(got, "\n")
	}
	if got := answer(); !strings.HasSuffix(got, "bestmove f2f3 ponder e7e5") {
		t.Fatalf("before: %q", got)
	}
	for _, step := range []struct {
		tool []string
		want string // the best move of the new book
	}{
		{[]string{"make-book", "-pgn", "small.pgn", "-bin", "book.bin"}, "e2e4"},
		{[]string{"merge-book", "-in1", "other.bin", "-in2", "made.bin", "-out", "book.bin"}, "g1f3"},
	} {
		out, err := w.run(t, dir, step.tool...)
		if err != nil {
			t.Fatalf("%s while the proxy has the book: %v\n%s", step.tool[0], err, out)
		}
		b, err := formats.Open(filepath.Join(dir, "book.bin"))
		if err != nil {
			t.Fatal(err)
		}
		n := b.Len()
		b.Close()
		// The new book is read beside the proxy's loop from ucinewgame on:
		// the next game's answers come from it once it is told.
		p.sendCRLF("ucinewgame")
		opened := strings.Join(p.until("info string book", wineTimeout), "\n")
		got := answer()
		// (Replaced, or "rewritten" when the new file got the old one's
		// inode number: Wine's file ids are the inode numbers.)
		if !strings.Contains(opened, fmt.Sprintf("opened (%d entries): the file was re", n)) ||
			!strings.Contains(got, "bestmove "+step.want) {
			t.Fatalf("after %s: %q then %q, want the new book (%d entries) opened and %s", step.tool[0], opened, got, n, step.want)
		}
	}
	w.quitAndCheck(t, p, "rebuilt-engine.exe")
}

// A book held open by a program that does not let it be replaced (here
// the fake engine appending to it; PolyGlot holds its book so): make-book
// retries for a while, then says so, and the old book is intact with no
// temporary file left.
func TestWineBookHeldByAnotherProgram(t *testing.T) {
	t.Parallel() // it mostly waits
	w := needWine(t)
	dir := t.TempDir()
	bookPath := w.compileBook(t, dir, "book.bin", foolsMate)
	before := fixture.ReadFile(t, bookPath)
	install(t, filepath.Join("testdata", "pgn", "small.pgn"), filepath.Join(dir, "small.pgn"))
	if out, err := w.run(t, dir, "make-book", "-pgn", "small.pgn", "-counts", "small.counts"); err != nil {
		t.Fatalf("make-book -counts: %v\n%s", err, out)
	}
	holder := w.start(t, dir, nil, w.engine, "-log", "book.bin")
	holder.sendCRLF("isready")
	holder.until("readyok", wineTimeout)
	// Every tool replaces its output the same way: sum-counts too, and
	// make-book with several outputs writes none of them.
	for _, tool := range [][]string{
		{"make-book", "-pgn", "small.pgn", "-bin", "book.bin"},
		{"sum-counts", "-out", "book.bin", "small.counts"},
		{"make-book", "-pgn", "small.pgn", "-bin", "book.bin", "-abk", "other.abk"},
	} {
		out, err := w.run(t, dir, tool...)
		if err == nil || !strings.Contains(out, "stayed in use by another program") {
			t.Fatalf("%s: %v, %q; want a failure saying the book is in use", tool[0], err, out)
		}
	}
	holder.sendCRLF("quit")
	holder.waitExit(wineTimeout)
	after := fixture.ReadFile(t, bookPath)
	if !strings.HasPrefix(string(after), string(before)) { // then the lines the holder got
		t.Fatalf("book changed: %q, was %q", after, before)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(tmp) > 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.abk")); err == nil {
		t.Fatal("make-book wrote -abk while -bin could not be replaced")
	}
}

// An engine that stops reading its input (here: it sleeps a minute
// before answering isready) while the GUI keeps sending: the write that
// finds the pipe full gives up after uci.WriteTimeout and the engine is
// ended and restarted, instead of the proxy hanging on the write.
func TestWineEngineNotReadingIsEnded(t *testing.T) {
	t.Parallel() // it mostly waits
	w := needWine(t)
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, "sleepy-engine.exe"))
	p := w.start(t, dir, []string{"FAKEENGINE_READY_MS=60000"}, w.proxy, "-noini", "-ec", testenv.WindowsPath(engine))
	handshake(t, p)
	p.sendCRLF("isready")
	// Far more than any pipe holds, written from a goroutine: the proxy
	// may stop reading us while its write to the engine blocks.
	go io.WriteString(p.in, strings.Repeat("setoption name Style value Risky\r\n", 20000))
	deadline := time.Now().Add(uci.WriteTimeout + wineTimeout)
	for {
		l := p.next(time.Until(deadline))
		if strings.HasPrefix(l, "info string the engine has not read its input") {
			break
		}
	}
	p.cmd.Process.Kill()
	p.waitExit(wineTimeout)
	w.waitNoProcess(t, "sleepy-engine.exe")
}

// explore -edit under Windows changes a book while a proxy learns into
// it: a move added and one deleted (each a rewrite: the old book put aside
// and the new one in its place while the edit holds the old one's lock),
// a weight set in place and the last change undone; every game the proxy
// learned meanwhile is in the book.
func TestWineExploreEditsWhileLearning(t *testing.T) {
	w := needWine(t)
	dir := t.TempDir()
	engine := install(t, w.engine, filepath.Join(dir, "explore-engine.exe"))
	path := w.compileBook(t, dir, "book.bin", foolsMate)
	ex := w.start(t, dir, nil, w.proxy, "explore", "-edit", "book.bin")
	addr := ex.next(wineTimeout)
	u, err := url.Parse(addr)
	if err != nil {
		t.Fatalf("explore printed %q: %v", addr, err)
	}
	token, ok := strings.CutPrefix(u.Fragment, "token=")
	if !ok {
		t.Fatalf("explore printed %q", addr)
	}
	base := "http://" + u.Host
	edit := func(route string, body map[string]any) {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+route, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://"+u.Host)
		req.Header.Set("X-Explore-Token", token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s %v: %s %s (stderr: %s)", route, body, res.Status, out, ex.stderr.String())
		}
	}
	p := w.start(t, dir, nil, w.proxy, "-noini", "-ec", testenv.WindowsPath(engine),
		"-pg", "Book=true", "-pg", "BookFile=book.bin", "-pg", "BookLearn=true")
	handshake(t, p)
	const games = 4
	moves := strings.Fields(foolsMate)
	for i := range games {
		p.sendCRLF("ucinewgame", "isready")
		p.until("readyok", wineTimeout)
		for ply, want := range moves {
			p.sendCRLF(strings.TrimSpace("position startpos moves "+strings.Join(moves[:ply], " ")), "go wtime 60000 btime 60000")
			if got := p.until("bestmove", wineTimeout); !strings.HasPrefix(got[len(got)-1], "bestmove "+want) {
				t.Fatalf("game %d ply %d: got %q, want the book's %s", i, ply, got, want)
			}
			// Rewrites of the book off the game's line, while it learns.
			edit("/api/edit", map[string]any{"moves": "e2e4", "op": "add", "move": "c7c5", "weight": 10 + ply})
			edit("/api/edit", map[string]any{"moves": "e2e4", "op": "delete", "move": "c7c5"})
		}
	}
	p.sendCRLF("quit")
	if code := p.waitExit(wineTimeout); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, p.stderr.String())
	}
	edit("/api/edit", map[string]any{"moves": "f2f3", "op": "weight", "move": "e7e5", "weight": 7})
	edit("/api/edit", map[string]any{"op": "add", "move": "a2a3", "weight": 3})
	edit("/api/undo", map[string]any{})
	// A server runs until it is stopped (Ctrl-C in its console).
	ex.cmd.Process.Kill()
	<-ex.done
	if left, _ := filepath.Glob(filepath.Join(dir, ".book.bin.*")); len(left) > 0 {
		t.Errorf("files left beside the book: %v", left)
	}
	b := fixture.OpenPath(t, path)
	line := fixture.Line(t, "", foolsMate)
	if b.Len() != len(moves) {
		t.Errorf("%d entries, want the line's %d", b.Len(), len(moves))
	}
	for ply := range moves {
		es := b.Entries(line.Keys[ply])
		if len(es) != 1 || es[0].Move.String() != moves[ply] || es[0].Learn.Games() != games {
			t.Errorf("ply %d: %v, want %s with %d games learned", ply, es, moves[ply], games)
		}
	}
	after := fixture.Line(t, board.StartFEN, "f2f3").Pos
	if es := b.Entries(after.Key()); len(es) != 1 || es[0].Weight != 7 {
		t.Errorf("after f2f3: %v, want e7e5 with weight 7", es)
	}
}
