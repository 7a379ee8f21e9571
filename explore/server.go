// Package explore is polyproxy's book explorer: a local web server whose
// page shows a position, its book moves in one or more books as the proxy
// would weigh them (the report of probe -json), learn statistics, where
// each book ends along the line, and, when allowed, edits the books
// through the same locked writers as learning. Every asset is embedded:
// the page makes no request but to the server.
package explore

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/filelock"
	"github.com/polyproxy/polyproxy/probe"
)

//go:embed page
var page embed.FS

// Column is a column of the page: the books a game would use and the
// rules it would choose by, from book settings as the proxy reads them
// (BookFile, BookFileWhite, BookFileBlack, BookRandom, BookTreshold,
// BookWidth, BookMinWeight, BookLearnWeight).
type Column struct {
	Name     string
	Settings *config.Config
	// Note is said under the column's name (an ini's Book=false, say).
	Note string
}

// Options are the server's settings.
type Options struct {
	Columns []Column
	// Edit allows changes to the books (the POST routes), each with the
	// server's token.
	Edit bool
	// Warn is told what goes wrong beside a request (a book that cannot
	// be read again); nil: nothing is told.
	Warn func(string)
}

// Server serves the page and its API for the books of its columns.
type Server struct {
	opts  Options
	token string
	mu    sync.Mutex // the books and the undo stack: one request at a time
	books map[string]*openBook
	undo  []undoStep
	// edits lets one change (edit or undo) be made at a time, and is held
	// while it waits for the book's lock, which mu never is: the page's
	// reads go on meanwhile.
	edits chan struct{}
	// What a request's Host must name (DNS rebinding sends another name):
	// the port served, and the IP served (nil: any IP literal, for a
	// server on every interface) or one of names (localhost, the name
	// -addr gave), lower case.
	port  string
	ip    net.IP
	names []string
}

// undoStep is an edit's undo, with the book and column it was made in.
type undoStep struct {
	path string
	edit book.Edit
	what string
}

// maxUndo is how many changes can be undone.
const maxUndo = 200

// New opens the books of the columns (each file once). With Edit it also
// opens each for writing, so that a book that cannot be written is told
// before the page is served.
func New(opts Options) (*Server, error) {
	if len(opts.Columns) == 0 {
		return nil, errors.New("no book to show")
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	s := &Server{opts: opts, books: map[string]*openBook{}, edits: make(chan struct{}, 1)}
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, err
	}
	s.token = hex.EncodeToString(tok[:])
	for _, c := range opts.Columns {
		if len(c.Settings.BooksInUse()) == 0 {
			s.Close()
			return nil, fmt.Errorf("column %s has no book", c.Name)
		}
		for _, path := range c.Settings.BooksInUse() {
			if s.books[path] != nil {
				continue
			}
			// A book is opened once, with the first column's read settings:
			// the columns of one run share them (one ini, or one set of
			// flags for every book named).
			ob, err := open(path, c.Settings.ReadOptions(), func(w string) { opts.Warn(path + ": " + w) })
			if err != nil {
				s.Close()
				return nil, err
			}
			s.books[path] = ob
			if opts.Edit {
				if ob.edit, err = formats.OpenLearnFile(path); err != nil {
					s.Close()
					return nil, fmt.Errorf("-edit: %w", err)
				}
				ob.edit.ReadAs(ob.st)
			}
		}
	}
	return s, nil
}

// Close closes the books.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ob := range s.books {
		ob.close()
	}
	s.books = map[string]*openBook{}
}

// Token is the run's secret that every change must carry.
func (s *Server) Token() string { return s.token }

// Address is the page's address for a server listening at addr (the
// listener's). With Edit, the token is in its fragment, which the page
// reads and the browser never sends, and an empty moves parameter before
// it shows where a line goes (the page also reads one added after the
// token).
func (s *Server) Address(addr string) string {
	u := "http://" + addr + "/"
	if s.opts.Edit {
		u += "?moves=#token=" + s.token
	}
	return u
}

