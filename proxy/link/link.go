// Package link is the proxy's engine link: the running UCI engine and
// what the proxy knows of it. It holds the engine's handshake and what it
// announced there (its name, id lines, options), fits the configured
// options to them, keeps the GUI's options for an engine restarted after
// a death and says what a death means (Judge), runs the searches of the
// proxy's own (warm.go), follows the modes the engine was set to (Modes)
// and reads its bestmove (ParseBestMove). It writes to the engine itself;
// what it decides it returns, and the proxy's core acts on it.
package link

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
)

// Engine is a running engine as the link needs it; *uci.Process is one,
// tests use in-process fakes.
type Engine interface {
	WriteLine(string) error
	Stdout() io.Reader
	Exited() <-chan struct{}
	// Quit asks the engine to leave, waits up to grace, then kills it (and
	// whatever it started); it returns when the engine is gone.
	Quit(grace time.Duration)
	Kill()
	// ExitErr is how the engine ended (nil: exit status 0); only called
	// once Exited is closed.
	ExitErr() error
}

// Link is the running engine and what we know of it: its handshake and
// what it announced there, and what must survive a restart (the GUI's
// options, when it last died, the positions that killed it). One
// goroutine uses it: the proxy's loop.
type Link struct {
	eng Engine
	log *logfile.Log

	handshaking bool      // "uci" sent, uciok not yet received
	everReady   bool      // a handshake has completed once: a death from now on is restarted
	lastDeath   time.Time // a second death within RestartWindow of it is fatal

	position string      // the last position line it was sent ("": none since its start or ucinewgame)
	header   []Announced // the engine's id and option lines, for the GUI's uci
	name     string      // its id name
	options  []uci.Option
	// configured are the configured options ([Engine], -uci) as sent to
	// it: its spelling, values fitted to its ranges.
	configured []config.Option
	// guiSetOptions are the engine options the GUI set, replayed after a
	// restart; the latest value of each wins.
	guiSetOptions []uci.SetOption
	modes         Modes
	// poisons are when positions killed it twice, within RestartWindow.
	poisons []time.Time
	warm    warmSearch
	// diedWarm: the last death was in a warm search. A search of the
	// GUI's issued again after it is then not yet known to kill the
	// engine: its next death counts as a first one.
	diedWarm bool
}

// New is the link of a run, logging to log; no engine runs until Start.
func New(log *logfile.Log) *Link { return &Link{log: log} }

// RestartWindow: a second engine death within it ends polyproxy.
const RestartWindow = time.Minute

// MaxPoisons is how many positions may kill the engine within
// RestartWindow before polyproxy gives up on it.
const MaxPoisons = 3

// Start takes a new engine as the running one and begins its handshake
// ("uci"): what the engine says until HandshakeDone is its header. The
// warm searches of an engine that is gone are forgotten: a new engine
// owes none.
func (l *Link) Start(eng Engine) error {
	l.eng = eng
	l.handshaking = true
	l.header = l.header[:0]
	l.options = l.options[:0]
	l.name = "" // an engine that sends no id name has none
	l.position = ""
	l.warm = warmSearch{killers: l.warm.killers}
	return l.Send("uci")
}

// ErrStalled is returned by Send when the engine has stopped reading its
// input: as good as dead, it has been ended, and the end of its output is
// its death.
var ErrStalled error = stalledError{}

// stalledError is ErrStalled: its message is formatted when it is read,
// so that nothing is formatted at start-up.
type stalledError struct{}

func (stalledError) Error() string {
	return fmt.Sprintf("the engine has not read its input for %v: ending it", uci.WriteTimeout)
}

// Send sends one line to the engine. A warm search ends first unless the
// line is an isready (warm.go). An error other than ErrStalled is only
// worth the log: the engine's death shows in its output.
func (l *Link) Send(line string) error {
	if l.warm.running && line != "isready" {
		if err := l.StopWarm(); errors.Is(err, ErrStalled) {
			return err
		}
	}
	if l.log.On() {
		l.log.Traffic(">engine", line)
	}
	err := l.eng.WriteLine(line)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		l.eng.Kill()
		return ErrStalled
	}
	return err
}

