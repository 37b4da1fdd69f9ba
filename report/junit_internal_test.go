package report

import (
	"math"
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

// TestAppendFailure: a failure's message and text, put together from the
// text escaped once, are the message and the text escaped apart, for
// reasons whose first line is short, about as long as a message, or long,
// in ASCII or not, and for heads too long for any reason.
func TestAppendFailure(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, head, reason string) {
		text := head
		if reason != "" {
			text += ": " + reason
		}
		want := string(appendXML([]byte("<"), failureMessage(head, reason))) + "\">" + string(appendXML(nil, text))
		if got, _ := appendFailure([]byte("<"), []byte("scratch"), head, reason); string(got) != want {
			t.Fatalf("appendFailure(%q, %q) =\n%q, want\n%q", head, reason, got, want)
		}
	}
	// First lines of about as many characters as a message holds.
	head := "score 0.333 below threshold 1.000"
	for n := junitMessage - len(head) - 6; n <= junitMessage-len(head)+2; n++ {
		for _, fill := range []string{"a", "\"", "é", "\xff", "𝄞"} {
			for _, more := range []string{"", "b", "é", "\n", "\nmore", "b\nmore"} {
				check(t, head, "é"+strings.Repeat(fill, n-1)+more)
				check(t, head, strings.Repeat(fill, n)+more)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		head := rapid.SampledFrom([]string{head, "score 0.9997 below threshold 1.0000", strings.Repeat("h", junitMessage-2), strings.Repeat("h", junitMessage+5)}).Draw(t, "head")
		piece := rapid.SampledFrom([]string{"a", "é", "€", "\n", "\xff", "\xe2\x82", "\"", "<", "\x01", "word ", strings.Repeat("x", 40), strings.Repeat("y", 150)})
		reason := ""
		for range rapid.IntRange(0, 30).Draw(t, "pieces") {
			reason += piece.Draw(t, "piece")
		}
		check(t, head, reason)
	})
}

// TestJUnitSuiteHead: the failure heads a suite keeps are the ones made
// afresh, for scores met again and again, -0 and NaN among them, past the
// number the suite keeps.
func TestJUnitSuiteHead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s junitSuite
		scores := rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 0.5, 0.9997, 0.99999999999999989, 1, math.NaN(), math.Inf(-1), 0.1 + 0.2})
		for range rapid.IntRange(0, 50).Draw(t, "results") {
			score, threshold := scores.Draw(t, "score"), scores.Draw(t, "threshold")
			if rapid.Bool().Draw(t, "fresh") {
				score = rapid.Float64().Draw(t, "any")
			}
			sc, th := scoreAgainst(score, threshold)
			h := s.head(score, threshold)
			if got, want := h, "score "+sc+" below threshold "+th; got != want {
				t.Fatalf("head(%v, %v) = %q, want %q", score, threshold, got, want)
			}
			if string(appendXML(nil, h)) != h || !asciiPrefix(h, len(h)) {
				t.Fatalf("head(%v, %v) = %q: not ASCII that escaping leaves as it is", score, threshold, h)
			}
		}
	})
	var s junitSuite
	for i := range junitHeads + 10 {
		f := float64(i) / 7
		sc, th := scoreAgainst(f, 1)
		if got, want := s.head(f, 1), "score "+sc+" below threshold "+th; got != want {
			t.Fatalf("head(%v, 1) = %q, want %q", f, got, want)
		}
	}
	if len(s.heads) != junitHeads {
		t.Fatalf("the suite keeps %d heads, want %d", len(s.heads), junitHeads)
	}
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

// failureReasons are reasons as tool_correctness gives them on the
// generated small cases: arguments in JSON, a few of them not ASCII.
var failureReasons = []string{
	`missing book_flight({"from":"team","to":"north","passengers":4,"nonstop":false,"max_price":null}) (expected #0): called #0 differs: from expected "team", got "weather weather report"`,
	`unexpected run_sql({"query":"SELECT * FROM events WHERE id = ? AND note LIKE '%quarterly%'","par...) (called #1)`,
	`missing lookup_user({"user_id":296752,"fields":["name","email","plan"]}) (expected #0); missing run_sql({"query":"SELECT * FROM users WHERE id = ? AND note LIKE '%table%'","params":...) (expected #1): called #0 differs: limit expected 20, got "draft"; unexpected get_weather({"city":"report","unit":"celsius"}) (called #1)`,
	`missing book_flight({"from":"notes","to":"Zürich","passengers":2,"nonstop":true,"max_price":null}) (expected #1): called #1 differs: from missing (expected "notes"); unexpected create_event({"title":"paris meeting table 東京","when":{"date":"2025-07-04","time":"10:...) (called #2)`,
}

// BenchmarkAppendFailure puts together the failures of the generated
// small cases' reasons.
func BenchmarkAppendFailure(b *testing.B) {
	var buf, scratch []byte
	const head = "score 0.667 below threshold 1.000"
	for b.Loop() {
		for _, r := range failureReasons {
			buf, scratch = appendFailure(buf[:0], scratch, head, r)
		}
	}
}
