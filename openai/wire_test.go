package openai

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the file testdata/requests/name, byte for byte,
// or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "requests", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (-want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// wireRequests are judge requests whose bodies are kept under
// testdata/requests. A body's bytes are part of its cache key, so these
// files must not change: a changed byte makes every reply cached by an
// earlier toolgrade a miss (they were first written by the openai-go SDK's
// encoder, which toolgrade used until it spoke the wire protocol itself).
var wireRequests = []struct {
	name string
	opts JudgeOptions
	req  judge.Request
}{
	{"judge_default", JudgeOptions{Model: "gpt-4.1-mini"}, judge.Request{
		Task: "tool_selection", PromptVersion: "tool_selection/v1",
		System: "You grade whether an AI agent chose the right tools.\nAnswer with JSON: {\"score\": number, \"reason\": string}.",
		User:   "User input:\nWhat's the weather in Paris?\n\nTools available:\n- get_weather(city): Current weather\n\nTools called:\n[{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}]",
	}},
	{"judge_max_tokens_temperature", JudgeOptions{Model: "gpt-4o", Temperature: new(0.7), MaxTokens: 512}, judge.Request{
		Task: "argument_correctness", System: "You grade arguments.", User: "Call:\nsearch(query=\"go modules\")",
	}},
	{"judge_plain_output", JudgeOptions{Model: "llama3.1:8b", Temperature: new(1.0), PlainOutput: true}, judge.Request{
		Task: "tool_selection", PromptVersion: "tool_selection/v2", System: "sys", User: "user",
	}},
	{"judge_empty_messages", JudgeOptions{Model: "m", PlainOutput: true}, judge.Request{Task: "t"}},
	{"judge_odd_text", JudgeOptions{Model: "dep<&>loy", Temperature: new(1e-7), MaxTokens: 1}, judge.Request{
		Task:   "t",
		System: "html <b>&amp;</b>, separators \u2028\u2029, controls \x00\x01\x1f\x7f, quotes \"'`, slashes \\ /, tab\tnewline\r\n",
		User:   "invalid UTF-8 \xff\xfe \xed\xa0\x80, emoji 🙂, accents é ü, CJK 漢字",
	}},
	{"judge_large_temperature", JudgeOptions{Model: "m", Temperature: new(1e21), MaxTokens: math.MaxInt32}, judge.Request{
		Task: "t", System: "s", User: "u",
	}},
}

func TestRequestGolden(t *testing.T) {
	c, err := NewClient(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys bytes.Buffer
	var reqs []ChatRequest
	for _, tt := range wireRequests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := NewJudge(c, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			req := j.Request(tt.req)
			key, body, err := c.key(req)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name+".json", body)
			fmt.Fprintf(&keys, "%s %s\n", tt.name, key)
			reqs = append(reqs, req)
		})
	}
	// The keys follow from the bodies; they are kept too, so that a change
	// of CacheKey or of what a key hashes shows.
	golden(t, "keys.txt", keys.Bytes())

	// The Batch API's input file: one line per request, the body as sent
	// alone; a repeated request is sent once.
	input, _, err := c.batchInput(append(reqs, reqs[0]))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "batch_input.jsonl", input)
	c.plain.Store(true) // the endpoint rejected response_format
	input, _, err = c.batchInput(reqs[:2])
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "batch_input_plain.jsonl", input)
}

// The bytes that reach the server are those the cache key hashes.
func TestRequestOnTheWire(t *testing.T) {
	srv := openaitest.NewServer(t)
	for _, tt := range wireRequests {
		t.Run(tt.name, func(t *testing.T) {
			j, _ := newJudge(t, srv, Options{}, tt.opts)
			n := len(srv.Chats())
			j.Judge(context.Background(), tt.req)
			chats := srv.Chats()
			if len(chats) != n+1 {
				t.Fatalf("%d requests reached the server, want 1", len(chats)-n)
			}
			golden(t, tt.name+".json", chats[n].Raw)
		})
	}
	t.Run("run body", func(t *testing.T) {
		c := rawClient(t, srv, Options{})
		n := len(srv.Chats())
		if _, err := c.CompleteJSON(context.Background(), "run", []byte(toolRequest)); err != nil {
			t.Fatal(err)
		}
		if got := srv.Chats()[n].Raw; string(got) != toolRequest {
			t.Errorf("sent %s, want the body as given", got)
		}
	})
}
