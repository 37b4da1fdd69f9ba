package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "mastra",
		keys: []string{"steps"},
		read: readMastra,
		trace: func(o jsonvalue.Object) level {
			if !mastraTrajectory(o) {
				return no
			}
			// A step type only Mastra writes, or a key of its own beside
			// the steps, decides; steps of names alone (an expectation)
			// are a shape others may share.
			typed := slices.ContainsFunc(list(o, "steps"), func(s any) bool {
				t := str(s, "stepType")
				return t == "tool_call" || t == "mcp_tool_call" || slices.Contains(mastraStepTypes, t)
			})
			if typed || len(o) > 1 {
				return decisive
			}
			return weak
		},
	})
}

// readMastra reads a Mastra trajectory: a Trajectory {steps,
// totalDurationMs} as Mastra's evals extract it from a run, or a
// TrajectoryExpectation {steps, ordering, maxSteps, ...} of a dataset
// item. tool_call and mcp_tool_call steps are calls (name, toolArgs,
// toolResult; success false marks the call failed); an expected step
// without a stepType, which Mastra matches by name alone, is a call too.
// Model generations, agent runs, workflow and processor steps hold no
// calls, but their children do: a step's children (a list of steps, or in
// an expectation {steps, ...}) are read in place, after the step itself.
// A step of another type, and a tool step without a name, are skipped
// items.
//
// An expectation without steps (only budgets such as maxSteps, or
// nothing: {}) lists no calls at all, and is no trace: the mastra profile
// reads such expectations itself.
func readMastra(b *builder, v any) error {
	o, ok := v.(jsonvalue.Object)
	if !ok || !mastraTrajectory(o) {
		return wantError("a Mastra trajectory {steps: [...]}", v)
	}
	b.saw()
	return mastraSteps(b, list(o, "steps"), "steps")
}

// mastraStepTypes are the step types of a Mastra trajectory that hold no
// call themselves.
var mastraStepTypes = []string{
	"model_generation", "agent_run", "workflow_step", "workflow_run", "workflow_conditional",
	"workflow_parallel", "workflow_loop", "workflow_sleep", "workflow_wait_event", "processor_run",
}

func mastraSteps(b *builder, steps []any, path string) error {
	for i, s := range steps {
		p := index(path, i)
		t, typed := get(s, "stepType").(string)
		tool := !typed || t == "tool_call" || t == "mcp_tool_call"
		switch {
		case tool && !has(s, "name"):
			b.skip(s, p, "tool step without a name")
			continue
		case tool:
			n, err := name(s, "name", p)
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n}
			if t == "mcp_tool_call" {
				c.Type = "mcp"
			}
			args(&c, s, "toolArgs")
			k := b.add(s, c)
			if out, ok := first(s, "toolResult"); ok {
				b.give(k, out, get(s, "success") == false)
			} else if get(s, "success") == false {
				b.setFailed(k, nil)
			}
		case !slices.Contains(mastraStepTypes, t):
			b.skip(s, p, "step of type %q", t)
			continue
		default:
			// A model generation or an agent run may carry a name and
			// toolArgs; it is no call all the same.
			b.notCallItself(asObject(s), "a Mastra "+t+" step")
			b.saw()
		}
		kids, kidsPath := list(s, "children"), join(p, "children")
		if kids == nil {
			kids, kidsPath = list(get(s, "children"), "steps"), join(p, "children.steps")
		}
		if err := mastraSteps(b, kids, kidsPath); err != nil {
			return err
		}
	}
	return nil
}

// mastraKeys are the keys of a Mastra Trajectory and TrajectoryExpectation.
var mastraKeys = []string{
	"steps", "totalDurationMs", "ordering", "allowRepeatedSteps", "maxSteps", "maxTotalTokens",
	"maxTotalDurationMs", "noRedundantCalls", "blacklistedTools", "blacklistedSequences", "maxRetriesPerTool",
}

// mastraTrajectory says whether o is a Mastra trajectory or an
// expectation with steps: a list of steps, each with a name or a type,
// and no key Mastra's trajectories lack.
func mastraTrajectory(o jsonvalue.Object) bool {
	steps, ok := get(o, "steps").([]any)
	if !ok {
		return false
	}
	for _, m := range o {
		if !slices.Contains(mastraKeys, m.Key) {
			return false
		}
	}
	for _, s := range steps {
		if !has(s, "name") && !has(s, "stepType") {
			return false
		}
		for _, key := range []string{"name", "stepType"} {
			if v, ok := first(s, key); ok {
				if _, ok := v.(string); !ok {
					return false
				}
			}
		}
	}
	return true
}
