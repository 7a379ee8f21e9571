package explore_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/cli"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
	"github.com/polyproxy/polyproxy/probe"
)

// served is a running explore server and what a test asks it.
type served struct {
	t    *testing.T
	srv  *explore.Server
	ts   *httptest.Server
	host string // host:port
}

// serve starts a server on the loopback interface for opts.
func serve(t *testing.T, opts explore.Options) *served {
	t.Helper()
	if opts.Warn == nil {
		opts.Warn = func(w string) { t.Log("warning:", w) }
	}
	srv, err := explore.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	addr := ts.Listener.Addr().String()
	ts.Config.Handler = srv.Handler(addr)
	ts.Start()
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return &served{t: t, srv: srv, ts: ts, host: addr}
}

// books is one column a book, each with the default settings (probe's).
func books(paths ...string) explore.Options {
	var o explore.Options
	for _, p := range paths {
		st := config.Default("")
		st.BookFiles = []string{p}
		o.Columns = append(o.Columns, explore.Column{Name: filepath.Base(p), Settings: st})
	}
	return o
}

func (s *served) get(path string, header ...string) *http.Response {
	s.t.Helper()
	req, err := http.NewRequest("GET", s.ts.URL+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := s.ts.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { res.Body.Close() })
	return res
}

func (s *served) position(q url.Values) explore.Position {
	s.t.Helper()
	res := s.get("/api/position?" + q.Encode())
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		s.t.Fatalf("/api/position?%s: %s: %s", q.Encode(), res.Status, body)
	}
	var p explore.Position
	if err := json.Unmarshal(body, &p); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// post sends a change as the page does, with the headers given over
// those the page sends.
func (s *served) post(path string, body any, header ...string) (*http.Response, []byte) {
	s.t.Helper()
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", s.ts.URL+path, bytes.NewReader(data))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+s.host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Explore-Token", s.srv.Token())
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := s.ts.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, out
}

// probeJSON is what probe -json prints for args.
func probeJSON(t *testing.T, args ...string) probe.Result {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(append([]string{"probe", "-json"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("probe %v: exit %d: %s", args, code, errb.String())
	}
	var r probe.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPositionIsProbe: the server's report of a position is what probe
// -json prints for the same book, policy and position, along lines in and
// out of book, from a FEN and in Chess960.
func TestPositionIsProbe(t *testing.T) {
	gnu := testenv.GnuchessBook(t)
	o := books(gnu)
	st := o.Columns[0].Settings
	st.BookThreshold, st.BookWidth, st.BookMinWeight = 20, 3, 50
	s := serve(t, o)
	for _, tc := range []struct{ fen, moves string }{
		{"", ""},
		{"", "e2e4,e7e5,g1f3"},
		{"", "e4 e5 Nf3 Nc6 Bb5"}, // SAN
		{"", "1. d4 d5 2. c4"},    // a pasted PGN line
		{"", "h2h4,a7a5,h4h5"},    // out of book
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", ""},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", "e2e4"}, // Chess960 by its castling field
	} {
		p := s.position(url.Values{"fen": {tc.fen}, "moves": {tc.moves}})
		var uci []string
		for _, m := range p.Moves {
			uci = append(uci, m.UCI)
		}
		args := []string{"-book", gnu, "-threshold", "20", "-width", "3", "-min-weight", "50", "-moves", strings.Join(uci, " ")}
		if tc.fen != "" {
			args = append(args, "-fen", tc.fen)
		}
		want := probeJSON(t, args...)
		if got := p.Columns[0].Report; !reflect.DeepEqual(got, want) {
			t.Errorf("%q %q:\nserver %+v\nprobe  %+v", tc.fen, tc.moves, got, want)
		}
		if len(p.Columns[0].Extra) != len(want.Entries) {
			t.Errorf("%d extras for %d entries", len(p.Columns[0].Extra), len(want.Entries))
		}
	}
}

func TestPositionLine(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	p := s.position(url.Values{"moves": {"e2e4,e7e5,g1f3,b8c6"}, "ply": {"2"}})
	if p.Ply != 2 || len(p.Moves) != 4 || p.Moves[2].SAN != "Nf3" || !p.White || p.FEN != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" {
		t.Errorf("ply 2 of 4: %+v", p)
	}
	if len(p.Legal) != 29 || p.Board[:8] != "rnbqkbnr" {
		t.Errorf("%d legal moves, board %q", len(p.Legal), p.Board)
	}
	c := p.Columns[0]
	if len(c.Along) != 5 || c.End != -1 || c.Along[0] == 0 {
		t.Errorf("along the line: %v, end %d", c.Along, c.End)
	}
	for i, e := range c.Report.Entries {
		if e.Legal && (c.Extra[i].SAN == "" || c.Extra[i].Next == 0 && e.Move == "g1f3") {
			t.Errorf("%s: %+v", e.Move, c.Extra[i])
		}
	}
	out := s.position(url.Values{"moves": {"a2a3,h7h5,a3a4,h5h4,a4a5"}})
	if c := out.Columns[0]; c.End <= 0 || c.End > 5 || c.Along[c.End] != 0 {
		t.Errorf("a line out of book: along %v end %d", c.Along, c.End)
	}
	for _, bad := range []url.Values{
		{"moves": {"e2e5"}}, {"fen": {"not a fen"}}, {"ply": {"3"}}, {"ply": {"-1"}}, {"chess960": {"yes"}},
		{"moves": {strings.Repeat("e2e4,e7e5,g1f3,g8f6,f3g1,f6g8,", 101)}},
	} {
		if res := s.get("/api/position?" + bad.Encode()); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%v: %s", bad, res.Status)
		}
	}
}

