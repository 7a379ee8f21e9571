package proxy

import (
	"bufio"
	"io"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/proxy/cecpfront"
	"github.com/polyproxy/polyproxy/proxy/ucifront"
)

// Refuse tells a GUI why polyproxy cannot run (a missing ini or engine,
// a bad ini), in the protocol of its first line, as the chooser reads it:
// a GUI shows an engine's words, where a dead engine alone shows nothing.
// notices come first (a key the ini mistyped), then why. It waits at most
// wait for that line, so that a GUI that never speaks does not keep
// polyproxy; a wait of 0 tells nothing (stdin is a terminal: the user
// has read stderr). Nothing is written when the input ends first.
func Refuse(stdin io.Reader, stdout io.Writer, notices []string, why string, wait time.Duration) error {
	if stdin == nil || wait <= 0 {
		return nil
	}
	first := make(chan string, 1)
	// The reader is left behind when the wait runs out: polyproxy exits.
	go func() { first <- firstWord(stdin) }()
	var word string
	select {
	case word = <-first:
	case <-time.After(wait):
		return nil
	}
	var lines []string
	switch {
	case word == "":
		return nil
	case speaksCECP(word):
		lines = cecpfront.Refusal(notices, why)
	default:
		lines = ucifront.Refusal(notices, why)
	}
	_, err := io.WriteString(stdout, strings.Join(lines, "\n")+"\n")
	return err
}

// firstWord is the first word of the first line that has one, "" when
// the input ends before.
func firstWord(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if word := firstWordOf(sc.Text()); word != "" {
			return word
		}
	}
	return ""
}
