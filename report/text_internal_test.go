package report

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestPrintableClean: passing over printable ASCII a byte at a time
// decides every text as looking at each of its characters does.
func TestPrintableClean(t *testing.T) {
	byRunes := func(s string) bool {
		for _, r := range s {
			if unicode.IsControl(r) || r == utf8.RuneError || bidiControl(r) {
				return false
			}
		}
		return true
	}
	rapid.Check(t, func(t *rapid.T) {
		piece := rapid.SampledFrom([]string{"a", " ", "~", "\x7f", "\x1f", "\n", "\t", "é", "\u202e", "\u0085", "\uFFFD", "\xff", "\xe2\x82", "𝄞"})
		s := ""
		for range rapid.IntRange(0, 20).Draw(t, "pieces") {
			s += piece.Draw(t, "piece")
		}
		if got, want := printableClean(s), byRunes(s); got != want {
			t.Fatalf("printableClean(%q) = %v, want %v", s, got, want)
		}
	})
}