// TestLinePlayable: a line that cannot be played to its end is refused
// with the error and the moves before the first that cannot, which the
// page shows; an error of another parameter has none.
func TestLinePlayable(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	none := "-"
	for _, tc := range []struct {
		q        url.Values
		playable string
		err      string
	}{
		{url.Values{"moves": {"e2e4,e2e4"}}, "e2e4", "move 2 (e2e4)"},
		{url.Values{"moves": {"1. e4 e5 2. Nf3 Nf3"}}, "e2e4,e7e5,g1f3", "move 4 (Nf3)"},
		{url.Values{"moves": {"e5"}}, "", "move 1 (e5)"},
		{url.Values{"fen": {"8/8/8/8/8/8/8/K6k w - - 0 1"}, "moves": {"a1a2,h1h2,a2a9"}}, "a1a2,h1h2", "move 3 (a2a9)"},
		{url.Values{"fen": {"not a fen"}, "moves": {"e2e4"}}, none, "fen"},
		{url.Values{"moves": {"e2e4"}, "ply": {"3"}}, none, "ply"},
	} {
		res := s.get("/api/position?" + tc.q.Encode())
		var f explore.Failure
		if err := json.NewDecoder(res.Body).Decode(&f); err != nil || res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%v: %s %v", tc.q, res.Status, err)
		}
		playable := none
		if f.Playable != nil {
			playable = *f.Playable
		}
		if playable != tc.playable || !strings.Contains(f.Error, tc.err) {
			t.Errorf("%v: %+v (playable %q), want %q and an error naming %q", tc.q, f, playable, tc.playable, tc.err)
		}
	}
}

// TestTwoBooks: a book beside the same book after learning and edits: the
// second column marks what changed and lists what it lost.
func TestTwoBooks(t *testing.T) {
	before := fixture.CopyFile(t, testenv.GnuchessBook(t))
	after := filepath.Join(t.TempDir(), "after.bin")
	if err := os.WriteFile(after, fixture.ReadFile(t, before), 0o644); err != nil {
		t.Fatal(err)
	}
	es := serve(t, explore.Options{Columns: books(after).Columns, Edit: true})
	start := map[string]any{"fen": "", "moves": ""}
	for _, e := range []map[string]any{
		{"op": "weight", "move": "d2d4", "weight": 20000},
		{"op": "delete", "move": "c2c4"},
		{"op": "add", "move": "h2h3", "weight": 100},
	} {
		for k, v := range start {
			e[k] = v
		}
		if res, body := es.post("/api/edit", e); res.StatusCode != 200 {
			t.Fatalf("%v: %s %s", e, res.Status, body)
		}
	}
	s := serve(t, books(before, after))
	p := s.position(url.Values{})
	changes := map[string]string{}
	for i, e := range p.Columns[1].Report.Entries {
		changes[e.Move] = p.Columns[1].Extra[i].Change
	}
	if changes["d2d4"] != "weight" || changes["h2h3"] != "new" || changes["e2e4"] != "" {
		t.Errorf("changes: %v", changes)
	}
	if len(p.Columns[1].Missing) != 1 || p.Columns[1].Missing[0].SAN != "c4" || len(p.Columns[0].Missing) != 0 {
		t.Errorf("missing: %+v / %+v", p.Columns[1].Missing, p.Columns[0].Missing)
	}
}

