package toolgrade_test

import (
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// TestMarkdownLinks checks every relative link of the repository's
// Markdown (the README, docs/, the examples', bench's and the packages'
// READMEs): its file or folder exists inside the repository, and its
// #anchor is a heading of the Markdown file it names, as GitHub makes
// anchors. Links with a scheme (https:, mailto:) are not followed.
// Markdown under testdata is data (golden reports carry users' text),
// except README.md and SOURCE.md, which document the data.
func TestMarkdownLinks(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".md") && (!underTestdata(p) || d.Name() == "README.md" || d.Name() == "SOURCE.md") {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "README.md") || !slices.Contains(files, "docs/README.md") {
		t.Fatalf("found %d Markdown files, not README.md and docs/README.md: the walk looks in the wrong place", len(files))
	}
	anchors := map[string]map[string]bool{} // by file, read once
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		anchors[file] = headingAnchors(string(data))
		return anchors[file]
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(data)) {
			checked++
			if msg := checkLink(file, l.dest, anchorsOf); msg != "" {
				t.Errorf("%s:%d: link %q: %s", file, l.line, l.dest, msg)
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d links: the link finder misses links", checked)
	}
}

func underTestdata(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "testdata")
}

// checkLink says what is wrong with the link dest of the Markdown file
// from, or "" when it resolves.
func checkLink(from, dest string, anchorsOf func(file string) map[string]bool) string {
	if scheme.MatchString(dest) || strings.HasPrefix(dest, "//") {
		return "" // not relative
	}
	target, fragment, _ := strings.Cut(dest, "#")
	target, err := url.PathUnescape(target)
	if err != nil {
		return err.Error()
	}
	file := from
	switch {
	case target == "":
	case strings.HasPrefix(target, "/"): // GitHub reads it from the repository's root
		file = path.Clean(target[1:])
	default:
		file = path.Join(path.Dir(from), target)
	}
	if file == ".." || strings.HasPrefix(file, "../") {
		return "points outside the repository"
	}
	info, err := os.Stat(filepath.FromSlash(file))
	if err != nil {
		return "no such file or folder"
	}
	if fragment == "" {
		return ""
	}
	if info.IsDir() { // GitHub shows the folder's README
		file = path.Join(file, "README.md")
		if _, err := os.Stat(filepath.FromSlash(file)); err != nil {
			return "an anchor in a folder without a README.md"
		}
	}
	if !strings.HasSuffix(file, ".md") {
		if lineAnchor.MatchString(fragment) {
			return ""
		}
		return "an anchor other than a line (#L12) in a file that is not Markdown"
	}
	if !anchorsOf(file)[fragment] {
		return "no heading in " + file + " has the anchor #" + fragment
	}
	return ""
}

var (
	scheme     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	lineAnchor = regexp.MustCompile(`^L[0-9]+(-L[0-9]+)?$`)
)

// A link is a link's destination and the line it is on.
type link struct {
	line int
	dest string
}

var (
	// refDefinition is a link reference definition: [label]: dest.
	refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(\S+)`)
	// htmlLink is a link in an HTML tag.
	htmlLink = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
)

// markdownLinks returns the destinations of the inline links and images
// ([text](dest), ![alt](dest "title")), reference definitions and HTML
// href and src attributes of a Markdown text, outside code blocks and
// code spans.
func markdownLinks(text string) []link {
	var links []link
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		if m := refDefinition.FindStringSubmatch(line); m != nil {
			links = append(links, link{i + 1, strings.Trim(m[1], "<>")})
			continue
		}
		for _, m := range htmlLink.FindAllStringSubmatch(line, -1) {
			links = append(links, link{i + 1, m[1]})
		}
		for rest := line; ; {
			at := strings.Index(rest, "](")
			if at < 0 {
				break
			}
			rest = rest[at+2:]
			if dest, ok := destination(rest); ok {
				links = append(links, link{i + 1, dest})
			}
		}
	}
	return links
}

// destination reads a link destination at the start of s, the text after
// "](": <dest>, or dest up to a space or the ")" that balances it.
func destination(s string) (string, bool) {
	if strings.HasPrefix(s, "<") {
		end := strings.IndexByte(s, '>')
		return s[1:max(end, 1)], end > 0
	}
	depth := 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth == 0:
			return s[:i], i > 0
		case r == ')':
			depth--
		case r == ' ' || r == '\t':
			return s[:i], i > 0
		}
	}
	return "", false
}

// proseLines returns the lines of a Markdown text with fenced code blocks
// blanked and code spans removed, so that the line numbers stay.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " \t>")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		if f := fenceOpening(trimmed); f != "" {
			fence = f
			lines[i] = ""
			continue
		}
		lines[i] = withoutCodeSpans(line)
	}
	return lines
}

// fenceOpening returns the run of backticks or tildes that opens a fenced
// code block on a line, or "".
func fenceOpening(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// withoutCodeSpans removes the code spans of a line: a run of backticks,
// what follows, and the next run of as many backticks.
func withoutCodeSpans(line string) string {
	var b strings.Builder
	for {
		at := strings.IndexByte(line, '`')
		if at < 0 {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:at])
		n := len(line[at:]) - len(strings.TrimLeft(line[at:], "`"))
		run := line[at : at+n]
		rest := line[at+n:]
		end := closingRun(rest, run)
		if end < 0 { // no closing run: the backticks are text
			b.WriteString(run)
			line = rest
			continue
		}
		line = rest[end+n:]
	}
}

