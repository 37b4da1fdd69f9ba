package serve

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
)

// allowJudge checks a request's judge settings against what the host
// allows, and applies the host's cache. A request is data, possibly from
// someone other than the host's user: it must not read an environment
// variable the host did not name, send a key to an endpoint the host did
// not name, or write files where the host did not say.
func (s *Server) allowJudge(settings *judge.Settings) error {
	keyEnv := settings.KeyEnv
	if keyEnv == "" {
		keyEnv = judge.DefaultKeyEnv
	}
	keyEnvs := s.JudgeKeyEnvs
	if keyEnvs == nil {
		keyEnvs = []string{judge.DefaultKeyEnv}
	}
	if !slices.Contains(keyEnvs, keyEnv) {
		return badField("config.judge.key_env", "%s: toolgrade serve reads a judge's key only from the variables its host allows (%s); a host allows more by starting it with --judge-key-env %s",
			keyEnv, strings.Join(keyEnvs, ", "), keyEnv)
	}
	base := settings.BaseURL
	if base == "" {
		base = openai.DefaultBaseURL
	}
	bases := s.JudgeBaseURLs
	if bases == nil {
		bases = []string{openai.DefaultBaseURL}
	}
	if !slices.ContainsFunc(bases, func(allowed string) bool { return below(base, allowed) }) {
		return badField("config.judge.base_url", "%q: toolgrade serve sends a judge's requests only to the endpoints its host allows (%s); a host allows more by starting it with --judge-base-url URL",
			base, strings.Join(bases, ", "))
	}
	switch {
	case settings.CacheDir != "":
		return badField("config.judge.cache_dir", "toolgrade serve keeps the judge's replies where its host says (--cache-dir), not where a request says; a request may only turn the cache off (no_cache)")
	case settings.Batch:
		return badField("config.judge.batch", "toolgrade serve sends a judge's requests one by one; the Batch API is for toolgrade eval --judge-batch")
	}
	settings.CacheDir = s.CacheDir
	settings.NoCache = settings.NoCache || s.NoCache
	return nil
}

// below reports whether the URL u is the URL base or below it: the same
// scheme, host and port, and a path under base's path, both cleaned (so
// that /v1/../admin is not below /v1).
func below(u, base string) bool {
	pu, err1 := url.Parse(u)
	pb, err2 := url.Parse(base)
	if err1 != nil || err2 != nil || pu.Opaque != "" || pb.Opaque != "" {
		return false
	}
	if !strings.EqualFold(pu.Scheme, pb.Scheme) || !strings.EqualFold(hostPort(pu), hostPort(pb)) {
		return false
	}
	p, b := path.Clean("/"+pu.Path), path.Clean("/"+pb.Path)
	return p == b || b == "/" || strings.HasPrefix(p, b+"/")
}

// hostPort is a URL's host and port, the port its scheme's default when
// it names none.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return fmt.Sprintf("%s:%s", u.Hostname(), port)
}
