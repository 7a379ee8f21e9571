package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/plainerr"
)

var exploreCommand = command{
	name: "explore", summary: "serve a local page to look at books side by side (and, with -edit, change them)",
	usage: `usage: polyproxy explore [-addr HOST:PORT] [-edit] [probe's book flags: -book FILES -threshold N ...] BOOK... | polyglot.ini
Serves a page that shows the books' moves at any position, as the proxy weighs them, side by side
(a column each BOOK, and one for -book with -book-white and -book-black), and prints its address as
the first line on standard output. Given an ini, it shows the books and settings the proxy would
use. Stop it with Ctrl-C.
`,
	operands: "BOOK... | polyglot.ini",
	new:      func() options { return &exploreOptions{} },
}

// exploreOptions are explore's command line, checked before any book is read.
type exploreOptions struct {
	addr   string
	public bool // addr is not on the loopback interface
	edit   bool
	ini    string   // the one argument, an ini
	books  []string // the arguments, a column each
	// settings are the book flags probe takes (-book, -threshold, ...):
	// the columns' rules, and with -book a column of their own.
	settings *config.Config
}

// defaultExploreAddr is where explore listens without -addr: a free port
// on the loopback interface, which no other machine reaches.
const defaultExploreAddr = "127.0.0.1:0"

func (o *exploreOptions) define(fs *flag.FlagSet) {
	o.settings = config.Default("")
	o.settings.BookFiles = nil // only the books given
	fs.StringVar(&o.addr, "addr", defaultExploreAddr, "`HOST:PORT` to listen on; an address other machines reach lets anyone there read the books (and with -edit change them)")
	fs.BoolVar(&o.edit, "edit", false, "allow changes to the books from the page (weights, ABK priorities and statistics, moves deleted and added, undo), under learning's lock")
	o.settings.ToolFlags(fs)
}

func (o *exploreOptions) validate(cl *commandLine) error {
	flagged := false
	cl.fs.Visit(func(f *flag.Flag) { flagged = flagged || f.Name != "addr" && f.Name != "edit" })
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return usageErrorf("-addr %s: want HOST:PORT, such as 127.0.0.1:8080 (port 0: any free port)", o.addr)
	}
	o.public = !loopback(host)
	args := cl.operands()
	st := o.settings
	ini := len(args) > 0 && isIni(args[0])
	switch {
	case len(args) == 0 && len(st.BooksInUse()) == 0:
		return usageErrorf("name the books to show, or a polyglot.ini")
	case ini && len(args) > 1:
		return usageErrorf("an ini comes alone: %q follows it", args[1])
	case ini && flagged:
		return usageErrorf("the books and their settings come from the ini: leave out the book flags")
	case ini:
		o.ini = args[0]
	case len(st.BookFiles) == 0 && (len(st.BookFilesWhite) == 0) != (len(st.BookFilesBlack) == 0):
		return usageErrorf("-book-white or -book-black alone leaves the other side without a book: give -book too")
	default:
		for _, a := range args {
			if isIni(a) {
				return usageErrorf("an ini comes alone, not among books: %q", a)
			}
		}
		o.books = args
	}
	return nil
}

func (o *exploreOptions) files() (inputs, outputs []fileArg) { return nil, nil }

// run serves the page until a stop signal: explore ends by itself there
// (the change under way is finished), not through the tools' handler,
// which would leave it mid-change.
func (o *exploreOptions) run(e *env) error {
	e.stop.release()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return serveExplore(ctx, o, e.stdout, e.stderr)
}

// isIni tells whether an argument is an ini rather than a book: by its
// name (.ini), or else by its text, so that polyglot.ini.example or an
// ini saved under another name is read as one, not as a book of nonsense
// moves. A file that cannot be read is left to be told as a book.
func isIni(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".ini") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16<<10)
	n, _ := io.ReadFull(f, head)
	return iniText(head[:n])
}

// iniText tells whether a file's first bytes are an ini's: its first line
// that is not blank or a comment (; or #) is a section header such as
// [PolyGlot] (a PGN file's first line, a tag pair such as [Event "x"],
// has quotes), and no NUL byte comes before it (a book's binary data has
// NULs long before such a line).
func iniText(head []byte) bool {
	rest := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // the BOM Windows editors write
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if bytes.IndexByte(line, 0) >= 0 {
			return false
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == ';' || line[0] == '#' {
			continue
		}
		return len(line) > 2 && line[0] == '[' && line[len(line)-1] == ']' && bytes.IndexByte(line, '"') < 0
	}
	return false
}

// loopback reports a host only this machine reaches.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// columns are the page's columns: one for -book's lists, one a book
// argument (with the flags' rules), or the proxy's books from the ini.
func (o *exploreOptions) columns() ([]explore.Column, []string, error) {
	if o.ini == "" {
		var cols []explore.Column
		if lists := o.settings.BooksInUse(); len(lists) > 0 {
			cols = append(cols, explore.Column{Name: strings.Join(lists, config.BookFileSeparator), Settings: o.settings})
		}
		for _, p := range o.books {
			st := o.settings.Clone()
			st.BookFiles, st.BookFilesWhite, st.BookFilesBlack = []string{p}, nil, nil
			cols = append(cols, explore.Column{Name: columnName(p, o.books), Settings: st})
		}
		return cols, nil, nil
	}
	cfg, err := config.Load([]string{o.ini})
	if err != nil {
		return nil, nil, err
	}
	c := explore.Column{Name: filepath.Base(o.ini), Settings: cfg}
	if !cfg.Book {
		c.Note = "Book=false: the proxy plays no book move with this ini"
	}
	return []explore.Column{c}, cfg.Warnings, nil
}

// columnName is a book's base name, or its path where another book shown
// has the same base name (a book before and after a tournament).
func columnName(path string, all []string) string {
	base := filepath.Base(path)
	for _, p := range all {
		if p != path && filepath.Base(p) == base {
			return path
		}
	}
	return base
}

// serveExplore serves the page until ctx ends.
func serveExplore(ctx context.Context, o *exploreOptions, stdout, stderr io.Writer) error {
	cols, warnings, err := o.columns()
	if err != nil {
		return err
	}
	for _, w := range warnings {
		warnf(stderr, "explore", "%s", w)
	}
	srv, err := explore.New(explore.Options{Columns: cols, Edit: o.edit, Warn: func(w string) { warnf(stderr, "explore", "%s", w) }})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		why := err
		if oe := (*net.OpError)(nil); errors.As(err, &oe) {
			why = oe.Err // without Go's "listen tcp"
		}
		return fmt.Errorf("-addr %s: cannot listen there: %s", o.addr, plainerr.Text(why))
	}
	addr := ln.Addr().String()
	if o.public {
		what := "read the books"
		if o.edit {
			what = "read and change the books"
		}
		warnf(stderr, "explore", "listening on %s: anyone who can reach this machine's port can %s", addr, what)
	}
	shown := addr
	if host, port, _ := net.SplitHostPort(addr); net.ParseIP(host).IsUnspecified() {
		shown = net.JoinHostPort("127.0.0.1", port)
	}
	named, _, _ := net.SplitHostPort(o.addr)
	hs := &http.Server{Handler: srv.Handler(addr, named), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(stdout, srv.Address(shown))
	fmt.Fprintln(stderr, "explore: serving the page; stop with Ctrl-C")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
