package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
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
		// A bidirectional control would show the text in another order
		// than it has ("evil\u202Eexe.txt" as "eviltxt.exe").
		{"bidi override", "evil\u202Eexe.txt", `evil\u202eexe.txt`, `evil\\u202eexe.txt`, `evil\u202eexe.txt`},
		{"bidi isolate and marks", "a\u2066b\u2069\u200F\u061C", `a\u2066b\u2069\u200f\u061c`, `a\\u2066b\\u2069\\u200f\\u061c`, `a\u2066b\u2069\u200f\u061c`},
		{"right-to-left text kept", "שלום مرحبا", "שלום مرحبا", "שלום مرحبا", "שלום مرحبا"},
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

// TestTrajectoryEscapes: hostile text in the trajectory fields (rules,
// data-flow arguments and references, difference paths and values, turn
// inputs, tool names) reaches no report unescaped.
func TestTrajectoryEscapes(t *testing.T) {
	const evil = "<script>alert(1)</script>|*_[a](b) \x1b[31m\x00\xff & \"q\" '\n#"
	v := func(s string) any { x, _ := jsonvalue.ParseString(s); return x }
	c := &toolgrade.Case{ID: "evil" + evil, Source: evil, Line: 1,
		Turns: []toolgrade.Turn{{Input: evil}, {Input: v(`[{"type":"text","text":"<img src=x onerror=alert(1)>"}]`)}},
		Called: []toolgrade.Call{
			{Name: "a" + evil, Args: v(`{"k":"<b>x</b>"}`), Status: toolgrade.StatusError, Output: evil, Turn: 1},
			{Name: "b" + evil, Args: v(`{"k":"</script>"}`), Turn: 2},
		},
		Expected: []toolgrade.Call{{Name: "a" + evil, Turn: 1}, {Name: "c" + evil, Turn: 2}},
	}
	thr := toolgrade.Float(1)
	r := &toolgrade.Result{ID: c.ID, Case: c, Metrics: []toolgrade.MetricResult{
		{Name: "tool_correctness" + evil, Score: 0.5, Threshold: thr, Reason: evil,
			Matches: []toolgrade.Match{{Expected: 0, Called: 1, Score: 0.5}}, Missing: []int{1}, Unexpected: []int{0},
			Details: []toolgrade.Detail{match.Failed{0}, match.Retried{0},
				match.Turns{{Turn: 1, Score: 1, Success: true}, {Turn: 2, Score: 0, Expected: []int{1}, Called: []int{1}}},
				match.Flows{{From: 0, To: 1, Arg: "k" + evil, Ref: "a.output" + evil}, {From: -1, To: 7, Arg: evil, Ref: evil}}}},
		{Name: "tool_process", Score: 0, Threshold: thr, Reason: evil,
			Details: []toolgrade.Detail{process.RuleChecks{{Rule: "never: " + evil, Breaches: []int{1, 99}, Reason: evil}, {Rule: evil, Kept: true, Breaches: []int{}}}}},
		{Name: "state_match", Score: 0, Threshold: thr, Details: []toolgrade.Detail{toolgrade.Diffs{{Path: "$." + evil, Expected: evil, Got: v(`{"<x>":"</script>"}`)}}}},
		{Name: "grounding", Score: 0, Threshold: thr, Details: []toolgrade.Detail{toolgrade.Diffs{{Path: "#1 b" + evil, Got: evil, Note: evil}}}},
	}}
	render := func(w Writer) {
		s := Stats{Run: RunInfo{Version: evil, Command: []string{"toolgrade", evil}, Config: evil,
			Metrics: []RunMetric{{Label: evil, Settings: evil}}}}
		s.Add(r)
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(&s); err != nil {
			t.Fatal(err)
		}
	}
	var text, md, junit, page strings.Builder
	render(Text(&text))
	render(Markdown(&md))
	render(JUnit(&junit))
	render(HTML(&page))

	for _, r := range text.String() {
		if unicode.IsControl(r) && r != '\n' {
			t.Fatalf("control character %U in the text summary", r)
		}
	}
	if !strings.Contains(text.String(), "trajectory: failed #0 a<script>") {
		t.Errorf("the text summary lacks the case's trajectory:\n%s", text.String())
	}
	for name, out := range map[string]string{"markdown": md.String(), "junit": junit.String(), "html": page.String()} {
		for _, raw := range []string{"<script>alert", "</script><", "<img src", "<b>x", "<x>"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s: unescaped %q", name, raw)
			}
		}
		if name != "html" && !utf8.ValidString(out) { // the page passes invalid bytes through (a browser shows U+FFFD)
			t.Errorf("%s: invalid UTF-8", name)
		}
	}
	if strings.Contains(md.String(), "\x1b") || strings.Contains(junit.String(), "\x1b") || strings.Contains(junit.String(), "\x00") {
		t.Error("a control character reached Markdown or JUnit")
	}
	if err := xml.Unmarshal([]byte(junit.String()), new(struct{})); err != nil {
		t.Errorf("JUnit not well-formed: %v", err)
	}
	for _, want := range []string{"data flow broken:", "broken rule never: ", "turn 2 scored 0.000", "state $.", "ungrounded #1 b"} {
		if !strings.Contains(junit.String(), want) {
			t.Errorf("JUnit lacks %q", want)
		}
	}
	for _, want := range []string{`class="timeline"`, "&lt;img src=x onerror=alert(1)&gt;", `badge-retried`, "(source not called)"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestHTMLEscapesEveryField puts hostile text (a script end tag, quotes
// that would end an attribute, a javascript: URL, U+2028, NUL, invalid
// UTF-8) in every field of the data that the page shows, and checks that
// each reached the page as text: every tag on the page is one the writer
// writes, with only its own attributes, each double-quoted; the script
// is the writer's own, unchanged; NUL became U+FFFD.
func TestHTMLEscapesEveryField(t *testing.T) {
	const evil = "</script><script>alert(1)</script>\" onmouseover=\"x' autofocus javascript:alert(1) \u2028\u2029 \x00 \xff\xfe + & <img src=x> \x1b[31m \u202e"
	var tokens []string
	field := func() string { // a field's text: a token to find it by, then the hostile text
		tokens = append(tokens, "F"+strconv.Itoa(len(tokens))+"F")
		return tokens[len(tokens)-1] + evil
	}
	v := func(s string) any { x, _ := jsonvalue.ParseString(s); return x }
	str := func(s string) string { return string(jsonvalue.Append(nil, s)) } // a JSON string
	tool, other := field(), field()
	thr := toolgrade.Float(0.5)
	newCase := func(trial int, called []toolgrade.Call) *toolgrade.Case {
		return &toolgrade.Case{ID: "case", Trial: trial, Source: "runs.jsonl", Line: trial,
			Turns:    []toolgrade.Turn{{Input: field()}},
			Expected: []toolgrade.Call{{Name: tool, Args: v(`{` + str(field()) + `:` + str(field()) + `}`), Turn: 1}, {Name: field(), Turn: 1}},
			Called:   called,
		}
	}
	// The first trial passes, the second does not: the trials table shows
	// where they part.
	pass := &toolgrade.Result{ID: "case", Success: true, Case: newCase(1, []toolgrade.Call{{Name: tool, Args: v(`{"k":` + str(field()) + `}`), Turn: 1}}),
		Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: field(), Score: 1, Success: true, Threshold: thr}}}
	c := newCase(2, []toolgrade.Call{
		{Name: tool, Args: v(`{` + str(field()) + `:` + str(field()) + `}`), Output: field(), Status: toolgrade.StatusError, Turn: 1},
		{Name: other, Invalid: true, ArgsRaw: field(), Turn: 1},
	})
	c.ID, pass.Case.ID = field(), c.ID
	pass.ID = c.ID
	fail := &toolgrade.Result{ID: c.ID, Case: c, Error: "", Metrics: []toolgrade.MetricResult{
		{Name: "tool_correctness", Profile: pass.Metrics[0].Profile, Score: 0.5, Threshold: thr, Reason: field(),
			Matches: []toolgrade.Match{{Expected: 0, Called: 0, Score: 0.5, Diffs: []toolgrade.ArgDiff{
				{Path: field(), Expected: field(), Got: field(), Note: field()}}}},
			Missing: []int{1}, Unexpected: []int{1},
			Details: []toolgrade.Detail{match.Failed{0}, match.Retried{1},
				match.Turns{{Turn: 1, Score: 0, Expected: []int{0, 1}, Called: []int{0, 1}}},
				match.Flows{{From: 0, To: 1, Arg: field(), Ref: field()}, {From: -1, To: 9, Arg: field(), Ref: field()}}}},
		{Name: field(), Score: 0, Threshold: thr, Error: field()},
		{Name: "tool_process", Score: 0, Threshold: thr, Reason: field(), Details: []toolgrade.Detail{process.RuleChecks{
			{Rule: field(), Breaches: []int{1}, Reason: field()}, {Rule: field(), Breaches: []int{99}, Reason: field()}, {Rule: field(), Kept: true}}}},
		{Name: "state_match", Score: 0, Threshold: thr, Details: []toolgrade.Detail{toolgrade.Diffs{
			{Path: field(), Expected: field(), Got: field()}, {Path: field(), Got: field(), Note: field()}}}},
	}}
	erred := &toolgrade.Result{ID: field(), Error: field(), Case: &toolgrade.Case{ID: "erred", Source: field(), Line: 3}}
	var page strings.Builder
	s := Stats{Run: RunInfo{Version: field(), Command: []string{"toolgrade", field(), field()}, Config: field(),
		Metrics: []RunMetric{{Label: field(), Settings: field()}}}}
	w := HTML(&page)
	for _, r := range []*toolgrade.Result{pass, fail, erred} {
		s.Add(r)
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(&s); err != nil {
		t.Fatal(err)
	}
	out := page.String()

	for _, tok := range tokens {
		if !strings.Contains(out, tok) {
			t.Errorf("field %s is not on the page", tok)
		}
	}
	if i := strings.IndexFunc(out, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' || bidiControl(r) }); i >= 0 {
		t.Errorf("a control character reached the page: %q", out[max(i-40, 0):min(i+40, len(out))])
	}
	if !strings.HasPrefix(out, pageHead) || !strings.HasSuffix(out, pageScript) {
		t.Fatal("the page does not begin with the writer's head and end with its script")
	}
	body := out[len(pageHead) : len(out)-len(pageScript)]
	allowedAttrs := strings.Fields("class data-status title aria-label role x y dy width height viewBox transform colspan id type placeholder value open")
	for rest := body; ; {
		i := strings.IndexAny(rest, `<>"`)
		if i < 0 {
			break
		}
		m := tagAt.FindStringSubmatch(rest[i:])
		if m == nil {
			t.Fatalf("data broke out of its element or attribute at %q", rest[max(i-80, 0):min(i+80, len(rest))])
		}
		if !slices.Contains(pageElements, m[2]) {
			t.Errorf("element <%s> on the page", m[2])
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			if !slices.Contains(allowedAttrs, a[1]) {
				t.Errorf("attribute %s on <%s>", a[1], m[2])
			}
		}
		rest = rest[i+len(m[0]):]
	}
}

// pageElements are the elements the page's writer writes.
var pageElements = strings.Fields(`html head meta title style body header h1 h2 h3 p strong br section table thead tbody
	tr th td div figure svg g rect text figcaption span input select option code small details summary pre b ul li script`)

var (
	// tagAt matches a tag whose attribute values are all double-quoted and
	// hold no quote or angle bracket.
	tagAt  = regexp.MustCompile(`^<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?: [a-zA-Z-]+(?:="[^"<>]*")?)*)>`)
	attrRE = regexp.MustCompile(` ([a-zA-Z-]+)(?:="[^"]*")?`)
)

// appendXML copies runs of plain ASCII at once; it must append exactly
// what appending each character in turn does, and writeXML must write
// the same.
func TestWriteXMLRunsAgreeWithRunes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.SampledFrom([]rune("ab<>&\"'\n\r\t\x00\x1f\x7f\u00e9\uFFFD\U0001F600")))).Draw(t, "s")
		if rapid.Bool().Draw(t, "invalid") {
			s += "\xff" + s[:len(s)/2]
		}
		var want []byte
		for i, r := range s {
			want = appendXMLRune(want, s[i:], r)
		}
		if got := appendXML([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("appendXML(%q) = %q, want %q", s, got[1:], want)
		}
		// With room to spare, escapes are stored a word at a time.
		if got := appendXML(append(make([]byte, 0, 8*len(s)+16), 'x'), s); string(got) != "x"+string(want) {
			t.Fatalf("appendXML(%q) with room = %q, want %q", s, got[1:], want)
		}
		var w bytes.Buffer
		bw := bufio.NewWriter(&w)
		writeXML(bw, s)
		bw.Flush()
		if w.String() != string(want) {
			t.Fatalf("writeXML(%q) = %q, want %q", s, w.String(), want)
		}
	})
}
