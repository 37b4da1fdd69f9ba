package mastra

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// comparableFields are the fields of each step type that a step match
// compares when the expected step has that type and carries the field.
var comparableFields = map[string][]string{
	"tool_call":            {"toolArgs", "toolResult", "success"},
	"mcp_tool_call":        {"toolArgs", "toolResult", "mcpServer", "success"},
	"model_generation":     {"modelId", "promptTokens", "completionTokens", "finishReason"},
	"agent_run":            {"agentId"},
	"workflow_step":        {"stepId", "status", "output"},
	"workflow_run":         {"workflowId", "status"},
	"workflow_conditional": {"conditionCount", "selectedSteps"},
	"workflow_parallel":    {"branchCount", "parallelSteps"},
	"workflow_loop":        {"loopType", "totalIterations"},
	"workflow_sleep":       {"sleepDurationMs", "sleepType"},
	"workflow_wait_event":  {"eventName", "eventReceived"},
	"processor_run":        {"processorId"},
}

// field is step[key], throwing as JavaScript does where step is null or
// undefined.
func field(step any, key string) (any, error) {
	if js.Nullish(step) {
		return nil, typeError(fmt.Sprintf("cannot read properties of %s (reading '%s')", nullName(step), key))
	}
	return js.Field(step, key), nil
}

func nullName(v any) string {
	if js.IsUndefined(v) {
		return "undefined"
	}
	return "null"
}

// stepsOf is trajectory.steps, which must be a list.
func stepsOf(trajectory any, what string) ([]any, error) {
	s, err := field(trajectory, "steps")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	steps, ok := s.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: %w", what, typeError(fmt.Sprintf("steps is %s, not a list", describe(s))))
	}
	return steps, nil
}

func describe(v any) string {
	if js.IsUndefined(v) {
		return "missing"
	}
	return jsonvalue.Kind(v)
}

// stepNames maps steps to their names (undefined where a step has none).
func stepNames(steps []any, what string) ([]any, error) {
	out := make([]any, len(steps))
	for i, s := range steps {
		n, err := field(s, "name")
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		out[i] = n
	}
	return out, nil
}

// stepMatches is Mastra's expectedStepMatches: equal names (===); when
// the expected step has a stepType, the same type, and every comparable
// field of that type that the expected step carries present on the actual
// step with the same JSON.stringify text.
func stepMatches(actual, expected any) (bool, []string, error) {
	an, err := field(actual, "name")
	if err != nil {
		return false, nil, err
	}
	en, err := field(expected, "name")
	if err != nil {
		return false, nil, err
	}
	if !js.StrictEqual(an, en) {
		return false, []string{"name"}, nil
	}
	st := js.Field(expected, "stepType")
	if !js.Truthy(st) {
		return true, nil, nil
	}
	if !js.StrictEqual(js.Field(actual, "stepType"), st) {
		return false, []string{"stepType"}, nil
	}
	name, _ := st.(string)
	if js.Inherited(name) {
		// COMPARABLE_FIELDS_BY_TYPE[stepType] finds an inherited member,
		// which for...of cannot walk.
		return false, nil, typeError(fmt.Sprintf("COMPARABLE_FIELDS_BY_TYPE[%q] is not iterable", name))
	}
	var differ []string
	for _, f := range comparableFields[name] {
		want := js.Field(expected, f)
		if js.IsUndefined(want) {
			continue
		}
		got := js.Field(actual, f)
		if js.IsUndefined(got) {
			return false, []string{f + " (missing)"}, nil
		}
		a, _ := js.Stringify(got)
		e, _ := js.Stringify(want)
		if a != e {
			differ = append(differ, f)
			return false, differ, nil
		}
	}
	return true, nil, nil
}

// A comparison is compareTrajectories' result, with what the reason
// needs.
type comparison struct {
	score            float64
	matched, total   int
	missing          []any // names of expected steps left unmatched
	repeated         []any // names that occur more than once among the actual steps
	repeatPenalty    bool
	extraSteps       int // strict mode: steps past the expected list's length
	ordering         string
	notes            []string // data differences of same-name pairs
	unnamedQuirkHits int      // strict: nameless steps past the end counted as matches
}

