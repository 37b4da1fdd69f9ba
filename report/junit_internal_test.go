package report

import (
	"testing"

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