// SendPosition sends a position line, and notes it as the engine's
// position.
func (l *Link) SendPosition(line string) error {
	l.position = line
	return l.Send(line)
}

// Position is the last position line the engine was sent ("": none since
// its start or its last new game).
func (l *Link) Position() string { return l.position }

// NewGame sends ucinewgame: an engine may forget its position.
func (l *Link) NewGame() error {
	l.position = ""
	return l.Send("ucinewgame")
}

// Kill ends the engine (and whatever it started) at once.
func (l *Link) Kill() { l.eng.Kill() }

// Quit asks the engine to leave, and kills it after grace.
func (l *Link) Quit(grace time.Duration) { l.eng.Quit(grace) }

// Handshaking reports that the engine was sent "uci" and has not yet
// answered uciok.
func (l *Link) Handshaking() bool { return l.handshaking }

// EverReady reports that an engine has finished its handshake once.
func (l *Link) EverReady() bool { return l.everReady }

// Announced is an id or option line of the engine's handshake, as it
// wrote it and as read.
type Announced struct {
	Line     string
	IsOption bool
	Option   uci.Option // IsOption and Readable: the option read
	Readable bool
	IsName   bool // an id name line
}

// HeaderLine keeps an id or option line (option: an option line) of the
// handshake; an option line it cannot read is kept for the GUI but
// returned as an error.
func (l *Link) HeaderLine(line string, option bool) error {
	h := Announced{Line: line, IsOption: option}
	var err error
	if option {
		var o uci.Option
		if o, err = uci.ParseOption(line); err == nil {
			h.Option, h.Readable = o, true
			l.options = append(l.options, o)
		}
	} else if id, idErr := uci.ParseID(line); idErr == nil && id.Key == "name" {
		h.IsName, l.name = true, id.Value
	}
	l.header = append(l.header, h)
	return err
}

// HandshakeDone ends the handshake; restart tells whether an earlier
// engine had finished one (so this one replaces it).
func (l *Link) HandshakeDone() (restart bool) {
	l.handshaking = false
	restart = l.everReady
	l.everReady = true
	return restart
}

// Name is the engine's id name ("": it gave none).
func (l *Link) Name() string { return l.name }

// Header is the engine's id and option lines, in its order, each option
// with the value the configuration gives it as its default
// (WithConfiguredDefault).
func (l *Link) Header() []Announced {
	out := make([]Announced, len(l.header))
	for i, h := range l.header {
		if h.IsOption && h.Readable {
			h.Option, h.Line = WithConfiguredDefault(h.Option, h.Line, l.configured)
		}
		out[i] = h
	}
	return out
}

// Option is the option the engine announced under name, in any case, as
// it announced it.
func (l *Link) Option(name string) (uci.Option, bool) {
	for _, o := range l.options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return uci.Option{}, false
}

// Configure sends the configured engine options ([Engine], -uci) that the
// engine announced, in its spelling and fitted to its range (FitOption),
// and keeps what was sent: the GUI is shown those values as the options'
// defaults. It returns what the user is to be told of the others.
func (l *Link) Configure(options []config.Option) (notices []string, err error) {
	l.configured = l.configured[:0]
	for _, set := range options {
		o, ok := l.Option(set.Name)
		if !ok {
			notices = append(notices, fmt.Sprintf("[Engine] option %q is not an option of the engine: not sent", set.Name))
			continue
		}
		v, warning, ok := FitOption(o, set.Value)
		if warning != "" {
			notices = append(notices, fmt.Sprintf("[Engine] option %s: %s", o.Name, warning))
		}
		if !ok {
			continue
		}
		if err := l.Send(uci.SetOption{Name: o.Name, Value: v, HasValue: true}.String()); err != nil {
			return notices, err
		}
		l.configured = append(l.configured, config.Option{Name: o.Name, Value: v})
		l.modes.note(o.Name, v)
	}
	return notices, nil
}

