package leaderboard

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/outfile"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An Answer is a model's answer to one question entry, as a line of a
// result file records it.
type Answer struct {
	ID string
	// Calls are the model's calls, named as the entry names its
	// functions.
	Calls []toolgrade.Call
	// Text is the reply's text, recorded when it made no call.
	Text string
	// Error is set when the entry could not be run.
	Error   string
	Usage   toolgrade.Usage
	Latency time.Duration
}

// AppendJSON appends the answer's line of a result file, without the
// newline, in the form [ReadResults] (and BFCL's own checker) reads:
// {"id", "result", "input_token_count", "output_token_count", "latency"}.
// The result is the list of calls, [{"<function>": {<arguments>}}], with
// arguments that are not JSON kept as their text; or the text when there
// is no call; or "Error during inference: ..." when the entry could not
// be run. The latency is in seconds.
func (a *Answer) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonvalue.AppendString(b, a.ID)
	b = append(b, `,"result":`...)
	switch {
	case a.Error != "":
		b = jsonvalue.AppendString(b, "Error during inference: "+a.Error)
	case len(a.Calls) == 0:
		b = jsonvalue.AppendString(b, a.Text)
	default:
		b = append(b, '[')
		for i, c := range a.Calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = jsonvalue.AppendString(b, c.Name)
			b = append(b, ':')
			switch {
			case c.Invalid:
				b = jsonvalue.AppendString(b, c.ArgsRaw)
			case c.Args == nil:
				b = append(b, "{}"...)
			default:
				b = jsonvalue.Append(b, c.Args)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"input_token_count":`...)
	b = strconv.AppendInt(b, a.Usage.PromptTokens, 10)
	b = append(b, `,"output_token_count":`...)
	b = strconv.AppendInt(b, a.Usage.CompletionTokens, 10)
	b = append(b, `,"latency":`...)
	b = strconv.AppendFloat(b, a.Latency.Seconds(), 'f', -1, 64)
	return append(b, '}')
}

// A resultWriter writes a result file per question file, as a model is
// put through them: BFCL_v4_simple_python.json's answers go to
// BFCL_v4_simple_python_result.json in its directory. It also gives each
// case its possible answer, so that a run file recording the cases can be
// graded with the bfcl profile.
type resultWriter struct {
	dir   string   // of the result files
	data  string   // the question files' directory, the data folder to grade against
	files []string // the result files, in the order of the question files
	// gradable: every question file is named BFCL_v<N>_<category>.json,
	// and every AST category has its possible answers.
	gradable bool
	writers  map[string]*bufio.Writer // by question file
	handles  []*outfile.File          // put in place by Close
	sources  []string                 // each handle's question file
	answers  map[string]any           // possible answers by entry id, when found
}

// newResultWriter creates the directory dir and in it a result file per
// question file. The question files must be named (not "-") and share a
// directory, where their possible answers are read from possible_answer/
// when there.
func newResultWriter(dir string, questionFiles []string) (*resultWriter, error) {
	if slices.Contains(questionFiles, "-") {
		return nil, errors.New("BFCL questions on standard input: name the question files, for their category and possible answers")
	}
	if len(questionFiles) == 0 {
		return nil, errors.New("no BFCL question files")
	}
	w := &resultWriter{dir: dir, data: filepath.Dir(questionFiles[0]), writers: map[string]*bufio.Writer{}, answers: map[string]any{}, gradable: true}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, p := range questionFiles {
		if filepath.Dir(p) != w.data {
			w.abort()
			return nil, fmt.Errorf("BFCL question files from two directories (%s, %s): run them apart", w.data, filepath.Dir(p))
		}
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))+"_result.json")
		fh, err := outfile.Create(out)
		if err != nil {
			w.abort()
			return nil, err
		}
		w.handles, w.sources = append(w.handles, fh), append(w.sources, p)
		w.files = append(w.files, out)
		w.writers[p] = bufio.NewWriter(fh)
		category, named := fileCategory(p)
		if !named {
			w.gradable = false // the data is found by its file name
		}
		answers := filepath.Join(w.data, "possible_answer", filepath.Base(p))
		if _, err := os.Stat(answers); err != nil {
			if named && gradedAs(category) == "ast" {
				w.gradable = false
			}
			continue
		}
		text, err := budget.ReadFile(answers, nil, 0, "")
		if err != nil {
			w.abort()
			return nil, err
		}
		err = eachLine(answers, text, func(_ int, v any) error {
			o, _ := v.(jsonvalue.Object)
			id, _ := o.Get("id")
			if s, ok := id.(string); ok {
				w.answers[s], _ = o.Get("ground_truth")
			}
			return nil
		})
		if err != nil {
			w.abort()
			return nil, err
		}
	}
	return w, nil
}

// Write writes an answer to the result file of the case's question file,
// first giving the case its entry's possible answer (possible_answer in
// c.Raw) when the data has one and the case has none. A nil case (one
// that could not be read) and a case of another file are not written.
func (w *resultWriter) Write(c *toolgrade.Case, a *Answer) error {
	if c == nil {
		return nil
	}
	if gt, ok := w.answers[a.ID]; ok && !c.Raw.Has("possible_answer") {
		c.Raw = append(c.Raw, jsonvalue.Member{Key: "possible_answer", Value: gt})
	}
	bw := w.writers[c.Source]
	if bw == nil {
		return nil
	}
	_, err := bw.Write(append(a.AppendJSON(nil), '\n'))
	return err
}

// Close flushes the result files and puts them in place (each was
// written to a temporary file beside it, so a killed run leaves the
// earlier ones); it may be called more than once.
func (w *resultWriter) Close() error {
	if w == nil {
		return nil
	}
	var errs []error
	for i, fh := range w.handles {
		err := w.writers[w.sources[i]].Flush()
		if err == nil {
			err = fh.Commit()
		}
		fh.Abort()
		errs = append(errs, err)
	}
	w.handles, w.sources = nil, nil
	return errors.Join(errs...)
}

// abort drops the result files, leaving the earlier ones as they were.
func (w *resultWriter) abort() {
	for _, fh := range w.handles {
		fh.Abort()
	}
	w.handles, w.sources = nil, nil
}
