package process

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// maxDescribed bounds the breaches a rule's reason describes one by one;
// Breaches always lists them all.
const maxDescribed = 10

// Check checks the rule against the calls an agent made, in order. The
// verdict's Breaches are the indexes of the calls that break the rule, in
// order, and its Reason says why in words; the rule is kept when there
// are none:
//
//   - before: each call to B that has no call to A since the previous B
//     (since the start, for the first B); once_before: each call to B with
//     no call to A anywhere before it;
//   - after: each call to A with no call to B anywhere after it;
//   - never: each call to X;
//   - never_after: each call to Y after the first call to X;
//   - at_most: the calls to X after the first n;
//   - no_repeat: each call with the same name and equal arguments as the
//     call just before it (arguments that were not valid JSON compare as
//     text);
//   - max_calls: the calls after the first n.
//
// A call that failed ([toolgrade.Call.Failed]) was tried but not done.
// Tried calls count against a rule: a failed B still needs its A, and a
// failed call still counts for never, never_after's Y, at_most, no_repeat
// and max_calls. Only calls done satisfy or trigger a rule: a failed A
// licenses no B (a confirmation that failed is none), a failed B does not
// follow up an A, a failed A of after needs no follow-up (the action did
// not happen), and a failed X of never_after forbids nothing (after a
// failed hand-off the agent must go on).
//
// A call that matches both A and B counts as the call the rule asks for:
// an A for before and once_before (so before: [login, "*"] does not ask
// login to follow itself), a B for after. With no calls, every rule is
// kept.
func (r Rule) Check(calls []toolgrade.Call) RuleCheck {
	var breaches []int
	var why []string
	label := func(j int) string { return calls[j].Name + " (#" + strconv.Itoa(j) + ")" }
	breach := func(j int, msg string) {
		breaches = append(breaches, j)
		why = append(why, msg)
	}
	switch r.Kind {
	case Before, OnceBefore:
		licensed, prevB, failedA := false, -1, -1
		for j := range calls {
			c := &calls[j]
			switch {
			case r.A.Match(c.Name):
				if c.Failed() {
					failedA = j
				} else {
					licensed = true
				}
			case r.B.Match(c.Name):
				if !licensed {
					msg := label(j) + " has no " + r.A.words()
					if r.Kind == Before && prevB >= 0 {
						msg += " since " + label(prevB)
					} else {
						msg += " before it"
					}
					if failedA >= 0 {
						msg += " (" + label(failedA) + " failed)"
					}
					breach(j, msg)
				}
				if r.Kind == Before {
					licensed, failedA = false, -1
				}
				prevB = j
			}
		}
	case After:
		var pending []int
		for j := range calls {
			c := &calls[j]
			switch {
			case r.B.Match(c.Name):
				if !c.Failed() {
					pending = pending[:0]
				}
			case r.A.Match(c.Name) && !c.Failed():
				pending = append(pending, j)
			}
		}
		for _, j := range pending {
			msg := label(j) + " is not followed by " + r.B.words()
			for k := j + 1; k < len(calls); k++ {
				if r.B.Match(calls[k].Name) { // it failed, or j would not be pending
					msg += " (" + label(k) + " failed)"
					break
				}
			}
			breach(j, msg)
		}
	case Never:
		for j := range calls {
			if r.A.Match(calls[j].Name) {
				breach(j, label(j)+" called")
			}
		}
	case NeverAfter:
		trigger := -1
		for j := range calls {
			c := &calls[j]
			switch {
			case trigger >= 0 && r.B.Match(c.Name):
				breach(j, label(j)+" called after "+label(trigger))
			case trigger < 0 && r.A.Match(c.Name) && !c.Failed():
				trigger = j
			}
		}
	case AtMost:
		var matched []int
		for j := range calls {
			if r.A.Match(calls[j].Name) {
				matched = append(matched, j)
			}
		}
		if len(matched) > r.N {
			breaches = matched[r.N:]
			why = []string{countCalls(len(matched)) + " to " + r.A.words() + " (" + positions(matched) + "), " + limit(r.N)}
		}
	case NoRepeat:
		for j := 1; j < len(calls); j++ {
			if same(&calls[j-1], &calls[j]) {
				breach(j, label(j)+" repeats #"+strconv.Itoa(j-1)+" with the same arguments")
			}
		}
	case MaxCalls:
		if len(calls) > r.N {
			for j := r.N; j < len(calls); j++ {
				breaches = append(breaches, j)
			}
			why = []string{countCalls(len(calls)) + ", " + limit(r.N)}
		}
	}
	rc := RuleCheck{Rule: r.String(), Kept: len(breaches) == 0, Breaches: breaches}
	if len(why) > maxDescribed {
		why = append(why[:maxDescribed:maxDescribed], "and "+strconv.Itoa(len(why)-maxDescribed)+" more")
	}
	rc.Reason = strings.Join(why, ", ")
	return rc
}

// same reports whether two calls are the same call: the same name and
// equal arguments, or the same text for arguments that were not valid
// JSON.
func same(a, b *toolgrade.Call) bool {
	if a.Name != b.Name || a.Invalid != b.Invalid {
		return false
	}
	if a.Invalid {
		return a.ArgsRaw == b.ArgsRaw
	}
	return jsonvalue.Equal(a.Args, b.Args)
}

// countCalls writes "1 call" or "n calls".
func countCalls(n int) string {
	if n == 1 {
		return "1 call"
	}
	return strconv.Itoa(n) + " calls"
}

// limit writes the limit of at_most and max_calls.
func limit(n int) string {
	if n == 0 {
		return "none allowed"
	}
	return "at most " + strconv.Itoa(n)
}

// positions writes call indexes as "#2, #4, #6", the first few only.
func positions(js []int) string {
	var b []byte
	for i, j := range js {
		if i == maxDescribed {
			return string(append(b, ", ..."...))
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '#')
		b = strconv.AppendInt(b, int64(j), 10)
	}
	return string(b)
}
