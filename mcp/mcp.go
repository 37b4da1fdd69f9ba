// Package mcp connects toolgrade to live MCP (Model Context Protocol)
// servers, with the official Go SDK: it lists a server's tools
// (tools/list, every page) as [toolgrade.Tool] values, and runs tool calls
// on it (tools/call), each case in a fresh session.
//
// A server is named by a target: a URL (http:// or https://), reached over
// Streamable HTTP, or a command line, started as a child process and spoken
// to over its standard input and output. The "mcp:" prefix that --tools
// and config files use is accepted and dropped. Headers for an HTTP server
// (authorization) are taken from the environment when the server is made
// ([New]); their values, and the credentials in a server's URL, are
// secrets: errors name headers, never their values, and the values are
// added to [Options.Secrets], with which the program scrubs what it
// writes (a server may echo them in an error, a tool's output or
// description).
//
// Every step has a time limit: starting the server and the initialize
// handshake ([Options.StartTimeout]), and each request after it
// ([Options.CallTimeout]). A server that cannot be started, exits, or does
// not answer gives an error that says so, with the end of what the server
// wrote to its standard error.
//
// [Server] implements [toolgrade.ToolServer]. This is the only package
// that imports the MCP SDK.
//
// Non-goals: the rest of MCP (resources, prompts, sampling, notifications),
// and serving MCP: toolgrade is only ever a client.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/secret"
)

// Defaults of [Options].
const (
	DefaultStartTimeout = 60 * time.Second
	DefaultCallTimeout  = 60 * time.Second
)

// Options configure a [Server].
type Options struct {
	// Dir is the working directory of a command (default: the current
	// one).
	Dir string
	// Headers are sent with every request to an HTTP server, each
	// "Name: value", where ${VAR} (or $VAR) in the value is replaced by
	// the environment variable VAR by [New]: "Authorization: Bearer
	// ${MCP_TOKEN}". A variable that is empty or unset is an error.
	Headers []string
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string
	// Secrets receives the server's secrets: the value of every
	// variable a header names; a header's value, less a leading scheme
	// word ("Bearer", "Basic") when it has several words; the password
	// and query values of the server's URL. Nil keeps them nowhere.
	Secrets *secret.Set
	// StartTimeout bounds starting the server and the initialize
	// handshake (default [DefaultStartTimeout]).
	StartTimeout time.Duration
	// CallTimeout bounds each request after the handshake: a page of
	// tools/list, a tools/call (default [DefaultCallTimeout]). A shorter
	// deadline on the caller's context wins.
	CallTimeout time.Duration
}

// A Server is an MCP server to connect to. It is safe for concurrent
// use; each [Server.Open] starts its own session (and, for a command, its
// own process).
type Server struct {
	name    string   // the target as messages show it
	url     string   // for an HTTP server
	argv    []string // for a command
	headers http.Header
	opts    Options
	client  *sdk.Client

	mu    sync.Mutex
	tools []toolgrade.Tool // cached by Tools
}

// Target reports whether a tool source names an MCP server ("mcp:" and
// the target) and returns the target.
func Target(source string) (string, bool) {
	t, ok := strings.CutPrefix(source, "mcp:")
	return strings.TrimSpace(t), ok
}

// New checks a target and returns the server; nothing is started until a
// session is opened. The target is a URL (http:// or https://) or a
// command line (see [SplitCommand]), with or without the "mcp:" prefix.
func New(target string, o Options) (*Server, error) {
	target, _ = Target(target) // drops "mcp:" and blanks
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	s := &Server{opts: o, client: sdk.NewClient(&sdk.Implementation{Name: "toolgrade", Version: "1"}, nil)}
	if IsURL(target) {
		u, err := url.Parse(target)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("mcp: bad server URL %q", redactURL(target))
		}
		if pw, ok := u.User.Password(); ok {
			o.Secrets.Add(pw)
		}
		for _, vs := range u.Query() {
			o.Secrets.Add(vs...)
		}
		s.url, s.name = target, redactURL(target)
	}
	if len(o.Headers) > 0 && s.url == "" {
		return nil, errors.New("mcp: headers are for HTTP servers; a command gets its settings from its arguments and environment")
	}
	if s.url == "" {
		argv, err := SplitCommand(target)
		if err != nil {
			return nil, fmt.Errorf("mcp: server command %q: %w", target, err)
		}
		s.argv, s.name = argv, target
	}
	s.headers = http.Header{}
	for _, h := range o.Headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("mcp: header %q: want \"Name: value\"", redactHeader(h))
		}
		var missing []string
		value = os.Expand(strings.TrimSpace(value), func(k string) string {
			val := o.Getenv(k)
			if val == "" {
				missing = append(missing, "$"+k)
			}
			o.Secrets.Add(val)
			return val
		})
		if len(missing) > 0 {
			return nil, fmt.Errorf("mcp: header %s: %s is empty", name, strings.Join(missing, ", "))
		}
		credential := value
		if scheme, rest, ok := strings.Cut(value, " "); ok && !strings.ContainsAny(scheme, "=;,") && strings.TrimSpace(rest) != "" {
			credential = rest // "Bearer TOKEN": the token is the secret
		}
		o.Secrets.Add(credential)
		s.headers.Add(name, value)
	}
	return s, nil
}

