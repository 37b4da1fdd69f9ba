package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/toolgrade/toolgrade"
)

// DefaultKeyEnv is the environment variable the judge's API key is read
// from when none is named.
const DefaultKeyEnv = "OPENAI_API_KEY"

// DefaultMaxReplyBytes bounds a judge's reply when the settings do not:
// a verdict and its reason take some kilobytes, and even a model that
// thinks aloud at length stays far below.
const DefaultMaxReplyBytes = 1 << 20

// Settings say how to reach the judge's model: the keys of a config
// file's judge section (the CLI's --judge-* flags override them). They are
// plain data, so that reading them costs no client; package openai opens a
// judge from them (openai.OpenJudge).
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
type Settings struct {
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

	// MaxReplyBytes bounds a reply (default [DefaultMaxReplyBytes]): a
	// verdict is a score and a reason, and a larger reply is a failed
	// judgment, not retried.
	MaxReplyBytes int64 `json:"max_reply_bytes,omitempty"`

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

// Configured reports whether the settings ask for a judge.
func (s *Settings) Configured() bool { return s.Model != "" || s.BaseURL != "" }

// Cost estimates the price of u's tokens; ok is false when no price is set.
func (s *Settings) Cost(u toolgrade.Usage) (cost float64, ok bool) {
	if s.InputPrice == 0 && s.OutputPrice == 0 {
		return 0, false
	}
	return (float64(u.PromptTokens)*s.InputPrice + float64(u.CompletionTokens)*s.OutputPrice) / 1e6, true
}
