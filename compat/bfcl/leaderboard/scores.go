package leaderboard

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl"
)

// Scores are the grades of a model's result entries against BFCL's data.
type Scores struct {
	// Entries are the graded entries, in the order given.
	Entries []Graded
	// Skipped count the entries of categories that are not graded, by
	// category name.
	Skipped []Skip
	// Categories tally the graded categories, by name.
	Categories []Tally
	// Calling says how the names of each result file's calls were read,
	// for the files where that was decided from their content or name.
	Calling []FileCalling
}

// A Graded entry is an entry with its result: score 1 and success when
// valid, else the reason (BFCL's error type first), or an error when it
// could not be graded (its question or possible answer is missing).
type Graded struct {
	Entry
	Result toolgrade.MetricResult
}

// Valid reports whether the entry was graded and found valid.
func (g *Graded) Valid() bool { return g.Result.Error == "" && g.Result.Success }

// AppendJSON appends the entry's result line, as toolgrade eval writes
// one: {"id", "success", "metrics": [the bfcl metric's result]}, without
// the newline.
func (g *Graded) AppendJSON(b []byte) []byte {
	r := toolgrade.Result{ID: g.ID, Success: g.Valid(), Metrics: []toolgrade.MetricResult{g.Result}}
	return r.AppendJSON(b)
}

// A Skip counts the entries of a category that is not graded.
type Skip struct {
	Category string
	Entries  int
}

func (s Skip) String() string {
	return fmt.Sprintf("%d entries of category %q skipped: only the AST and relevance categories are graded", s.Entries, s.Category)
}

// A Tally counts one category's graded entries.
type Tally struct {
	Category string
	Correct  int // entries found valid
	Total    int // entries graded, also those that could not be
	// Questions is the number of entries of the category's question file.
	Questions int
}

// Missing is how many of the category's questions have no result, as
// BFCL's table leaves them out: Questions less Total, or 0.
func (t Tally) Missing() int { return max(0, t.Questions-t.Total) }

// Grade grades the entries against the data: the AST categories with
// BFCL's checker ([bfcl.Check]), irrelevance and live_relevance by whether
// the result holds a call. The data of every category the entries need is read first, and an
// error there (a missing or unreadable file) is returned before any entry
// is graded. Entries of other categories are counted in Skipped.
//
// A function-calling model's calls name dotted functions with "_" for "."
// (see [Calling]); an entry's Calling says how to read them, and where it
// is DetectCalling it is decided per result file: function-calling when a
// directory or file name of its path ends in "-FC" (BFCL writes a model's
// results under result/<model>/, and names its function-calling models
// "<model>-FC"), or when its calls name dotted functions in the "_" form
// and never with their dots; else prompting. BFCL decides by model, not by
// entry, and so does Grade: a file is one model's results. Scores.Calling
// reports the files so decided.
func (d *Data) Grade(ctx context.Context, entries []Entry) (*Scores, error) {
	skipped := map[string]int{}
	used := map[string]*categoryData{}
	for _, e := range entries {
		name := bfcl.Category(e.ID)
		if gradedAs(name) == "" {
			skipped[name]++
			continue
		}
		if used[name] == nil {
			c, err := d.category(name)
			if err != nil {
				return nil, err
			}
			used[name] = c
		}
	}
	s := &Scores{}
	for _, name := range slices.Sorted(maps.Keys(skipped)) {
		s.Skipped = append(s.Skipped, Skip{Category: name, Entries: skipped[name]})
	}
	calling, report := d.decideCalling(entries, used)
	s.Calling = report
	tally := map[string]*Tally{}
	for _, e := range entries {
		c := used[bfcl.Category(e.ID)]
		if c == nil {
			continue
		}
		e.Calling = calling[e.file()]
		g := Graded{Entry: e, Result: c.grade(e)}
		t := tally[c.name]
		if t == nil {
			t = &Tally{Category: c.name, Questions: len(c.questions)}
			tally[c.name] = t
		}
		t.Total++
		if g.Valid() {
			t.Correct++
		}
		s.Entries = append(s.Entries, g)
	}
	for _, name := range slices.Sorted(maps.Keys(tally)) {
		s.Categories = append(s.Categories, *tally[name])
	}
	return s, nil
}

// AllValid reports whether every graded entry is valid.
func (s *Scores) AllValid() bool {
	for i := range s.Entries {
		if !s.Entries[i].Valid() {
			return false
		}
	}
	return true
}

// grade checks one entry.
func (c *categoryData) grade(e Entry) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: "tool_correctness", Profile: "bfcl", Threshold: toolgrade.Float(1)}
	docs, ok := c.questions[e.ID]
	if !ok {
		r.Error = fmt.Sprintf("no question %s in the %s data", e.ID, c.name)
		return r
	}
	calls, decodeError := decode(e.Result)
	if c.answers == nil { // irrelevance, live_relevance
		hasCall := decodeError == "" && len(calls) > 0
		want := !strings.Contains(c.name, "irrelevance")
		switch {
		case hasCall == want:
			r.Score, r.Success, r.Reason = 1, true, "valid"
		case want:
			r.Reason = "relevance_error:decoder_failed: the result holds no function call"
		default:
			r.Reason = "irrelevance_error:decoder_success: the result holds a function call, and should not"
		}
		return r
	}
	if decodeError != "" {
		r.Reason = decodeError
		return r
	}
	answer, ok := c.answers[e.ID]
	if !ok {
		r.Error = fmt.Sprintf("no possible answer for %s in the %s data", e.ID, c.name)
		return r
	}
	check := bfcl.Check
	if e.Calling == FunctionCalling {
		check = bfcl.CheckFunctionCalling
	}
	return bfcl.Result(check(c.name, bfcl.Language(c.name), docs, answer, calls))
}