// IsURL reports whether a target names an HTTP server (http:// or
// https://) rather than a command.
func IsURL(target string) bool {
	target, _ = Target(target)
	return strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
}

// String returns the target, with a URL's credentials and query left out.
func (s *Server) String() string { return s.name }

// Tools lists the server's tools in a session of their own, once: later
// calls return the same list.
func (s *Server) Tools(ctx context.Context) ([]toolgrade.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools != nil {
		return s.tools, nil
	}
	ss, err := s.Open(ctx)
	if err != nil {
		return nil, err
	}
	tools, err := ss.Tools(ctx)
	if cerr := ss.Close(); err == nil && cerr != nil && !errors.Is(cerr, errExited) {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	s.tools = tools
	return tools, nil
}

// Session opens a fresh session (see [Server.Open]).
func (s *Server) Session(ctx context.Context) (toolgrade.ToolSession, error) {
	ss, err := s.Open(ctx)
	if err != nil {
		return nil, err // not ss: a nil *Session in an interface is not nil
	}
	return ss, nil
}

// Open starts a session: for a command, it starts the process; then it
// runs the initialize handshake, within [Options.StartTimeout].
func (s *Server) Open(ctx context.Context) (*Session, error) {
	ss := &Session{server: s}
	var t sdk.Transport
	if s.url != "" {
		t = &sdk.StreamableClientTransport{
			Endpoint:             s.url,
			HTTPClient:           &http.Client{Transport: headerTransport{s.headers, http.DefaultTransport}},
			MaxRetries:           -1,
			DisableStandaloneSSE: true,
		}
	} else {
		ss.proc = newProcess(s.argv, s.opts.Dir)
		t = ss.proc.transport()
	}
	startCtx, cancel := context.WithTimeout(ctx, s.opts.StartTimeout)
	defer cancel()
	cs, err := s.client.Connect(startCtx, t, nil)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case startCtx.Err() != nil:
			err = fmt.Errorf("no answer to initialize within %s", s.opts.StartTimeout)
		}
		ss.proc.settle(time.Second)
		return nil, fmt.Errorf("mcp: server %s did not start: %v%s", s.name, err, ss.proc.stop())
	}
	ss.cs = cs
	return ss, nil
}

// A Session is one session with a server. Its methods run one at a time.
type Session struct {
	server *Server
	cs     *sdk.ClientSession
	proc   *process // nil for an HTTP server
	closed bool
}

// maxPages bounds tools/list pagination, against a server whose cursors
// never end.
const maxPages = 1000

// Tools lists the server's tools, following tools/list's cursor through
// every page, and reads them as [schema.Parse] reads MCP definitions.
func (ss *Session) Tools(ctx context.Context) ([]toolgrade.Tool, error) {
	var all []any
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("mcp: server %s: tools/list gave more than %d pages", ss.server.name, maxPages)
		}
		callCtx, cancel := context.WithTimeout(ctx, ss.server.opts.CallTimeout)
		var res *sdk.ListToolsResult
		err := ss.within(callCtx, func(ctx context.Context) (err error) {
			res, err = ss.cs.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
			return err
		})
		cancel()
		if err != nil {
			return nil, ss.fail("tools/list", ctx, callCtx, err)
		}
		for _, t := range res.Tools {
			data, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("mcp: server %s: tools/list: tool %q: %v", ss.server.name, t.Name, err)
			}
			v, err := jsonvalue.Parse(data)
			if err != nil {
				return nil, fmt.Errorf("mcp: server %s: tools/list: tool %q: %v", ss.server.name, t.Name, err)
			}
			all = append(all, v)
		}
		if res.NextCursor == "" {
			break
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("mcp: server %s: tools/list repeats the cursor %q", ss.server.name, res.NextCursor)
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
	tools, err := schema.Parse(jsonvalue.Object{{Key: "tools", Value: all}})
	if err != nil {
		return nil, fmt.Errorf("mcp: server %s: tools/list result: %w", ss.server.name, err)
	}
	if tools == nil {
		tools = []toolgrade.Tool{}
	}
	return tools, nil
}

