// Package report writes a run's results for people and for CI: a summary
// for the terminal, Markdown (for $GITHUB_STEP_SUMMARY), JUnit XML, one
// self-contained HTML page, the JSON Lines result contract, and a progress
// bar; and the comparison of two runs for a terminal. The figures over
// repeated trials, and the comparison itself, come from package
// reliability.
//
// Reports see results as they stream, in input order, through the [Writer]
// interface, and finish from the run's [Stats]. Only the HTML page keeps
// something per case (what the page shows); everything else keeps memory
// flat however long the run.
//
// Non-goals: computing figures (package reliability) and deciding which
// results are failures (the metrics' verdicts); reports only present them.
package report

import (
	"container/heap"
	"math"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/namekey"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/reliability"
)

// A Writer writes one report of a run. Add is called with every result, in
// input order, one call at a time (not always from the same goroutine);
// Finish is called once at the end, with the statistics of the whole run,
// and writes whatever remains.
type Writer interface {
	Add(r *toolgrade.Result) error
	Finish(s *Stats) error
}

// DefaultWorst is how many of the worst cases [Stats] keeps when Worst is
// not set.
const DefaultWorst = 50

// Stats aggregates a run as its results stream: the per-metric summary,
// per-tool counts and the worst cases. The zero value is ready to use.
type Stats struct {
	toolgrade.Summary

	// Ignored lists the case fields that no part of toolgrade read, each
	// with the number of cases that had it (set by the caller, which
	// reads the cases).
	Ignored []FieldCount

	// Worst is how many failing cases to keep, worst first (default
	// [DefaultWorst]); the others are only counted.
	Worst int

	// Confidence is the level of the reliability figures' intervals
	// (default [reliability.DefaultConfidence]).
	Confidence float64
	// Gates are the pass_k gates by metric label (see [Label]).
	Gates map[string]reliability.PassK

	// Run says when and how the run was made (set by the caller); the
	// reports show what is set.
	Run RunInfo

	// thresholds holds each metric's threshold as its results gave it,
	// in first-seen order.
	thresholds []threshold

	trials      reliability.Trials
	reliability *reliability.Suite // computed once, at the first call after the run

	// warned counts the cases whose results carry warnings; warnings
	// counts them per kind of warning (see warningKind), for the first
	// maxWarningKinds kinds.
	warned   int
	warnings []FieldCount

	// tools are the run's tools in first-seen order, found by name in
	// toolSlots (see tool).
	tools     []*ToolCounts
	toolSlots []toolSlot
	toolsBy   string // the metric whose pairing the tool counts follow
	failures  failureHeap
	traj      trajectoryCounts // failed calls, broken rules and data flows (trajectory.go)

	// Scratch for addTools, reused across results: the counts of each
	// expected call's tool and each called call's, by index, and the
	// calls left unpaired.
	expectedTools, calledTools []*ToolCounts
	extra                      []int
}

// A FieldCount is a case field and the number of cases that had it.
type FieldCount struct {
	Field string
	Cases int
}

// ToolCounts tells how one tool fared across a run.
//
// Expected and Called count the tool's calls in the cases. The rest follow
// the pairing of the first metric in each result that pairs calls:
// WrongArgs counts expected calls that were answered by a call of the same
// tool that did not fully match (partial credit, or left unpaired beside
// an unpaired call of the same name — with an ordered metric, a call out of
// order counts here too); Failed counts expected calls left unpaired
// beside a call of the same tool that failed (the tool reported an
// error); Missed counts expected calls with no call of the same tool to
// answer them; Extra counts calls that answer nothing. The HTML page's
// case details and timelines mark each call by the same rule (see
// [standIns]).
type ToolCounts struct {
	Name                                               string
	Expected, Called, Missed, Extra, WrongArgs, Failed int
}

