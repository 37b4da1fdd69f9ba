package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fault servers: this test binary, started as
// "<binary> mcp-test-server MODE", is a Go SDK server over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "mcp-test-server" {
		os.Exit(serveStdio(os.Args[2]))
	}
	os.Exit(m.Run())
}

// serverCommand is the command line that starts a fault server.
func serverCommand(mode string) string {
	return "'" + strings.ReplaceAll(os.Args[0], "'", `'\''`) + "' mcp-test-server " + mode
}

type addIn struct {
	A int `json:"a" jsonschema:"the first number"`
	B int `json:"b" jsonschema:"the second number"`
}

type addOut struct {
	Sum int `json:"sum"`
}

type echoIn struct {
	Text string `json:"text" jsonschema:"what to echo"`
}

// newTestServer is the Go SDK server of the tests. Its tools: add
// (structured output), echo (text), fail (always isError), crash (the
// process exits mid-call), hang (never answers), and, with pageSize > 0,
// extra tools to page through.
func newTestServer(pageSize int) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "toolgrade-test", Version: "1"}, &sdk.ServerOptions{PageSize: pageSize})
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers"}, func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
		return nil, addOut{Sum: in.A + in.B}, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes text"}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails"}, func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		return nil, nil, errors.New("the disk is full")
	})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exits mid-call"}, func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		fmt.Fprintln(os.Stderr, "fatal: out of cheese")
		os.Exit(3)
		return nil, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answers"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		<-ctx.Done()
		if ignoreCancel {
			time.Sleep(time.Hour) // a server that ignores cancellation too
		}
		return nil, nil, ctx.Err()
	})
	if pageSize > 0 {
		for i := range 5 {
			sdk.AddTool(s, &sdk.Tool{Name: fmt.Sprintf("extra_%d", i), Description: "An extra tool"}, func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{}, nil, nil
			})
		}
	}
	return s
}

// ignoreCancel makes hang ignore cancellation (in a server process of
// its own only: an HTTP test server must let its requests end).
var ignoreCancel bool

func serveStdio(mode string) int {
	ignoreCancel = true
	switch mode {
	case "ok":
		if err := newTestServer(0).Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	case "paged":
		newTestServer(2).Run(context.Background(), &sdk.StdioTransport{})
	case "nostart":
		fmt.Fprintln(os.Stderr, "error: missing configuration file ~/.test-server.toml")
		return 1
	case "silent":
		time.Sleep(time.Hour) // never answers initialize
	case "malformed":
		return serveMalformed()
	case "deaf":
		return serveDeaf()
	}
	return 0
}

// serveMalformed answers initialize and tools/list properly, and
// tools/call with a result whose content is not a list.
func serveMalformed() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		id := between(line, `"id":`, ",")
		if id == "" {
			id = between(line, `"id":`, "}")
		}
		switch {
		case strings.Contains(line, `"initialize"`):
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"}}}`+"\n", id)
		case strings.Contains(line, `"server/discover"`):
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", id)
		case strings.Contains(line, `"tools/list"`):
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"broken","inputSchema":{"type":"object"}}]}}`+"\n", id)
		case strings.Contains(line, `"tools/call"`):
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"content":"not a list","isError":"maybe"}}`+"\n", id)
		case id != "":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", id)
		}
	}
	return 0
}

// serveDeaf answers the handshake, then reads its input no more: a
// request larger than the pipe's buffer is never written whole.
func serveDeaf() int {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		id := between(line, `"id":`, ",")
		switch {
		case strings.Contains(line, `"initialize"`):
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"deaf","version":"1"}}}`+"\n", id)
		case strings.Contains(line, `"notifications/initialized"`):
			time.Sleep(time.Hour)
		case id != "":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", id)
		}
	}
	return 0
}

func between(s, start, end string) string {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, ok := strings.Cut(rest, end)
	if !ok {
		return ""
	}
	return strings.TrimSpace(v)
}

// httpServer serves the test server over Streamable HTTP on loopback,
// asking for the header "Authorization: Bearer sesame".
func httpServer(t *testing.T) string {
	t.Helper()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newTestServer(2) }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sesame" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}
