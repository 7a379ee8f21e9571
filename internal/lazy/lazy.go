// Package lazy holds package-level values built on first use. A Value is
// plain data (a function and a zero sync.Once), so declaring one costs the
// program nothing at start-up: no initialiser runs, no memory is touched.
// sync.OnceValue would build its closure at start-up, in every run of
// every command, for tables only some commands read.
package lazy

import (
	"regexp"
	"sync"
)

// Value is a value that New builds on the first Get. New must be a
// function declared at package level (or a func literal that captures
// nothing), or the declaration needs start-up code again.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, building it on the first call; it is safe for
// concurrent use.
func (l *Value[T]) Get() T {
	l.once.Do(l.build)
	return l.v
}

func (l *Value[T]) build() { l.v = l.New() }

// Regexp is a regular expression compiled on its first use.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression; it panics, as regexp.MustCompile
// does, if the expression is invalid.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(r.compile)
	return r.re
}

func (r *Regexp) compile() { r.re = regexp.MustCompile(r.Expr) }