// A Failure is a case that failed or erred, with its failing metrics.
// With repeated trials it is the case's worst failing trial, and Trials
// and Passed say how the case fared over all of them.
type Failure struct {
	ID     string
	Source string // the case's file, if known
	Line   int
	Error  string // the record could not be read
	// Metrics are the metric results that failed or erred.
	Metrics []FailedMetric
	// Trials and Passed count the case's trials and those that passed,
	// when the run repeated cases; both 0 otherwise.
	Trials, Passed int

	rank   float64 // the lowest failing score; errors rank lowest
	seq    int     // input order, to break ties
	failed int     // the case's failing trials seen so far
	// trajectory sums up the case's trajectory in a line (see
	// trajectory.line); "" when there is nothing to tell.
	trajectory string
}

// A FailedMetric is one metric's failing verdict on a case.
type FailedMetric struct {
	Name, Profile string
	Score         float64
	Threshold     *float64
	Error, Reason string
}

// maxReason bounds the text kept per failing metric.
const maxReason = 2000

// Add folds one result into the statistics.
func (s *Stats) Add(r *toolgrade.Result) {
	s.Summary.Add(r)
	trials := s.trials.Add(r)
	if s.reliability != nil {
		s.reliability = nil
	}
	s.addThresholds(r)
	var t trajectory
	t.read(r)
	if r.Case != nil {
		s.addTools(r, t.failed)
	}
	s.traj.add(&t)
	if !r.Success {
		s.addFailure(r, &t, trials)
	}
	if len(r.Warnings) > 0 {
		s.addWarnings(r.Warnings)
	}
}

// maxWarningKinds bounds the kinds of warning counted apart; the others
// are counted together.
const maxWarningKinds = 20

// addWarnings counts a case's warnings, each kind once per case.
func (s *Stats) addWarnings(ws []string) {
	s.warned++
	var seen []string
	for _, w := range ws {
		kind := warningKind(w)
		if slices.Contains(seen, kind) {
			continue
		}
		seen = append(seen, kind)
		i := slices.IndexFunc(s.warnings, func(f FieldCount) bool { return f.Field == kind })
		if i < 0 && len(s.warnings) >= maxWarningKinds {
			kind = "other warnings"
			i = slices.IndexFunc(s.warnings, func(f FieldCount) bool { return f.Field == kind })
		}
		if i < 0 {
			s.warnings = append(s.warnings, FieldCount{Field: kind})
			i = len(s.warnings) - 1
		}
		s.warnings[i].Cases++
	}
}

// warningKind is a warning without where it was met ("skipped content
// block of type "x" at messages[3]" is of the kind "skipped content block
// of type "x""), so that the same warning in many cases counts as one.
func warningKind(w string) string {
	if i := strings.LastIndex(w, " at "); i > 0 {
		return w[:i]
	}
	return w
}

// Warnings returns how many cases carried warnings, and the kinds of
// warning with their cases, most frequent first.
func (s *Stats) Warnings() (cases int, kinds []FieldCount) {
	kinds = slices.Clone(s.warnings)
	sorting.Stable(kinds, func(a, b FieldCount) int { return b.Cases - a.Cases })
	return s.warned, kinds
}

// Reliability returns what the run's trials say: per case and per metric
// pass rates, pass@k and pass^k, mean scores with their intervals, and the
// flaky cases. It is nil when no case ran more than once and no pass_k
// gate is set, so that single-trial runs report as before.
func (s *Stats) Reliability() *reliability.Suite {
	if s.reliability == nil {
		s.reliability = s.trials.Suite(s.Confidence, s.Gates)
	}
	return s.reliability
}

// CasePassed reports whether every case passed: with repeated trials or
// a pass_k gate, by the cases' verdicts over their trials (see
// [reliability.Suite].Passed); otherwise every result passed.
func (s *Stats) CasePassed() bool {
	if rel := s.Reliability(); rel != nil {
		return rel.Passed == rel.Cases
	}
	return s.Passed == s.Cases
}

// Label names a metric in reports: its name, with the profile when that is
// not the default one ([reliability.Label], by which gates and comparisons
// know metrics).
func Label(name, profile string) string { return reliability.Label(name, profile) }

