package match

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// plain reports whether a case grades as a flat list of calls: no turns,
// no failed call that counts otherwise than any call, no data-flow rule.
// Such cases take Grade's direct path, which the others extend. A case
// with an expected call that names no tool or whose arguments are not
// JSON is not plain either: expectedError refuses it.
func (m *ToolCorrectness) plain(c *toolgrade.Case) bool {
	// One pass over each list: this runs for every case.
	for i := range c.Expected {
		e := &c.Expected[i]
		if e.Turn > 0 || e.Name == "" || e.Invalid {
			return false // c.ByTurn(), or expectedError
		}
		if len(e.Rules) == 0 {
			continue // ranging over a nil map still starts an iterator
		}
		for _, r := range e.Rules {
			if r.From != nil {
				return false
			}
		}
	}
	if m.opts.FailedCalls != FailedCount {
		for i := range c.Called {
			if c.Called[i].Failed() {
				return false
			}
		}
	}
	return true
}

// cannotSatisfy reports whether a called call is kept from satisfying an
// expected call that does not expect a failure, because it failed.
func (m *ToolCorrectness) cannotSatisfy(c *toolgrade.Call) bool {
	return c.Failed() && m.opts.FailedCalls != FailedCount
}

// statusFits reports whether called call c may satisfy expected call e by
// how it ended: an expected call whose status is error expects a failure
// and takes only a call that failed, whatever failed_calls says; any
// other takes a failed call only under failed_calls: count.
func (m *ToolCorrectness) statusFits(e, c *toolgrade.Call) bool {
	if e.Failed() {
		return c.Failed()
	}
	return !m.cannotSatisfy(c)
}

// expectsFailure reports whether an expected call has the status error.
func expectsFailure(exp []toolgrade.Call) bool {
	for i := range exp {
		if exp[i].Failed() {
			return true
		}
	}
	return false
}

// A grading is the state of grading one case along its trajectory: which
// called calls take part, and which called call each expected call is
// paired with, for the data-flow rules.
type grading struct {
	m       *ToolCorrectness
	c       *toolgrade.Case
	retried []bool // failed called calls that a later call retried
	// out marks the called calls left out: retried, or failed under
	// ignore, and not paired with an expected call that expects a failure.
	out []bool
	// held marks the failed calls the option would leave out that are
	// paired all the same, for an expected call that expects a failure
	// may take them (nil when none does).
	held []bool
	// partner[i] is the called call paired with expected call i, -1 when
	// none, -2 while not known (the first pairing).
	partner []int
	// source maps each from-rule to the expected call it names.
	source map[*toolgrade.Ref]int
	// The groups calls are paired within, by index: the turns, when the
	// case is graded turn by turn (byTurn), or the whole case.
	byTurn             bool
	groupExp, groupGot [][]int
	// greedy is set when a group had too many calls for the best pairing.
	greedy bool
}

// leftOut counts the called calls left out; none for a plain case (nil).
func (g *grading) leftOut() int {
	if g == nil {
		return 0
	}
	n := 0
	for _, out := range g.out {
		if out {
			n++
		}
	}
	return n
}

// from returns the resolver of from-rules for called call j, against
// j's place in the trajectory; nil when the case has none.
func (g *grading) from(j int) resolver {
	if g.source == nil {
		return nil
	}
	return func(ref *toolgrade.Ref) (any, string, bool) { return g.resolve(ref, j) }
}

// resolve finds the value ref names for called call j: the output, at the
// ref's path, of the called call paired with the source expected call.
func (g *grading) resolve(ref *toolgrade.Ref, j int) (any, string, bool) {
	s := g.source[ref]
	src := &g.c.Expected[s]
	p := g.partner[s]
	switch {
	case p == -2:
		return nil, "", false
	case p < 0:
		return nil, fmt.Sprintf("its source %s (expected #%d) was not called", src.Name, s), true
	case p >= j:
		return nil, fmt.Sprintf("its source %s (called #%d) comes after it", src.Name, p), true
	}
	from := &g.c.Called[p]
	if from.Output == nil {
		return nil, fmt.Sprintf("its source %s (called #%d) has no recorded output", from.Name, p), true
	}
	v, ok := lookup(from.Output, ref.Path)
	if !ok {
		return nil, fmt.Sprintf("the output of %s (called #%d) has nothing at output.%s", from.Name, p, strings.Join(ref.Path, ".")), true
	}
	return v, "", true
}