// The categories in the order of BFCL's score tables; a name after "|" is
// BFCL v3's name for the same category.
var categoryOrder = []string{
	"simple_python|simple", "simple_java|java", "simple_javascript|javascript",
	"multiple", "parallel", "parallel_multiple", "irrelevance",
	"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
	"live_irrelevance", "live_relevance",
}

// A score is an accuracy with the number of entries behind it; ok is
// false when a category it needs has no results (BFCL shows N/A).
type score struct {
	accuracy float64
	entries  int
	ok       bool
}

// score is the category's accuracy.
func (t Tally) score() score {
	return score{float64(t.Correct) / float64(t.Total), t.Total, true}
}

// WriteTable writes BFCL's score table: a row per graded category (in
// BFCL's order, then others by name) with its accuracy, correct and total
// entries; then the summary rows. Non-Live Simple AST is the unweighted
// mean of the python, java and javascript simple categories; Non-Live AST
// Summary the unweighted mean of Simple AST, multiple, parallel and
// parallel_multiple; Non-Live Overall adds irrelevance; the Live rows are
// weighted by entries. A summary is N/A when a category it needs has no
// results.
func (s *Scores) WriteTable(w io.Writer) error {
	tally := make(map[string]Tally, len(s.Categories))
	for _, t := range s.Categories {
		tally[t.Category] = t
	}
	category := func(names string) (string, score) {
		for n := range strings.SplitSeq(names, "|") {
			if t, ok := tally[n]; ok {
				return n, t.score()
			}
		}
		name, _, _ := strings.Cut(names, "|")
		return name, score{}
	}
	get := func(names string) score { _, s := category(names); return s }
	mean := func(parts ...score) score { // BFCL's unweighted accuracy
		s := score{ok: true}
		for _, p := range parts {
			s.accuracy += p.accuracy / float64(len(parts))
			s.entries += p.entries
			s.ok = s.ok && p.ok
		}
		return s
	}
	weighted := func(parts ...score) score { // BFCL's weighted accuracy
		s := score{ok: true}
		correct := 0.0
		for _, p := range parts {
			correct += p.accuracy * float64(p.entries)
			s.entries += p.entries
			s.ok = s.ok && p.ok
		}
		if s.entries > 0 {
			s.accuracy = correct / float64(s.entries)
		}
		return s
	}
	percent := func(s score) string {
		if !s.ok {
			return "N/A"
		}
		return fmt.Sprintf("%.2f%%", 100*s.accuracy)
	}

	type row struct {
		name string
		t    Tally
	}
	var cats []row
	listed := map[string]bool{}
	for _, names := range categoryOrder {
		name, s := category(names)
		listed[name] = true
		if s.ok {
			cats = append(cats, row{name, tally[name]})
		}
	}
	for _, t := range s.Categories { // by name
		if !listed[t.Category] {
			cats = append(cats, row{t.Category, t})
		}
	}
	simple := mean(get("simple_python|simple"), get("simple_java|java"), get("simple_javascript|javascript"))
	nonLive := []score{simple, get("multiple"), get("parallel"), get("parallel_multiple")}
	live := []score{get("live_simple"), get("live_multiple"), get("live_parallel"), get("live_parallel_multiple")}
	sums := []struct {
		name string
		s    score
		how  string
	}{
		{"Non-Live Simple AST", simple, "mean of simple_python, simple_java, simple_javascript"},
		{"Non-Live AST Summary", mean(nonLive...), "mean of Simple AST, multiple, parallel, parallel_multiple"},
		{"Non-Live Overall", mean(append(nonLive, get("irrelevance"))...), "mean of the above and irrelevance"},
		{"Live AST Summary", weighted(live...), "weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple"},
		{"Live Overall", weighted(append(live, get("live_irrelevance"), get("live_relevance"))...), "weighted: the above, live_irrelevance, live_relevance"},
	}

	width := len("Non-Live AST Summary")
	for _, r := range cats {
		width = max(width, len(r.name))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%-*s  %8s  %7s  %7s\n", width, "Category", "Accuracy", "Correct", "Total")
	for _, r := range cats {
		fmt.Fprintf(&b, "%-*s  %8s  %7d  %7d\n", width, r.name, percent(r.t.score()), r.t.Correct, r.t.Total)
	}
	fmt.Fprintf(&b, "\n%-*s  %8s  %7s  %s\n", width, "Summary", "Accuracy", "Entries", "Computed as")
	for _, r := range sums {
		fmt.Fprintf(&b, "%-*s  %8s  %7d  %s\n", width, r.name, percent(r.s), r.s.entries, r.how)
	}
	_, err := w.Write(b.Bytes())
	return err
}