// compareTrajectories is Mastra's compareTrajectories of actual's steps
// with the expected steps: strict, unordered, or relaxed (any other
// ordering), with 0.1 off per repeated name when repeats are not allowed
// (allowRepeated falsy), clamped to [0, 1] and rounded to two decimals.
func compareTrajectories(actual []any, expected any, ordering, allowRepeated any) (comparison, error) {
	if js.IsUndefined(allowRepeated) {
		allowRepeated = true
	}
	if js.IsUndefined(ordering) {
		ordering = "relaxed"
	}
	c := comparison{ordering: "relaxed"}
	if js.StrictEqual(ordering, "strict") || js.StrictEqual(ordering, "unordered") {
		c.ordering = ordering.(string)
	}
	exp, isList := expected.([]any)
	if isList && len(exp) == 0 {
		if _, err := stepNames(actual, "trajectory.steps"); err != nil {
			return c, err
		}
		if len(actual) == 0 {
			c.score = 1
		}
		return c, nil
	}
	an, err := stepNames(actual, "trajectory.steps")
	if err != nil {
		return c, err
	}
	if !isList {
		return c, typeError(fmt.Sprintf("expected steps are %s, not a list (expected.steps.map is not a function)", describe(expected)))
	}
	en, err := stepNames(exp, "expected steps")
	if err != nil {
		return c, err
	}
	c.total = len(exp)
	counts, order := map[string]int{}, []string{}
	first := map[string]any{}
	for i, n := range an {
		k := js.Key(n, i)
		if counts[k] == 0 {
			order = append(order, k)
			first[k] = n
		}
		counts[k]++
	}
	for _, k := range order {
		if counts[k] > 1 {
			c.repeated = append(c.repeated, first[k])
		}
	}
	matchedE := make([]bool, len(exp))
	note := func(i int, differ []string) {
		if len(differ) > 0 {
			c.notes = append(c.notes, fmt.Sprintf("expected step %d (%s) differs in %s", i+1, label(en[i]), strings.Join(differ, ", ")))
		}
	}
	score := 0.0
	switch c.ordering {
	case "strict":
		for i := range max(len(an), len(en)) {
			var a, e any = js.Undefined{}, js.Undefined{}
			if i < len(an) {
				a = an[i]
			}
			if i < len(en) {
				e = en[i]
			}
			if !js.StrictEqual(a, e) {
				continue
			}
			if i < len(actual) && i < len(exp) && js.Truthy(actual[i]) && js.Truthy(exp[i]) {
				ok, differ, err := stepMatches(actual[i], exp[i])
				if err != nil {
					return c, err
				}
				if !ok {
					note(i, differ)
					continue
				}
			} else if i >= len(exp) {
				c.unnamedQuirkHits++
			}
			c.matched++
			if i < len(exp) {
				matchedE[i] = true
			}
		}
		score = float64(c.matched) / float64(len(exp))
		if len(an) > len(en) {
			c.extraSteps = len(an) - len(en)
			penalty := float64(len(an)-len(en)) / float64(len(en))
			score = math.Max(0, score-penalty*0.5)
		}
	case "unordered":
		used := make([]bool, len(actual))
		for i := range exp {
			for j := range actual {
				if used[j] {
					continue
				}
				ok, differ, err := stepMatches(actual[j], exp[i])
				if err != nil {
					return c, err
				}
				if ok {
					c.matched++
					matchedE[i], used[j] = true, true
					break
				}
				if js.StrictEqual(an[j], en[i]) {
					note(i, differ)
				}
			}
		}
		score = float64(c.matched) / float64(len(exp))
	default:
		last := -1
		for i := range en {
			for j := last + 1; j < len(an); j++ {
				if !js.StrictEqual(an[j], en[i]) {
					continue
				}
				if js.Truthy(actual[j]) && js.Truthy(exp[i]) {
					ok, differ, err := stepMatches(actual[j], exp[i])
					if err != nil {
						return c, err
					}
					if !ok {
						note(i, differ)
						continue
					}
				}
				c.matched++
				last, matchedE[i] = j, true
				break
			}
		}
		score = float64(c.matched) / float64(len(exp))
	}
	for i, ok := range matchedE {
		if !ok {
			c.missing = append(c.missing, en[i])
		}
	}
	if !js.Truthy(allowRepeated) && len(c.repeated) > 0 {
		c.repeatPenalty = true
		score = math.Max(0, score-float64(len(c.repeated))*0.1)
	}
	c.score = round2(clamp(score))
	return c, nil
}

