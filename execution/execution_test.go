package execution_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/execution"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// fakeServer has the tools add (a, b integers), fail (isError) and broken
// (no result); it counts the sessions opened.
type fakeServer struct {
	mu       sync.Mutex
	sessions int
	noStart  bool
}

func (s *fakeServer) Tools(context.Context) ([]toolgrade.Tool, error) {
	params, _ := jsonvalue.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`))
	return []toolgrade.Tool{{Name: "add", Parameters: params}, {Name: "fail"}, {Name: "broken"}}, nil
}

func (s *fakeServer) Session(context.Context) (toolgrade.ToolSession, error) {
	if s.noStart {
		return nil, errors.New("mcp: server x did not start")
	}
	s.mu.Lock()
	s.sessions++
	s.mu.Unlock()
	return session{}, nil
}

type session struct{}

func (session) Call(_ context.Context, name string, args any) (toolgrade.ToolResult, error) {
	switch name {
	case "add":
		o, _ := args.(jsonvalue.Object)
		a, _ := o.Get("a")
		b, _ := o.Get("b")
		return toolgrade.ToolResult{Output: fmt.Sprint(a, "+", b), Text: "ok"}, nil
	case "fail":
		return toolgrade.ToolResult{Output: "disk full", Text: "disk full", IsError: true}, nil
	}
	return toolgrade.ToolResult{}, errors.New("mcp: server x: tools/call broken: the server exited")
}

func (session) Close() error { return nil }

func calls(t *testing.T, js string) []toolgrade.Call {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	c, err := compat.DecodeCalls(v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMetric(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   execution.Options
		calls  string
		score  float64
		reason string
	}{
		{"mixed", execution.Options{}, `[{"name":"add","args":{"a":1,"b":2}},{"name":"add","args":{"a":"x"}},{"name":"nope"},{"name":"fail"},{"name":"broken"}]`, 0.4,
			`2 of 5 calls ran without error; call 2 nope: no such tool "nope" on the server; call 3 fail: disk full; call 4 broken: mcp: server x: tools/call broken: the server exited`},
		{"only valid", execution.Options{OnlyValid: true}, `[{"name":"add","args":{"a":1,"b":2}},{"name":"add","args":{"a":"x"}}]`, 0.5,
			`1 of 2 calls ran without error; call 1 add: not run: arguments do not fit the schema: /: missing property 'b'; /a: got string, want integer`},
		{"invalid JSON", execution.Options{}, `[{"name":"add","arguments":"{oops"}]`, 0, `0 of 1 calls ran without error; call 0 add: not run: arguments are not valid JSON`},
		{"allow-list", execution.Options{AllowTools: []string{"add"}}, `[{"name":"add","args":{"a":1,"b":2}},{"name":"fail"}]`, 1,
			`1 of 1 calls ran without error; call 1 fail: skipped: not on the allow-list`},
		{"no calls", execution.Options{}, `[]`, 1, `no calls to run`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &fakeServer{}
			tc.opts.Server = srv
			m, err := execution.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), &toolgrade.Case{ID: "c", Called: calls(t, tc.calls)})
			if r.Error != "" || r.Score != tc.score || r.Reason != tc.reason {
				t.Errorf("score %v, reason %q, error %q; want %v, %q", r.Score, r.Reason, r.Error, tc.score, tc.reason)
			}
			if len(toolgrade.DetailOf[execution.Outcomes](&r)) != len(calls(t, tc.calls)) {
				t.Errorf("%d executions", len(toolgrade.DetailOf[execution.Outcomes](&r)))
			}
			if srv.sessions > 1 {
				t.Errorf("%d sessions for one case", srv.sessions)
			}
			// The result reads back the same.
			res := toolgrade.Result{ID: "c", Metrics: []toolgrade.MetricResult{r}}
			back, err := toolgrade.ParseResult(res.AppendJSON(nil))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(back.AppendJSON(nil)), string(res.AppendJSON(nil)); got != want {
				t.Errorf("read back:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestMetricErrors(t *testing.T) {
	if _, err := execution.New(execution.Options{}); err == nil {
		t.Error("no server: no error")
	}
	if _, err := execution.New(execution.Options{Server: &fakeServer{}, CallTimeout: "soon"}); err == nil || !strings.Contains(err.Error(), "call_timeout") {
		t.Errorf("bad timeout: %v", err)
	}
	m, _ := execution.New(execution.Options{Server: &fakeServer{noStart: true}})
	r := m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, `[{"name":"add","args":{"a":1,"b":2}}]`)})
	if r.Error != "mcp: server x did not start" {
		t.Errorf("server down: %+v", r)
	}
}

func Example() {
	m, _ := execution.New(execution.Options{Server: &fakeServer{}})
	c := &toolgrade.Case{Called: []toolgrade.Call{{Name: "fail"}, {Name: "send_email"}}}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score, r.Reason)
	// Output:
	// 0 0 of 2 calls ran without error; call 0 fail: disk full; call 1 send_email: no such tool "send_email" on the server
}