// closingRun returns where in s the first run of backticks exactly as long
// as run starts, or -1.
func closingRun(s, run string) int {
	for i := 0; i < len(s); {
		at := strings.Index(s[i:], run)
		if at < 0 {
			return -1
		}
		at += i
		end := at + len(run)
		if (at == 0 || s[at-1] != '`') && (end == len(s) || s[end] != '`') {
			return at
		}
		i = end
		for i < len(s) && s[i] == '`' {
			i++
		}
	}
	return -1
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text (a repeated heading's get -1, -2, ...), and those of
// <a id="..."> and <a name="..."> tags.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	raw := strings.Split(text, "\n")
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		m := atxHeading.FindStringSubmatch(raw[i]) // with its code spans, whose text counts
		if m == nil {
			continue
		}
		slug := headingSlug(m[1])
		if n := seen[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors
}

// headingSlug makes a heading's text into its anchor as GitHub does: the
// text as shown (links by their text, no tags, code spans by their
// content), lower-cased, every character but letters, digits, "_", "-"
// and spaces dropped, and spaces made hyphens.
func headingSlug(heading string) string {
	heading = inlineLink.ReplaceAllString(heading, "$1")
	heading = htmlTag.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.Nd, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingSlug(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Comparing runs", "comparing-runs"},
		{"A gate on reliability: `pass_k`", "a-gate-on-reliability-pass_k"},
		{"Models without native tool calling: `--tool-call-parser`", "models-without-native-tool-calling---tool-call-parser"},
		{"Profile `deepeval`", "profile-deepeval"},
		{"Binary size and build time (issue 28: no OpenAI SDK)", "binary-size-and-build-time-issue-28-no-openai-sdk"},
		{"The [serve](serve.md) protocol", "the-serve-protocol"},
		{"Record → Case → Metric", "record--case--metric"},
		{"Ragas' data, as it is", "ragas-data-as-it-is"},
	} {
		t.Run(tt.heading, func(t *testing.T) {
			if got := headingSlug(tt.heading); got != tt.want {
				t.Errorf("headingSlug(%q) = %q, want %q", tt.heading, got, tt.want)
			}
		})
	}
}

func TestMarkdownLinksFinder(t *testing.T) {
	const text = "# Title\n" +
		"See [cases](cases.md), ![a figure](img/f.png \"title\") and [x](<a b.md#c>).\n" +
		"Not `[code](span.md)`, nor ``[two](ticks.md) ` `` but [after](after.md#a-b).\n" +
		"```go\n[in](fence.md)\n```\n" +
		"   ~~~~\n   [tilde](fence.md)\n   ~~~~\n" +
		"[ref]: ref.md#top\n" +
		"<a href=\"html.md\">x</a> [f(x)](f_(x).md) [docs](../docs/) [empty]()\n"
	got := markdownLinks(text)
	want := []link{
		{2, "cases.md"}, {2, "img/f.png"}, {2, "a b.md#c"},
		{3, "after.md#a-b"},
		{10, "ref.md#top"},
		{11, "html.md"}, {11, "f_(x).md"}, {11, "../docs/"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(link{})); diff != "" {
		t.Errorf("markdownLinks (-want +got):\n%s", diff)
	}
	anchors := headingAnchors("# Title\n## Same\n```\n# not a heading\n```\n## Same\n<a id=\"custom\"></a>\n")
	if diff := cmp.Diff(map[string]bool{"title": true, "same": true, "same-1": true, "custom": true}, anchors); diff != "" {
		t.Errorf("headingAnchors (-want +got):\n%s", diff)
	}
}
