// Package lazyregexp holds regular expressions that compile when first
// used rather than when the program starts.
//
// Every package's variables are set before main runs, for every command:
// a pattern compiled there is paid for by every run, whether or not it
// uses it (the providers' name rules of tool linting alone were 1.5M
// instructions, a twentieth of the start of an eval). A [Regexp] made by
// [New] in a package variable costs next to nothing at the start (it is
// only listed, for [Check]) and compiles on its first use, once, safely from
// any number of goroutines. A pattern that does not compile panics then,
// as regexp.MustCompile does, and [Check] compiles them all for the
// tests. Non-goal: patterns made at run time, which gain nothing.
package lazyregexp

import (
	"errors"
	"fmt"
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
// used. It is meant for package variables: each one is also listed for
// [Check].
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	made.Lock()
	made.all = append(made.all, r)
	made.Unlock()
	return r
}

// made lists every Regexp made, so that a test can compile them all
// instead of trusting each pattern to be reached by some test.
var made struct {
	sync.Mutex
	all []*Regexp
}

// Check compiles every expression made by New so far in the program, and
// returns an error naming each that does not compile. A test of the
// command, which links every package using New, calls it, so that a
// broken pattern fails the tests rather than the first run that reaches
// it.
func Check() error {
	made.Lock()
	defer made.Unlock()
	var errs []error
	for _, r := range made.all {
		if _, err := regexp.Compile(r.expr); err != nil {
			errs = append(errs, fmt.Errorf("lazyregexp: %w", err))
		}
	}
	return errors.Join(errs...)
}

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
