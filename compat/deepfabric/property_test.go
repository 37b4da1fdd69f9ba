package deepfabric_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/compat/deepfabric"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestDeepFabricDefaultWeights(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		multi := rapid.Bool().Draw(t, "multi")
		m, _ := deepfabric.New(deepfabric.Options{MultiTurn: multi})
		r := m.Grade(context.Background(), &toolgrade.Case{Expected: conformance.CallsGen.Draw(t, "expected"), Called: conformance.CallsGen.Draw(t, "called")})
		c := toolgrade.DetailOf[toolgrade.Components](&r)
		want := float64(c["tool_selection"]*0.40) + float64(c["parameter_accuracy"]*0.35) + float64(c["execution_success"]*0.25)
		if r.Error != "" || r.Score != want {
			t.Fatalf("score %v, want %v from %v (error %q)", r.Score, want, c, r.Error)
		}
		if !multi && c["execution_success"] > min(c["tool_selection"], c["parameter_accuracy"]) {
			t.Fatalf("single-turn execution success without selection and parameters: %v", c)
		}
	})
}

// FuzzDeepFabricCase feeds arbitrary JSON to the deepfabric profile, which
// reads calls, samples and tool definitions itself: it must never panic,
// and must give either an error or all six components.
func FuzzDeepFabricCase(f *testing.F) {
	for _, s := range []string{
		`{"expected_tools":[{"name":"a","args":{"x":1}}],"tools_called":[{"name":"a","args":{"x":"1"}}],"available_tools":[{"name":"a","parameters":[{"name":"x","type":"int","required":true}]}]}`,
		`{"expected_tools":[],"tools_called":[],"available_tools":[{"type":"function","function":{"name":"a","parameters":{"properties":{"x":{"type":["string"]},"y":null},"required":["x","z"]}}}]}`,
		`{"samples":[{"expected_tools":[{"name":"a","args":{"q":""}}],"tools_called":[{"name":"a","args":null}],"final_response":" "}]}`,
		`{"samples":[{"available_tools":[{"name":"a","parameters":[{"name":"x"}]}]}]}`,
		`{"available_tools":{"name":"a"}}`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, js string, multi bool) {
		v, err := jsonvalue.ParseString(js)
		if err != nil {
			return
		}
		obj, ok := v.(jsonvalue.Object)
		if !ok {
			return
		}
		c := &toolgrade.Case{Raw: obj}
		if v, ok := obj.Get("tools_called"); ok {
			if c.Called, err = compat.DecodeCalls(v); err != nil {
				return
			}
		}
		if v, ok := obj.Get("expected_tools"); ok {
			if c.Expected, err = compat.DecodeCalls(v); err != nil {
				return
			}
		}
		m, _ := deepfabric.New(deepfabric.Options{MultiTurn: multi})
		r := m.Grade(context.Background(), c)
		if r.Error == "" && len(toolgrade.DetailOf[toolgrade.Components](&r)) != 6 {
			t.Fatalf("components %v", toolgrade.DetailOf[toolgrade.Components](&r))
		}
	})
}
