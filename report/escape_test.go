package report

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestEscapes(t *testing.T) {
	tests := []struct {
		name, in, terminal, md, html string
	}{
		{"plain", "get_weather", "get_weather", `get\_weather`, "get_weather"},
		{"markup", "<b>&</b>", "<b>&</b>", "&lt;b&gt;&amp;&lt;/b&gt;", "&lt;b&gt;&amp;&lt;/b&gt;"},
		{"table and links", "a|b [x](y)", "a|b [x](y)", `a\|b \[x\]\(y\)`, "a|b [x](y)"},
		{"terminal escape", "\x1b[31mred", `\x1b[31mred`, `\\x1b\[31mred`, `\x1b[31mred`},
		{"lines", "a\nb\tc\r\n", "a b c  ", "a b c  ", "a&#10;b&#9;c&#10;"},
		{"invalid byte", "a\xffb", `a\xffb`, `a\\xffb`, `a\xffb`},
		{"replacement character kept", "a\uFFFDb", "a\uFFFDb", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := terminal(tt.in); got != tt.terminal {
				t.Errorf("terminal(%q) = %q, want %q", tt.in, got, tt.terminal)
			}
			if got := mdText(tt.in); got != tt.md {
				t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.md)
			}
			if got := htmlText(tt.in); got != tt.html {
				t.Errorf("htmlText(%q) = %q, want %q", tt.in, got, tt.html)
			}
		})
	}
}

// TestEscapesAnyText: no input gets a control character to a terminal,
// a markup or table character into Markdown, or a line break into an
// HTML block.
func TestEscapesAnyText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		if u := rapid.String().Draw(t, "text"); len(u) > 0 {
			s += u
		}
		for _, out := range []string{terminal(s), mdText(s), htmlText(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if unicode.IsControl(r) {
					t.Fatalf("control character %U out of %q", r, s)
				}
			}
		}
		md := mdText(s)
		if strings.ContainsAny(md, "<>") || strings.Count(md, "|") != strings.Count(md, `\|`) {
			t.Fatalf("mdText(%q) = %q lets markup or a table column through", s, md)
		}
		if strings.ContainsAny(htmlText(s), "<>") {
			t.Fatalf("htmlText(%q) lets markup through", s)
		}
	})
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"héllo wörld", 5, "héll…"},
	} {
		if got := clipRunes(tt.in, tt.n); got != tt.want {
			t.Errorf("clipRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"ééé", 6, "ééé"},
		{"ééé", 5, "é…"}, // the mark takes 3 bytes
		{"ééé", 4, "…"},  // never half a rune
	} {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
