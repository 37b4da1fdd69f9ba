package openai

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade/openai/openaitest"
	"github.com/toolgrade/toolgrade/secret"
)

const echoedKey = "sk-echo-SECRET-5b7c9d1e3f"

// echoes are the ways a server may hand a key back: whole, a quoted
// prefix, a masked one, JSON-escaped inside JSON, URL-encoded.
var echoes = []string{
	echoedKey,
	`"` + echoedKey[:8] + `"`,
	echoedKey[:10] + "..." + echoedKey[len(echoedKey)-9:],
	`{\"key\":\"` + echoedKey + `\"}`,
	"https://x/?k=" + echoedKey,
}

// A judge whose replies echo the key, in every form, gives verdicts and
// cache entries without it; a request whose prompt holds the key does not
// send it.
func TestEchoedKey(t *testing.T) {
	t.Parallel()
	for _, echo := range echoes {
		t.Run(echo, func(t *testing.T) {
			t.Parallel()
			srv := openaitest.NewServer(t)
			srv.Key = echoedKey
			reason, _ := json.Marshal("you sent " + echo)
			srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
				return openaitest.Reply{Content: `{"score": 1, "reason": ` + string(reason) + `}`}
			}
			cache := newCache(t)
			j, _ := newJudge(t, srv, Options{APIKey: echoedKey, Cache: cache}, JudgeOptions{})
			req := prompt
			req.User += " (my key is " + echoedKey + ")"
			v, err := j.Judge(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			leaks(t, "verdict", v.Reason)
			assertNoEcho(t, cache.Dir())
			for _, c := range srv.Chats() {
				leaks(t, "request", string(c.Raw))
			}
			// From the cache, the same verdict.
			v2, err := j.Judge(context.Background(), req)
			if err != nil || v2.Reason != v.Reason || v2.Usage.CachedRequests != 1 {
				t.Errorf("cached verdict %+v, %v; want %q", v2, err, v.Reason)
			}
		})
	}
}

// A server's error that echoes the key, in every form, does not bring it
// into the error; nor into a raw completion's body.
func TestEchoedKeyInErrors(t *testing.T) {
	t.Parallel()
	for _, echo := range echoes {
		srv := openaitest.NewServer(t)
		msg, _ := json.Marshal("Incorrect API key provided: " + echo)
		srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
			return openaitest.Reply{Status: 401, Body: `{"error": {"message": ` + string(msg) + `, "code": ` + string(msg) + `}}`}
		}
		j, _ := newJudge(t, srv, Options{APIKey: echoedKey}, JudgeOptions{})
		_, err := j.Judge(context.Background(), prompt)
		if err == nil {
			t.Fatal("no error")
		}
		leaks(t, "error", err.Error())
		srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
			return openaitest.Reply{Content: "echo: " + echo}
		}
		rep, err := j.Client().CompleteJSON(context.Background(), "run", []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		leaks(t, "raw reply", string(rep.Body))
	}
}

// The run's secrets are one set: a client scrubs the others' secrets too
// (an MCP token a tool echoed, fed to the model).
func TestSharedSecrets(t *testing.T) {
	t.Parallel()
	srv := openaitest.NewServer(t)
	secrets := &secret.Set{}
	secrets.Add("mcp-token-0123456789")
	j, _ := newJudge(t, srv, Options{Secrets: secrets, APIKey: echoedKey}, JudgeOptions{})
	req := prompt
	req.User += " tool said: mcp-token-0123456789"
	if _, err := j.Judge(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if raw := string(srv.Chats()[0].Raw); strings.Contains(raw, "mcp-token") || !strings.Contains(raw, secret.Redacted) {
		t.Errorf("request: %s", raw)
	}
	if secrets.String(echoedKey) != secret.Redacted {
		t.Error("the client's key is not added to the run's secrets")
	}
}

func leaks(t *testing.T, what, s string) {
	t.Helper()
	for i := 0; i+secret.MinEcho <= len(echoedKey); i++ {
		if strings.Contains(s, echoedKey[i:i+secret.MinEcho]) {
			t.Errorf("%s holds %q of the key: %s", what, echoedKey[i:i+secret.MinEcho], s)
			return
		}
	}
}

func assertNoEcho(t *testing.T, dir string) {
	t.Helper()
	assertNoKey(t, dir, echoedKey[:secret.MinEcho])
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			leaks(t, p, string(data))
		}
		return err
	})
}

// unwritableCache is a cache whose directory has become a file: nothing
// can be written to it (even by root).
func unwritableCache(t *testing.T) *Cache {
	t.Helper()
	c := newCache(t)
	if err := os.Remove(c.Dir()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.Dir(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// A reply that was paid for stands when the cache cannot keep it: one
// warning, no error, and the run does not ask again.
func TestCacheUnwritable(t *testing.T) {
	t.Parallel()
	srv := openaitest.NewServer(t)
	var mu sync.Mutex
	var warnings []string
	warn := func(s string) { mu.Lock(); warnings = append(warnings, s); mu.Unlock() }
	cache := unwritableCache(t)
	j, _ := newJudge(t, srv, Options{Cache: cache, Warn: warn}, JudgeOptions{})
	for _, p := range prompts(3) {
		for range 2 {
			if v, err := j.Judge(context.Background(), p); err != nil || v.Reason != "ok" {
				t.Fatalf("verdict %+v, %v", v, err)
			}
		}
	}
	if n := srv.Hits(chatRoute); n != 3 {
		t.Errorf("%d requests, want 3 (each asked once)", n)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "cannot write the reply cache in "+cache.Dir()) || !strings.Contains(warnings[0], "not a directory") {
		t.Errorf("warnings: %q", warnings)
	}
	// A raw completion too.
	if _, err := j.Client().CompleteJSON(context.Background(), "run", []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)); err != nil {
		t.Errorf("raw completion: %v", err)
	}
}

// A batch whose replies the cache cannot keep: they are kept in memory,
// and the run's requests find them there.
func TestBatchCacheUnwritable(t *testing.T) {
	t.Parallel()
	srv := openaitest.NewServer(t)
	srv.Reply = answerByInput
	var warned int
	j, _ := newJudge(t, srv, Options{Cache: unwritableCache(t), Warn: func(string) { warned++ }}, JudgeOptions{})
	ps := prompts(4)
	rep, err := j.Client().Batch(context.Background(), plan(t, j, ps), BatchOptions{})
	if err != nil || rep.Answered != 4 {
		t.Fatalf("batch %+v, %v", rep, err)
	}
	for _, p := range ps {
		if v, err := j.Judge(context.Background(), p); err != nil || v.Usage.CachedRequests != 1 {
			t.Errorf("verdict %+v, %v", v, err)
		}
	}
	if n := srv.Hits(chatRoute); n != 0 || warned != 1 {
		t.Errorf("%d requests after the batch, %d warnings; want 0 and 1", n, warned)
	}
}
