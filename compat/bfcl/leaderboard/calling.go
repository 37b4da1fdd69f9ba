package leaderboard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade/compat/bfcl"
)

// Calling says how BFCL gave a model the functions, which decides how its
// calls' names are read.
//
// BFCL sends a function-calling model (one registered with
// underscore_to_dot, by convention named "<model>-FC") the function docs
// through the provider's tool API, where a name may not hold ".", so it
// replaces every "." with "_"; its checker then expects the "_" form of a
// dotted name. A prompting model gets the docs as text and must call the
// dotted names as documented.
type Calling int

const (
	// DetectCalling decides per result file; see [Data.Grade].
	DetectCalling Calling = iota
	// Prompting reads the names as documented.
	Prompting
	// FunctionCalling also reads "a_b" as the documented "a.b".
	FunctionCalling
)

func (c Calling) String() string {
	switch c {
	case Prompting:
		return "prompting"
	case FunctionCalling:
		return "function-calling"
	}
	return "detect"
}

// A FileCalling is how one result file's entries were read, and why.
type FileCalling struct {
	File    string
	Calling Calling
	// Reason says what decided it: "" when it was given (Entry.Calling) or
	// when nothing in the file told the two apart.
	Reason string
}

func (f FileCalling) String() string {
	s := fmt.Sprintf("%s: graded as a %s model's results", f.File, f.Calling)
	if f.Reason != "" {
		s += " (" + f.Reason + ")"
	}
	return s
}

// file is the file part of an entry's "file:line".
func (e *Entry) file() string {
	if i := strings.LastIndexByte(e.Where, ':'); i >= 0 {
		return e.Where[:i]
	}
	return e.Where
}

// fcModelName returns the path element of a result file that names a
// function-calling model: BFCL writes a model's results under
// result/<model>/..., and its function-calling models' names end in "-FC".
func fcModelName(file string) string {
	for el := range strings.SplitSeq(filepath.ToSlash(file), "/") {
		el = strings.TrimSuffix(strings.TrimSuffix(el, ".jsonl"), ".json")
		if strings.HasSuffix(strings.ToUpper(el), "-FC") {
			return el
		}
	}
	return ""
}

// decideCalling says how the entries of each result file are read. An
// entry's Calling, when set, is used as given. Else, per file (BFCL decides
// per model, and a result file holds one model's results):
//
//  1. a path element naming a "-FC" model means function-calling;
//  2. else, calls that name the "_" form of a dotted function of their
//     entry's docs (and no function as documented) mean function-calling,
//     unless other calls of the file name dotted functions with their dots,
//     which only a prompting model can;
//  3. else prompting, BFCL's reading of the names as documented.
//
// A file with no dotted function among its calls' docs reads the same
// either way.
func (d *Data) decideCalling(entries []Entry, used map[string]*categoryData) (map[string]Calling, []FileCalling) {
	type evidence struct {
		given               Calling
		underscored, dotted int
	}
	files := map[string]*evidence{}
	var order []string
	for i := range entries {
		e := &entries[i]
		f := e.file()
		ev := files[f]
		if ev == nil {
			ev = &evidence{}
			files[f] = ev
			order = append(order, f)
		}
		if e.Calling != DetectCalling {
			ev.given = e.Calling
			continue
		}
		c := used[bfcl.Category(e.ID)]
		if c == nil {
			continue
		}
		calls, bad := decode(e.Result)
		if bad != "" {
			continue
		}
		for _, call := range calls {
			name, ok := bfcl.FunctionName(c.questions[e.ID], call.Name)
			switch {
			case !ok:
			case name != call.Name:
				ev.underscored++ // counted as the checker reads it: only when unambiguous
			case strings.Contains(name, "."):
				ev.dotted++
			}
		}
	}
	decided := map[string]Calling{}
	var report []FileCalling
	for _, f := range order {
		ev := files[f]
		fc := FileCalling{File: f, Calling: Prompting}
		switch {
		case ev.given != DetectCalling:
			fc.Calling = ev.given
		case fcModelName(f) != "":
			fc.Calling = FunctionCalling
			fc.Reason = fmt.Sprintf("the model %q is a function-calling one", fcModelName(f))
		case ev.underscored > 0 && ev.dotted == 0:
			fc.Calling = FunctionCalling
			fc.Reason = fmt.Sprintf("%d calls name a dotted function with \"_\" for \".\", as BFCL sends the names to function-calling models", ev.underscored)
		case ev.underscored > 0:
			fc.Reason = fmt.Sprintf("%d calls name a dotted function with \"_\" for \".\" but %d with its dots; read as documented", ev.underscored, ev.dotted)
		}
		decided[f] = fc.Calling
		if fc.Reason != "" {
			report = append(report, fc)
		}
	}
	return decided, report
}
