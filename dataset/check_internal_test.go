package dataset

import (
	"slices"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// TestCheckAgreesWithLists holds Checker.Check, which looks each key up
// once and finds NotGraded's keys by their ids, to the lists of the case
// format's keys: a case is an error when no field it sets is one that is
// graded, its unknown fields are counted, and each field it sets that
// NotGraded names gets a warning, in order.
func TestCheckAgreesWithLists(t *testing.T) {
	keys := slices.Concat(caseFields, peerFields, []string{"metadata", "x", "ID", "tool", "input ", "a_b_c_d_e_f_g_h"})
	rapid.Check(t, func(t *rapid.T) {
		notGraded := map[string]string{}
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys), rapid.ID).Draw(t, "not graded") {
			notGraded[k] = "why " + k
		}
		obj := jsonvalue.Object{} // nil is a case built in code: not checked
		for _, k := range rapid.SliceOfN(rapid.SampledFrom(keys), 0, 8).Draw(t, "keys") {
			var v any
			switch rapid.IntRange(0, 2).Draw(t, "value") {
			case 1:
				v = "v"
			case 2:
				v = []any{}
			}
			obj = append(obj, jsonvalue.Member{Key: k, Value: v})
		}
		graded, want := false, []string(nil)
		var unknown []string
		for _, m := range obj {
			isList := false
			if _, ok := m.Value.([]any); ok {
				isList = true
			}
			if slices.Contains(gradeFields, m.Key) && (m.Value != nil || m.Key == "output") && (m.Key != "user_input" || isList) {
				graded = true
			}
			if !slices.Contains(caseFields, m.Key) && !slices.Contains(peerFields, m.Key) && !slices.Contains(unknown, m.Key) {
				unknown = append(unknown, m.Key)
			}
			if why, ok := notGraded[m.Key]; ok && m.Value != nil {
				want = append(want, "field "+m.Key+" is not graded: "+why)
			}
		}
		ch := &Checker{NotGraded: notGraded}
		c := &toolgrade.Case{Raw: obj}
		err := ch.Check(c)
		if graded != (err == nil) {
			t.Fatalf("Check = %v, want graded %v", err, graded)
		}
		if !graded {
			return
		}
		if !slices.Equal(c.Warnings, want) {
			t.Fatalf("warnings %q, want %q", c.Warnings, want)
		}
		var got []string
		for _, f := range ch.Ignored() {
			got = append(got, f.Field)
		}
		slices.Sort(got)
		slices.Sort(unknown)
		if !slices.Equal(got, unknown) {
			t.Fatalf("ignored %q, want %q", got, unknown)
		}
	})
}
