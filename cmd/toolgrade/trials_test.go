package main

import (
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// trialModel is a fake model that answers each case's n-th request with
// the right call with probability pass[input], by a seeded draw of its
// own for each input and n, so that outcomes do not depend on the order
// concurrent requests arrive in.
func trialModel(t *testing.T, seed uint64, pass map[string]float64) *openaitest.Server {
	srv := openaitest.NewServer(t)
	var mu sync.Mutex
	seen := map[string]int{}
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		mu.Lock()
		n := seen[r.User]
		seen[r.User]++
		mu.Unlock()
		h := fnv.New64a()
		h.Write([]byte(r.User))
		rng := rand.New(rand.NewPCG(seed, h.Sum64()+uint64(n)))
		if rng.Float64() < pass[r.User] {
			return chatBody(callsMessage("get_weather", `{"city":"Paris"}`))
		}
		return chatBody(callsMessage("get_weather", `{"city":"Lyon"}`))
	}
	return srv
}

func TestRunTrials(t *testing.T) {
	dir := t.TempDir()
	cases := filepath.Join(dir, "cases.jsonl")
	var lines []string
	pass := map[string]float64{}
	for i, p := range []float64{1, 1, 0.5, 0.5, 0} {
		input := "Weather in Paris? #" + string(rune('a'+i))
		pass[input] = p
		lines = append(lines, `{"id":"c`+string(rune('a'+i))+`","input":"`+input+`",`+runTools+`,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`)
	}
	if err := os.WriteFile(cases, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runTrials := func(t *testing.T, seed uint64, p map[string]float64, name string) (record, results string) {
		srv := trialModel(t, seed, p)
		record, results = filepath.Join(dir, name+".run.jsonl"), filepath.Join(dir, name+".jsonl")
		code, _, stderr := run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache", "--trials", "6",
			"--record", record, "--out", results, cases)
		if code != 1 {
			t.Fatalf("run: exit code %d, want 1 (some trials fail); stderr:\n%s", code, stderr)
		}
		for _, want := range []string{"reliability: 5 cases × 6 trials per case (30 trials)", "pass^k", "flaky cases"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
		return record, results
	}
	record, base := runTrials(t, 1, pass, "base")

	t.Run("run file marks trials", func(t *testing.T) {
		data := read(t, record)
		got := strings.Count(data, "\n")
		if got != 30 {
			t.Fatalf("%d run lines, want 30", got)
		}
		for i := 1; i <= 6; i++ {
			if n := strings.Count(data, `"trial":`+string(rune('0'+i))+`,`); n != 5 {
				t.Errorf("trial %d marked %d times, want 5", i, n)
			}
		}
	})
	t.Run("eval grades trials", func(t *testing.T) {
		code, out, stderr := run(t, "", "eval", record)
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		if !strings.Contains(stderr, "│ 1 │") || !strings.Contains(stderr, "pass@k") {
			t.Errorf("no pass@k table:\n%s", stderr)
		}
		// The always-passing and never-passing cases are not flaky.
		flaky := stderr[strings.Index(stderr, "flaky cases"):]
		flaky, _, _ = strings.Cut(flaky, "worst cases:")
		if strings.Contains(flaky, "ca ") || strings.Contains(flaky, "ce ") {
			t.Errorf("steady case listed as flaky:\n%s", flaky)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 30 {
			t.Fatalf("%d result lines, want 30", len(lines))
		}
		last := lines[5] // ca's sixth trial carries its figures
		if !strings.Contains(last, `"trial":6,"reliability":{"trials":6,"passed":6`) || !strings.Contains(last, `"pass_hat_k":[1,1,1,1,1,1]`) {
			t.Errorf("last trial of ca lacks its figures: %s", last)
		}
		if _, err := toolgrade.ParseResult([]byte(last)); err != nil {
			t.Errorf("the line no longer parses as a result: %v", err)
		}
	})
	t.Run("pass_k gate", func(t *testing.T) {
		cfg := filepath.Join(dir, "gate.yaml")
		os.WriteFile(cfg, []byte("metrics:\n  - pass_k: {k: 2, min: 0.5}\n"), 0o644)
		_, _, stderr := run(t, "", "eval", "--config", cfg, record)
		if !strings.Contains(stderr, "pass^2 ≥ 0.5") {
			t.Errorf("gate not shown:\n%s", stderr)
		}
		bad := filepath.Join(dir, "bad.yaml")
		os.WriteFile(bad, []byte("metrics:\n  - pass_k: {k: 0, min: 0.5}\n"), 0o644)
		code, _, stderr := run(t, "", "eval", "--config", bad, record)
		if code != 2 || !strings.Contains(stderr, "metrics[0]: field pass_k.k") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	t.Run("compare: noise passes, regression fails", func(t *testing.T) {
		_, same := runTrials(t, 2, pass, "same")
		code, out, stderr := run(t, "", "compare", base, same)
		if code != 0 {
			t.Errorf("same model, new sample: exit %d, want 0:\n%s%s", code, out, stderr)
		}
		worse := map[string]float64{}
		for k, v := range pass {
			worse[k] = v
		}
		for k := range worse {
			if strings.HasSuffix(k, "#a") || strings.HasSuffix(k, "#b") {
				worse[k] = 0
			}
		}
		_, regressed := runTrials(t, 3, worse, "worse")
		code, out, stderr = run(t, "", "compare", base, regressed)
		if code != 1 {
			t.Errorf("regression: exit %d, want 1:\n%s%s", code, out, stderr)
		}
		for _, want := range []string{"REGRESSION significant at 95.0%", "ca  tool_correctness  passed 6/6 → 0/6", "cb  tool_correctness"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("bad trials", func(t *testing.T) {
		code, _, stderr := run(t, "", "run", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--trials", "0", cases)
		if code != 2 || !strings.Contains(stderr, "--trials") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
}
