package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

func TestOpenJudge(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-default", "OTHER_KEY": "sk-other"}
	getenv := func(k string) string { return env[k] }
	cache := t.TempDir()
	tests := []struct {
		name     string
		s        judge.Settings
		errorHas string
	}{
		{"openai with the default key", judge.Settings{Model: "gpt-4.1-mini", CacheDir: cache}, ""},
		{"no model", judge.Settings{BaseURL: "http://localhost:11434/v1"}, "no model given"},
		{"key variable unset", judge.Settings{Model: "m", KeyEnv: "UNSET_KEY", NoCache: true}, "no API key in $UNSET_KEY"},
		{"other key variable", judge.Settings{Model: "m", KeyEnv: "OTHER_KEY", NoCache: true}, ""},
		{"local server needs no key", judge.Settings{Model: "llama3.1", BaseURL: "http://127.0.0.1:11434/v1", KeyEnv: "UNSET_KEY", NoCache: true}, ""},
		{"localhost needs no key", judge.Settings{Model: "llama3.1", BaseURL: "http://localhost:1234/v1", KeyEnv: "UNSET_KEY", NoCache: true}, ""},
		{"remote server needs one", judge.Settings{Model: "m", BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "UNSET_KEY", NoCache: true}, "no API key"},
		{"batch needs the cache", judge.Settings{Model: "m", Batch: true, NoCache: true}, "batch mode needs the cache"},
		{"bad base URL", judge.Settings{Model: "m", BaseURL: "localhost:8000", NoCache: true}, "want an http or https URL"},
		{"negative retries", judge.Settings{Model: "m", MaxRetries: new(-3), NoCache: true}, "want positive numbers"},
		{"-1 retries, read as none", judge.Settings{Model: "m", MaxRetries: new(-1), NoCache: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := openai.OpenJudge(tt.s, openai.Host{Getenv: getenv})
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("err = %v, want %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := j.Client().Cache(); (got != nil) != !tt.s.NoCache || got != nil && got.Dir() != cache {
				t.Errorf("cache %v", got)
			}
		})
	}
}

func TestJudgeSettingsReachTheServer(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Key = "sk-other"
	s := judge.Settings{BaseURL: srv.BaseURL(), Model: "judge-model", KeyEnv: "OTHER_KEY", Temperature: new(0.3),
		MaxTokens: 77, StructuredOutput: new(false), NoCache: true}
	j, err := openai.OpenJudge(s, openai.Host{Getenv: func(k string) string { return map[string]string{"OTHER_KEY": "sk-other"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Judge(context.Background(), judge.Request{System: "s", User: "u"}); err != nil {
		t.Fatal(err)
	}
	r := srv.Chats()[0]
	if r.Model != "judge-model" || r.Body["temperature"] != 0.3 || r.Body["max_tokens"] != 77.0 || r.ResponseFormat {
		t.Errorf("request %v", r.Body)
	}
}