// Handler serves the page and the API at addr (the listener's address,
// host:port), refusing requests for any other host. names are other names
// of the host that requests may use (the host name -addr gave).
func (s *Server) Handler(addr string, names ...string) http.Handler {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		panic(err) // a listener's address
	}
	s.port = port
	for _, n := range names {
		s.names = append(s.names, strings.ToLower(n))
	}
	ip := net.ParseIP(host)
	if ip.IsLoopback() || ip.IsUnspecified() {
		s.names = append(s.names, "localhost")
	}
	if !ip.IsUnspecified() {
		s.ip = ip
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.asset("index.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /app.js", s.asset("app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", s.asset("app.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /favicon.svg", s.asset("favicon.svg", "image/svg+xml"))
	mux.HandleFunc("GET /pieces.svg", s.asset("pieces.svg", "image/svg+xml"))
	mux.HandleFunc("GET /api/books", s.handleBooks)
	mux.HandleFunc("GET /api/position", s.handlePosition)
	mux.HandleFunc("POST /api/edit", s.change(s.handleEdit))
	mux.HandleFunc("POST /api/undo", s.change(s.handleUndo))
	return s.checkHost(mux)
}

// checkHost refuses a request whose Host is not the address served: a
// page of another site whose name was made to point at this machine (DNS
// rebinding) sends its own name.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			http.Error(w, "this server answers to its own address only", http.StatusMisdirectedRequest)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// hostAllowed tells whether a Host header names this server as a browser
// writes it: the port left out when it is the default (80), an IPv6
// address in brackets, a name in any case.
func (s *Server) hostAllowed(header string) bool {
	host, port, err := net.SplitHostPort(header)
	if err != nil {
		host, port = header, "80"
		if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
			host = host[1 : len(host)-1]
		} else if strings.Contains(host, ":") {
			return false // not a Host header's form
		}
	}
	if port != s.port || host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return s.ip == nil || ip.Equal(s.ip)
	}
	return slices.Contains(s.names, strings.ToLower(host))
}

// change guards a route that writes: only with -edit, only a POST from the
// page itself (its origin, its token, JSON), which another site's page can
// neither send nor forge.
func (s *Server) change(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case !s.opts.Edit:
			http.Error(w, "editing is off: start explore with -edit", http.StatusForbidden)
		case r.Header.Get("Origin") != "http://"+r.Host:
			http.Error(w, "a change must come from the page itself (Origin)", http.StatusForbidden)
		case r.Header.Get("Sec-Fetch-Site") != "" && r.Header.Get("Sec-Fetch-Site") != "same-origin":
			http.Error(w, "a change must come from the page itself (Sec-Fetch-Site)", http.StatusForbidden)
		case subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Explore-Token")), []byte(s.token)) != 1:
			http.Error(w, "a change needs the token of the address explore printed", http.StatusForbidden)
		case !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"):
			http.Error(w, "a change is sent as JSON", http.StatusUnsupportedMediaType)
		default:
			r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
			next(w, r)
		}
	}
}

func (s *Server) asset(name, contentType string) http.HandlerFunc {
	data, err := page.ReadFile("page/" + name)
	if err != nil {
		panic(err) // embedded
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write(data)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// Failure is the answer to a request that cannot be served.
type Failure struct {
	Error string `json:"error"`
	// Playable, for a line whose moves cannot all be played, are the
	// moves before the first that cannot (UCI, comma-separated; "" for
	// none): the page shows them with the error.
	Playable *string `json:"playable,omitempty"`
}

// fail answers a request that cannot be served, in JSON for the page.
func fail(w http.ResponseWriter, code int, err error) {
	out := Failure{Error: err.Error()}
	var line *lineError
	if errors.As(err, &line) {
		out.Playable = &line.Playable
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(out)
}

// BookInfo describes a book file of the page.
type BookInfo struct {
	Path    string `json:"path"`
	Format  string `json:"format"`
	Entries int    `json:"entries"`
	Size    string `json:"size"` // book.Book.Size: its entries, or what a CTG book holds
}

// ColumnInfo describes a column: its books, and the settings that choose
// among their moves.
type ColumnInfo struct {
	Name        string     `json:"name"`
	Note        string     `json:"note,omitempty"`
	Books       []BookInfo `json:"books"`
	BookFile    []string   `json:"book_file"`
	White       []string   `json:"book_file_white,omitempty"`
	Black       []string   `json:"book_file_black,omitempty"`
	Mode        string     `json:"mode"`
	Threshold   int        `json:"threshold"`
	Width       int        `json:"width"`
	MinWeight   int        `json:"min_weight"`
	LearnWeight bool       `json:"learn_weight"`
}

// Books is /api/books's answer.
type Books struct {
	Columns []ColumnInfo `json:"columns"`
	Edit    bool         `json:"edit"`
	Undo    []string     `json:"undo"` // what undo would take back, the last first
}

func (s *Server) handleBooks(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, s.booksInfo())
}

func (s *Server) booksInfo() Books {
	out := Books{Edit: s.opts.Edit, Undo: []string{}}
	for _, c := range s.opts.Columns {
		st := c.Settings
		ci := ColumnInfo{Name: c.Name, Note: c.Note, Books: []BookInfo{}, BookFile: st.BookFiles, White: st.BookFilesWhite, Black: st.BookFilesBlack,
			Mode: st.BookMode.String(), Threshold: st.BookThreshold, Width: st.BookWidth, MinWeight: st.BookMinWeight, LearnWeight: st.BookLearnWeight}
		for _, p := range st.BooksInUse() {
			ob := s.books[p]
			ob.refresh(s.opts.Warn)
			ci.Books = append(ci.Books, BookInfo{Path: p, Format: format(ob.b), Entries: ob.b.Len(), Size: ob.b.Size()})
		}
		out.Columns = append(out.Columns, ci)
	}
	for i := len(s.undo) - 1; i >= 0; i-- {
		out.Undo = append(out.Undo, s.undo[i].what)
	}
	return out
}

// format is the book's format as the page names it ("polyglot", "abk").
func format(b *book.Book) string { return formats.NameOf(b.Format()) }

// books are the open books of a list, refreshed.
func (s *Server) list(paths []string) []*book.Book {
	out := make([]*book.Book, 0, len(paths))
	for _, p := range paths {
		ob := s.books[p]
		ob.refresh(s.opts.Warn)
		out = append(out, ob.b)
	}
	return out
}

func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	p, err := parsePlace(r.URL.Query())
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, s.position(p))
}

