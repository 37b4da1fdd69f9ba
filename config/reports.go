package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Reports names the report files of a suite run; an empty path writes no
// such report.
//
//	reports:
//	  out: results.jsonl              # the result lines (JSON Lines)
//	  markdown: $GITHUB_STEP_SUMMARY  # summary for people, GitHub Markdown
//	  junit: junit.xml                # one test case per case and metric
//	  html: report.html               # one self-contained page
type Reports struct {
	Out, Markdown, JUnit, HTML string
}

// reportKeys are the keys of the reports section.
var reportKeys = []string{"out", "markdown", "junit", "html"}

// ReportFiles reads the reports section. $VAR and ${VAR} are expanded with
// getenv (os.Getenv when nil). A path that is one variable alone writes no
// report when the variable is unset or empty, so that a suite can write
// to $GITHUB_STEP_SUMMARY in CI and skip it elsewhere; ${VAR:-default}
// stands for default when VAR is unset or empty; any other variable that
// is unset or empty is an error naming it, since "$OUT/results.jsonl"
// would otherwise write "/results.jsonl". Relative paths are relative to
// the config file's directory, like the datasets.
func (c *Config) ReportFiles(getenv func(string) string) (Reports, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var r Reports
	for _, m := range c.Reports {
		var dst *string
		switch m.Key {
		case "out":
			dst = &r.Out
		case "markdown":
			dst = &r.Markdown
		case "junit":
			dst = &r.JUnit
		case "html":
			dst = &r.HTML
		default:
			return Reports{}, &toolgrade.FieldError{Path: "reports." + m.Key,
				Err: fmt.Errorf("unknown report (want %s)", strings.Join(reportKeys, ", "))}
		}
		if m.Value == nil {
			continue
		}
		s, ok := m.Value.(string)
		if !ok {
			return Reports{}, &toolgrade.FieldError{Path: "reports." + m.Key, Err: fmt.Errorf("want a path, got %s", jsonvalue.Kind(m.Value))}
		}
		p, err := expand(s, getenv)
		if err != nil {
			return Reports{}, &toolgrade.FieldError{Path: "reports." + m.Key, Err: err}
		}
		*dst = c.resolve(p)
	}
	return r, nil
}

// expand expands the variables of a report path, as ReportFiles says. A
// "$" not followed by a name or "{" is kept.
func expand(s string, getenv func(string) string) (string, error) {
	if name, ok := aloneVar(s); ok {
		return getenv(name), nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		var name, def string
		hasDef := false
		rest := s[i+1:]
		switch {
		case strings.HasPrefix(rest, "{"):
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return "", fmt.Errorf("%q: ${ without a closing }", s)
			}
			name = rest[1:end]
			name, def, hasDef = strings.Cut(name, ":-")
			if !validName(name) {
				return "", fmt.Errorf("%q: ${%s}: want ${NAME} or ${NAME:-default}", s, rest[1:end])
			}
			i += 1 + end
		default:
			n := nameLen(rest)
			if n == 0 {
				b.WriteByte('$')
				continue
			}
			name = rest[:n]
			i += n
		}
		v := getenv(name)
		if v == "" && hasDef {
			v = def
		} else if v == "" {
			return "", fmt.Errorf("$%s is not set (in %q): set it, or give a default with ${%s:-default}", name, s, name)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// aloneVar returns the name of the variable s is, alone: $NAME or ${NAME}.
func aloneVar(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if name, ok := strings.CutPrefix(s, "$"); ok {
		if braced, ok := strings.CutPrefix(name, "{"); ok {
			name, ok = strings.CutSuffix(braced, "}")
			return name, ok && validName(name)
		}
		return name, validName(name)
	}
	return "", false
}

func validName(s string) bool { return s != "" && nameLen(s) == len(s) }

// nameLen is the length of the variable name at the start of s.
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}

// DatasetFiles returns the files the datasets section names, in order and
// without repeats. Each entry is a path or a glob (filepath.Match syntax:
// *, ?, [a-z]; "**" is not supported), relative to the config file's
// directory. An entry that names no file is an error, so that a typo does
// not pass as an empty suite.
func (c *Config) DatasetFiles() ([]string, error) {
	var files []string
	seen := map[string]bool{}
	for i, pattern := range c.Datasets {
		field := fmt.Sprintf("datasets[%d]", i)
		if strings.Contains(pattern, "**") {
			return nil, &toolgrade.FieldError{Path: field, Err: fmt.Errorf("%q: ** is not supported; list each directory's glob", pattern)}
		}
		p := c.resolve(pattern)
		matches, err := filepath.Glob(p)
		if err != nil {
			return nil, &toolgrade.FieldError{Path: field, Err: fmt.Errorf("%q: %w", pattern, err)}
		}
		if len(matches) == 0 {
			return nil, &toolgrade.FieldError{Path: field, Err: fmt.Errorf("no file matches %q", p)}
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				files = append(files, m)
			}
		}
	}
	return files, nil
}

// resolve makes a relative path relative to the config file's directory.
func (c *Config) resolve(p string) string {
	if p == "" || p == "-" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return filepath.Join(c.Dir, p)
}