// lookup follows a path into a tool output. Outputs are often JSON text,
// or an MCP result whose structured content or text part holds the value:
// a string that parses as JSON is read as that JSON, and a key missing
// from an MCP result is looked for in its structuredContent, then in its
// only text part.
func lookup(v any, path []string) (any, bool) {
	for _, key := range path {
		v = unwrapText(v)
		switch x := v.(type) {
		case jsonvalue.Object:
			next, ok := x.Get(key)
			if !ok {
				next, ok = mcpLookup(x, key)
			}
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// unwrapText reads a string holding a JSON object or list as that value.
func unwrapText(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return v
	}
	if parsed, err := jsonvalue.ParseString(t); err == nil {
		return parsed
	}
	return v
}

// mcpLookup looks for key in an MCP tool result's structuredContent, then
// in the JSON of its only text part.
func mcpLookup(o jsonvalue.Object, key string) (any, bool) {
	if sc, ok := o.Get("structuredContent"); ok {
		if so, ok := sc.(jsonvalue.Object); ok {
			if v, ok := so.Get(key); ok {
				return v, true
			}
		}
	}
	content, _ := o.Get("content")
	parts, _ := content.([]any)
	if len(parts) != 1 {
		return nil, false
	}
	part, _ := parts[0].(jsonvalue.Object)
	text, _ := part.Get("text")
	if inner, ok := unwrapText(text).(jsonvalue.Object); ok {
		return inner.Get(key)
	}
	return nil, false
}

// sources finds, for every from-rule of every expected call, the earlier
// expected call it names: by index, or the nearest before it by name.
func (m *ToolCorrectness) sources(exp []toolgrade.Call) (map[*toolgrade.Ref]int, error) {
	var src map[*toolgrade.Ref]int
	for i := range exp {
		for _, path := range slices.Sorted(maps.Keys(exp[i].Rules)) {
			ref := exp[i].Rules[path].From
			if ref == nil {
				continue
			}
			field := "expected_tools[" + strconv.Itoa(i) + "].rules." + path + ".from"
			s := -1
			if ref.Index >= 0 {
				if ref.Index >= i {
					return nil, &toolgrade.FieldError{Path: field, Err: fmt.Errorf("%s names expected call #%d, which is not before this one (#%d)", ref.Text, ref.Index, i)}
				}
				s = ref.Index
			} else {
				for k := i - 1; k >= 0; k-- {
					if m.name(&exp[k]) == ref.Call || exp[k].Name == ref.Call {
						s = k
						break
					}
				}
				if s < 0 {
					return nil, &toolgrade.FieldError{Path: field, Err: fmt.Errorf("%s names no expected call before this one (#%d)", ref.Text, i)}
				}
			}
			if src == nil {
				src = map[*toolgrade.Ref]int{}
			}
			src[ref] = s
		}
	}
	return src, nil
}

// retries marks the failed calls that a later call of the same tool,
// one that did not fail, retried.
func (m *ToolCorrectness) retries(got []toolgrade.Call) []bool {
	retried := make([]bool, len(got))
	for j := range got {
		if !got[j].Failed() {
			continue
		}
		name := m.name(&got[j])
		for l := j + 1; l < len(got); l++ {
			if !got[l].Failed() && m.name(&got[l]) == name {
				retried[j] = true
				break
			}
		}
	}
	return retried
}

// gradeTrajectory grades a case that plain does not: failed calls are
// counted as FailedCalls says, a case with turns is paired and scored turn
// by turn, and data-flow rules are checked against the outputs of the
// called calls paired with their sources.
func (m *ToolCorrectness) gradeTrajectory(c *toolgrade.Case) toolgrade.MetricResult {
	exp, got := c.Expected, c.Called
	n, k := len(exp), len(got)
	g := &grading{m: m, c: c, out: make([]bool, k), partner: make([]int, n)}
	var err error
	if g.source, err = m.sources(exp); err != nil {
		if c.Source != "" {
			err = fmt.Errorf("%s:%d: %w", c.Source, c.Line, err)
		}
		r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
		r.Fail(err)
		return r
	}

	// A failed call the option leaves out is held instead when an expected
	// call expects a failure: it may be the one expected. Held calls are
	// paired as any other; those left unpaired are left out after all, and
	// the rest paired again without them, until none is. Under order
	// exact a held call takes a place only where it pairs (positionalHeld):
	// one left unpaired held no place, and leaving it out changes no pair.
	g.retried = m.retries(got)
	if expectsFailure(exp) {
		g.held = make([]bool, k)
	}
	for j := range got {
		if got[j].Failed() && (m.opts.FailedCalls == FailedIgnore || m.opts.FailedCalls == FailedRetry && g.retried[j]) {
			if g.held != nil {
				g.held[j] = true
			} else {
				g.out[j] = true
			}
		}
	}

	// Calls before the first user message belong to the first turn.
	turns := 1
	if g.byTurn = c.ByTurn(); g.byTurn {
		turns = c.TurnCount()
	}
	g.groupExp = make([][]int, turns)
	for i := range exp {
		t := g.turnOf(&exp[i]) - 1
		g.groupExp[t] = append(g.groupExp[t], i)
	}
	for {
		g.groupGot = make([][]int, turns)
		for j := range got {
			if !g.out[j] {
				t := g.turnOf(&got[j]) - 1
				g.groupGot[t] = append(g.groupGot[t], j)
			}
		}
		pairs := g.pairAll()
		if !g.leaveUnpaired(pairs) {
			slices.SortFunc(pairs, func(a, b toolgrade.Match) int { return a.Expected - b.Expected })
			r := m.result(c, pairs, g)
			if g.greedy {
				r.Reason = greedyNote(n, k) + "; " + r.Reason
			}
			return r
		}
	}
}

// turnOf returns the turn a call is paired in, from 1: its own, or the
// first for a call before the first user message or a case not graded
// turn by turn.
func (g *grading) turnOf(c *toolgrade.Call) int {
	if !g.byTurn {
		return 1
	}
	return max(c.Turn, 1)
}

// pairAll pairs each group's calls, again while the data-flow rules'
// sources change.
func (g *grading) pairAll() []toolgrade.Match {
	n := len(g.c.Expected)
	for i := range g.partner {
		g.partner[i] = -2
	}
	var pairs []toolgrade.Match
	for round := 0; ; round++ {
		pairs = pairs[:0]
		for t := range g.groupExp {
			pairs = append(pairs, g.pairGroup(g.groupExp[t], g.groupGot[t])...)
		}
		if g.source == nil || round > n {
			return pairs
		}
		next := make([]int, n)
		for i := range next {
			next[i] = -1
		}
		for _, p := range pairs {
			next[p.Expected] = p.Called
		}
		if slices.Equal(next, g.partner) {
			return pairs
		}
		g.partner = next
	}
}

// leaveUnpaired leaves out the held calls that pairs leave unpaired, and
// reports whether there were any.
func (g *grading) leaveUnpaired(pairs []toolgrade.Match) bool {
	if g.held == nil {
		return false
	}
	paired := make([]bool, len(g.held))
	for _, p := range pairs {
		paired[p.Called] = true
	}
	left := false
	for j, h := range g.held {
		if h && !paired[j] {
			g.held[j], g.out[j], left = false, true, true
		}
	}
	return left
}

// holds reports whether any of the called calls gi is held.
func (g *grading) holds(gi []int) bool {
	if g.held == nil {
		return false
	}
	return slices.ContainsFunc(gi, func(j int) bool { return g.held[j] })
}

// turnScores scores each turn by its pairs, and the case as the turn
// aggregate says.
func (g *grading) turnScores(pairs []toolgrade.Match) (Turns, float64) {
	m := g.m
	credit := make([]float64, len(g.c.Expected)) // each expected call's pair score
	for _, p := range pairs {
		credit[p.Expected] = p.Score
	}
	turns := make(Turns, len(g.groupExp))
	scores := make([]float64, len(turns))
	for t := range turns {
		ts := &turns[t]
		ts.Turn, ts.Expected, ts.Called = t+1, g.groupExp[t], g.groupGot[t]
		if ts.Expected == nil {
			ts.Expected = []int{}
		}
		if ts.Called == nil {
			ts.Called = []int{}
		}
		tsum, full := 0.0, true
		for _, i := range ts.Expected {
			tsum += credit[i]
			full = full && credit[i] == 1
		}
		ts.Score = m.score(tsum, len(ts.Expected), len(ts.Called), full)
		ts.Success = ts.Score >= m.threshold
		scores[t] = ts.Score
	}
	return turns, aggregate(m.opts.TurnAggregate, scores, m.threshold)
}

// pairGroup pairs the expected calls ei with the called calls gi as the
// order option says, returning matches with the calls' case indices.
func (g *grading) pairGroup(ei, gi []int) []toolgrade.Match {
	if len(ei) == 0 || len(gi) == 0 {
		return nil
	}
	if g.m.opts.Order == OrderExact && g.holds(gi) {
		// A held call left unpaired is left out, and the calls after it
		// move up a place: it must not have taken one.
		pairs, greedy := positionalHeld(len(ei), len(gi), func(a, b int) float64 { return g.score(ei[a], gi[b]) }, func(b int) bool { return g.held[gi[b]] })
		for l := range pairs {
			pairs[l].Expected, pairs[l].Called = ei[pairs[l].Expected], gi[pairs[l].Called]
		}
		g.greedy = g.greedy || greedy
		return pairs
	}
	if len(ei)*len(gi) > MaxPairCells {
		pairs, greedy := pairStreaming(len(ei), len(gi), g.m.opts.Order, g.m.opts.Pairing, func(a, b int) float64 { return g.score(ei[a], gi[b]) })
		for l := range pairs {
			pairs[l].Expected, pairs[l].Called = ei[pairs[l].Expected], gi[pairs[l].Called]
		}
		g.greedy = g.greedy || greedy
		return pairs
	}
	scores := make([][]float64, len(ei))
	for a, i := range ei {
		scores[a] = make([]float64, len(gi))
		for b, j := range gi {
			scores[a][b] = g.score(i, j)
		}
	}
	var pairs []toolgrade.Match
	if o := &g.m.opts; (g.source != nil || g.holds(gi)) && o.Order == OrderAny && o.Pairing != PairingGreedy {
		pairs = Optimal(g.nudge(scores, ei, gi))
		for l := range pairs {
			pairs[l].Score = scores[pairs[l].Expected][pairs[l].Called]
		}
	} else {
		pairs = g.m.pairBy(nil, scores, false)
	}
	for l := range pairs {
		pairs[l].Expected, pairs[l].Called = ei[pairs[l].Expected], gi[pairs[l].Called]
	}
	return pairs
}

// feedNudge weighs a source call whose output later calls use: small
// enough to decide only between pairings of equal total (and, below
// tieNudge, after the preference for strong pairs).
const feedNudge = 1e-14

// heldNudge weighs a held call against a failed call that counts
// anyway: small enough to decide only between pairings of equal total,
// after the preference for strong pairs.
const heldNudge = 1e-13

// nudge breaks ties between pairings of equal total. Between called calls
// that could pair with an expected call other calls take a value from,
// the one whose output holds the value a later call of the dependent's
// tool carries wins: two identical lookups answered differently, then a
// cancel with the second answer's id, and the second lookup is the
// source. Between failed calls that could satisfy an expected failure,
// one that counts anyway wins over a held one, which is then left out:
// of the pairings of equal total, the one that counts the fewest calls.
func (g *grading) nudge(scores [][]float64, ei, gi []int) [][]float64 {
	nudged := make([][]float64, len(scores))
	for a, i := range ei {
		nudged[a] = slices.Clone(scores[a])
		for b, j := range gi {
			if scores[a][b] <= 0 {
				continue
			}
			if g.source != nil {
				nudged[a][b] += feedNudge * float64(g.feeds(i, j))
			}
			if g.held != nil && g.held[j] {
				nudged[a][b] -= heldNudge
			}
		}
	}
	return nudged
}

// feeds counts the from-rules naming expected call i as their source
// whose value, taken from called call j's output, some later call that
// could satisfy the rule's expected call carries: of its tool, in its
// turn, not left out, and of a status it takes. A call that could not
// (a failed call retried, say) must not choose the source, or the
// pairing would change with a call that counts for nothing.
func (g *grading) feeds(i, j int) int {
	n := 0
	for d := range g.c.Expected {
		e := &g.c.Expected[d]
		for path, r := range e.Rules {
			if r.From == nil || g.source[r.From] != i {
				continue
			}
			want, ok := lookup(g.c.Called[j].Output, r.From.Path)
			if !ok {
				continue
			}
			for l := j + 1; l < len(g.c.Called); l++ {
				c := &g.c.Called[l]
				if g.out[l] || g.m.name(c) != g.m.name(e) || g.turnOf(c) != g.turnOf(e) || !g.m.statusFits(e, c) {
					continue
				}
				if got, ok := lookup(c.Args, strings.Split(path, ".")); ok && jsonvalue.Equal(want, got) {
					n++
					break
				}
			}
		}
	}
	return n
}

// score is PairScore with the case's context: from-rules are resolved.
func (g *grading) score(i, j int) float64 {
	return g.m.pairScore(&g.c.Expected[i], &g.c.Called[j], g.from(j))
}

func (g *grading) diffs(i, j int) []toolgrade.ArgDiff {
	return g.m.diffsWith(&g.c.Expected[i], &g.c.Called[j], g.from(j))
}

// flows lists, for each paired expected call with from-rules, whether each
// such argument carried its source's value.
func (g *grading) flows(pairs []toolgrade.Match) Flows {
	if g.source == nil {
		return nil
	}
	var flows Flows
	for _, p := range pairs {
		e := &g.c.Expected[p.Expected]
		for _, path := range slices.Sorted(maps.Keys(e.Rules)) {
			ref := e.Rules[path].From
			if ref == nil {
				continue
			}
			f := Flow{From: g.partner[g.source[ref]], To: p.Called, Arg: path, Ref: ref.Text}
			want, why, _ := g.resolve(ref, p.Called)
			got, ok := lookup(g.c.Called[p.Called].Args, strings.Split(path, "."))
			f.OK = why == "" && ok && jsonvalue.Equal(want, got)
			flows = append(flows, f)
		}
	}
	return flows
}

// figures computes precision, recall and F1 from the total pair score, the
// number expected and the number called.
func figures(sum float64, n, k int) (precision, recall, f1 float64) {
	switch {
	case n == 0 && k == 0:
		return 1, 1, 1
	case n == 0 || k == 0:
		return 0, 0, 0
	}
	precision, recall = sum/float64(k), sum/float64(n)
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return precision, recall, f1
}

// score is the metric's score of a group of n expected and k called
// calls whose pairs add up to sum: the figure the scoring option picks,
// or, under order exact, 1 only when every expected call is paired in
// full (full) and nothing else was called.
func (m *ToolCorrectness) score(sum float64, n, k int, full bool) float64 {
	precision, recall, f1 := figures(sum, n, k)
	return m.pick(precision, recall, f1, n, k, full)
}

// pick is score with the figures of the group already computed.
func (m *ToolCorrectness) pick(precision, recall, f1 float64, n, k int, full bool) float64 {
	if n == 0 && k == 0 {
		return 1
	}
	switch {
	case m.opts.Order == OrderExact:
		if n == k && full {
			return 1
		}
		return 0
	case m.opts.Scoring == ScoringRecall:
		return recall
	case m.opts.Scoring == ScoringPrecision:
		return precision
	}
	return f1
}

// aggregate makes a case's score of its turns' scores.
func aggregate(how TurnAggregate, scores []float64, threshold float64) float64 {
	if len(scores) == 0 {
		return 1
	}
	switch how {
	case TurnMin:
		return slices.Min(scores)
	case TurnAll:
		for _, s := range scores {
			if s < threshold {
				return 0
			}
		}
		return 1
	}
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}

// describeTurns says how each turn scored, for the reason.
func describeTurns(b []byte, turns Turns, how TurnAggregate) []byte {
	passed := 0
	for _, t := range turns {
		if t.Success {
			passed++
		}
	}
	b = fmt.Appendf(b, "%d of %d turns passed (%s of", passed, len(turns), how)
	for i, t := range turns {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ' ')
		b = appendScore(b, t.Score)
	}
	return append(b, ')')
}