// position is the answer for a place.
func (s *Server) position(p *place) Position {
	line := p.lineTo(p.ply)
	pos := &line.Pos
	out := Position{StartFEN: p.fen, Chess960: p.chess960, Ply: p.ply, FEN: pos.FEN(), White: pos.WhiteToMove(),
		Board: boardText(pos), Check: pos.InCheck(), Moves: []LineMove{}, Legal: []LegalMove{}}
	walk := *p.start
	for _, m := range p.moves {
		out.Moves = append(out.Moves, LineMove{UCI: m.String(), SAN: walk.Pos.SAN(m)})
		walk.Pos.Play(m)
	}
	for _, m := range pos.LegalMoves() {
		out.Legal = append(out.Legal, LegalMove{UCI: m.String(), From: m.From().String(), To: m.To().String(), SAN: pos.SAN(m)})
	}
	switch pos.Status() {
	case board.Checkmate:
		out.Status = "checkmate"
	case board.Stalemate:
		out.Status = "stalemate"
	case board.Playing:
	default:
		out.Status = "draw"
	}
	for i, c := range s.opts.Columns {
		out.Columns = append(out.Columns, s.column(c, p, pos))
		if i > 0 {
			compare(&out.Columns[0], &out.Columns[i], pos)
		}
	}
	return out
}

// shelf is the open books of a column's settings, refreshed.
func (s *Server) shelf(st *config.Config) *book.Shelf {
	return &book.Shelf{White: s.list(st.BooksFor(true)), Black: s.list(st.BooksFor(false))}
}

// column is one column at the position shown, pos, of the place p.
func (s *Server) column(c Column, p *place, pos *board.Position) ColumnView {
	shelf := s.shelf(c.Settings)
	cv := ColumnView{Name: c.Name, Report: probe.Report(shelf, p.start, p.moves[:p.ply], c.Settings), Missing: []LineMove{}, Extra: []EntryExtra{}, End: -1}
	shown := s.books[cv.Report.Book]
	cv.Format = format(shown.b)
	cv.Editable = s.opts.Edit && !(shown.b.NoChess960() && pos.Chess960())
	counter := book.NewChooser(book.Options{}, 1)
	for _, e := range cv.Report.Entries {
		var x EntryExtra
		m, _ := board.ParseMove(e.Move)
		if e.Legal {
			x.SAN = pos.SAN(m)
			x.Next = bookMoves(counter, shelf, pos.Next(m))
		}
		x.Facts = e.Facts
		cv.Extra = append(cv.Extra, x)
	}
	l := *p.start
	for ply := 0; ; ply++ {
		n := bookMoves(counter, shelf, &l.Pos)
		cv.Along = append(cv.Along, n)
		if n == 0 && cv.End < 0 {
			cv.End = ply
		}
		if ply == len(p.moves) {
			break
		}
		l.Pos.Play(p.moves[ply])
	}
	return cv
}

