package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Echo starts, for the test's duration, an MCP server over Streamable HTTP
// on loopback that hands back the credential it is sent, on purpose, in
// every place a server can, and returns its URL. The credential is the
// Authorization header's value less "Bearer ", or the URL's token query
// parameter. Its tools:
//
//   - whoami: its description quotes the credential's first 8 bytes and
//     the whole header; it answers with the credential in its text, and in
//     its structured content JSON-escaped inside a JSON string and
//     URL-encoded in a URL;
//   - deny: a JSON-RPC error whose message holds the credential;
//   - fail: a tool error (isError) quoting the credential's last 12 bytes.
//
// A request without a credential gets 401, whose body holds nothing.
func Echo(t testing.TB) string {
	t.Helper()
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server { return echoServer(credential(r)) }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if credential(r) == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func credential(r *http.Request) string {
	if c, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return c
	}
	return r.URL.Query().Get("token")
}

func echoServer(cred string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "toolgrade-echo", Version: "1"}, nil)
	empty := json.RawMessage(`{"type":"object"}`)
	head := cred[:min(8, len(cred))]
	tail := cred[max(0, len(cred)-12):]
	s.AddTool(&sdk.Tool{Name: "whoami", Description: `Tells who you are; your key starts "` + head + `" (Authorization: Bearer ` + cred + `)`, InputSchema: empty},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			inner, _ := json.Marshal(map[string]string{"token": cred})
			return &sdk.CallToolResult{
				Content:           []sdk.Content{&sdk.TextContent{Text: "you are " + cred}},
				StructuredContent: map[string]any{"inner": string(inner), "link": "https://example.com/?t=" + url.QueryEscape(cred)},
			}, nil
		})
	s.AddTool(&sdk.Tool{Name: "deny", Description: "Always refused", InputSchema: empty},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return nil, errors.New("forbidden for Bearer " + cred)
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Always fails", InputSchema: empty},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: `key "...` + tail + `" expired`}}}, nil
		})
	return s
}
