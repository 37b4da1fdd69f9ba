package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/mcp"
	"github.com/toolgrade/toolgrade/mcp/mcptest"
	"github.com/toolgrade/toolgrade/secret"
)

func names(tools []toolgrade.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func args(t *testing.T, js string) any {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func open(t *testing.T, target string, o mcp.Options) *mcp.Session {
	t.Helper()
	s, err := mcp.New(target, o)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ss
}

func TestGoServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, target string
		opts         mcp.Options
	}{
		{"stdio", serverCommand("ok"), mcp.Options{}},
		{"stdio paged", "mcp:" + serverCommand("paged"), mcp.Options{}},
		{"http paged", "", mcp.Options{Headers: []string{"Authorization: Bearer ${TEST_TOKEN}"}, Getenv: func(k string) string {
			if k == "TEST_TOKEN" {
				return "sesame"
			}
			return ""
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := tc.target
			if target == "" {
				target = httpServer(t)
			}
			ss := open(t, target, tc.opts)
			ctx := context.Background()
			tools, err := ss.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := names(tools)
			for _, want := range []string{"add", "echo", "fail", "crash", "hang"} {
				if !slices.Contains(got, want) {
					t.Errorf("tools %v lack %s", got, want)
				}
			}
			if strings.Contains(tc.name, "paged") && !slices.Contains(got, "extra_4") {
				t.Errorf("paged tools %v lack the last page", got)
			}
			i := slices.Index(got, "add")
			if p, _ := tools[i].Parameters.(jsonvalue.Object); p == nil || tools[i].OutputSchema == nil || tools[i].Description != "Adds two numbers" {
				t.Errorf("add = %+v", tools[i])
			}

			r, err := ss.Call(ctx, "add", args(t, `{"a": 2, "b": 3}`))
			if err != nil || r.IsError || jsonvalue.Format(r.Output) != `{"sum":5}` {
				t.Errorf("add: %+v, %v", r, err)
			}
			r, err = ss.Call(ctx, "echo", args(t, `{"text": "hi"}`))
			if err != nil || r.Output != "echo: hi" || r.Text != "echo: hi" {
				t.Errorf("echo: %+v, %v", r, err)
			}
			r, err = ss.Call(ctx, "fail", nil)
			if err != nil || !r.IsError || !strings.Contains(r.Text, "the disk is full") {
				t.Errorf("fail: %+v, %v", r, err)
			}
			// Arguments the SDK server refuses: a tool error, not a protocol one.
			r, err = ss.Call(ctx, "add", args(t, `{"a": "two"}`))
			if err == nil && !r.IsError {
				t.Errorf("add with a string: %+v, want an error", r)
			}
			_, err = ss.Call(ctx, "nope", nil)
			if err == nil || !strings.Contains(err.Error(), "nope") {
				t.Errorf("unknown tool: %v", err)
			}
		})
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		target string
		opts   mcp.Options
		call   string // the tool to call; "" when Open should fail
		want   []string
	}{
		{"not found", "toolgrade-no-such-command --stdio", mcp.Options{}, "", []string{"did not start", "toolgrade-no-such-command"}},
		{"exits at once", serverCommand("nostart"), mcp.Options{}, "", []string{"did not start", "exit status 1", "missing configuration file"}},
		{"silent", serverCommand("silent"), mcp.Options{StartTimeout: 300 * time.Millisecond}, "", []string{"no answer to initialize within 300ms"}},
		{"unreachable URL", "http://127.0.0.1:1/mcp", mcp.Options{}, "", []string{"did not start", "127.0.0.1:1"}},
		{"crash mid-call", serverCommand("ok"), mcp.Options{}, "crash", []string{"tools/call crash", "the server exited", "exit status 3", "out of cheese"}},
		{"hang", serverCommand("ok"), mcp.Options{CallTimeout: 300 * time.Millisecond}, "hang", []string{"tools/call hang", "no answer within 300ms"}},
		{"malformed", serverCommand("malformed"), mcp.Options{}, "broken", []string{"tools/call broken"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := mcp.New(tc.target, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			ss, err := s.Open(ctx)
			if tc.call != "" {
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				var r toolgrade.ToolResult
				r, err = ss.Call(ctx, tc.call, nil)
				if err == nil {
					t.Fatalf("call %s: %+v, want an error", tc.call, r)
				}
			} else if err == nil {
				ss.Close()
				t.Fatal("Open: no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	url := httpServer(t)
	ctx := context.Background()
	// An unset variable: an error naming it, before any request.
	_, err := mcp.New(url, mcp.Options{Headers: []string{"Authorization: Bearer ${TOKEN}"}, Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), "header Authorization: $TOKEN is empty") {
		t.Errorf("unset variable: %v", err)
	}
	// A wrong token: the server refuses, and the token is not in the error.
	s, _ := mcp.New(url, mcp.Options{Headers: []string{"Authorization: Bearer ${TOKEN}"}, Getenv: func(string) string { return "wrong-secret" }})
	_, err = s.Open(ctx)
	if err == nil || strings.Contains(err.Error(), "wrong-secret") || !strings.Contains(err.Error(), "did not start") {
		t.Errorf("wrong token: %v", err)
	}
	if _, err := mcp.New(url, mcp.Options{Headers: []string{"no colon"}}); err == nil {
		t.Error("a header without a colon: no error")
	}
	if _, err := mcp.New("node server.js", mcp.Options{Headers: []string{"A: b"}}); err == nil {
		t.Error("headers for a command: no error")
	}
	if _, err := mcp.New("http://user:pw@/x", mcp.Options{}); err == nil || strings.Contains(err.Error(), "pw") {
		t.Errorf("bad URL: %v", err)
	}
}

func TestServerTools(t *testing.T) {
	t.Parallel()
	s, err := mcp.New(serverCommand("ok"), mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Tools(ctx)
	if len(a) == 0 || &a[0] != &b[0] {
		t.Error("Tools: not listed once")
	}
	var _ toolgrade.ToolServer = s
}

func TestEverything(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, target string }{
		{"stdio", mcptest.Everything(t)},
		{"http", mcptest.EverythingHTTP(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ss := open(t, tc.target, mcp.Options{})
			ctx := context.Background()
			tools, err := ss.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := names(tools)
			for _, want := range []string{"echo", "get-sum", "get-structured-content"} {
				if !slices.Contains(got, want) {
					t.Errorf("tools %v lack %s", got, want)
				}
			}
			r, err := ss.Call(ctx, "echo", args(t, `{"message": "hello"}`))
			if err != nil || r.IsError || r.Output != "Echo: hello" {
				t.Errorf("echo: %+v, %v", r, err)
			}
			r, err = ss.Call(ctx, "get-sum", args(t, `{"a": 2, "b": "three"}`))
			if err == nil && !r.IsError {
				t.Errorf("get-sum with a string: %+v, want an error", r)
			}
			// server-everything answers an unknown tool with isError.
			if r, err := ss.Call(ctx, "no-such-tool", nil); err == nil && !r.IsError {
				t.Errorf("unknown tool: %+v", r)
			}
		})
	}
}

func TestFilesystem(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ss := open(t, mcptest.Filesystem(t, dir), mcp.Options{})
	ctx := context.Background()
	tools, err := ss.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(tools), "read_text_file") {
		t.Fatalf("tools: %v", names(tools))
	}
	r, err := ss.Call(ctx, "read_text_file", args(t, `{"path": `+jsonvalue.Format(filepath.Join(dir, "notes.txt"))+`}`))
	if err != nil || r.IsError || !strings.Contains(r.Text, "buy milk") {
		t.Errorf("read_text_file: %+v, %v", r, err)
	}
	r, err = ss.Call(ctx, "read_text_file", args(t, `{"path": "/etc/passwd"}`))
	if err == nil && !r.IsError {
		t.Errorf("outside the allowed directory: %+v", r)
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"npx -y @modelcontextprotocol/server-everything", []string{"npx", "-y", "@modelcontextprotocol/server-everything"}, ""},
		{`  node  'my server.js'   --dir "a b"  `, []string{"node", "my server.js", "--dir", "a b"}, ""},
		{`a\ b "x\"y" 'it'\''s' ""`, []string{"a b", `x"y`, "it's", ""}, ""},
		{`"a\nb" \`, []string{`a\nb`, `\`}, ""},
		{"", nil, "empty command"},
		{"   ", nil, "empty command"},
		{"node 'x", nil, "column 6: unterminated single quote"},
		{`node "x`, nil, "column 6: unterminated double quote"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := mcp.SplitCommand(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"npx -y x", `a "b c" 'd'`, `\`, `"\`, `'`, "a\tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := mcp.SplitCommand(s)
		if err == nil && len(words) == 0 {
			t.Error("no words and no error")
		}
		// Words quoted back split into the same words.
		if err == nil {
			var q []string
			for _, w := range words {
				q = append(q, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
			}
			again, err := mcp.SplitCommand(strings.Join(q, " "))
			if err != nil || !reflect.DeepEqual(again, words) {
				t.Errorf("%q: quoted back %q gives %q, %v", s, q, again, err)
			}
		}
	})
}

func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"mcp:npx -y x", "npx -y x", true},
		{"mcp: http://localhost/mcp", "http://localhost/mcp", true},
		{"tools.json", "tools.json", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := mcp.Target(tc.in)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Errorf("Target(%q) = %q, %v", tc.in, got, ok)
			}
		})
	}
}

// TestSecrets: what a server is given to authenticate (a header's
// variable, a literal header, a URL's token) becomes a secret of the run,
// so that whatever the server echoes of it (in descriptions, outputs,
// JSON-RPC and tool errors) is scrubbed where it is written; the scheme
// word is not.
func TestSecrets(t *testing.T) {
	t.Parallel()
	const token = "tok-ECHO-8c1f2e3d4b5a"
	echo := mcptest.Echo(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, url string
		headers   []string
	}{
		{"variable", echo, []string{"Authorization: Bearer ${MCP_TOKEN}"}},
		{"literal", echo, []string{"Authorization: Bearer " + token}},
		{"url", echo + "?token=" + token, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			secrets := &secret.Set{}
			s, err := mcp.New(tc.url, mcp.Options{Headers: tc.headers, Secrets: secrets, Getenv: func(k string) string { return map[string]string{"MCP_TOKEN": token}[k] }})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(s.String(), token) {
				t.Errorf("name %s", s)
			}
			tools, err := s.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ss, err := s.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var seen strings.Builder
			for _, tool := range tools {
				seen.WriteString(tool.Description + "\n")
			}
			for _, name := range []string{"whoami", "deny", "fail"} {
				res, err := ss.Call(ctx, name, nil)
				seen.WriteString(res.Text + "\n" + string(jsonvalue.Append(nil, res.Output)) + "\n")
				if err != nil {
					seen.WriteString(err.Error() + "\n")
				}
			}
			if !strings.Contains(seen.String(), token) {
				t.Fatalf("the server echoed nothing:\n%s", seen.String())
			}
			clean := secrets.String(seen.String())
			for i := 0; i+secret.MinEcho <= len(token); i++ {
				if strings.Contains(clean, token[i:i+secret.MinEcho]) {
					t.Fatalf("%q left after scrubbing:\n%s", token[i:i+secret.MinEcho], clean)
				}
			}
			if secrets.String("Bearer") != "Bearer" {
				t.Error("the scheme word is a secret")
			}
		})
	}
}

// A call written to a server that no longer reads its input blocks in
// the SDK whatever the context says: it still ends at the call's
// deadline, the server stopped.
func TestCallToADeafServer(t *testing.T) {
	t.Parallel()
	s, err := mcp.New(serverCommand("deaf"), mcp.Options{CallTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	big := jsonvalue.Object{{Key: "text", Value: strings.Repeat("x", 4<<20)}} // past any pipe's buffer
	_, err = ss.Call(context.Background(), "echo", big)
	if err == nil || !strings.Contains(err.Error(), "tools/call echo: no answer within 300ms") {
		t.Errorf("call: %v, want no answer within 300ms", err)
	}
}
