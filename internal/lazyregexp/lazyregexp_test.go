package lazyregexp_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade/internal/lazyregexp"
)

// Each method answers as regexp.Regexp's does.
func TestMethods(t *testing.T) {
	const expr = `(\d+)-(\d+)`
	lazy, re := lazyregexp.New(expr), regexp.MustCompile(expr)
	for _, s := range []string{"", "12-34", "a 1-2 b 33-4", "no digits"} {
		t.Run(s, func(t *testing.T) {
			checks := []struct {
				name      string
				got, want any
			}{
				{"MatchString", lazy.MatchString(s), re.MatchString(s)},
				{"FindStringIndex", lazy.FindStringIndex(s), re.FindStringIndex(s)},
				{"FindStringSubmatch", lazy.FindStringSubmatch(s), re.FindStringSubmatch(s)},
				{"FindStringSubmatchIndex", lazy.FindStringSubmatchIndex(s), re.FindStringSubmatchIndex(s)},
				{"ReplaceAllString", lazy.ReplaceAllString(s, "$2-$1"), re.ReplaceAllString(s, "$2-$1")},
				{"ReplaceAllStringFunc", lazy.ReplaceAllStringFunc(s, strings.ToUpper), re.ReplaceAllStringFunc(s, strings.ToUpper)},
			}
			for _, c := range checks {
				if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
					t.Errorf("%s(%q) = %v, want %v", c.name, s, c.got, c.want)
				}
			}
		})
	}
}

// The first uses may come at once: every goroutine gets the one compiled
// expression (go test -race checks the sharing).
func TestFirstUseConcurrent(t *testing.T) {
	lazy := lazyregexp.New(`^a+$`)
	got := make([]*regexp.Regexp, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = lazy.Regexp() })
	}
	wg.Wait()
	for i, re := range got {
		if re != got[0] || !re.MatchString("aaa") {
			t.Fatalf("goroutine %d got %p (%v), want the one expression %p", i, re, re, got[0])
		}
	}
}

// A pattern that does not compile panics on first use, as
// regexp.MustCompile does.
func TestBadPatternPanics(t *testing.T) {
	lazy := lazyregexp.New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	lazy.MatchString("")
}

var version = lazyregexp.New(`^v(\d+)\.(\d+)$`)

func Example() {
	// Compiled here, at its first use, not when the program started.
	fmt.Println(version.FindStringSubmatch("v1.26"))
	// Output: [v1.26 1 26]
}

// Check reports each pattern made by New that does not compile.
func TestCheck(t *testing.T) {
	lazyregexp.New(`[unclosed`)
	lazyregexp.New(`ok+`)
	err := lazyregexp.Check()
	if err == nil || !strings.Contains(err.Error(), "[unclosed") || strings.Contains(err.Error(), "ok+") {
		t.Fatalf("Check() = %v, want an error naming [unclosed alone among these two", err)
	}
}
