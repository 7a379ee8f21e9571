package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/testenv"
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
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := o.validate(&commandLine{fs}); err != nil {
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
