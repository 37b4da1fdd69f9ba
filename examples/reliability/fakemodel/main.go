// Command fakemodel is a fake OpenAI-compatible model on loopback, for
// trying toolgrade run --trials without an API key. It reads a case file
// and answers each case's input with the case's expected calls, or, by a
// seeded random draw, with a wrong call: the first expected call with its
// arguments changed, or no call at all.
//
//	go run ./examples/reliability/fakemodel -cases examples/agent/cases.jsonl -addr 127.0.0.1:8089
//	toolgrade run --model fake --base-url http://127.0.0.1:8089/v1 --no-cache --trials 5 examples/agent/cases.jsonl
//
// An expected argument given only by a rule ({"query": {"regex": ...}})
// is answered with a value that meets the rule: the first such value the
// case file's recorded calls of the tool give, the case's own first. A
// right answer is then one toolgrade grades right.
//
// -pass sets how often a case's answer is right; -worse lists case ids
// answered right only with probability -worse-pass (an injected
// regression). Each input's n-th request draws from a stream seeded by
// -seed, the input and n, so a case's outcomes do not depend on the order
// the requests arrive in (cases that share an input share its stream, so
// which of them gets which draw may). Non-goals: behaving like a model: it
// answers from the case file, whatever the prompt says, and calls only
// tools the request offers.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

type call struct {
	Name string
	Args jsonvalue.Object
}

func main() {
	cases := flag.String("cases", "examples/agent/cases.jsonl", "the case file whose expected calls the model knows")
	addr := flag.String("addr", "127.0.0.1:8089", "loopback address to serve on")
	pass := flag.Float64("pass", 0.85, "chance that a case is answered right")
	worse := flag.String("worse", "", "comma-separated case ids answered right only with chance -worse-pass")
	worsePass := flag.Float64("worse-pass", 0.1, "chance that a -worse case is answered right")
	seed := flag.Uint64("seed", 1, "seed of the draws")
	flag.Parse()

	var all []*toolgrade.Case
	for rec, err := range dataset.Files(*cases) {
		if err != nil {
			log.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			log.Fatalf("%s: %v", *cases, err)
		}
		all = append(all, c)
	}
	byInput := map[string][]call{} // the right answer to each input
	ids := map[string][]string{}   // the ids of the cases with each input
	for _, c := range all {
		s, ok := c.Input.(string)
		if !ok {
			continue
		}
		if _, dup := byInput[s]; !dup {
			byInput[s] = rightCalls(c, all)
		}
		ids[s] = append(ids[s], c.ID)
	}
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
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
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
		offered := ""
		if len(req.Tools) > 0 {
			offered = req.Tools[0].Function.Name
		}
		right, known := byInput[user]
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
		calls := right
		if !known || rng.Float64() >= p {
			calls = wrong(rng, right, offered)
		}
		var tcs []map[string]any
		for i, c := range calls {
			args := jsonvalue.Append(nil, c.Args)
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

// rightCalls is the right answer to case c: its expected calls, each
// argument that only a rule gives answered with a value that meets it,
// found among the recorded calls of the tool (c's own first, then the
// other cases').
func rightCalls(c *toolgrade.Case, all []*toolgrade.Case) []call {
	calls := make([]call, len(c.Expected))
	for i, e := range c.Expected {
		args, _ := e.Args.(jsonvalue.Object)
		args = append(jsonvalue.Object(nil), args...)
		for _, key := range slices.Sorted(maps.Keys(e.Rules)) {
			rule := e.Rules[key]
			if args.Has(key) || rule.Ignore || rule.Optional || !match.HasCondition(rule) {
				continue
			}
			if v, ok := recorded(e.Name, key, rule, append([]*toolgrade.Case{c}, all...)); ok {
				args.Set(key, v)
			} else {
				log.Printf("case %s: no recorded value of %s.%s meets its rule; answered without it", c.ID, e.Name, key)
			}
		}
		calls[i] = call{Name: e.Name, Args: args}
	}
	return calls
}

// recorded returns the first value of argument key in the cases' calls of
// tool that meets rule.
func recorded(tool, key string, rule toolgrade.Rule, cases []*toolgrade.Case) (any, bool) {
	for _, c := range cases {
		for _, called := range c.Called {
			args, _ := called.Args.(jsonvalue.Object)
			if v, ok := args.Get(key); ok && called.Name == tool && match.CheckRule(rule, nil, false, v) == "" {
				return v, true
			}
		}
	}
	return nil, false
}

// wrong is a wrong answer: no call, or the expected calls with every
// argument of the first call changed (a call of the first tool offered
// when none was expected).
func wrong(rng *rand.Rand, expected []call, offered string) []call {
	if len(expected) == 0 || rng.IntN(3) == 0 {
		if len(expected) == 0 && offered != "" {
			return []call{{Name: offered, Args: jsonvalue.Object{{Key: "q", Value: "?"}}}}
		}
		return nil
	}
	out := append([]call(nil), expected...)
	args := jsonvalue.Object{}
	for _, m := range out[0].Args {
		args.Set(m.Key, "wrong")
	}
	if len(args) == 0 {
		args.Set("unexpected", true)
	}
	out[0] = call{Name: out[0].Name, Args: args}
	return out
}
