package core

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
)

// The seam between the core and a front: what the core hands a front
// (Front, its events, Out), as the commands (commands.go) are what the
// front hands the core. The core is protocol-neutral underneath its UCI
// vocabulary: its limits are uci.Go's, its moves UCI's; a front turns them
// into the GUI's protocol.

// Front speaks the GUI's protocol over the core. The core calls it on its
// loop's goroutine, one call at a time: with the GUI's lines, and with its
// events, which the front turns into the GUI's protocol on its Out. A front
// may give the core commands while it handles an event, but must leave
// searching (Go) to Settled.
type Front interface {
	// GUILine is one line the GUI sent, without its end.
	GUILine(line string)
	// GUIGone: the GUI's input ended (closed, or unreadable); the front
	// quits in its turn.
	GUIGone()
	// BestMove answers a Go: one for each, in the order of the Gos.
	BestMove(BestMove)
	// ReadyOK answers an IsReady, in its turn.
	ReadyOK()
	// Info is a run of the engine's info lines, each ending in '\n', as
	// the engine wrote them (less a '\r' before the end); valid during the
	// call only.
	Info(run []byte)
	// Text is a run of the engine's lines that are not UCI (its answer to
	// a command of the user's: go perft, d, eval; "Unknown command"), as
	// Info's run is.
	Text(run []byte)
	// Notice is something polyproxy tells the GUI (a book it cannot open,
	// a position it cannot follow, the engine's death).
	Notice(msg string)
	// Fatal: the run ends for why (the engine cannot be started, or ended
	// in its handshake). The front tells the GUI at once, in its
	// protocol, whether it listens yet or not: unheard are the notices
	// held for it until it listened, which it now never will.
	Fatal(unheard []string, why string)
	// Described answers Describe, in its turn: what the GUI is told of
	// the engine (our options are the settings': Settings().Options).
	Described(Description)
	// Settled: the core has handled an event, and its state is settled;
	// the front may go on with what it left for then.
	Settled()
}

// BestMove is the answer to a search: the engine's, or ours (a book move,
// or no move).
type BestMove struct {
	// Move and Ponder are the moves in UCI form as given (Chess960
	// castling as king takes rook); IsNull: none (the engine had no move,
	// or gave none that reads as a move).
	Move, Ponder board.Move
	// Raw is the engine's line as it wrote it, for a front that relays it
	// (valid during the call only); nil for ours.
	Raw []byte
	// Book is set when the book answered.
	Book *BookChoice
	// Why says why there is no move, when there is something to say (a
	// position that cannot be played).
	Why string
}

// BookChoice is what the book's answer was chosen from.
type BookChoice struct {
	Weight uint64
	Chance float64 // how likely the decision was to play it, 0 to 1
	Share  float64 // of the position's weight, 0 to 1
	File   string  // the book's file name, without its directory
}

// AppendBookNote appends the book's answer in words, as the GUI is told
// it: "book move e2e4 (weight 300, chance 80.0%, share 75.0%, book.bin)".
func (b *BestMove) AppendBookNote(dst []byte) []byte {
	dst = b.Move.AppendTo(append(dst, "book move "...))
	dst = strconv.AppendUint(append(dst, " (weight "...), b.Book.Weight, 10)
	dst = book.AppendPercent(append(dst, ", chance "...), b.Book.Chance)
	dst = book.AppendPercent(append(dst, ", share "...), b.Book.Share)
	return append(append(append(dst, ", "...), b.Book.File...), ')')
}

// AppendUCI appends the answer as a UCI bestmove line: the engine's as it
// wrote it.
func (b *BestMove) AppendUCI(dst []byte) []byte {
	if b.Raw != nil {
		return append(dst, b.Raw...)
	}
	if b.Move.IsNull() {
		return append(dst, "bestmove 0000"...)
	}
	dst = b.Move.AppendTo(append(dst, "bestmove "...))
	if !b.Ponder.IsNull() {
		dst = b.Ponder.AppendTo(append(dst, " ponder "...))
	}
	return dst
}

// Description is what the GUI is told of the engine and of the options it
// may set.
type Description struct {
	Name string // the engine's id name ("": it gave none)
	// IDLines are the engine's other id lines (its author), as it wrote
	// them.
	IDLines []string
	// Options are the engine's options, in its order.
	Options []Option
}