func clamp(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// round2 is Mastra's roundToTwoDecimals: Math.round((x + EPSILON) × 100)
// / 100.
func round2(x float64) float64 { return js.MathRound((x+0x1p-52)*100) / 100 }

// label names a step by its name for reasons.
func label(name any) string {
	if s, ok := name.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return js.ToString(name)
}

func labels(names []any) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = label(n)
	}
	return strings.Join(parts, ", ")
}

// isMeasurement is Mastra's check of a budget or a measurement: a finite
// number that is not negative.
func isMeasurement(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f := js.Number(n)
	return !math.IsInf(f, 0) && !math.IsNaN(f) && f >= 0
}

// num is a value known to be a number, as a float.
func num(v any) float64 {
	n, _ := v.(json.Number)
	return js.Number(n)
}

// efficiency is checkTrajectoryEfficiency: each budget set scores 1 when
// kept, else 1 − overrun/limit (at least 0); redundancy scores 1 − 0.2 per
// adjacent identical tool call; the mean, rounded to two decimals. A
// budget that is no finite non-negative number, or a measurement it needs
// that is missing, throws.
type efficiencyResult struct {
	score    float64
	parts    []string
	redunant int
}

func efficiency(steps []any, total any, maxSteps, maxTokens, maxDuration, noRedundant any) (efficiencyResult, error) {
	var r efficiencyResult
	for _, b := range []struct {
		name  string
		limit any
	}{{"maxSteps", maxSteps}, {"maxTotalTokens", maxTokens}, {"maxTotalDurationMs", maxDuration}} {
		if !js.IsUndefined(b.limit) && !isMeasurement(b.limit) {
			return r, fmt.Errorf("invalid %s budget: expected a finite nonnegative number, got %s", b.name, js.ToString(b.limit))
		}
	}
	if js.IsUndefined(noRedundant) {
		noRedundant = true
	}
	// Tokens over every model generation, nested ones included.
	tokens, generations := 0.0, 0
	stack := append([]any(nil), steps...)
	for len(stack) > 0 {
		step := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st, err := field(step, "stepType")
		if err != nil {
			return r, err
		}
		if js.StrictEqual(st, "model_generation") {
			generations++
			p, c := js.Field(step, "promptTokens"), js.Field(step, "completionTokens")
			if !js.IsUndefined(maxTokens) && (!isMeasurement(p) || !isMeasurement(c)) {
				return r, fmt.Errorf("cannot evaluate token budget: model generation %s has missing or invalid token counts", label(js.Field(step, "name")))
			}
			if isMeasurement(p) {
				tokens += num(p)
			}
			if isMeasurement(c) {
				tokens += num(c)
			}
		}
		if children := js.Field(step, "children"); js.Truthy(children) {
			kids, ok := js.Iterate(children)
			if !ok {
				return r, typeError("step.children is not iterable")
			}
			for _, k := range kids {
				if _, isString := k.(string); isString {
					continue // a character of a string: no step type, no children
				}
				stack = append(stack, k)
			}
		}
	}
	if !js.IsUndefined(maxTokens) && generations == 0 {
		return r, errors.New("cannot evaluate token budget: missing model-generation measurements or invalid total tokens")
	}
	duration := 0.0
	if !js.IsUndefined(maxDuration) {
		has := false
		if !js.IsUndefined(total) {
			has = isMeasurement(total)
		} else {
			has = len(steps) > 0
			for _, s := range steps {
				has = has && isMeasurement(js.Field(s, "durationMs"))
			}
		}
		if !has {
			return r, errors.New("cannot evaluate duration budget: missing or invalid duration measurements")
		}
		if !js.IsUndefined(total) {
			duration = num(total)
		} else {
			for _, s := range steps {
				duration += num(js.Field(s, "durationMs"))
			}
		}
	}
	var dims []float64
	budget := func(what string, value float64, limit any) {
		l := num(limit)
		if value > l {
			dims = append(dims, math.Max(0, 1-(value-l)/l))
			r.parts = append(r.parts, fmt.Sprintf("%s %s over the budget of %s", what, js.FormatNumber(value), js.FormatNumber(l)))
		} else {
			dims = append(dims, 1)
		}
	}
	if !js.IsUndefined(maxSteps) {
		budget("steps", float64(len(steps)), maxSteps)
	}
	if !js.IsUndefined(maxTokens) {
		budget("tokens", tokens, maxTokens)
	}
	if !js.IsUndefined(maxDuration) {
		budget("duration (ms)", duration, maxDuration)
	}
	if js.Truthy(noRedundant) {
		for i := 1; i < len(steps); i++ {
			prev, cur := steps[i-1], steps[i]
			pt := js.Field(prev, "stepType")
			if !js.StrictEqual(js.Field(prev, "name"), js.Field(cur, "name")) || !js.StrictEqual(pt, js.Field(cur, "stepType")) ||
				!(js.StrictEqual(pt, "tool_call") || js.StrictEqual(pt, "mcp_tool_call")) {
				continue
			}
			a, aok := js.Stringify(js.Field(prev, "toolArgs"))
			b, bok := js.Stringify(js.Field(cur, "toolArgs"))
			if aok == bok && a == b {
				r.redunant++
			}
		}
		if r.redunant == 0 {
			dims = append(dims, 1)
		} else {
			dims = append(dims, math.Max(0, 1-float64(r.redunant)*0.2))
			r.parts = append(r.parts, fmt.Sprintf("%d redundant call(s) (the same tool with the same arguments right after itself)", r.redunant))
		}
	}
	score := 1.0
	if len(dims) > 0 {
		sum := 0.0
		for _, d := range dims {
			sum += d
		}
		score = sum / float64(len(dims))
	}
	r.score = round2(clamp(score))
	return r, nil
}