// TestHostChecked: a request for another host (DNS rebinding: a name made
// to point at 127.0.0.1) is refused, on every route.
func TestHostChecked(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	_, port, _ := strings.Cut(s.host, ":")
	for _, path := range []string{"/", "/app.js", "/api/books", "/api/position"} {
		if res := s.get(path, "Host", "evil.example:"+port); res.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s for evil.example: %s", path, res.Status)
		}
		if res := s.get(path, "Host", "127.0.0.1:1"); res.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s for another port: %s", path, res.Status)
		}
		for _, ok := range []string{s.host, "localhost:" + port} {
			if res := s.get(path, "Host", ok); res.StatusCode != 200 {
				t.Errorf("%s for %s: %s", path, ok, res.Status)
			}
		}
	}
}

// TestChangesGuarded: a change needs -edit, a POST, the page's origin, the
// run's token and JSON; each missing refuses it and leaves the book as it
// was.
func TestChangesGuarded(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	orig := fixture.ReadFile(t, path)
	edit := map[string]any{"op": "weight", "move": "e2e4", "weight": 7}
	ro := serve(t, books(path))
	if res, _ := ro.post("/api/edit", edit); res.StatusCode != http.StatusForbidden {
		t.Errorf("without -edit: %s", res.Status)
	}
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	for _, tc := range []struct {
		name   string
		header []string
		code   int
	}{
		{"no token", []string{"X-Explore-Token", ""}, http.StatusForbidden},
		{"another token", []string{"X-Explore-Token", strings.Repeat("0", 32)}, http.StatusForbidden},
		{"another site", []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"no origin", []string{"Origin", ""}, http.StatusForbidden},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"a form", []string{"Content-Type", "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
	} {
		if res, body := s.post("/api/edit", edit, tc.header...); res.StatusCode != tc.code {
			t.Errorf("%s: %s %s", tc.name, res.Status, body)
		}
	}
	if res := s.get("/api/edit"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/edit: %s", res.Status)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("a refused change changed the book")
	}
	for _, bad := range []map[string]any{
		{"op": "weight", "move": "e2e4", "weight": 70000},
		{"op": "weight", "move": "e2e5", "weight": 7},
		{"op": "rename", "move": "e2e4"},
		{"op": "weight", "move": "e2e4", "weight": 7, "column": 1},
		{"op": "weight", "move": "e2e4", "weight": 7, "book": "/etc/passwd"}, // a path: unknown field
	} {
		if res, body := s.post("/api/edit", bad); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%v: %s %s", bad, res.Status, body)
		}
	}
	if res, body := s.post("/api/edit", map[string]any{"op": "add", "move": "e2e4", "weight": 7}); res.StatusCode != http.StatusConflict {
		t.Errorf("adding a move there: %s %s", res.Status, body)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("a refused change changed the book")
	}
	if res, body := s.post("/api/edit", edit); res.StatusCode != 200 {
		t.Fatalf("the page's change: %s %s", res.Status, body)
	}
	if bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("the change was not made")
	}
	if res, body := s.post("/api/undo", map[string]any{}); res.StatusCode != 200 {
		t.Fatalf("undo: %s %s", res.Status, body)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("undone, the book differs")
	}
	if res, _ := s.post("/api/undo", map[string]any{}); res.StatusCode != http.StatusConflict {
		t.Errorf("nothing left to undo: %s", res.Status)
	}
}

// TestNoPathFromRequest: only the books named at the start are served;
// nothing in a request names a file.
func TestNoPathFromRequest(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	for _, path := range []string{"/etc/passwd", "/../../etc/passwd", "/page/app.js", "/api/position/../../etc/passwd", "/app.js/..%2f..%2fetc%2fpasswd"} {
		res := s.get(path)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode == 200 && bytes.Contains(body, []byte("root:")) || res.StatusCode == 200 && path != "/page/app.js" && !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %s", path, res.Status)
		}
	}
	p := s.position(url.Values{"book": {"/etc/passwd"}, "path": {"x.bin"}})
	if len(p.Columns) != 1 || p.Columns[0].Report.Book != testenv.GnuchessBookPath {
		t.Errorf("columns %+v", p.Columns)
	}
}

