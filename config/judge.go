package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/openai"
)

// DefaultKeyEnv is the environment variable the judge's API key is read
// from when none is named.
const DefaultKeyEnv = "OPENAI_API_KEY"

// JudgeSettings are the keys of a config file's judge section (the CLI's
// --judge-* flags override them):
//
//	judge:
//	  base_url: http://localhost:11434/v1   # default https://api.openai.com/v1
//	  model: llama3.1:8b                    # required
//	  key_env: OPENAI_API_KEY               # the variable holding the key
//	  temperature: 0
//	  cache_dir: .toolgrade-cache
//	  batch: true
//
// A judge is configured when a model or a base URL is set.
type JudgeSettings struct {
	BaseURL string `json:"base_url,omitempty"`
	Model   string `json:"model,omitempty"`
	// KeyEnv names the environment variable with the API key (default
	// OPENAI_API_KEY). The key itself is never a setting, so that it
	// stays out of config files.
	KeyEnv string `json:"key_env,omitempty"`
	// Azure sends the key in Azure's api-key header; APIVersion adds the
	// api-version query parameter that Azure's deployment URLs need.
	Azure      bool   `json:"azure,omitempty"`
	APIVersion string `json:"api_version,omitempty"`

	Temperature *float64 `json:"temperature,omitempty"` // default 0
	MaxTokens   int      `json:"max_tokens,omitempty"`  // default: no bound
	// StructuredOutput false sends no response_format (default true; an
	// endpoint that rejects it is detected anyway).
	StructuredOutput *bool `json:"structured_output,omitempty"`

	Timeout           Duration `json:"timeout,omitempty"`     // per request (default 2m)
	Concurrency       int      `json:"concurrency,omitempty"` // requests in flight (default 8)
	RequestsPerMinute float64  `json:"requests_per_minute,omitempty"`
	TokensPerMinute   int      `json:"tokens_per_minute,omitempty"`
	MaxRetries        *int     `json:"max_retries,omitempty"` // default 4

	// CacheDir holds the reply cache (default: toolgrade in the user's
	// cache directory); NoCache turns the cache off.
	CacheDir string `json:"cache_dir,omitempty"`
	NoCache  bool   `json:"no_cache,omitempty"`

	// Batch sends the judge's requests through the Batch API first.
	Batch             bool     `json:"batch,omitempty"`
	BatchPollInterval Duration `json:"batch_poll_interval,omitempty"` // default 30s
	BatchMaxPolls     int      `json:"batch_max_polls,omitempty"`     // default 120

	// InputPrice and OutputPrice are prices per million prompt and
	// completion tokens, for the cost estimate in the summary.
	InputPrice  float64 `json:"input_price,omitempty"`
	OutputPrice float64 `json:"output_price,omitempty"`
}

// A Duration is a time span written as Go writes durations ("30s",
// "1m30s") or as a number of seconds.
type Duration time.Duration

