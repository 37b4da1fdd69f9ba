package match

import (
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Ratio is Python's difflib.SequenceMatcher(None, a, b).ratio() over the
// code points of a and b: twice the number of matched code points over the
// total length, 1 when both are empty. Like difflib it applies the autojunk
// heuristic (when b has 200 or more code points, those occurring more than
// len(b)/100+1 times cannot start a match), and like difflib it is not
// symmetric.
func Ratio(a, b string) float64 {
	if a == b {
		return 1
	}
	if a == "" || b == "" {
		return 0
	}
	m := difflib.NewMatcher(codePoints(a), codePoints(b))
	return m.Ratio()
}

// codePoints splits s into one-code-point strings, the elements difflib
// compares; strings of one ASCII byte share storage with s.
func codePoints(s string) []string {
	out := make([]string, 0, utf8.RuneCountInString(s))
	for i := 0; i < len(s); {
		_, size := jsonvalue.DecodeRune(s[i:]) // a lone surrogate is one code point
		out = append(out, s[i:i+size])
		i += size
	}
	return out
}
