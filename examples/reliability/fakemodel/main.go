// Command fakemodel is a fake OpenAI-compatible model on loopback, for
// trying toolgrade run --trials without an API key. It reads a case file
// and answers each case's input with the case's expected calls, or, by a
// seeded random draw, with a wrong call: the first expected call with its
// arguments changed, or no call at all.
//
//	go run ./examples/reliability/fakemodel -cases examples/agent/cases.jsonl -addr 127.0.0.1:8089
//	toolgrade run --model fake --base-url http://127.0.0.1:8089/v1 --no-cache --trials 5 examples/agent/cases.jsonl
//
// -pass sets how often a case's answer is right; -worse lists case ids
// answered right only with probability -worse-pass (an injected
// regression). Each input's n-th request draws from a stream seeded by
// -seed, the input and n, so a case's outcomes do not depend on the order
// the requests arrive in (cases that share an input share its stream, so
// which of them gets which draw may). Non-goals: behaving like a model: it
// answers from the case file, whatever the prompt and the tools say.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
)

type call struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

type kase struct {
	ID       string `json:"id"`
	Input    any    `json:"input"`
	Expected []call `json:"expected_tools"`
}

func main() {
	cases := flag.String("cases", "examples/agent/cases.jsonl", "the case file whose expected calls the model knows")
	addr := flag.String("addr", "127.0.0.1:8089", "loopback address to serve on")
	pass := flag.Float64("pass", 0.85, "chance that a case is answered right")
	worse := flag.String("worse", "", "comma-separated case ids answered right only with chance -worse-pass")
	worsePass := flag.Float64("worse-pass", 0.1, "chance that a -worse case is answered right")
	seed := flag.Uint64("seed", 1, "seed of the draws")
	flag.Parse()

	byInput := map[string]kase{}
	ids := map[string][]string{} // the ids of the cases with each input
	f, err := os.Open(*cases)
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var k kase
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			log.Fatalf("%s:%d: %v", *cases, line, err)
		}
		if s, ok := k.Input.(string); ok {
			if _, dup := byInput[s]; !dup {
				byInput[s] = k
			}
			ids[s] = append(ids[s], k.ID)
		}
	}
	f.Close()
	worseIDs := map[string]bool{}
	for _, id := range strings.Split(*worse, ",") {
		if id = strings.TrimSpace(id); id != "" {
			worseIDs[id] = true
		}
	}

	var mu sync.Mutex
	seen := map[string]int{}
	http.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		user := ""
		for _, m := range req.Messages {
			if s, ok := m.Content.(string); ok && m.Role == "user" {
				user = s
			}
		}
		k, known := byInput[user]
		mu.Lock()
		n := seen[user]
		seen[user]++
		mu.Unlock()
		h := fnv.New64a()
		fmt.Fprintf(h, "%s\x00%d", user, n)
		rng := rand.New(rand.NewPCG(*seed, h.Sum64()))
		p := *pass
		for _, id := range ids[user] {
			if worseIDs[id] {
				p = *worsePass
			}
		}
		calls := k.Expected
		if !known || rng.Float64() >= p {
			calls = wrong(rng, k.Expected)
		}
		var tcs []map[string]any
		for i, c := range calls {
			args, _ := json.Marshal(c.Args)
			if c.Args == nil {
				args = []byte("{}")
			}
			tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d", i+1), "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": string(args)}})
		}
		msg := map[string]any{"role": "assistant", "content": nil}
		if len(tcs) > 0 {
			msg["tool_calls"] = tcs
		} else {
			msg["content"] = "I can't help with that."
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}})
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		log.Fatalf("%s is not a loopback address", *addr)
	}
	log.Printf("fake model on http://%s/v1 (%d cases)", ln.Addr(), len(byInput))
	log.Fatal(http.Serve(ln, nil))
}

// wrong is a wrong answer: no call, or the expected calls with every
// argument of the first call changed (a search call when none was
// expected).
func wrong(rng *rand.Rand, expected []call) []call {
	if len(expected) == 0 || rng.IntN(3) == 0 {
		if len(expected) == 0 {
			return []call{{Name: "search", Args: map[string]any{"q": "?"}}}
		}
		return nil
	}
	out := append([]call(nil), expected...)
	args := map[string]any{}
	for k, v := range out[0].Args {
		args[k] = v
	}
	for k := range args {
		args[k] = "wrong"
	}
	if len(args) == 0 {
		args["unexpected"] = true
	}
	out[0] = call{Name: out[0].Name, Args: args}
	return out
}
