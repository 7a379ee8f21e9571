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
// cannot be kept running (an error, already reported on stderr).
func Run(cfg *config.Config, opts core.Options, stdin io.Reader, stdout io.Writer) error {
	c := core.New(cfg, opts)
	return c.Run(stdin, stdout, NewFront(c))
}

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
}

func (ch *chooser) GUILine(line string) {
	if ch.chosen == nil {
		word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if word == "" {
			return
		}
		if word == "xboard" || word == "protover" {
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