// Option is an option the GUI may set: the engine's, or ours ("Polyglot
// ..."). An engine's option that cannot be read is shown as it is to a UCI
// GUI (Line) and to no other.
type Option struct {
	uci.Option        // as announced: an engine's with its configured value as the default
	Line       string // as a UCI GUI is shown it
	Ours       bool
	Readable   bool // Option is read from the line
}

// Out is the GUI's output: a front writes its lines here, the core logs
// them (when the log is on) and flushes them after each event.
type Out struct {
	w   *uci.Writer
	log *logfile.Log
}

// Line writes one line.
func (o *Out) Line(s string) {
	if o.log.On() {
		o.log.Traffic(">gui", s)
	}
	o.w.WriteLine(s)
}

// LineBytes writes one line.
func (o *Out) LineBytes(b []byte) {
	if o.log.On() {
		o.log.Traffic(">gui", string(b))
	}
	o.w.WriteLineBytes(b)
}

// Lines writes a run of whole lines, each ending in '\n', with one copy.
func (o *Out) Lines(run []byte) {
	if o.log.On() {
		EachLine(run, func(l []byte) { o.log.Traffic(">gui", string(l)) })
	}
	o.w.WriteLinesRaw(run)
}

// EachLine calls f with each line of a run of whole lines (Info, Text),
// without its end.
func EachLine(run []byte, f func(line []byte)) {
	for len(run) > 0 {
		nl := bytes.IndexByte(run, '\n')
		f(run[:nl])
		run = run[nl+1:]
	}
}

// onGUILine handles one line from the GUI: its front reads it.
func (c *Core) onGUILine(line string) {
	if c.log.On() {
		c.log.Traffic("gui>", line)
	}
	c.front.GUILine(line)
}

// notice tells the GUI msg, through its front, once it listens (Listening):
// what comes before waits until then.
func (c *Core) notice(msg string) {
	if !c.listening {
		c.notices = append(c.notices, msg)
		return
	}
	c.front.Notice(msg)
}

// Listening tells that the GUI takes the front's notices from now on (a
// UCI GUI once it has its uciok, a CECP GUI at once): those told before go
// to it now, in order.
func (c *Core) Listening() {
	if c.listening {
		return
	}
	c.listening = true
	for _, n := range c.notices {
		c.front.Notice(n)
	}
	c.notices = nil
}

// Tell tells the GUI msg (a notice of the front's own), in its turn among
// the core's: once the GUI listens.
func (c *Core) Tell(msg string) { c.notice(msg) }

// notify reports a problem everywhere: stderr, log and the GUI.
func (c *Core) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("%s", msg)
	c.notice(msg)
}

// fatalf reports why polyproxy ends: stderr, log and the GUI, which is
// told at once with what it had not heard yet.
func (c *Core) fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("fatal: %s", msg)
	unheard := c.notices
	c.notices = nil
	c.front.Fatal(unheard, msg)
}

// engineCommandSet says where the user set the engine's command, for a
// message that tells what to fix: ", set at /home/me/sf.ini:2".
func (c *Core) engineCommandSet() string {
	if where := c.settings.Origin("EngineCommand"); where != "" {
		return ", set " + where
	}
	return ""
}

// Description is what the GUI is told of the engine: its options
// announced with the values the configuration gives them as their
// defaults. (Ours are the configuration's: Settings().Options.)
func (c *Core) Description() Description {
	d := Description{Name: c.engine.Name()}
	for _, h := range c.engine.Header() {
		switch {
		case h.IsName:
		case !h.IsOption:
			d.IDLines = append(d.IDLines, h.Line)
		default:
			d.Options = append(d.Options, Option{Option: h.Option, Line: h.Line, Readable: h.Readable})
		}
	}
	return d
}

// deliver hands one of our answers to the front, in its turn.
func (c *Core) deliver(ans answer) {
	if ans.observe != nil {
		ans.observe() // before the front moves the game on with it
	}
	c.front.BestMove(ans.bm)
	c.answeredGUI()
}

// answer is one of our answers to a go, and the learning calls that go
// with it.
type answer struct {
	bm      BestMove
	observe func()
}