// UnmarshalJSON reads "30s" or 30.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := time.ParseDuration(s)
		if err != nil || v < 0 {
			return fmt.Errorf("want a duration such as \"30s\", got %q", s)
		}
		*d = Duration(v)
		return nil
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(b)), 64)
	if err != nil || f < 0 || f*float64(time.Second) > math.MaxInt64 {
		return fmt.Errorf("want a duration such as \"30s\" or a number of seconds, got %s", b)
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// JudgeSettings reads the judge section. A relative cache_dir is taken
// from the config file's directory.
func (c *Config) JudgeSettings() (JudgeSettings, error) {
	var s JudgeSettings
	if c == nil || len(c.Judge) == 0 {
		return s, nil
	}
	if err := Strict(jsonvalue.Append(nil, c.Judge), &s); err != nil {
		return s, toolgrade.InField("judge", err)
	}
	if s.CacheDir != "" && !filepath.IsAbs(s.CacheDir) && c.Dir != "" {
		s.CacheDir = filepath.Join(c.Dir, s.CacheDir)
	}
	return s, nil
}

// Configured reports whether the settings ask for a judge.
func (s *JudgeSettings) Configured() bool { return s.Model != "" || s.BaseURL != "" }

// Cost estimates the price of u's tokens; ok is false when no price is set.
func (s *JudgeSettings) Cost(u toolgrade.Usage) (cost float64, ok bool) {
	if s.InputPrice == 0 && s.OutputPrice == 0 {
		return 0, false
	}
	return (float64(u.PromptTokens)*s.InputPrice + float64(u.CompletionTokens)*s.OutputPrice) / 1e6, true
}

// OpenJudge builds the judge the settings describe, reading the API key
// with getenv. A missing key is an error unless the base URL is on this
// machine (localhost, 127.0.0.1, ::1), where servers such as Ollama, LM
// Studio and vLLM need none.
func (s *JudgeSettings) OpenJudge(getenv func(string) string) (*openai.Judge, error) {
	if s.Model == "" {
		return nil, errors.New("judge: no model given (--judge-model, or model in the judge section)")
	}
	if s.Batch && s.NoCache {
		return nil, errors.New("judge: batch mode needs the cache (the batch's replies are read from it): drop --no-cache")
	}
	base := s.BaseURL
	if base == "" {
		base = openai.DefaultBaseURL
	}
	keyEnv := s.KeyEnv
	if keyEnv == "" {
		keyEnv = DefaultKeyEnv
	}
	key := getenv(keyEnv)
	if key == "" && !isLocal(base) {
		return nil, fmt.Errorf("judge: no API key in $%s (name another variable with --judge-key-env; only servers on localhost run without a key)", keyEnv)
	}
	var cache *openai.Cache
	if !s.NoCache {
		dir := s.CacheDir
		if dir == "" {
			userDir, err := os.UserCacheDir()
			if err != nil {
				return nil, fmt.Errorf("judge: no cache directory (%v): give --cache-dir or --no-cache", err)
			}
			dir = filepath.Join(userDir, "toolgrade")
		}
		var err error
		if cache, err = openai.OpenCache(dir); err != nil {
			return nil, fmt.Errorf("judge: %w", err)
		}
	}
	retries := 0 // the client's default
	if s.MaxRetries != nil {
		if retries = *s.MaxRetries; retries == 0 {
			retries = -1 // none
		}
	}
	if retries < -1 || s.Concurrency < 0 || s.Timeout < 0 || s.BatchMaxPolls < 0 {
		return nil, errors.New("judge: max_retries, concurrency, timeout and batch_max_polls want positive numbers")
	}
	client, err := openai.NewClient(openai.Options{
		BaseURL:           base,
		APIKey:            key,
		Azure:             s.Azure,
		APIVersion:        s.APIVersion,
		Timeout:           time.Duration(s.Timeout),
		Concurrency:       s.Concurrency,
		RequestsPerMinute: s.RequestsPerMinute,
		TokensPerMinute:   s.TokensPerMinute,
		MaxRetries:        retries,
		Cache:             cache,
	})
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	return openai.NewJudge(client, openai.JudgeOptions{
		Model:       s.Model,
		Temperature: s.Temperature,
		MaxTokens:   s.MaxTokens,
		PlainOutput: s.StructuredOutput != nil && !*s.StructuredOutput,
	})
}

// isLocal reports whether a base URL points at this machine.
func isLocal(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// toolCorrectness builds the native tool_correctness metric; with a judge
// it also judges tool selection and scores the lower of the two (see
// judge.MinToolSelection).
func toolCorrectness(opts []byte, env *Env) (toolgrade.Metric, error) {
	m, err := build(match.New)(opts, env)
	if err != nil || env.Judge == nil {
		return m, err
	}
	strict := m.(*match.ToolCorrectness).Options().Strict
	return &judge.MinToolSelection{Metric: m, Judge: env.Judge, Tools: env.Tools, Strict: strict}, nil
}

// judged adapts the constructor of a metric that needs the run's judge
// (and takes the run's tools for cases that list none).
func judged[M toolgrade.Metric](newMetric func(judge.Judge, []toolgrade.Tool, judge.Options) (M, error)) builder {
	return func(opts []byte, env *Env) (toolgrade.Metric, error) {
		if env.Judge == nil {
			return nil, errors.New("needs a judge: give --judge-model (and --judge-base-url for a server other than OpenAI), or a judge section in the config")
		}
		var o judge.Options
		if err := Strict(opts, &o); err != nil {
			return nil, err
		}
		m, err := newMetric(env.Judge, env.Tools, o)
		if err != nil {
			return nil, err // not m: a nil *T in an interface is not nil
		}
		return m, nil
	}
}
