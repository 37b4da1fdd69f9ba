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

// TestASCIIPrefix: reading eight bytes at a time, asciiPrefix decides as
// looking at each byte does, for every bound.
func TestASCIIPrefix(t *testing.T) {
	for at := range 20 { // one byte of 20 not ASCII
		s := []byte("abcdefghijklmnopqrst")
		s[at] = 0x80
		for n := range len(s) + 1 {
			if got, want := asciiPrefix(string(s), n), n <= at; got != want {
				t.Fatalf("asciiPrefix(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		piece := rapid.SampledFrom([]string{"a", "~", "\x00", "\x7f", "\x80", "\xff", "é", "€", "abcdefgh"})
		s := ""
		for range rapid.IntRange(0, 40).Draw(t, "pieces") {
			s += piece.Draw(t, "piece")
		}
		n := rapid.IntRange(0, len(s)).Draw(t, "n")
		want := true
		for i := range n {
			want = want && s[i] < utf8.RuneSelf
		}
		if got := asciiPrefix(s, n); got != want {
			t.Fatalf("asciiPrefix(%q, %d) = %v, want %v", s, n, got, want)
		}
	})
}