// Call runs one tool call (tools/call) within [Options.CallTimeout]. args
// is a JSON object in the value model (nil sends {}). An error means no
// result came: a protocol error from the server (an unknown tool,
// arguments it refused before running the tool), a result that is not a
// tools/call result, the server gone or silent.
func (ss *Session) Call(ctx context.Context, name string, args any) (toolgrade.ToolResult, error) {
	var r toolgrade.ToolResult
	var arguments any = map[string]any{}
	if args != nil {
		arguments = json.RawMessage(jsonvalue.Append(nil, args))
	}
	callCtx, cancel := context.WithTimeout(ctx, ss.server.opts.CallTimeout)
	defer cancel()
	var res *sdk.CallToolResult
	err := ss.within(callCtx, func(ctx context.Context) (err error) {
		res, err = ss.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: arguments})
		return err
	})
	if err != nil {
		return r, ss.fail("tools/call "+name, ctx, callCtx, err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		return r, fmt.Errorf("mcp: server %s: tools/call %s: malformed result: %v", ss.server.name, name, err)
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return r, fmt.Errorf("mcp: server %s: tools/call %s: malformed result: %v", ss.server.name, name, err)
	}
	obj, _ := v.(jsonvalue.Object)
	return readResult(obj), nil
}

// within runs request, a request of the session, and returns at ctx's
// deadline even when request does not: a request written to a server
// that has stopped reading its input blocks in the SDK whatever the
// context says, so that a call would never time out. The server is then
// stopped, which ends the write, since a request half written leaves the
// session of no more use.
func (ss *Session) within(ctx context.Context, request func(context.Context) error) error {
	if ss.proc == nil {
		return request(ctx) // HTTP requests end with their context
	}
	done := make(chan error, 1)
	go func() { done <- request(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done: // it ended with the context after all
			return err
		case <-time.After(100 * time.Millisecond):
		}
		ss.proc.stop()
		return ctx.Err()
	}
}

// readResult turns a tools/call result into a ToolResult.
func readResult(obj jsonvalue.Object) toolgrade.ToolResult {
	r := toolgrade.ToolResult{}
	isErr, _ := obj.Get("isError")
	r.IsError = isErr == true
	content, _ := obj.Get("content")
	parts, _ := content.([]any)
	var texts []string
	allText := true
	for _, p := range parts {
		po, _ := p.(jsonvalue.Object)
		typ, _ := po.Get("type")
		if typ == "text" {
			t, _ := po.Get("text")
			s, _ := t.(string)
			texts = append(texts, s)
			continue
		}
		allText = false
		switch typ {
		case "image", "audio":
			mime, _ := po.Get("mimeType")
			data, _ := po.Get("data")
			ds, _ := data.(string)
			texts = append(texts, fmt.Sprintf("[%s %v, %d bytes of base64]", typ, mime, len(ds)))
		default:
			texts = append(texts, string(jsonvalue.Append(nil, p)))
		}
	}
	r.Text = strings.Join(texts, "\n")
	switch sc, ok := obj.Get("structuredContent"); {
	case ok && sc != nil:
		r.Output = sc
		if r.Text == "" {
			r.Text = string(jsonvalue.Append(nil, sc))
		}
	case allText && len(texts) > 0:
		r.Output = r.Text
	case len(parts) > 0:
		r.Output = content
	}
	return r
}

// fail explains why a request got no result.
func (ss *Session) fail(what string, ctx, callCtx context.Context, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		msg = ctx.Err().Error()
	case callCtx.Err() != nil: // its deadline, or the caller's
		msg = fmt.Sprintf("no answer within %s", ss.server.opts.CallTimeout)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < ss.server.opts.CallTimeout {
			msg = "no answer in time"
		}
	case ss.proc.settle(time.Second):
		msg = "the server exited"
	case errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF):
		msg = "the server closed the connection"
	}
	tail := ""
	if ss.proc.exited() {
		tail = ss.proc.stop()
	}
	return fmt.Errorf("mcp: server %s: %s: %s%s", ss.server.name, what, msg, tail)
}

// Close ends the session (and the server's process, for a command).
func (ss *Session) Close() error {
	if ss.closed {
		return nil
	}
	ss.closed = true
	err := ss.cs.Close()
	if ss.proc != nil {
		ss.proc.stop()
		if err != nil && ss.proc.exited() {
			return errExited
		}
	}
	return err
}

var errExited = errors.New("mcp: the server had exited")

// headerTransport adds headers to every request.
type headerTransport struct {
	hdr  http.Header
	base http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.hdr) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range t.hdr {
			req.Header[k] = vs
		}
	}
	return t.base.RoundTrip(req)
}

// redactURL drops a URL's credentials, query and fragment, for messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "<unreadable URL>"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// redactHeader keeps a header's name only.
func redactHeader(h string) string {
	name, _, _ := strings.Cut(h, ":")
	return strings.TrimSpace(name) + ": ..."
}