// SetOption sends an engine option the GUI set, and keeps it for a
// restart. Settings are kept, actions are not: a button (Clear Hash, or
// one that writes a file or crashes the engine) was pressed for the engine
// it was sent to, and pressing it again on a new one repeats the action.
// An option the engine never announced counts as a button when it comes
// without a value, as a button does.
func (l *Link) SetOption(o uci.SetOption) error {
	err := l.Send(o.String())
	l.modes.note(o.Name, o.Value)
	if announced, ok := l.Option(o.Name); ok && strings.EqualFold(announced.Type, "button") || !ok && !o.HasValue {
		return err
	}
	kept := l.guiSetOptions[:0]
	for _, old := range l.guiSetOptions {
		if !strings.EqualFold(old.Name, o.Name) {
			kept = append(kept, old)
		}
	}
	l.guiSetOptions = append(kept, o)
	return err
}

// Resume gives a restarted engine the options the GUI set, and a new
// game.
func (l *Link) Resume() error {
	for _, o := range l.guiSetOptions {
		if err := l.Send(o.String()); err != nil {
			return err
		}
	}
	return l.NewGame()
}

// Modes are the engine options the proxy follows however they are set
// (setoption, [Engine], -uci).
type Modes struct {
	// Chess960 is UCI_Chess960: positions are read, and book moves
	// answered, in Chess960's notation (castling as king takes own rook).
	Chess960 bool
	// Analyse is UCI_AnalyseMode: the GUI analyses (python-chess sets it
	// for analyse()), and the book is off.
	Analyse bool
}

// Modes are the modes the engine was set to.
func (l *Link) Modes() Modes { return l.modes }

// note follows option name being set to value.
func (m *Modes) note(name, value string) {
	on, err := config.ParseBool(value)
	switch {
	case err != nil:
	case strings.EqualFold(name, "UCI_Chess960"):
		m.Chess960 = on
	case strings.EqualFold(name, "UCI_AnalyseMode"):
		m.Analyse = on
	}
}

// Death is what an engine's death means for the run.
type Death int

const (
	Restart      Death = iota // restart it
	Poison                    // it died again in the search issued again after a restart: that position kills it
	InHandshake               // fatal: it never finished a handshake (not a UCI engine?)
	Again                     // fatal: the second within RestartWindow, or a restarted engine died at start
	TooOften                  // fatal: MaxPoisons positions killed it within RestartWindow
	InWarmSearch              // it died in a warm search: restart it, and the death does not count
)

// DiedWarm reports that the last death was in a warm search.
func (l *Link) DiedWarm() bool { return l.diedWarm }

// Ended is called once the engine's output has closed: it makes sure the
// engine and whatever it started are gone, and says how it ended.
func (l *Link) Ended() (status string) {
	select {
	case <-l.eng.Exited():
	case <-time.After(200 * time.Millisecond):
		l.eng.Kill()
		<-l.eng.Exited()
	}
	status = "exit status 0"
	if err := l.eng.ExitErr(); err != nil {
		status = err.Error()
	}
	l.eng.Kill() // whatever it left behind in its group
	return status
}

// Judge says what a death now means. inResumedSearch tells that the
// engine died in the search issued to it again after a restart: the
// second death on one position, which the position explains. A death in
// a search of our own (a warm search) is never fatal, and not counted.
func (l *Link) Judge(inResumedSearch bool) Death {
	now := time.Now()
	l.diedWarm = l.warm.owed > 0 && l.everReady && !l.handshaking
	switch {
	case l.diedWarm:
		l.warm.killers = append(l.warm.killers, l.warm.line)
		return InWarmSearch
	case !l.everReady:
		return InHandshake
	case l.handshaking:
		return Again
	case inResumedSearch:
		recent := l.poisons[:0]
		for _, t := range l.poisons {
			if now.Sub(t) < RestartWindow {
				recent = append(recent, t)
			}
		}
		l.poisons = append(recent, now)
		if len(l.poisons) >= MaxPoisons {
			return TooOften
		}
		l.lastDeath = time.Time{}
		return Poison
	case !l.lastDeath.IsZero() && now.Sub(l.lastDeath) < RestartWindow:
		return Again
	}
	l.lastDeath = now
	return Restart
}
