package bench_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/schema"
)

// TestGenerator: the same seed gives the same file and another seed
// another; every case decodes; the cases have what the benchmarks promise
// (0 to 8 calls a side, trajectories, repeats, invalid arguments).
func TestGenerator(t *testing.T) {
	var a, b, c bytes.Buffer
	for _, g := range []struct {
		seed uint64
		buf  *bytes.Buffer
	}{{1, &a}, {1, &b}, {2, &c}} {
		if err := bench.NewGenerator(g.seed).Write(g.buf, 300); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same seed gave different files")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds gave the same file")
	}
	if n := bytes.Count(a.Bytes(), []byte("\n")); n != 300 {
		t.Errorf("wrote %d lines, want 300", n)
	}

	var trajectories, invalid, repeats int
	for _, c := range cases() {
		if len(c.Expected) > 8 || len(c.Called) > 8 {
			t.Fatalf("%s: %d expected and %d called calls, want at most 8 a side", c.ID, len(c.Expected), len(c.Called))
		}
		if c.Trajectory != nil {
			trajectories++
		}
		for i := range c.Called {
			if c.Called[i].Invalid {
				invalid++
			}
		}
		for i := 1; i < len(c.Expected); i++ {
			if c.Expected[i].String() == c.Expected[i-1].String() {
				repeats++
			}
		}
	}
	n := len(cases())
	if trajectories < n/8 || trajectories > n/3 {
		t.Errorf("%d of %d cases give a trajectory, want about a fifth", trajectories, n)
	}
	if invalid == 0 || repeats == 0 {
		t.Errorf("%d calls with invalid arguments and %d repeated calls, want some of each", invalid, repeats)
	}
}

// TestToolsParse: the tool definitions are valid, and the generated
// expected calls fit them.
func TestToolsParse(t *testing.T) {
	tools, err := schema.Parse(bench.Tools())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 7 {
		t.Fatalf("parsed %d tools, want 7", len(tools))
	}
	params := map[string]any{}
	for _, tool := range tools {
		params[tool.Name] = tool.Parameters
	}
	for _, c := range cases()[:200] {
		for _, e := range c.Expected {
			vs, err := schema.Validate(params[e.Name], e.Args)
			if err != nil || len(vs) > 0 {
				t.Fatalf("%s: expected call %s breaks its schema: %v %v", c.ID, e, vs, err)
			}
		}
	}
}

func ExampleGenerator() {
	g := bench.NewGenerator(1)
	for i := range 3 {
		c := g.Case(i)
		id, _ := c.Get("id")
		fmt.Println(id, c.Keys()[2:])
	}
	// Output:
	// case-0 [agent_trajectory expected_tools actual_output]
	// case-1 [tools_called expected_tools actual_output]
	// case-2 [tools_called expected_tools]
}
