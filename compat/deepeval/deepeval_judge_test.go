package deepeval_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// TestDeepEvalJudgeOverHTTP runs deepeval.jsonl's judge lines (the
// package's sample, and the shared corpus when present) through the real
// judge: the openai client built from judge settings, against a fake
// OpenAI server on loopback that answers each tool-selection prompt with
// the line's judge_score. Lines run one at a time, the server scripted for
// each, so that lines with the same input cannot mix up.
func TestDeepEvalJudgeOverHTTP(t *testing.T) {
	for _, src := range conformance.Sources() {
		t.Run(src.Name, func(t *testing.T) {
			testJudgeOverHTTP(t, src.Load(t, "deepeval.jsonl"))
		})
	}
}

func testJudgeOverHTTP(t *testing.T, lines []conformance.Line) {
	srv := openaitest.NewServer(t)
	var score atomic.Value // the current line's judge_score, as written
	var input atomic.Value // the current line's input, which the prompt must hold
	var wrongPrompt atomic.Int32
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if !strings.Contains(r.User, input.Load().(string)) || !strings.Contains(r.System, "chose the right tools") {
			wrongPrompt.Add(1)
		}
		return openaitest.Reply{Content: `{"score": ` + score.Load().(string) + `, "reason": "scripted"}`}
	}
	s := judge.Settings{BaseURL: srv.BaseURL(), Model: "judge-under-test", NoCache: true}
	j, err := openai.OpenJudge(s, openai.Host{Getenv: func(string) string { return "" }}) // loopback: no key needed
	if err != nil {
		t.Fatal(err)
	}
	env := &config.Env{Judge: j}

	judged, passed := 0, 0
	for _, l := range lines {
		js, ok := l.Case.Get("judge_score")
		if !ok {
			continue
		}
		judged++
		score.Store(string(js.(json.Number)))
		in, _ := l.Case.Get("input")
		text, _ := in.(string)
		input.Store(text)
		if conformance.Check(t, l, conformance.Grade(t, l, env)) {
			passed++
		}
	}
	if judged == 0 {
		t.Fatal("no judge lines in deepeval.jsonl")
	}
	hits := srv.Hits("POST /v1/chat/completions")
	if hits == 0 || wrongPrompt.Load() != 0 {
		t.Errorf("%d judge requests, %d without the case's input in the prompt", hits, wrongPrompt.Load())
	}
	t.Logf("deepeval.jsonl: %d of %d judge lines pass over HTTP (%d judge requests)", passed, judged, hits)
}
