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
// getenv (os.Getenv when nil), so that a suite can write to
// $GITHUB_STEP_SUMMARY in CI and skip it elsewhere: a path that expands to
// nothing writes no report. Relative paths are relative to the config
// file's directory, like the datasets.
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
		*dst = c.resolve(os.Expand(s, getenv))
	}
	return r, nil
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