// compare marks the entries of column b against those of column a (the
// first), and lists a's legal moves b has not.
func compare(a, b *ColumnView, pos *board.Position) {
	byMove := map[string]probe.Entry{}
	for _, e := range a.Report.Entries {
		byMove[e.Move] = e
	}
	in := map[string]bool{}
	for i, e := range b.Report.Entries {
		in[e.Move] = true
		was, ok := byMove[e.Move]
		switch {
		case !ok:
			b.Extra[i].Change = "new"
		case was.Weight != e.Weight:
			b.Extra[i].Change = "weight"
		case was.Learn != e.Learn:
			b.Extra[i].Change = "learn"
		}
	}
	for i, e := range a.Report.Entries {
		if e.Legal && !in[e.Move] {
			b.Missing = append(b.Missing, LineMove{UCI: e.Move, SAN: a.Extra[i].SAN})
		}
	}
}

// boardText is the board from a8 to h1, a FEN letter or '.' a square.
func boardText(pos *board.Position) string {
	const letters = ".pPnNbBrRqQkK" // by board.Piece
	var b strings.Builder
	for row := 7; row >= 0; row-- {
		for file := 0; file < 8; file++ {
			b.WriteByte(letters[pos.Piece(board.NewSquare(file, row))])
		}
	}
	return b.String()
}

// EditRequest is a change asked for by the page.
type EditRequest struct {
	// The position, as /api/position's parameters, and the column whose
	// book (the one its report lists) is changed.
	FEN      string `json:"fen"`
	Moves    string `json:"moves"`
	Ply      *int   `json:"ply"`
	Chess960 bool   `json:"chess960"`
	Column   int    `json:"column"`
	// Op is "weight", "delete", "add" or "abk"; Move is UCI.
	Op     string `json:"op"`
	Move   string `json:"move"`
	Weight int    `json:"weight"`
	// An ABK move's fields, as the side that plays it sees them.
	Priority int   `json:"priority"`
	Games    int64 `json:"games"`
	Won      int64 `json:"won"`
	Lost     int64 `json:"lost"`
}

func (s *Server) handleEdit(w http.ResponseWriter, r *http.Request) {
	var req EditRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, fmt.Errorf("edit: %v", err))
		return
	}
	q := url.Values{"fen": {req.FEN}, "moves": {req.Moves}}
	if req.Ply != nil {
		q.Set("ply", fmt.Sprint(*req.Ply))
	}
	if req.Chess960 {
		q.Set("chess960", "1")
	}
	p, err := parsePlace(q)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	if req.Column < 0 || req.Column >= len(s.opts.Columns) {
		fail(w, http.StatusBadRequest, fmt.Errorf("column %d: there are %d", req.Column, len(s.opts.Columns)))
		return
	}
	pos := p.lineTo(p.ply).Pos
	m, err := pos.ReadMove(req.Move)
	if err != nil {
		fail(w, http.StatusBadRequest, fmt.Errorf("move %q: %v", req.Move, err))
		return
	}
	e := book.Edit{Pos: pos, Move: m}
	var what string
	san := pos.SAN(m)
	switch req.Op {
	case "weight":
		e.Kind, what = book.EditWeight, fmt.Sprintf("weight of %s set to %d", san, req.Weight)
	case "delete":
		e.Kind, what = book.EditDelete, "deletion of "+san
	case "add":
		e.Kind, what = book.EditAdd, "addition of "+san
	case "abk":
		e.Kind, what = book.EditFields, "statistics of "+san
	default:
		fail(w, http.StatusBadRequest, fmt.Errorf("op %q: want weight, delete, add or abk", req.Op))
		return
	}
	if req.Op == "weight" || req.Op == "add" {
		if req.Weight < 0 || req.Weight > 65535 {
			fail(w, http.StatusBadRequest, fmt.Errorf("weight %d: want 1 to 65535", req.Weight))
			return
		}
		e.Weight = uint16(req.Weight)
	}
	if req.Op == "abk" || req.Op == "add" {
		// A format with fields of its own reads them (an ABK move's, from
		// the view of the side that plays it); the others have none.
		e.Fields = map[string]int64{"priority": int64(req.Priority), "games": req.Games, "won": req.Won, "lost": req.Lost}
	}
	if !s.startChange(w, r) {
		return
	}
	defer s.endChange()
	s.mu.Lock()
	c := s.opts.Columns[req.Column]
	path := probe.Report(s.shelf(c.Settings), p.start, p.moves[:p.ply], c.Settings).Book
	ob := s.books[path]
	s.mu.Unlock()
	undo, err := s.write(r, ob, e)
	s.mu.Lock()
	defer s.mu.Unlock()
	ob.refresh(s.opts.Warn)
	if err != nil {
		fail(w, changeFailure(err), err)
		return
	}
	s.pushUndo(undoStep{path: path, edit: undo, what: what + " in " + path})
	writeJSON(w, s.position(p))
}

