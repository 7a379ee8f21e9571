package uci

import "fmt"

// field is one whitespace-separated token and where it ends in the line, so
// free-text values (option names, strings, paths) can be taken raw.
type field struct {
	s          string
	start, end int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// fields splits a line at runs of spaces, tabs and stray carriage returns.
func fields(line string) []field {
	out := make([]field, 0, 8)
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		for i < len(line) && !isSpace(line[i]) {
			i++
		}
		out = append(out, field{line[start:i], start, i})
	}
	return out
}

// rawBetween is the text of line from field a to field b-1, inner spacing
// kept (file names may contain double spaces).
func rawBetween(line string, fs []field, a, b int) string {
	if a >= b {
		return ""
	}
	return line[fs[a].start:fs[b-1].end]
}

// ProtocolError is a line that could not be understood, with the line for
// context (as net/textproto does).
type ProtocolError struct {
	Line string
	Msg  string
}

func (e *ProtocolError) Error() string {
	line := e.Line
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return fmt.Sprintf("uci: %s in %q", e.Msg, line)
}

func errorf(line, format string, args ...any) error {
	return &ProtocolError{Line: line, Msg: fmt.Sprintf(format, args...)}
}