// TestPageAssets: every route answers with its type and the page's
// security headers, and the first load is under its budget of 300 KB.
func TestPageAssets(t *testing.T) {
	s := serve(t, books(testenv.GnuchessBook(t)))
	total := 0
	for path, ctype := range map[string]string{"/": "text/html", "/app.js": "text/javascript", "/app.css": "text/css", "/favicon.svg": "image/svg+xml", "/pieces.svg": "image/svg+xml", "/api/books": "application/json", "/api/position": "application/json"} {
		res := s.get(path)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), ctype) {
			t.Errorf("%s: %s %s", path, res.Status, res.Header.Get("Content-Type"))
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		total += len(body)
	}
	t.Logf("first load: %d bytes", total)
	if total > 300<<10 {
		t.Errorf("first load %d bytes, over 300 KB", total)
	}
	var b explore.Books
	if err := json.NewDecoder(s.get("/api/books").Body).Decode(&b); err != nil || len(b.Columns) != 1 || b.Columns[0].Books[0].Entries != 180358 || b.Edit {
		t.Errorf("/api/books: %+v %v", b, err)
	}
}

// TestChess960: a Chess960 position from its FEN, castling as king takes
// rook: the report is probe's, castling reads O-O, and castling added from
// the page is stored king takes rook.
func TestChess960(t *testing.T) {
	const fen = "k7/8/8/8/8/8/8/4RKR1 w GE - 0 1"
	if !board.Chess960FEN(fen) {
		t.Fatal("the FEN is not told as Chess960's")
	}
	line, err := board.NewLineVariant(fen, true)
	if err != nil {
		t.Fatal(err)
	}
	pos := line.Pos
	f1g1, _ := board.ParseMove("f1g1")
	e1e7, _ := board.ParseMove("e1e7")
	path := fixture.WriteEntries(t, []book.Entry{{Key: pos.Key(), Move: e1e7, Weight: 10}})
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	if res, body := s.post("/api/edit", map[string]any{"fen": fen, "op": "add", "move": "f1g1", "weight": 30}); res.StatusCode != 200 {
		t.Fatalf("castling added: %s %s", res.Status, body)
	}
	p := s.position(url.Values{"fen": {fen}})
	if want := probeJSON(t, "-book", path, "-fen", fen); !reflect.DeepEqual(p.Columns[0].Report, want) {
		t.Errorf("server %+v\nprobe  %+v", p.Columns[0].Report, want)
	}
	if !p.Chess960 || len(p.Columns[0].Extra) != 2 || p.Columns[0].Extra[0].SAN != "O-O" {
		t.Errorf("%+v", p)
	}
	b := fixture.OpenPath(t, path)
	if es := b.Entries(pos.Key()); len(es) != 2 || es[0].Move != f1g1 {
		t.Errorf("entries %v", es)
	}
}

