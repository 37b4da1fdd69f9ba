package trajectorymatch_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/agentevals"
	"github.com/toolgrade/toolgrade/compat/internal/trajectorymatch"
	"github.com/toolgrade/toolgrade/compat/openevals"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// FuzzTrajectoryMatch checks that any pair of JSON trajectories gives a
// verdict or an error, never a panic, for both peers in every trajectory
// and argument mode.
func FuzzTrajectoryMatch(f *testing.F) {
	f.Add(`[{"role":"assistant","tool_calls":[{"function":{"name":"a","arguments":"{\"x\":[1,{}]}"}}]}]`,
		`[{"role":"assistant","tool_calls":[{"function":{"name":"a","arguments":"{\"x\":{\"0\":1,\"1\":{}}}"}}]}]`)
	f.Add(`{"messages":[{"role":"assistant","tool_calls":[{"name":"a","args":{"x":1}}]}]}`, `[{"role":"user"}]`)
	f.Add(`[{"tool_calls":[{"function":{"arguments":"[1,2]"}}]}]`, `[{"tool_calls":[{"function":{"arguments":"null"}}]}]`)
	f.Add(`{"role":"assistant","content":null,"messages":7,"tool_calls":[{"function":{"name":"k","arguments":"{\"x\":null}"}}]}`,
		`{"messages":[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"k","arguments":"{}"}}]}]}`)
	var metrics []toolgrade.Metric
	for _, mode := range []trajectorymatch.TrajectoryMode{"strict", "unordered", "subset", "superset"} {
		for _, args := range []trajectorymatch.ArgsMode{"exact", "subset", "superset"} {
			opts := trajectorymatch.Options{TrajectoryMatchMode: mode, ToolArgsMatchMode: args,
				ToolArgsMatchOverrides: map[string]trajectorymatch.Override{"k": {Keys: []string{"x.0", "x.length"}}}}
			a, err := agentevals.New(opts)
			if err != nil {
				f.Fatal(err)
			}
			o, err := openevals.New(opts)
			if err != nil {
				f.Fatal(err)
			}
			metrics = append(metrics, a, o)
		}
	}
	f.Fuzz(func(t *testing.T, out, ref string) {
		ov, err1 := jsonvalue.ParseString(out)
		rv, err2 := jsonvalue.ParseString(ref)
		if err1 != nil || err2 != nil {
			return
		}
		for _, m := range metrics {
			r := m.Grade(context.Background(), &toolgrade.Case{Trajectory: ov, ExpectedTrajectory: rv})
			if r.Error == "" && (r.Score != 0 && r.Score != 1 || r.Success != (r.Score == 1)) {
				t.Fatalf("%s: score %v success %v", m.Profile(), r.Score, r.Success)
			}
		}
	})
}

// FuzzOverride checks that an override reads any JSON without panicking
// and writes back what it read.
func FuzzOverride(f *testing.F) {
	for _, s := range []string{`"exact"`, `["a.b","c"]`, `[]`, `null`, `3`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var o trajectorymatch.Override
		if json.Unmarshal([]byte(s), &o) != nil {
			return
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back trajectorymatch.Override
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s wrote %s, which reads back as %v", s, b, err)
		}
		if b2, _ := json.Marshal(back); string(b2) != string(b) {
			t.Fatalf("%s wrote %s, then %s", s, b, b2)
		}
	})
}