// pairs reports whether a metric result pairs calls (and did not err).
func pairs(m *toolgrade.MetricResult) bool {
	return m.Error == "" && (m.Matches != nil || m.Missing != nil || m.Unexpected != nil)
}

// pairing returns the first metric result of r that pairs calls.
func pairing(r *toolgrade.Result) *toolgrade.MetricResult {
	for i := range r.Metrics {
		if pairs(&r.Metrics[i]) {
			return &r.Metrics[i]
		}
	}
	return nil
}

func sameTool(a, b string) bool {
	return a == b || toolgrade.NormalizeToolName(a) == toolgrade.NormalizeToolName(b)
}

// A toolSlot is a slot of Stats.toolSlots, an open-addressing table of
// the run's tools (a power of two, at most half full) placed by a hash of
// their name's length and first and last eight bytes. For a name of up to
// 16 bytes (most are) those words are the whole name, compared without
// reading it again; a longer one is compared whole. Comparing each name
// of a case with the run's tools, or hashing it for a map, cost several
// times as much.
type toolSlot struct {
	lo, hi uint64 // see namekey.Words
	n      int    // the name's length
	t      *ToolCounts
}

// tool returns the run's counts of the named tool, adding them if new.
// It is the plain look-up: lookUpTools, which looks up a case's tools,
// makes the same without calls.
func (s *Stats) tool(name string) *ToolCounts {
	lo, hi := namekey.Words(name)
	n := len(name)
	if len(s.toolSlots) == 0 {
		s.growTools()
	}
	mask := uint64(len(s.toolSlots) - 1)
	for i := toolHash(lo, hi, n) & mask; ; i = (i + 1) & mask {
		slot := &s.toolSlots[i]
		if slot.t == nil {
			return s.addTool(name, lo, hi)
		}
		if slot.lo == lo && slot.hi == hi && slot.n == n && (n <= 16 || slot.t.Name == name) {
			return slot.t
		}
	}
}

// addTool adds the counts of a tool new to the run, whose name's words
// are lo and hi, keeping toolSlots at most half full.
func (s *Stats) addTool(name string, lo, hi uint64) *ToolCounts {
	// A case's strings share the memory its input was read into; a copy
	// keeps only the name alive.
	t := &ToolCounts{Name: strings.Clone(name)}
	s.tools = append(s.tools, t)
	if 2*len(s.tools) > len(s.toolSlots) {
		s.growTools() // places t too
		return t
	}
	mask := uint64(len(s.toolSlots) - 1)
	i := toolHash(lo, hi, len(name)) & mask
	for s.toolSlots[i].t != nil {
		i = (i + 1) & mask
	}
	s.toolSlots[i] = toolSlot{lo, hi, len(name), t}
	return t
}

