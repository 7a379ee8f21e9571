package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/testenv"
	"github.com/polyproxy/polyproxy/probe"
)

func TestExploreRefusesBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-addr", "nonsense", "a.bin"},
		{"a.ini", "b.bin"},
		{"a.bin", "b.ini"},
		{"-threshold", "10", "polyglot.ini"},
		{"-book-white", "w.bin"},
		{"-threshold", "2000", "a.bin"},
	} {
		var out, errb bytes.Buffer
		if code := Run(append([]string{"explore"}, args...), nil, &out, &errb); code != 2 || out.Len() != 0 {
			t.Errorf("explore %q: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
	// A book that cannot be opened is told before anything is served.
	for _, args := range [][]string{{"missing.bin"}, {"-edit", t.TempDir()}} {
		var out, errb bytes.Buffer
		if code := Run(append([]string{"explore"}, args...), nil, &out, &errb); code != 1 || out.Len() != 0 {
			t.Errorf("explore %q: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// startExplore runs explore with args until the test ends, and returns
// the address it printed and its stderr so far.
func startExplore(t *testing.T, args ...string) (addr string, stderr *bytes.Buffer) {
	t.Helper()
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	o := &exploreOptions{}
	o.define(fs)
	cl, err := exploreCommand.parse(fs, args)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.validate(cl); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &bytes.Buffer{}
	done := make(chan error)
	go func() { done <- serveExplore(ctx, o, pw, stderr); pw.Close() }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	return strings.TrimSpace(line), stderr
}

// TestExploreIni: given an ini, the page shows the proxy's books and
// policy.
func TestExploreIni(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	dir := t.TempDir()
	ini := filepath.Join(dir, "polyglot.ini")
	if err := os.WriteFile(ini, []byte("[PolyGlot]\nEngineCommand = stockfish\nBook = true\nBookFile = "+gnu+"\nBookRandom = false\nBookWidth = 2\nBookTreshold = 30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, _ := startExplore(t, ini)
	res, err := http.Get(addr + "api/books")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b explore.Books
	if err := json.NewDecoder(res.Body).Decode(&b); err != nil {
		t.Fatal(err)
	}
	c := b.Columns[0]
	if len(b.Columns) != 1 || c.Name != "polyglot.ini" || c.Mode != "best" || c.Width != 2 || c.Threshold != 30 || c.Books[0].Path != gnu {
		t.Errorf("%+v", b)
	}
}

// TestExploreCTGSettings: a CTG book is shown with the read settings
// given, as probe reads it: in tournament mode, moves into positions marked
// to avoid weigh 0 on the page too.
func TestExploreCTGSettings(t *testing.T) {
	for _, flags := range [][]string{nil, {"-ctg-tournament-mode"}, {"-ctg-prefer-main-lines"}} {
		book := ctgBook("annotations", ".ctg")
		addr, _ := startExplore(t, append(slices.Clone(flags), book)...)
		res, err := http.Get(addr + "api/books")
		if err != nil {
			t.Fatal(err)
		}
		var books explore.Books
		err = json.NewDecoder(res.Body).Decode(&books)
		res.Body.Close()
		// A CTG book holds no count of its entries: the page says what it holds.
		if err != nil || len(books.Columns) != 1 || !strings.HasPrefix(books.Columns[0].Books[0].Size, "CTG book, found a position at a time: ") {
			t.Fatalf("%v: %v, %+v", flags, err, books)
		}
		res, err = http.Get(addr + "api/position?moves=d2d4")
		if err != nil {
			t.Fatal(err)
		}
		var page explore.Position
		err = json.NewDecoder(res.Body).Decode(&page)
		res.Body.Close()
		if err != nil || len(page.Columns) != 1 {
			t.Fatalf("%v: %v, %d columns", flags, err, len(page.Columns))
		}
		code, out, _ := runCmd(t, append([]string{"probe", "-book", book, "-moves", "d2d4", "-json"}, flags...)...)
		var want probe.Result
		if err := json.Unmarshal([]byte(out), &want); code != 0 || err != nil {
			t.Fatalf("probe %v: exit %d, %v", flags, code, err)
		}
		got := page.Columns[0].Report
		if len(got.Entries) == 0 || len(got.Entries) != len(want.Entries) {
			t.Fatalf("%v: %d entries on the page, probe %d", flags, len(got.Entries), len(want.Entries))
		}
		avoidPlayed := 0 // moves into positions to avoid that weigh more than 0
		for i, e := range got.Entries {
			if e.Move != want.Entries[i].Move || e.Weight != want.Entries[i].Weight {
				t.Errorf("%v: %s weighs %d on the page, probe %s %d", flags, e.Move, e.Weight, want.Entries[i].Move, want.Entries[i].Weight)
			}
			var m ctg.MoveFacts
			if json.Unmarshal(e.Facts["ctg"], &m) == nil && m.Mark == "avoid" && e.Weight > 0 {
				avoidPlayed++
			}
		}
		var pos ctg.PositionFacts
		err = json.Unmarshal(got.Facts["ctg"], &pos)
		if tournament := len(flags) > 0 && flags[0] == "-ctg-tournament-mode"; tournament != (avoidPlayed == 0) || err != nil || pos.TournamentMode != tournament {
			t.Errorf("%v: %d moves to avoid weigh more than 0; position %+v (%v)", flags, avoidPlayed, pos, err)
		}
	}
}

// TestExploreIniByContent: an ini is told by its text, not only by an .ini
// ending: the repository's polyglot.ini.example, and an ini saved by a
// Windows editor under another name (a BOM, CRLF, comments first), show
// the ini's books; such a file among books is refused as an ini is.
func TestExploreIniByContent(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	cfg := filepath.Join(t.TempDir(), "engine settings.cfg")
	text := "\ufeff; my engine\r\n\r\n# and its book\r\n[PolyGlot]\r\nEngineCommand = stockfish\r\nBookFile = " + gnu + "\r\nBookWidth = 3\r\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ini   string
		width int
	}{{"polyglot.ini.example", 0}, {cfg, 3}} {
		addr, _ := startExplore(t, tc.ini)
		res, err := http.Get(addr + "api/books")
		if err != nil {
			t.Fatal(err)
		}
		var b explore.Books
		err = json.NewDecoder(res.Body).Decode(&b)
		res.Body.Close()
		if err != nil || len(b.Columns) != 1 || len(b.Columns[0].Books) != 1 {
			t.Fatalf("%s: %v %+v", tc.ini, err, b)
		}
		c := b.Columns[0]
		if c.Name != filepath.Base(tc.ini) || c.Books[0].Path != gnu || c.Books[0].Format != "polyglot" || c.Width != tc.width {
			t.Errorf("%s: shown as %+v", tc.ini, c)
		}
	}
	// Among books, refused before anything is served.
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	o := &exploreOptions{}
	o.define(fs)
	cl, err := exploreCommand.parse(fs, []string{gnu, cfg})
	if err != nil {
		t.Fatal(err)
	}
	var e *exitError
	if err := o.validate(cl); !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), "an ini comes alone") {
		t.Errorf("an ini among books: %v", err)
	}
}

// TestIniTextNotBooks: no book of the repository's formats reads as an
// ini's text, nor a PGN file; a file without a section header is no ini.
func TestIniTextNotBooks(t *testing.T) {
	for _, path := range []string{testenv.GnuchessBook(t), filepath.Join("book", "abk", "testdata", "small.abk"),
		ctgBook("small", ".ctg"), ctgBook("small", ".cto"), ctgBook("small", ".ctb"), filepath.Join("testdata", "pgn", "robust.pgn")} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if iniText(data[:min(len(data), 16<<10)]) {
			t.Errorf("%s reads as an ini", path)
		}
	}
	for text, want := range map[string]bool{"[PolyGlot]\n": true, "  ; c\n\n [Engine] \r\n": true, "BookFile = a.bin\n[PolyGlot]\n": false, "[]\n": false, ";[PolyGlot]": false, "\x00\n[PolyGlot]\n": false, "[Event \"x\"]\n": false} {
		if got := iniText([]byte(text)); got != want {
			t.Errorf("%q: ini %v, want %v", text, got, want)
		}
	}
}

// TestExploreStdout: the address is the first line on stdout, and nothing
// follows it; a program run as users run it, stopped by an interrupt.
func TestExploreStdout(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	for _, tc := range []struct {
		args []string
		warn bool
	}{
		{[]string{gnu}, false},
		{[]string{"-addr", "localhost:0", gnu}, false},
		{[]string{"-addr", "0.0.0.0:0", gnu}, true}, // every interface: said on stderr
	} {
		cmd := exec.Command(testenv.Polyproxy(t), append([]string{"explore"}, tc.args...)...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(out)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		addr := strings.TrimSpace(line)
		if !strings.HasPrefix(addr, "http://127.0.0.1:") && !strings.HasPrefix(addr, "http://localhost:") {
			t.Errorf("%q: first line %q", tc.args, line)
		}
		res, err := http.Get(addr + "api/position?moves=e2e4")
		if err != nil || res.StatusCode != 200 {
			t.Errorf("%q: %v %v", tc.args, res, err)
		} else {
			res.Body.Close()
		}
		cmd.Process.Signal(os.Interrupt)
		rest, _ := io.ReadAll(r)
		waited := make(chan error)
		go func() { waited <- cmd.Wait() }()
		select {
		case err := <-waited:
			if err != nil {
				t.Errorf("%q: %v: %s", tc.args, err, errb.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%q: still running 10 s after an interrupt", tc.args)
		}
		if len(rest) != 0 {
			t.Errorf("%q: stdout after the address: %q", tc.args, rest)
		}
		if warned := strings.Contains(errb.String(), "anyone who can reach"); warned != tc.warn {
			t.Errorf("%q: stderr %q", tc.args, errb.String())
		}
	}
}
