// Package plainerr says what the operating system said of a file or a
// program in words a user acts on: "book.bin: no such file" where Go
// says "open book.bin: no such file or directory", "the folder /nodir
// does not exist" where it names a temporary file in it, "stockfsh: no
// such program" for "fork/exec stockfsh: ...". The system calls' names
// (open, stat, fork/exec) are Go's, not the user's.
package plainerr

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/polyproxy/polyproxy/internal/lazy"
)

// Text is err's message with each file or program error in its chain
// (an *fs.PathError, *os.LinkError, *os.SyscallError or *exec.Error)
// said in plain words, and a path then given twice in a row given once.
func Text(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, e := range chain(err) {
		var old, plain string
		switch e := e.(type) {
		case *fs.PathError:
			old, plain = e.Error(), Path(e.Path, e.Err)
		case *os.LinkError:
			old, plain = e.Error(), Path(e.New, e.Err)
		case *os.SyscallError:
			old, plain = e.Error(), Reason("", e.Err)
		case *exec.Error:
			old, plain = e.Error(), Program(e.Name, e)
		default:
			continue
		}
		msg = strings.Replace(msg, old, plain, 1)
	}
	return onceEach(msg)
}

// chain is err and every error it wraps, depth first.
func chain(err error) []error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		out = append(out, e)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return out
}

// tempName is a file written beside its target and renamed over it
// (book.Batch's ".NAME.tmp-123"): the user knows the target. Compiled
// on first use, as doubled is: only an error needs them, and every run
// would pay at start-up.
var tempName = lazy.Regexp{Expr: `^\.(.+)\.tmp-[0-9]+(\.old)?$`}

// Path is what err (an operating system's error) says of path, in plain
// words: "book.bin: no such file", "x.bin: the folder /nodir does not
// exist", "games: is a folder, not a file". A file written beside its
// target is named as the target.
func Path(path string, err error) string {
	path = Target(path)
	return path + ": " + Why(path, err)
}

// Target is the file a temporary file beside it stands for, else path.
func Target(path string) string {
	if m := tempName.Get().FindStringSubmatch(filepath.Base(path)); m != nil {
		return filepath.Join(filepath.Dir(path), m[1])
	}
	return path
}

// Why is what err says of path, without the path: "no such file", "the
// folder /nodir does not exist".
func Why(path string, err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		if dir := filepath.Dir(Target(path)); dir != "." && !exists(dir) {
			return "the folder " + dir + " does not exist"
		}
	}
	return Reason("", err)
}

// Reason is err's reason, after "path: " when path is not "".
func Reason(path string, err error) string {
	var why string
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "no such file"
	case errors.Is(err, syscall.EISDIR):
		why = "is a folder, not a file"
	case errors.Is(err, syscall.ENOTDIR):
		why = "a part of the path is a file, not a folder"
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied"
	case errors.Is(err, syscall.ENOSPC):
		why = "no space left on the disk"
	case errors.Is(err, syscall.EROFS):
		why = "the disk is read-only"
	case errors.As(err, &errno):
		why = errno.Error()
	default:
		why = err.Error()
	}
	if path == "" {
		return why
	}
	return path + ": " + why
}

// Program is what err says of starting the program name: "stockfsh: no
// such program in any folder of PATH", "./engine: permission denied: is
// it a program, and executable?".
func Program(name string, err error) string {
	switch {
	case errors.Is(err, exec.ErrNotFound) && filepath.Base(name) != name:
		return Path(name, fs.ErrNotExist)
	case errors.Is(err, exec.ErrNotFound):
		return name + ": no such program in any folder of PATH"
	case errors.Is(err, fs.ErrNotExist):
		return Path(name, err)
	case errors.Is(err, fs.ErrPermission):
		return name + ": permission denied: is it a program, and executable?"
	}
	return Reason(name, err)
}

// About is text said of the file path, for a message that names path
// before it: the path is not named again. "x.bin: no such file" is "no
// such file"; "x.bin holds PGN games" is "it holds PGN games".
func About(path, text string) string {
	rest, ok := strings.CutPrefix(text, path)
	switch {
	case !ok:
		return text
	case strings.HasPrefix(rest, ": "):
		return rest[2:]
	case strings.HasPrefix(rest, " "):
		return "it" + rest
	}
	return text
}

// Wrap is err said as msg: its message is msg, and it still wraps err
// (errors.Is(err, fs.ErrNotExist) holds).
func Wrap(msg string, err error) error { return &wrapped{msg, err} }

type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// doubled is a path followed by itself ("games.pgn: games.pgn: ").
var doubled = lazy.Regexp{Expr: `(^|\s)(\S+): (\S+): `}

// onceEach gives once a path given twice in a row.
func onceEach(msg string) string {
	return doubled.Get().ReplaceAllStringFunc(msg, func(m string) string {
		sub := doubled.Get().FindStringSubmatch(m)
		if sub[2] != sub[3] {
			return m
		}
		return sub[1] + sub[2] + ": "
	})
}