// lockWait is how long a change waits for a book's lock (another program
// writing it: a proxy learning, learn, another explorer) before the
// editor is told the book is busy.
const lockWait = 3 * time.Second

// errBusy is a change given up: the book, or the server, is busy with
// another.
var errBusy = errors.New("the book is busy")

// startChange waits for the changes before this one, as long as a
// change waits for a book's lock; false when it answered that the server
// is busy.
func (s *Server) startChange(w http.ResponseWriter, r *http.Request) bool {
	t := time.NewTimer(lockWait)
	defer t.Stop()
	select {
	case s.edits <- struct{}{}:
		return true
	case <-r.Context().Done():
	case <-t.C:
	}
	fail(w, http.StatusServiceUnavailable, fmt.Errorf("%w: another change is being made to the books; nothing was changed: try again", errBusy))
	return false
}

func (s *Server) endChange() { <-s.edits }

// write makes e in the book, waiting for its lock no longer than
// lockWait, with the server's lock free meanwhile.
func (s *Server) write(r *http.Request, ob *openBook, e book.Edit) (book.Edit, error) {
	ctx, cancel := context.WithTimeoutCause(r.Context(), lockWait, errBusy)
	defer cancel()
	ctx = filelock.OnWait(ctx, func() {
		s.opts.Warn(ob.path + ": waiting for its lock: another program is writing it")
	})
	undo, err := ob.edit.Edit(ctx, e)
	if errors.Is(err, errBusy) {
		err = fmt.Errorf("%w: another program holds its lock (a proxy learning into it, learn, another explorer's change); nothing was changed: try again", errBusy)
	}
	return undo, err
}

// changeFailure is the status of a change that failed: 409 for one the
// book as it is refuses (it changed on disk: the page shows it anew),
// 503 for a busy book.
func changeFailure(err error) int {
	switch {
	case errors.Is(err, book.ErrEdit), errors.Is(err, book.ErrBookChanged):
		return http.StatusConflict
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

func (s *Server) pushUndo(u undoStep) {
	if len(s.undo) == maxUndo {
		s.undo = slices.Delete(s.undo, 0, 1)
	}
	s.undo = append(s.undo, u)
}

// UndoRequest asks to take back the last change, and for the position to
// show after it.
type UndoRequest struct {
	FEN      string `json:"fen"`
	Moves    string `json:"moves"`
	Ply      *int   `json:"ply"`
	Chess960 bool   `json:"chess960"`
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request) {
	var req UndoRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil && !errors.Is(err, io.EOF) {
		fail(w, http.StatusBadRequest, fmt.Errorf("undo: %v", err))
		return
	}
	q := url.Values{"fen": {req.FEN}, "moves": {req.Moves}}
	if req.Ply != nil {
		q.Set("ply", fmt.Sprint(*req.Ply))
	}
	if req.Chess960 {
		q.Set("chess960", "1")
	}
	p, err := parsePlace(q)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	if !s.startChange(w, r) {
		return
	}
	defer s.endChange()
	s.mu.Lock()
	if len(s.undo) == 0 {
		s.mu.Unlock()
		fail(w, http.StatusConflict, errors.New("nothing to undo"))
		return
	}
	last := s.undo[len(s.undo)-1]
	ob := s.books[last.path]
	ob.refresh(s.opts.Warn) // undone in the book as it is now, as an edit is made
	s.mu.Unlock()
	_, err = s.write(r, ob, last.edit)
	s.mu.Lock()
	defer s.mu.Unlock()
	ob.refresh(s.opts.Warn)
	if errors.Is(err, book.ErrEdit) {
		// The book no longer holds what the change made (another program
		// changed it since): the step is dropped, so that the changes
		// before it can still be undone.
		s.undo = s.undo[:len(s.undo)-1]
		err = fmt.Errorf("%w; it is dropped (%d earlier change(s) can still be undone)", err, len(s.undo))
	}
	if err != nil {
		fail(w, changeFailure(err), fmt.Errorf("undo the %s: %w", last.what, err))
		return
	}
	s.undo = s.undo[:len(s.undo)-1]
	writeJSON(w, s.position(p))
}
