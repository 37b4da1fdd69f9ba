package state

import (
	"testing"
	"unicode/utf8"
)

// FuzzParsePath reads arbitrary text as a JSONPath: it must never panic;
// a path read writes in a canonical form that reads back as the same path,
// and selects locations without panicking.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{
		`$`, `$.orders[0].status`, `$["key with space"]`, `$['it\'s']`, `$.orders[*].ts`,
		`$..ts`, `$..*`, `$..[0]`, `$..["a"]`, `$.*`, `$[ "a" ]`, `$[-1]`, `$[0:1]`, `$[?@]`,
		`$.`, `$..`, `$[`, `$["\u00e9\ud800"]`, `$.é`, "$[\"\x00\"]", `$[01]`, `orders`,
	} {
		f.Add(s)
	}
	steps := []step{{key: "a", index: -1}, {index: 0}, {key: "ts", index: -1}, {index: 12}, {key: "", index: -1}}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("ParsePath(%q) took invalid UTF-8", s)
		}
		canon := p.String()
		q, err := ParsePath(canon)
		if err != nil {
			t.Fatalf("ParsePath(%q).String() = %q, which does not read back: %v", s, canon, err)
		}
		if q.String() != canon {
			t.Fatalf("canonical form of %q is not stable: %q then %q", s, canon, q.String())
		}
		for n := range len(steps) + 1 {
			a, _ := p.matches(steps[:n], nil)
			b, _ := q.matches(steps[:n], nil)
			if a != b {
				t.Fatalf("%q and its canonical form %q disagree on %s", s, canon, formatSteps(steps[:n]))
			}
		}
	})
}
