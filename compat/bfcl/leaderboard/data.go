package leaderboard

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Data is a BFCL data folder: question files BFCL_v<N>_<category>.json
// and their ground truth, possible_answer/BFCL_v<N>_<category>.json. A
// category's files are read the first time one of its entries is graded,
// and kept. A Data is not safe for concurrent use.
type Data struct {
	dir        string
	categories map[string]*categoryData
}

// OpenData returns the data folder dir. It reads no file yet: it only
// checks that dir is a directory.
func OpenData(dir string) (*Data, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	return &Data{dir: dir, categories: map[string]*categoryData{}}, nil
}

// categoryData is one category's questions and ground truth.
type categoryData struct {
	name      string
	questions map[string]any // id → function docs
	answers   map[string]any // id → ground truth; nil for the relevance categories
}

// dataFile matches the name of a BFCL data file; its group is the
// category.
var dataFile = lazyregexp.New(`^BFCL_v\d+_(.+)\.json$`)

// fileCategory is the category of a BFCL data file's name, or "" when the
// name is not one.
func fileCategory(path string) (string, bool) {
	m := dataFile.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// gradedAs says how a category is graded: "ast", "relevance", or "" when it
// is not (multi-turn, agentic, format sensitivity, no category).
func gradedAs(category string) string {
	for _, s := range []string{"multi_turn", "web_search", "memory", "format_sensitivity"} {
		if strings.Contains(category, s) {
			return ""
		}
	}
	// BFCL v3's (and v1's) executable categories, run against live APIs,
	// and v1's sql and chatable.
	if strings.HasPrefix(category, "exec_") || category == "rest" || category == "sql" || category == "chatable" {
		return ""
	}
	if category == "" {
		return ""
	}
	if strings.Contains(category, "relevance") {
		return "relevance"
	}
	return "ast"
}

// category returns a graded category's data, reading it the first time.
func (d *Data) category(name string) (*categoryData, error) {
	if c := d.categories[name]; c != nil {
		return c, nil
	}
	c, err := loadCategory(d.dir, name, gradedAs(name) == "ast")
	if err != nil {
		return nil, err
	}
	d.categories[name] = c
	return c, nil
}

// findDataFile names the newest BFCL_v*_<category>.json in dir.
func findDataFile(dir, category string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var found string
	for _, e := range entries {
		if c, ok := fileCategory(e.Name()); ok && c == category && e.Name() > found {
			found = e.Name() // the newest BFCL version wins
		}
	}
	if found == "" {
		return "", fmt.Errorf("%s: no BFCL_v*_%s.json for the %s results", dir, category, category)
	}
	return filepath.Join(dir, found), nil
}

// loadCategory reads a category's question file from dir, and its
// possible answers when it needs them.
func loadCategory(dir, category string, withAnswers bool) (*categoryData, error) {
	c := &categoryData{name: category}
	qpath, err := findDataFile(dir, category)
	if err != nil {
		return nil, err
	}
	text, err := sniff.ReadFile(qpath, 0, "")
	if err != nil {
		return nil, err
	}
	if c.questions, err = parseQuestions(qpath, text); err != nil {
		return nil, err
	}
	if !withAnswers {
		return c, nil
	}
	apath, err := findDataFile(filepath.Join(dir, "possible_answer"), category)
	if err != nil {
		return nil, err
	}
	if text, err = sniff.ReadFile(apath, 0, ""); err != nil {
		return nil, err
	}
	if c.answers, err = parseAnswers(apath, text); err != nil {
		return nil, err
	}
	return c, nil
}

// parseQuestions reads a question file's entries: each needs a string id;
// its function docs are kept.
func parseQuestions(path string, text []byte) (map[string]any, error) {
	questions := map[string]any{}
	err := eachLine(path, text, func(line int, v any) error {
		obj, _ := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		ids, ok := id.(string)
		if !ok {
			return fmt.Errorf("%s:%d: want an entry with a string id", path, line)
		}
		questions[ids], _ = obj.Get("function")
		return nil
	})
	return questions, err
}

// parseAnswers reads a possible-answer file's entries: each needs a
// string id and a ground_truth.
func parseAnswers(path string, text []byte) (map[string]any, error) {
	answers := map[string]any{}
	err := eachLine(path, text, func(line int, v any) error {
		obj, _ := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		ids, ok := id.(string)
		gt, hasGT := obj.Get("ground_truth")
		if !ok || !hasGT {
			return fmt.Errorf("%s:%d: want an entry with a string id and ground_truth", path, line)
		}
		answers[ids] = gt
		return nil
	})
	return answers, err
}

// eachLine calls fn with each non-blank line of a JSON Lines text, parsed,
// numbered from 1. Errors name the file and line.
func eachLine(path string, text []byte, fn func(line int, v any) error) error {
	for n := 1; len(text) > 0; n++ {
		var line []byte
		line, text, _ = bytes.Cut(text, []byte("\n"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := jsonvalue.Parse(line)
		if se, ok := err.(*jsonvalue.SyntaxError); ok {
			return fmt.Errorf("%s:%d: invalid JSON: %s (byte %d of the line)", path, n, se.Msg, se.Offset+1)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if err := fn(n, v); err != nil {
			return err
		}
	}
	return nil
}