// TestHostNames: a server listening on every interface answers to IP
// literals on its port and to the name -addr gave, never to another name.
func TestHostNames(t *testing.T) {
	srv, err := explore.New(books(testenv.GnuchessBook(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler("0.0.0.0:8123", "chess-box")
	for host, code := range map[string]int{
		"192.168.1.5:8123": 200, "[fe80::1]:8123": 200, "chess-box:8123": 200, "localhost:8123": 200,
		"evil.example:8123": http.StatusMisdirectedRequest, "192.168.1.5:9999": http.StatusMisdirectedRequest, "chess-box": http.StatusMisdirectedRequest,
	} {
		req := httptest.NewRequest("GET", "/api/books", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != code {
			t.Errorf("Host %s: %d, want %d", host, rec.Code, code)
		}
	}
}

// TestHostFormsBrowsersSend: the Host header as browsers write it is
// accepted: without the port when it is the default, 80 (-addr
// 127.0.0.1:80), an IPv6 address in brackets, localhost on a loopback
// address; a page's change from such an origin is made. Any other name or
// port is still refused.
func TestHostFormsBrowsersSend(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	for _, tc := range []struct {
		addr  string
		hosts map[string]int
	}{
		{"127.0.0.1:80", map[string]int{"127.0.0.1": 200, "127.0.0.1:80": 200, "localhost": 200, "LocalHost:80": 200,
			"127.0.0.2": 421, "evil.example": 421, "127.0.0.1:8080": 421, "": 421}},
		{"[::1]:80", map[string]int{"[::1]": 200, "[::1]:80": 200, "localhost": 200, "[0:0:0:0:0:0:0:1]": 200,
			"::1": 421, "[::2]": 421, "127.0.0.1": 421, "[::1]:81": 421}},
		{"[::1]:8123", map[string]int{"[::1]:8123": 200, "localhost:8123": 200, "[::1]": 421, "localhost": 421}},
		{"127.0.0.1:8123", map[string]int{"127.0.0.1:8123": 200, "127.0.0.1": 421, "localhost": 421}},
		{"0.0.0.0:80", map[string]int{"192.168.1.5": 200, "[fe80::1]": 200, "chess-box": 200, "localhost": 200, "evil.example": 421}},
	} {
		srv, err := explore.New(explore.Options{Columns: books(path).Columns, Edit: true})
		if err != nil {
			t.Fatal(err)
		}
		h := srv.Handler(tc.addr, "chess-box")
		for host, code := range tc.hosts {
			req := httptest.NewRequest("GET", "/api/books", nil)
			req.Host = host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != code {
				t.Errorf("served at %s, Host %q: %d, want %d", tc.addr, host, rec.Code, code)
			}
			if code != 200 {
				continue
			}
			// A change from the page at that address: its Origin is the
			// address as the browser wrote it.
			req = httptest.NewRequest("POST", "/api/edit", strings.NewReader(`{"op":"weight","move":"e2e4","weight":12135}`))
			req.Host = host
			req.Header.Set("Origin", "http://"+host)
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Explore-Token", srv.Token())
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Errorf("served at %s, Host %q: a change: %d %s", tc.addr, host, rec.Code, rec.Body)
			}
		}
		srv.Close()
	}
}

// TestEditABK: an ABK book's move edited from the API: its priority and
// statistics (as the side to move sees them), a move added and deleted,
// the last change undone; the page's view follows each.
func TestEditABK(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small.abk")
	if err := os.WriteFile(path, fixture.ReadFile(t, filepath.Join("..", "book", "abk", "testdata", "small.abk")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	abkOf := func(moves, move string) *abk.MoveFacts {
		t.Helper()
		p := s.position(url.Values{"moves": {moves}})
		for i, e := range p.Columns[0].Report.Entries {
			if e.Move != move {
				continue
			}
			// The page's extra has what the report's entry has.
			var v, inReport *abk.MoveFacts
			if json.Unmarshal(p.Columns[0].Extra[i].Facts["abk"], &v) != nil || json.Unmarshal(e.Facts["abk"], &inReport) != nil || *v != *inReport {
				t.Fatalf("%s after %s: extra %+v, report %+v", move, moves, v, inReport)
			}
			return v
		}
		return nil
	}
	before := abkOf("e2e4", "e7e5")
	if before == nil || abkFields(before) != "8 60 18 24" {
		t.Fatalf("e7e5 after e4: %+v", before)
	}
	for _, e := range []map[string]any{
		{"moves": "e2e4", "op": "abk", "move": "e7e5", "priority": 3, "games": 50, "won": 20, "lost": 10},
		{"moves": "e2e4", "op": "add", "move": "a7a6", "priority": 4, "games": 2, "won": 1, "lost": 0},
	} {
		if res, body := s.post("/api/edit", e); res.StatusCode != 200 {
			t.Fatalf("%v: %s %s", e, res.Status, body)
		}
	}
	if got := abkOf("e2e4", "e7e5"); got == nil || abkFields(got) != "3 50 20 10" {
		t.Errorf("e7e5 set: %+v", got)
	}
	if got := abkOf("e2e4", "a7a6"); got == nil || abkFields(got) != "4 2 1 0" {
		t.Errorf("a7a6 added: %+v", got)
	}
	for range 2 {
		if res, body := s.post("/api/undo", map[string]any{}); res.StatusCode != 200 {
			t.Fatalf("undo: %s %s", res.Status, body)
		}
	}
	if got := abkOf("e2e4", "e7e5"); got == nil || abkFields(got) != abkFields(before) || abkOf("e2e4", "a7a6") != nil {
		t.Errorf("undone: e7e5 %+v, a7a6 %+v", got, abkOf("e2e4", "a7a6"))
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"info-book", "-json", "-bin", path}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), `"warnings":[]`) {
		t.Errorf("info-book: %s %s", out.String(), errb.String())
	}
}

// abkExtra is an ABK move's facts in the page's extra of its entry.
func abkExtra(x explore.EntryExtra) *abk.MoveFacts {
	var v *abk.MoveFacts
	json.Unmarshal(x.Facts["abk"], &v)
	return v
}

// abkFields writes an ABK move's facts as "priority games won lost".
func abkFields(v *abk.MoveFacts) string {
	return fmt.Sprintf("%d %d %d %d", v.Priority, v.Games, v.Won, v.Lost)
}
