// Package lazyregexp holds regular expressions that compile when first
// used rather than when the program starts.
//
// Every package's variables are set before main runs, for every command:
// a pattern compiled there is paid for by every run, whether or not it
// uses it (the providers' name rules of tool linting alone were 1.5M
// instructions, a twentieth of the start of an eval). A [Regexp] made by
// [New] in a package variable costs nothing at the start (the compiler
// lays it out as data) and compiles on its first use, once, safely from
// any number of goroutines. A pattern that does not compile panics then,
// as regexp.MustCompile does; the tests of the packages that use one
// compile each. Non-goal: patterns made at run time, which gain nothing.
package lazyregexp

import (
	"regexp"
	"sync"
)

// A Regexp is a regular expression compiled by its first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled with regexp.MustCompile when first
// used.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(r.compile)
	return r.re
}

func (r *Regexp) compile() { r.re = regexp.MustCompile(r.expr) }

// The methods of regexp.Regexp that toolgrade uses.

func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
