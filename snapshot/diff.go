package snapshot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Diff says how the case's expected calls changed, one line per change,
// for a person to review before committing the cases file:
//
//	input: "Cancel W1" → "Cancel W2"
//	+ #2 send_email({"to":"ana@example.com"})
//	- #2 log_event({"level":"info"})
//	~ #1 cancel_order: args.reason: "late" → "lost"; rules.order_id: {"from":"find_order.output.id"} added
//
// Calls are aligned by tool name, in order (the longest common
// subsequence, as diff aligns lines); an aligned pair that differs in
// arguments, status, turn or rules is one "~" line naming each path that
// changed. Indexes are the old case's for removed calls and the new one's
// otherwise. A new case is one line listing its calls; a case whose
// expected calls did not change gives none.
func (c *Change) Diff() []string {
	newCalls := calls(c.New)
	if c.Old == nil {
		names := make([]string, len(newCalls))
		for i, call := range newCalls {
			names[i], _ = getString(call, "name")
		}
		if len(names) == 0 {
			return []string{"new case, expecting no calls"}
		}
		return []string{fmt.Sprintf("new case, %d expected %s: %s", len(names), plural(len(names), "call", "calls"), strings.Join(names, ", "))}
	}
	var out []string
	oldIn, oOK := c.Old.Get("input")
	newIn, nOK := c.New.Get("input")
	valueDiff("input", oldIn, oOK, newIn, nOK, &out)
	oldCalls := calls(c.Old)
	a, b := callNames(oldCalls), callNames(newCalls)
	m := difflib.NewMatcherWithJunk(a, b, false, nil)
	for _, op := range m.GetOpCodes() {
		switch op.Tag {
		case 'e':
			for k := range op.I2 - op.I1 {
				if d := callDiff(oldCalls[op.I1+k], newCalls[op.J1+k]); d != "" {
					out = append(out, fmt.Sprintf("~ #%d %s: %s", op.J1+k, b[op.J1+k], d))
				}
			}
		default: // 'r', 'd', 'i'
			for i := op.I1; i < op.I2; i++ {
				out = append(out, fmt.Sprintf("- #%d %s", i, callText(oldCalls[i])))
			}
			for j := op.J1; j < op.J2; j++ {
				out = append(out, fmt.Sprintf("+ #%d %s", j, callText(newCalls[j])))
			}
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// calls returns a case's expected calls as objects.
func calls(cs jsonvalue.Object) []jsonvalue.Object {
	v, _ := cs.Get("expected_tools")
	list, _ := v.([]any)
	out := make([]jsonvalue.Object, 0, len(list))
	for _, e := range list {
		o, _ := e.(jsonvalue.Object)
		out = append(out, o)
	}
	return out
}

func callNames(calls []jsonvalue.Object) []string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i], _ = getString(c, "name")
	}
	return names
}

func getString(o jsonvalue.Object, key string) (string, bool) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	return s, ok
}

// callText writes a call as name(args) for a diff line.
func callText(c jsonvalue.Object) string {
	name, _ := getString(c, "name")
	args, ok := c.Get("args")
	if !ok {
		return name + "()"
	}
	return name + "(" + jsonvalue.Format(args) + ")"
}

// callDiff lists what differs between two calls of one tool: each
// argument path, and the status, turn and rules; "" when nothing does. An
// argument that the same rule covers on both sides is not compared: the
// rule, not the value recorded, is what the case checks.
func callDiff(old, new jsonvalue.Object) string {
	var parts []string
	oldRules, _ := old.Get("rules")
	newRules, _ := new.Get("rules")
	oldArgs, oOK := old.Get("args")
	newArgs, nOK := new.Get("args")
	if o, ok := oldRules.(jsonvalue.Object); ok {
		n, _ := newRules.(jsonvalue.Object)
		for _, m := range o {
			if nr, ok := n.Get(m.Key); ok && jsonvalue.Equal(m.Value, nr) {
				oldArgs, newArgs = without(oldArgs, m.Key), without(newArgs, m.Key)
			}
		}
	}
	valueDiff("args", oldArgs, oOK, newArgs, nOK, &parts)
	for _, key := range []string{"type", "status", "turn", "rules"} {
		ov, oOK := old.Get(key)
		nv, nOK := new.Get(key)
		valueDiff(key, ov, oOK, nv, nOK, &parts)
	}
	return strings.Join(parts, "; ")
}

// without returns args without the value at a rule's path ("a.0.b"),
// leaving args itself as it was.
func without(args any, path string) any {
	key, rest, nested := strings.Cut(path, ".")
	switch a := args.(type) {
	case jsonvalue.Object:
		out := make(jsonvalue.Object, 0, len(a))
		for _, m := range a {
			switch {
			case m.Key != key:
				out = append(out, m)
			case nested:
				out = append(out, jsonvalue.Member{Key: m.Key, Value: without(m.Value, rest)})
			}
		}
		return out
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(a) || !nested {
			return args // a rule names object members only
		}
		out := append([]any(nil), a...)
		out[i] = without(a[i], rest)
		return out
	}
	return args
}

// maxDiffParts bounds the paths one call's diff lists.
const maxDiffParts = 20

// valueDiff adds a part for each path under which two values differ:
// objects member by member, lists element by element when as long.
func valueDiff(path string, old any, oldOK bool, new any, newOK bool, parts *[]string) {
	add := func(s string) {
		switch {
		case len(*parts) < maxDiffParts:
			*parts = append(*parts, s)
		case len(*parts) == maxDiffParts:
			*parts = append(*parts, "and more")
		}
	}
	switch {
	case !oldOK && !newOK:
		return
	case !oldOK:
		add(path + ": " + jsonvalue.Format(new) + " added")
		return
	case !newOK:
		add(path + ": " + jsonvalue.Format(old) + " removed")
		return
	case jsonvalue.Equal(old, new):
		return
	}
	switch o := old.(type) {
	case jsonvalue.Object:
		if n, ok := new.(jsonvalue.Object); ok {
			for _, m := range o {
				nv, ok := n.Get(m.Key)
				valueDiff(path+"."+m.Key, m.Value, true, nv, ok, parts)
			}
			for _, m := range n {
				if !o.Has(m.Key) {
					valueDiff(path+"."+m.Key, nil, false, m.Value, true, parts)
				}
			}
			return
		}
	case []any:
		if n, ok := new.([]any); ok && len(n) == len(o) {
			for i := range o {
				valueDiff(path+"."+strconv.Itoa(i), o[i], true, n[i], true, parts)
			}
			return
		}
	}
	add(path + ": " + jsonvalue.Format(old) + " → " + jsonvalue.Format(new))
}
