package leaderboard

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// isQuestion reports whether a case is a BFCL question entry: {"id",
// "question", "function"}, with no input of its own.
func isQuestion(c *toolgrade.Case) bool {
	return c.Input == nil && c.Raw.Has("question") && c.Raw.Has("function")
}

// isQuestionFile reports whether a file holds BFCL question entries: it is
// named BFCL_v<N>_<category>.json, or its first entry has "question" and
// "function".
func isQuestionFile(path string) bool {
	if _, ok := fileCategory(path); ok {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			v, perr := jsonvalue.Parse(t)
			o, ok := v.(jsonvalue.Object)
			return perr == nil && ok && o.Has("question") && o.Has("function")
		}
		if err != nil {
			return false
		}
	}
}

// detectQuestions reports whether datasets are BFCL question files (named
// BFCL_v<N>_<category>.json, or whose first entry has "question" and
// "function"): true when every one is, false when none is, and an error
// when only some are, since they cannot be run together. "-" (standard
// input) is never one.
func detectQuestions(paths []string) (bool, error) {
	n := 0
	for _, p := range paths {
		if p != "-" && isQuestionFile(p) {
			n++
		}
	}
	switch n {
	case 0:
		return false, nil
	case len(paths):
		return true, nil
	}
	return false, errors.New("BFCL question files and other datasets cannot be run together")
}

// Prompt gives what a BFCL question entry sends to a model: the chat
// messages of its single turn, and its function docs as tools (tools, the
// run's own, when its function is null). ok is false for a case that is
// not a question entry: {"id", "question", "function"} with no input of
// its own. An entry of several turns is an error: BFCL's multi-turn
// entries need its executable functions. Prompt needs nothing of h: a
// zero Harness's Prompt fits runner.Options.Prompt.
func (h *Harness) Prompt(c *toolgrade.Case, tools []toolgrade.Tool) (msgs []any, offered []toolgrade.Tool, ok bool, err error) {
	if !isQuestion(c) {
		return nil, nil, false, nil
	}
	q, _ := c.Raw.Get("question")
	turns, isList := q.([]any)
	if !isList || len(turns) == 0 {
		return nil, nil, true, &toolgrade.FieldError{Path: "question", Err: fmt.Errorf("want a list of turns, got %s", jsonvalue.Kind(q))}
	}
	if len(turns) > 1 {
		return nil, nil, true, &toolgrade.FieldError{Path: "question", Err: fmt.Errorf("%d turns: BFCL's multi-turn entries need its executable functions; toolgrade run sends single-turn entries only", len(turns))}
	}
	msgs, isList = turns[0].([]any)
	if !isList || !allMessages(msgs) {
		return nil, nil, true, &toolgrade.FieldError{Path: "question[0]", Err: errors.New("want a list of chat messages")}
	}
	docs, _ := c.Raw.Get("function")
	if docs == nil {
		return msgs, tools, true, nil
	}
	if offered, err = schema.Parse(docs); err != nil {
		return nil, nil, true, toolgrade.InField("function", err)
	}
	return msgs, offered, true, nil
}

// allMessages reports whether every element is a chat message: an object
// with a role.
func allMessages(l []any) bool {
	for _, e := range l {
		if o, ok := e.(jsonvalue.Object); !ok || !o.Has("role") {
			return false
		}
	}
	return true
}
