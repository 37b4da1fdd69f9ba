package config_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/config"
)

// A config that would grade with the defaults by mistake, or a file of
// another kind, is an error saying so, with the file and line.
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, text, want string }{
		{"empty metrics", "metrics: []\n", "F: field metrics: an empty list grades nothing"},
		{"empty metrics in JSON", `{"metrics": []}`, "F: field metrics: an empty list grades nothing"},
		{"an empty object", "{}\n", "F: the config is empty ({})"},
		{"workers below zero", "workers: -1\n", "F: field workers: want a whole number from 1 to 1024 (0 or none: one per CPU), got -1"},
		{"workers without end", "workers: 100000000\n", "F: field workers: want a whole number from 1 to 1024"},
		{"workers as a fraction", "workers: 1.5\n", "F: field workers: want a whole number from 1 to 1024 (0 or none: one per CPU), got 1.5"},
		{"a case file", `{"id":"a","tools_called":[],"expected_tools":[]}` + "\n" + `{"id":"b","tools_called":[],"expected_tools":[]}` + "\n", "F:1: a case file, not a config (a case: id, tools_called, expected_tools)"},
		{"one case", `{"id":"a","tools_called":[],"expected_tools":[]}`, "F: a case file, not a config"},
		{"a YAML list of cases", "- id: a\n  expected_tools: []\n", "F: a case file, not a config (a list of cases)"},
		{"a results file", `{"id":"a","success":true,"metrics":[]}` + "\n", "F: a toolgrade results file, not a config"},
		{"CSV", "name,threshold\ndefault,1\n", "F: a CSV file, not a config"},
		{"a YAML error", "metrics:\n  - threshold: [\n", "F:2: invalid YAML: did not find expected node content"},
		{"gzip", "\x1f\x8b\x08\x00", "F: gzip-compressed data, not UTF-8 text"},
		{"two JSON objects", "{\"metrics\": [{}]}\n\n{\"workers\": 2}\n", "F:3: a second JSON value: a config is one JSON object or one YAML document"},
		{"two YAML documents", "metrics:\n  - threshold: 0.5\n---\nworkers: 2\n", "F:3: a second document: give one"},
		{"a value with no JSON form", "metrics:\n  - threshold: .nan\n", "F:2: .nan has no JSON form"},
		{"an unknown key", "metric: []\n", "F: field metric: unknown key (want metrics, workers, judge, datasets, reports, tools)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "toolgrade.yaml")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := config.Load(path)
			want := strings.Replace(tt.want, "F", path, 1)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Load: %v\nwant %s", err, want)
			}
		})
	}
	if _, err := config.Load(dir); err == nil || err.Error() != dir+" is a directory: give a file in it" {
		t.Errorf("Load(a directory): %v", err)
	}
}

// A config in UTF-16 with a byte-order mark reads as its text.
func TestLoadUTF16(t *testing.T) {
	text := "\xff\xfe" + strings.Join(strings.Split("workers: 3\n", ""), "\x00") + "\x00"
	path := filepath.Join(t.TempDir(), "toolgrade.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	c, err := config.Load(path)
	if err != nil || c.Workers != 3 {
		t.Errorf("Load: %+v, %v", c, err)
	}
}

// FuzzParse: any text gives a config or an error, never a panic, and a
// text with nothing in it is an error.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"metrics: []\n", "{}", "workers: 2\n", `{"id":"a","tools_called":[]}` + "\n{}", "a,b\n", "metrics:\n  - threshold: 0.5\n---\nx: 1\n", "\xff\xfew\x00:\x00 \x001\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := config.Parse(data)
		if err == nil && len(bytes.TrimSpace(data)) == 0 {
			t.Fatalf("Parse(%q) read a config from nothing", data)
		}
	})
}
