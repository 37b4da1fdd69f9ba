package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestFailureMessage: a failure's message, made from its head and its
// reason apart, is the start of the first line of their whole text, as
// it was when the text was joined first, for any reason: long, on many
// lines, with invalid UTF-8 and characters of several bytes.
func TestFailureMessage(t *testing.T) {
	joined := func(head, reason string) string {
		msg := head
		if reason != "" {
			msg += ": " + reason
		}
		return clipRunes(firstLine(msg), junitMessage)
	}
	check := func(t interface{ Fatalf(string, ...any) }, head, reason string) {
		if got, want := failureMessage(head, reason), joined(head, reason); got != want {
			t.Fatalf("failureMessage(%q, %q) = %q, want %q", head, reason, got, want)
		}
	}
	long := string(make([]byte, 300))
	for _, reason := range []string{"", "short", long, "é" + long, long[:195] + "\xffé\xe2\x82", long[:197] + "€€€€", "line one\n" + long} {
		check(t, "score 0.333 below threshold 1.000", reason)
	}
	rapid.Check(t, func(t *rapid.T) {
		piece := rapid.SampledFrom([]string{"a", "é", "€", "\n", "\xff", "\xe2\x82", "𝄞", "word "})
		n := rapid.IntRange(0, 400).Draw(t, "pieces")
		reason := ""
		for range n {
			reason += piece.Draw(t, "piece")
		}
		check(t, rapid.SampledFrom([]string{"score 0.333 below threshold 1.000", "score 0.9997 below threshold 1.0000"}).Draw(t, "head"), reason)
	})
}

// TestClipRunesASCII: clipRunes and firstRunes, which decide a text whose
// start is ASCII without counting its characters, cut every text where
// counting them cuts it, for every bound.
func TestClipRunesASCII(t *testing.T) {
	clipCounted := func(s string, n int) string {
		if utf8.RuneCountInString(s) <= n {
			return s
		}
		i := 0
		for pos := range s {
			if i == n-1 {
				return s[:pos] + "…"
			}
			i++
		}
		return s
	}
	firstCounted := func(s string, n int) string {
		for pos := range s {
			if n == 0 {
				return s[:pos]
			}
			n--
		}
		return s
	}
	rapid.Check(t, func(t *rapid.T) {
		piece := rapid.SampledFrom([]string{"a", "b", " ", "é", "€", "\n", "\xff", "\xe2\x82", "𝄞"})
		ascii := rapid.IntRange(0, 12).Draw(t, "ascii")
		s := strings.Repeat("x", ascii)
		for range rapid.IntRange(0, 12).Draw(t, "pieces") {
			s += piece.Draw(t, "piece")
		}
		n := rapid.IntRange(-1, 26).Draw(t, "n")
		if got, want := clipRunes(s, n), clipCounted(s, n); got != want {
			t.Fatalf("clipRunes(%q, %d) = %q, want %q", s, n, got, want)
		}
		if n >= 0 {
			if got, want := firstRunes(s, n), firstCounted(s, n); got != want {
				t.Fatalf("firstRunes(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	})
}
