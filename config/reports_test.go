package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/config"
)

func TestReportFiles(t *testing.T) {
	env := map[string]string{"GITHUB_STEP_SUMMARY": "/runner/summary.md", "OUT": "build"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name, yaml string
		want       config.Reports
		errorHas   string
	}{
		{name: "none", yaml: "workers: 2\n"},
		{name: "relative to the config file", yaml: "reports:\n  out: results.jsonl\n  junit: ../junit.xml\n  html: /abs/report.html\n",
			want: config.Reports{Out: "/suite/results.jsonl", JUnit: "/junit.xml", HTML: "/abs/report.html"}},
		{name: "variables", yaml: "reports:\n  markdown: $GITHUB_STEP_SUMMARY\n  html: ${OUT}/report.html\n",
			want: config.Reports{Markdown: "/runner/summary.md", HTML: "/suite/build/report.html"}},
		{name: "an unset variable writes nothing", yaml: "reports:\n  markdown: $NOT_IN_CI\n"},
		{name: "an unset variable in braces writes nothing", yaml: "reports:\n  markdown: ${NOT_IN_CI}\n"},
		{name: "an unset variable in a path", yaml: "reports:\n  out: $UNSET/res.jsonl\n",
			errorHas: `reports.out: $UNSET is not set (in "$UNSET/res.jsonl"): set it, or give a default with ${UNSET:-default}`},
		{name: "an unset variable in braces in a path", yaml: "reports:\n  junit: build/${UNSET}.xml\n", errorHas: "reports.junit: $UNSET is not set"},
		{name: "a default", yaml: "reports:\n  html: ${UNSET:-build}/r.html\n  out: ${OUT:-x}/r.jsonl\n",
			want: config.Reports{HTML: "/suite/build/r.html", Out: "/suite/build/r.jsonl"}},
		{name: "an empty default writes nothing", yaml: "reports:\n  markdown: ${NOT_IN_CI:-}\n"},
		{name: "a lone dollar is kept", yaml: "reports:\n  out: a$-b$.jsonl\n", want: config.Reports{Out: "/suite/a$-b$.jsonl"}},
		{name: "an unclosed brace", yaml: "reports:\n  out: ${OUT/r.jsonl\n", errorHas: "reports.out: \"${OUT/r.jsonl\": ${ without a closing }"},
		{name: "not a name", yaml: "reports:\n  out: ${OUT-x}/r.jsonl\n", errorHas: "want ${NAME} or ${NAME:-default}"},
		{name: "null writes nothing", yaml: "reports:\n  junit: null\n"},
		{name: "stdout", yaml: "reports:\n  out: '-'\n", want: config.Reports{Out: "-"}},
		{name: "unknown report", yaml: "reports:\n  pdf: x.pdf\n", errorHas: "reports.pdf: unknown report (want out, markdown, junit, html)"},
		{name: "not a path", yaml: "reports:\n  html: 3\n", errorHas: "reports.html: want a path, got integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			c.Dir = "/suite"
			got, err := c.ReportFiles(getenv)
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("error %v, want %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reports (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDatasetFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"cases/b.jsonl", "cases/a.jsonl", "cases/c.yaml", "more/x.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(dir, "more", "x.jsonl")
	tests := []struct {
		name     string
		datasets []string
		want     []string
		errorHas string
	}{
		{name: "a glob, sorted", datasets: []string{"cases/*.jsonl"}, want: []string{"cases/a.jsonl", "cases/b.jsonl"}},
		{name: "in order, without repeats", datasets: []string{"cases/b.jsonl", "cases/*", abs},
			want: []string{"cases/b.jsonl", "cases/a.jsonl", "cases/c.yaml", "more/x.jsonl"}},
		{name: "nothing matches", datasets: []string{"cases/a.jsonl", "cases/*.json"}, errorHas: "datasets[1]: no file matches"},
		{name: "a missing file", datasets: []string{"nope.jsonl"}, errorHas: "datasets[0]: no file matches"},
		{name: "recursive globs", datasets: []string{"**/*.jsonl"}, errorHas: "** is not supported"},
		{name: "a bad pattern", datasets: []string{"cases/[a.jsonl"}, errorHas: "datasets[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &config.Config{Datasets: tt.datasets, Dir: dir}
			got, err := c.DatasetFiles()
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("error %v, want %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				tt.want[i] = filepath.Join(dir, tt.want[i])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}
