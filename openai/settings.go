package openai

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/secret"
)

// A Host is what a judge takes from the program that opens it rather
// than from its settings.
type Host struct {
	// Getenv reads the API key (nil: os.Getenv).
	Getenv func(string) string
	// Secrets are the run's secrets, to which the key is added and with
	// which the client scrubs what it sends, receives and caches (see
	// [Options.Secrets]).
	Secrets *secret.Set
	// Warn is told when the cache cannot be written (see [Options.Warn]).
	Warn func(msg string)
}

// OpenJudge builds the judge the settings describe, reading the API key
// with h.Getenv. A missing key is an error unless the base URL is on this
// machine (localhost, 127.0.0.1, ::1), where servers such as Ollama, LM
// Studio and vLLM need none.
func OpenJudge(s judge.Settings, h Host) (*Judge, error) {
	if s.Model == "" {
		return nil, errors.New("judge: no model given (--judge-model, or model in the judge section)")
	}
	if s.Batch && s.NoCache {
		return nil, errors.New("judge: batch mode needs the cache (the batch's replies are read from it): drop --no-cache")
	}
	base := s.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	keyEnv := s.KeyEnv
	if keyEnv == "" {
		keyEnv = judge.DefaultKeyEnv
	}
	getenv := h.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := getenv(keyEnv)
	if key == "" && !IsLocal(base) {
		return nil, fmt.Errorf("judge: no API key in $%s (name another variable with --judge-key-env; only servers on localhost run without a key)", keyEnv)
	}
	cache, err := SettingsCache(s)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	retries := s.MaxRetries
	if retries != nil && *retries == -1 {
		retries = new(0) // -1 has always read as none, as run's --max-retries -1 does
	}
	if retries != nil && *retries < 0 || s.Concurrency < 0 || s.Timeout < 0 || s.BatchMaxPolls < 0 || s.MaxReplyBytes < 0 {
		return nil, errors.New("judge: max_retries, concurrency, timeout, batch_max_polls and max_reply_bytes want positive numbers")
	}
	client, err := NewClient(Options{
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
		Secrets:           h.Secrets,
		Warn:              h.Warn,
		MaxReplyBytes:     cmp.Or(s.MaxReplyBytes, judge.DefaultMaxReplyBytes),
	})
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	client.replyFlag = "max_reply_bytes in the judge section"
	return NewJudge(client, JudgeOptions{
		Model:       s.Model,
		Temperature: s.Temperature,
		MaxTokens:   s.MaxTokens,
		PlainOutput: s.StructuredOutput != nil && !*s.StructuredOutput,
	})
}

// SettingsCache opens the reply cache the settings name: CacheDir, else
// toolgrade/ in the user's cache directory; nil with NoCache.
func SettingsCache(s judge.Settings) (*Cache, error) {
	if s.NoCache {
		return nil, nil
	}
	dir := s.CacheDir
	if dir == "" {
		userDir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory (%v): give --cache-dir or --no-cache", err)
		}
		dir = filepath.Join(userDir, "toolgrade")
	}
	return OpenCache(dir)
}

// IsLocal reports whether a base URL points at this machine, where local
// servers need no key.
func IsLocal(base string) bool {
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
