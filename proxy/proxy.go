// Package proxy runs polyproxy as the GUI's engine: the core (proxy/core)
// between the GUI and the real engine, with the front for the GUI's
// protocol, chosen from its first command as PolyGlot chooses: "xboard"
// or "protover" for CECP (proxy/cecpfront), anything else for UCI
// (proxy/ucifront).
package proxy

import (
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/cecpfront"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/ucifront"
)

// Run runs the proxy for cfg between the GUI (stdin, stdout) and the
// engine until the GUI quits or goes away (nil), or until the engine
// cannot be kept running (an error, already reported on stderr). A run
// that ends before the GUI has said a word (the engine could not be
// started) ends with a *NotTold: the caller tells the GUI (Refuse).
func Run(cfg *config.Config, opts core.Options, stdin io.Reader, stdout io.Writer) error {
	c := core.New(cfg, opts)
	ch := &chooser{c: c}
	err := c.Run(stdin, stdout, ch)
	if ch.notTold != nil && err != nil {
		ch.notTold.Err = err
		return ch.notTold
	}
	return err
}

// NotTold is a run that ended before the GUI had spoken, so that it
// could not be told why in its protocol: Notices and Why are what it is
// to be told (Refuse). Err is the run's error, already reported on stderr.
type NotTold struct {
	Notices []string
	Why     string
	Err     error
}

func (e *NotTold) Error() string { return e.Err.Error() }
func (e *NotTold) Unwrap() error { return e.Err }

// NewFront is the front of a run of c whose GUI has not spoken yet: its
// first line that says anything chooses the protocol, and the front for
// it then has every line and event.
func NewFront(c *core.Core) core.Front { return &chooser{c: c} }

// chooser is the front until the GUI's first command says which protocol
// it speaks, then the front chosen.
type chooser struct {
	c      *core.Core
	chosen core.Front
	// early relays what the engine says before the GUI has spoken, as
	// the engine alone would print it.
	early *ucifront.Front
	// notTold is a fatal end met before the GUI spoke.
	notTold *NotTold
}

// firstWordOf is line's first word ("": none).
func firstWordOf(line string) string {
	word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return word
}

// speaksCECP tells whether a GUI whose first word is word speaks CECP.
func speaksCECP(word string) bool { return word == "xboard" || word == "protover" }

func (ch *chooser) GUILine(line string) {
	if ch.chosen == nil {
		word := firstWordOf(line)
		if word == "" {
			return
		}
		if speaksCECP(word) {
			ch.c.Logf("the GUI speaks CECP (xboard): the CECP front translates")
			ch.chosen = cecpfront.New(ch.c)
		} else {
			ch.chosen = ucifront.New(ch.c)
		}
	}
	ch.chosen.GUILine(line)
}

func (ch *chooser) GUIGone() {
	if ch.chosen == nil {
		ch.c.Quit() // a GUI that never spoke
		return
	}
	ch.chosen.GUIGone()
}

// Notice goes to the front chosen: the core holds notices until the GUI
// listens, which it does only once it has spoken.
func (ch *chooser) Notice(msg string) { ch.front().Notice(msg) }

// Fatal goes to the front chosen; before the GUI has spoken, it waits
// for Run's caller, who waits for the GUI's first word (Refuse).
func (ch *chooser) Fatal(unheard []string, why string) {
	if ch.chosen == nil {
		ch.notTold = &NotTold{Notices: unheard, Why: why}
		return
	}
	ch.chosen.Fatal(unheard, why)
}

func (ch *chooser) BestMove(b core.BestMove)     { ch.front().BestMove(b) }
func (ch *chooser) ReadyOK()                     { ch.front().ReadyOK() }
func (ch *chooser) Info(run []byte)              { ch.front().Info(run) }
func (ch *chooser) Text(run []byte)              { ch.front().Text(run) }
func (ch *chooser) Described(d core.Description) { ch.front().Described(d) }

// front is the front chosen, or what relays the engine's lines before.
func (ch *chooser) front() core.Front {
	if ch.chosen != nil {
		return ch.chosen
	}
	if ch.early == nil {
		ch.early = ucifront.New(ch.c)
	}
	return ch.early
}

func (ch *chooser) Settled() {
	if ch.chosen != nil {
		ch.chosen.Settled()
	}
}