func toolHash(lo, hi uint64, n int) uint64 {
	h := (lo ^ hi*0x9e3779b97f4a7c15 ^ uint64(n)) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// growTools doubles toolSlots, placing the tools again.
func (s *Stats) growTools() {
	s.toolSlots = make([]toolSlot, max(16, 2*len(s.toolSlots)))
	mask := uint64(len(s.toolSlots) - 1)
	for _, t := range s.tools {
		lo, hi := namekey.Words(t.Name)
		i := toolHash(lo, hi, len(t.Name)) & mask
		for s.toolSlots[i].t != nil {
			i = (i + 1) & mask
		}
		s.toolSlots[i] = toolSlot{lo, hi, len(t.Name), t}
	}
}

func (s *Stats) addTools(r *toolgrade.Result, failed []int) {
	c := r.Case
	s.lookUpTools(c)
	expected, called := s.expectedTools, s.calledTools
	m := pairing(r)
	if m == nil {
		return
	}
	if s.toolsBy == "" {
		s.toolsBy = Label(m.Name, m.Profile)
	}
	for _, p := range m.Matches {
		if !inRange(p.Expected, c.Expected) || !inRange(p.Called, c.Called) {
			continue
		}
		switch e, g := expected[p.Expected], called[p.Called]; {
		case e != g && !sameTool(e.Name, g.Name): // one tool has one counts
			e.Missed++
			g.Extra++
		case p.Score < 1:
			e.WrongArgs++
		}
	}
	if len(m.Missing) == 0 && len(m.Unexpected) == 0 {
		return // every call paired: most cases
	}
	s.countUnpaired(m, c, failed)
}

// countUnpaired counts m's unpaired calls of c as standIns sorts them:
// an expected call with its stand-in (wrong arguments, or failed when
// failed lists the stand-in), a missed call, an extra call. It finds a
// call's tool by its counts, which lookUpTools has found: calls of one
// name share them, so that a call and its stand-in (most) compare by
// pointer, and only calls of two names by NormalizeToolName.
// TestCountUnpairedAgreesWithStandIns holds it to standIns.
func (s *Stats) countUnpaired(m *toolgrade.MetricResult, c *toolgrade.Case, failed []int) {
	expected, called := s.expectedTools, s.calledTools
	extra := unpairedCalls(m, c, s.extra[:0])
	for _, i := range m.Missing {
		if !inRange(i, c.Expected) {
			continue
		}
		e, k := expected[i], 0
		for k < len(extra) && called[extra[k]] != e && toolgrade.NormalizeToolName(e.Name) != toolgrade.NormalizeToolName(called[extra[k]].Name) {
			k++
		}
		switch {
		case k == len(extra):
			e.Missed++
			continue
		case slices.Contains(failed, extra[k]):
			e.Failed++
		default:
			e.WrongArgs++
		}
		extra = slices.Delete(extra, k, k+1)
	}
	for _, j := range extra {
		called[j].Extra++
	}
	s.extra = extra
}

// lookUpTools counts the tool of each call of c, and looks each up
// once: s.expectedTools[i] counts c.Expected[i]'s tool, s.calledTools[j]
// c.Called[j]'s. knownTools finds most; a call it leaves, whose tool is
// new to the run or whose name is under four or over 16 bytes, is looked
// up by tool. TestLookUpToolsAgreesWithTool holds it to tool.
func (s *Stats) lookUpTools(c *toolgrade.Case) {
	ne := len(c.Expected)
	ts := slices.Grow(s.expectedTools[:0], ne+len(c.Called))[:ne+len(c.Called)]
	if len(s.toolSlots) == 0 {
		s.growTools()
	}
	for k := s.knownTools(c, ts, 0); k < len(ts); k = s.knownTools(c, ts, k+1) {
		if k < ne {
			t := s.tool(c.Expected[k].Name)
			t.Expected++
			ts[k] = t
		} else {
			t := s.tool(c.Called[k-ne].Name)
			t.Called++
			ts[k] = t
		}
	}
	s.expectedTools, s.calledTools = ts[:ne], ts[ne:]
}

// knownTools finds and counts the tools of c's calls from the k-th on
// (the expected calls, then the called ones) into ts, as tool would, for
// as long as a call's name is of 4 to 16 bytes (all in its words) and
// its tool is known to the run; it returns the index of the first call
// it left, len(ts) when none. Its loop calls nothing: a loop that calls
// saves and restores its values around every call, which cost more than
// the look-up.
func (s *Stats) knownTools(c *toolgrade.Case, ts []*ToolCounts, k int) int {
	ne := len(c.Expected)
	slots := s.toolSlots
	mask := uint64(len(slots) - 1)
	for ; k < len(ts); k++ {
		var name string
		if k < ne {
			name = c.Expected[k].Name
		} else {
			name = c.Called[k-ne].Name
		}
		var lo, hi uint64 // namekey.Words, inline
		switch n := len(name); {
		case n < 4 || n > 16:
			return k
		case n >= 8:
			lo, hi = namekey.Word(name), namekey.Word(name[n-8:])
		default:
			lo = namekey.Word4(name) | namekey.Word4(name[n-4:])<<(8*(n-4))
		}
		var t *ToolCounts
		for i := toolHash(lo, hi, len(name)) & mask; ; i = (i + 1) & mask {
			slot := &slots[i]
			if slot.t == nil {
				return k
			}
			if slot.lo == lo && slot.hi == hi && slot.n == len(name) {
				t = slot.t
				break
			}
		}
		if k < ne {
			t.Expected++
		} else {
			t.Called++
		}
		ts[k] = t
	}
	return k
}

// unpairedCalls appends the calls of c that m left unpaired to extra,
// dropping indexes out of c's range.
func unpairedCalls(m *toolgrade.MetricResult, c *toolgrade.Case, extra []int) []int {
	for _, j := range m.Unexpected {
		if inRange(j, c.Called) {
			extra = append(extra, j)
		}
	}
	return extra
}

func inRange(i int, calls []toolgrade.Call) bool { return i >= 0 && i < len(calls) }

// A standIn is an expected call that a metric left unpaired beside an
// unpaired call of the same tool: a call made for it that did not match
// it. Every report shows the two as one call with wrong arguments, or as
// a failed call when the call failed, and never as a missed call and an
// extra one.
type standIn struct{ expected, called int }

// standIns sorts m's unpaired calls of c: each unpaired expected call
// with the first unpaired call of the same tool not yet taken (stands),
// the expected calls left (missing) and the calls left (extra), all in
// order, appended to the slices given. Indexes out of c's range are
// dropped.
func standIns(m *toolgrade.MetricResult, c *toolgrade.Case, stands []standIn, missing, extra []int) ([]standIn, []int, []int) {
	extra = unpairedCalls(m, c, extra)
	for _, i := range m.Missing {
		if !inRange(i, c.Expected) {
			continue
		}
		k := slices.IndexFunc(extra, func(j int) bool { return sameTool(c.Expected[i].Name, c.Called[j].Name) })
		if k < 0 {
			missing = append(missing, i)
			continue
		}
		stands = append(stands, standIn{i, extra[k]})
		extra = slices.Delete(extra, k, k+1)
	}
	return stands, missing, extra
}

// Tools returns the per-tool counts, the busiest tools first, and the
// label of the metric whose pairing decided Missed, Extra and WrongArgs
// (empty when no metric paired calls).
func (s *Stats) Tools() ([]ToolCounts, string) {
	out := make([]ToolCounts, 0, len(s.tools))
	for _, t := range s.tools {
		out = append(out, *t)
	}
	sorting.Sort(out, func(a, b ToolCounts) int {
		if d := (b.Expected + b.Called) - (a.Expected + a.Called); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, s.toolsBy
}

// addFailure keeps r among the worst cases if it is one. With repeated
// trials a case is kept once: its worst failing trial, and how many of
// its trials failed, which ranks it first (trials is how many trials its
// case has had, this one included).
func (s *Stats) addFailure(r *toolgrade.Result, t *trajectory, trials int) {
	// Rank the case first: most failing cases are not among the worst
	// kept, and need nothing copied, nor a Failure made (one is large).
	rank := failureRank(r)
	at := -1
	if trials > 1 {
		at = slices.IndexFunc(s.failures, func(k Failure) bool { return k.ID == r.ID })
	}
	limit := s.Worst
	if limit <= 0 {
		limit = DefaultWorst
	}
	full := at < 0 && len(s.failures) >= limit
	if full && !outranks(1, rank, s.Cases, &s.failures[0]) {
		return
	}
	f := Failure{seq: s.Cases, rank: rank, failed: 1}
	if at >= 0 {
		kept := &s.failures[at]
		kept.failed++
		if f.rank >= kept.rank { // the trial kept stays the worst
			heap.Fix(&s.failures, at)
			return
		}
		f.seq, f.failed = kept.seq, kept.failed
	}
	f.ID = strings.Clone(r.ID) // kept past the case, as tool names are
	if r.Case != nil {
		f.Source, f.Line = r.Case.Source, r.Case.Line
	}
	if !t.empty() {
		f.trajectory = t.line(r.Case)
	}
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Verdict() {
			continue
		}
		f.Metrics = append(f.Metrics, FailedMetric{Name: m.Name, Profile: m.Profile, Score: m.Score, Threshold: m.Threshold,
			Error: clip(m.Error, maxReason), Reason: clip(m.Reason, maxReason)})
	}
	if r.Error != "" {
		// Every metric carries the record's error; say it once.
		for i := range f.Metrics {
			f.Metrics[i].Error = ""
		}
		f.Error = clip(r.Error, maxReason)
	}
	switch {
	case at >= 0:
		s.failures[at] = f
		heap.Fix(&s.failures, at)
	case full:
		s.failures[0] = f
		heap.Fix(&s.failures, 0)
	default:
		heap.Push(&s.failures, f)
	}
}

// failureRank ranks a failing result for the worst cases: its lowest
// failing score, -1 when a metric or the record erred.
func failureRank(r *toolgrade.Result) float64 {
	rank := math.Inf(1)
	for i := range r.Metrics {
		switch m := &r.Metrics[i]; {
		case m.Verdict():
		case m.Error != "":
			rank = -1
		default:
			rank = min(rank, m.Score)
		}
	}
	if r.Error != "" {
		rank = -1
	}
	return rank
}

// Failures returns the worst failing cases kept, worst first: errors, then
// the lowest scores, earlier cases first among equals. With repeated
// trials each case comes once, the lowest pass rate over its trials
// first, and a case that passed over its trials (by a pass_k gate) is
// left out.
func (s *Stats) Failures() []Failure {
	out := slices.Clone(s.failures)
	if s.repeated() != nil {
		out = slices.DeleteFunc(out, func(f Failure) bool {
			c, ok := s.trials.Case(f.ID, s.Confidence, s.Gates)
			return !ok || c.Pass
		})
		for i := range out {
			c, _ := s.trials.Case(out[i].ID, s.Confidence, s.Gates)
			out[i].Trials, out[i].Passed = c.Trials, c.Passed
		}
	}
	sorting.Sort(out, func(a, b Failure) int {
		// a.Passed/a.Trials < b.Passed/b.Trials, in integers; 0 without trials.
		if d := a.Passed*b.Trials - b.Passed*a.Trials; d != 0 {
			return d
		}
		switch {
		case worse(&a, &b):
			return -1
		case worse(&b, &a):
			return 1
		}
		return 0
	})
	return out
}

// Verdicts counts the cases and those that passed: with repeated trials,
// by the cases' verdicts over their trials (see [Stats.CasePassed]);
// otherwise the results.
func (s *Stats) Verdicts() (cases, passed int) {
	if rel := s.repeated(); rel != nil {
		return rel.Cases, rel.Passed
	}
	return s.Cases, s.Passed
}

// repeated returns the reliability figures when some case ran more than
// once, else nil.
func (s *Stats) repeated() *reliability.Suite {
	if rel := s.Reliability(); rel != nil && rel.MaxTrials > 1 {
		return rel
	}
	return nil
}

// Failed counts the cases that failed a threshold without an error.
func (s *Stats) Failed() int { return s.Cases - s.Passed - s.Errors }

// worse orders failures: more failing trials are worse, then a lower
// rank, then the earlier case. (A Failure is large: copied for each
// comparison, it cost more than the comparison.)
func worse(a, b *Failure) bool { return outranks(a.failed, a.rank, a.seq, b) }

// outranks is worse for a failure with the given failing trials, rank
// and input order, before it is made.
func outranks(failed int, rank float64, seq int, b *Failure) bool {
	if failed != b.failed {
		return failed > b.failed
	}
	if rank != b.rank {
		return rank < b.rank
	}
	return seq < b.seq
}

// failureHeap keeps the best of the kept failures on top, to be replaced
// first by a worse one.
type failureHeap []Failure

func (h failureHeap) Len() int           { return len(h) }
func (h failureHeap) Less(i, j int) bool { return worse(&h[j], &h[i]) }
func (h failureHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *failureHeap) Push(x any)        { *h = append(*h, x.(Failure)) }
func (h *failureHeap) Pop() any {
	old := *h
	f := old[len(old)-1]
	*h = old[:len(old)-1]
	return f
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