// blacklist is checkTrajectoryBlacklist: 0 when a step name is one of the
// forbidden tools or a forbidden sequence occurs contiguously in the step
// names, else 1.
func blacklist(names []any, tools, sequences any) (float64, []string, error) {
	if js.IsUndefined(tools) {
		tools = []any{}
	}
	if js.IsUndefined(sequences) {
		sequences = []any{}
	}
	ts, ok := js.Iterate(tools)
	if !ok {
		return 0, nil, typeError("blacklistedTools is not iterable")
	}
	ss, ok := js.Iterate(sequences)
	if !ok {
		return 0, nil, typeError("blacklistedSequences is not iterable")
	}
	var hits []string
	for _, f := range ts {
		for _, n := range names {
			if js.StrictEqual(n, f) {
				hits = append(hits, "forbidden tool "+label(f))
				break
			}
		}
	}
	for _, seq := range ss {
		if js.Nullish(seq) {
			return 0, nil, typeError("cannot read properties of null (reading 'length')")
		}
		n, ok := js.Length(seq)
		if !ok || n == 0 {
			continue // a length of undefined compares false: never found
		}
		var elems []any
		switch seq := seq.(type) {
		case []any:
			elems = seq
		case string:
			for _, u := range js.UTF16(seq) {
				elems = append(elems, string(rune(u)))
			}
		}
		for i := 0; i <= len(names)-n; i++ {
			match := true
			for j := range n {
				if !js.StrictEqual(names[i+j], elems[j]) {
					match = false
					break
				}
			}
			if match {
				hits = append(hits, "forbidden sequence "+labels(elems))
				break
			}
		}
	}
	if len(hits) > 0 {
		return 0, hits, nil
	}
	return 1, nil, nil
}

// toolFailures is analyzeToolFailures: over the tool_call and
// mcp_tool_call steps, each run of consecutive calls of one tool counts a
// retry for every call that follows a call with success false; retries
// beyond maxRetries per run cost 0.2 each. patterns is the number of runs
// with a retry: the dimension counts only when there is one.
func toolFailures(steps []any, maxRetries any) (score float64, patterns, retries int, err error) {
	if js.IsUndefined(maxRetries) {
		maxRetries = json2()
	}
	limit := js.ToNumber(maxRetries)
	var calls []any
	for _, s := range steps {
		st, err := field(s, "stepType")
		if err != nil {
			return 0, 0, 0, err
		}
		if js.StrictEqual(st, "tool_call") || js.StrictEqual(st, "mcp_tool_call") {
			calls = append(calls, s)
		}
	}
	if len(calls) == 0 {
		return 1, 0, 0, nil
	}
	excess := 0.0
	for i := 0; i < len(calls); {
		name := js.Field(calls[i], "name")
		n, j := 0, i+1
		for ; j < len(calls) && js.StrictEqual(js.Field(calls[j], "name"), name); j++ {
			if js.StrictEqual(js.Field(calls[j-1], "success"), false) {
				n++
			}
		}
		if n > 0 {
			patterns++
			retries += n
			excess += math.Max(0, float64(n)-limit)
		}
		i = j
	}
	s := math.Max(0, 1-excess*0.2)
	return round2(clamp(s)), patterns, retries, nil
}

func json2() any { return json.Number("2") }
