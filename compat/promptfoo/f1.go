package promptfoo

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// expectedNames reads tool-call-f1's value: a list (each item through
// String(), trimmed, empty names dropped) or a comma-separated string;
// anything else, or no name at all, is promptfoo's invariant failure.
func expectedNames(v any) ([]string, error) {
	var names []string
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if js.IsUndefined(e) {
				continue
			}
			if n := js.Trim(js.ToString(e)); n != "" {
				names = append(names, n)
			}
		}
	case string:
		for _, part := range strings.Split(v, ",") {
			if n := js.Trim(part); n != "" {
				names = append(names, n)
			}
		}
	default:
		return nil, errors.New(`invariant failed: "tool-call-f1" assertion requires a value: array of tool names or comma-separated string`)
	}
	if len(names) == 0 {
		return nil, errors.New(`invariant failed: "tool-call-f1" assertion requires at least one expected tool name`)
	}
	return names, nil
}

// errParseLimit is promptfoo's ToolCallParseError: the scan of malformed
// text gave up, and the assertion fails with score 0.
var errParseLimit = errors.New("parse limit")

// nameSet collects names in the order first seen.
type nameSet struct {
	names []string
}

func (s *nameSet) add(n string) {
	if !slices.Contains(s.names, n) {
		s.names = append(s.names, n)
	}
}

// toolNames reads the tool names promptfoo finds in a provider output
// (extractToolNames): OpenAI tool_calls, a Responses function_call item,
// an Anthropic tool_use block, a Gemini functionCall, a Live toolCall, a
// list of such blocks or {function: {name}} / {name} items, and the same
// as JSON text, whole or embedded in prose.
func toolNames(v any, s *nameSet, depth int) error {
	if depth > 64 {
		return errParseLimit
	}
	switch v := v.(type) {
	case js.Undefined, nil, bool, json.Number:
		return nil
	case string:
		parsed, err := jsonvalue.ParseString(v)
		if err == nil {
			return toolNames(parsed, s, depth+1)
		}
		blocks, err := jsonBlocks(v)
		if err != nil {
			return err
		}
		for _, b := range blocks {
			if err := toolNames(b, s, depth+1); err != nil {
				return err
			}
		}
		return nil
	case jsonvalue.Object:
		if tc, ok := v.Get("tool_calls"); ok {
			if list, ok := tc.([]any); ok {
				for _, c := range list {
					if o, ok := c.(jsonvalue.Object); ok {
						if f, ok := js.Get(o, "function").(jsonvalue.Object); ok {
							if n, ok := js.Get(f, "name").(string); ok {
								s.add(n)
							}
						}
						if n, ok := js.Get(o, "name").(string); ok {
							s.add(n)
						}
					}
				}
				return nil
			}
		}
		typ := js.Get(v, "type")
		if n, ok := js.Get(v, "name").(string); ok && (js.StrictEqual(typ, "tool_use") || js.StrictEqual(typ, "function_call")) {
			s.add(n)
			return nil
		}
		if fc, ok := v.Get("functionCall"); ok && js.Truthy(fc) && js.IsObject(fc) {
			if n, ok := js.Field(fc, "name").(string); ok {
				s.add(n)
			}
			return nil
		}
		if tc, ok := v.Get("toolCall"); ok && js.Truthy(tc) && js.IsObject(tc) {
			if fcs, ok := js.Field(tc, "functionCalls").([]any); ok {
				if _, own := js.Property(tc, "functionCalls"); own {
					for _, fc := range fcs {
						if n, ok := js.Field(fc, "name").(string); ok && js.IsObject(fc) {
							s.add(n)
						}
					}
				}
			}
			return nil
		}
	case []any:
		for _, item := range v {
			if !js.IsObject(item) {
				continue
			}
			if n, ok := js.Field(item, "name").(string); ok && js.StrictEqual(js.Field(item, "type"), "tool_use") {
				s.add(n)
				continue
			}
			if fc, ok := js.Property(item, "functionCall"); ok && js.Truthy(fc) && js.IsObject(fc) {
				if n, ok := js.Field(fc, "name").(string); ok {
					s.add(n)
				}
				continue
			}
			if f := js.Field(item, "function"); js.Truthy(f) && js.IsObject(f) {
				if n, ok := js.Field(f, "name").(string); ok {
					s.add(n)
				}
				continue
			}
			if n, ok := js.Field(item, "name").(string); ok {
				s.add(n)
			}
		}
	}
	return nil
}

// jsonBlocks finds the JSON blocks promptfoo reads in prose (its
// extractJsonBlocks), parsed, in the order they are found.
func jsonBlocks(text string) ([]any, error) {
	u := utf16.Encode([]rune(text))
	budget := 4 * len(u)
	var out []any
	stack := [][]block{}
	bs, err := findBlocks(u, false)
	if err != nil {
		return nil, err
	}
	stack = append(stack, bs)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(*top) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		b := (*top)[0]
		*top = (*top)[1:]
		if len(b.text) > budget {
			return nil, errParseLimit
		}
		budget -= len(b.text)
		src := string(utf16.Decode(b.text))
		v, err := jsonvalue.ParseString(src)
		if err == nil {
			if b.startsLine {
				out = append(out, v)
			}
			continue
		}
		inner, err := findBlocks(b.text, true)
		if err != nil {
			return nil, err
		}
		stack = append(stack, inner)
	}
	return out, nil
}

type block struct {
	text       []uint16
	startsLine bool
}

// A delimiter is one bracket the line scan found, or a barrier (a fence
// boundary or an unterminated string) where bracket is 0.
type delimiter struct {
	char       uint16
	index      int
	startsLine bool
	endsLine   bool
}

var (
	fenceRe = lazyregexp.New("^[ \t]*(`{3,}|~{3,})")
	listRe  = lazyregexp.New(`^[ \t]*(?:[-+*]|[0-9]+[.)])[ \t]+`)
)

// columnWidth is the width of leading text, tabs to the next multiple of 4.
func columnWidth(u []uint16) int {
	col := 0
	for _, r := range utf16.Decode(u) {
		if r == '\t' {
			col += 4 - col%4
		} else {
			col++
		}
	}
	return col
}

func isJSSpaceUnit(c uint16) bool { return js.IsSpace(rune(c)) }

// delimiters is promptfoo's jsonDelimiters: a markdown-aware, line by line
// scan for brackets outside JSON strings, skipping fenced code.
func delimiters(u []uint16) []delimiter {
	var out []delimiter
	inString, escaped := false, false
	fence := []uint16(nil)
	fenceContainer := 0
	var containers []int
	for lineStart := 0; lineStart < len(u); {
		offset := lineStart
		lineEnd := len(u)
		for i := lineStart; i < len(u); i++ {
			if u[i] == '\n' {
				lineEnd = i
				break
			}
		}
		content := u[lineStart:lineEnd]
		for len(content) > 0 && isJSSpaceUnit(content[len(content)-1]) {
			content = content[:len(content)-1]
		}
		lineStart = lineEnd + 1
		firstContent := -1
		for i, c := range content {
			if !isJSSpaceUnit(c) {
				firstContent = i
				break
			}
		}
		indent := columnWidth(content[:max(0, firstContent)])
		if fence != nil && len(content) > 0 && indent < fenceContainer {
			fence = nil
			out = append(out, delimiter{})
		}
		contentText := string(utf16.Decode(content))
		if fence != nil {
			if m := fenceRe.FindStringSubmatchIndex(contentText); m != nil {
				marker := contentText[m[2]:m[3]]
				rest := contentText[m[1]:]
				if indent <= fenceContainer+3 && marker[0] == byte(fence[0]) && len(marker) >= len(fence) && js.Trim(rest) == "" {
					fence = nil
				}
			}
			continue
		}
		for len(content) > 0 && len(containers) > 0 && indent < containers[len(containers)-1] {
			containers = containers[:len(containers)-1]
		}
		lm := listRe.FindStringIndex(contentText)
		if lm != nil {
			containers = append(containers, columnWidth(utf16.Encode([]rune(contentText[:lm[1]]))))
		}
		container := 0
		if len(containers) > 0 {
			container = containers[len(containers)-1]
		}
		fenceText := contentText
		if lm != nil {
			fenceText = contentText[lm[1]:]
		}
		if m := fenceRe.FindStringSubmatchIndex(fenceText); m != nil && (lm != nil || indent <= container+3) {
			marker := fenceText[m[2]:m[3]]
			if marker[0] != '`' || !strings.Contains(fenceText[m[1]:], "`") {
				fence = utf16.Encode([]rune(marker))
				fenceContainer = container
				out = append(out, delimiter{})
				continue
			}
		}
		for col, c := range content {
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[', '}', ']':
				out = append(out, delimiter{char: c, index: offset + col, startsLine: col == firstContent, endsLine: col == len(content)-1})
			}
		}
		if inString {
			inString, escaped = false, false
			out = append(out, delimiter{})
		}
	}
	return out
}

const maxUnmatched = 65536

// findBlocks is promptfoo's jsonBlocks: brackets are paired with a stack
// (a barrier, or a closer that pairs with nothing, starts the stack
// afresh), and each outermost matched pair (one level in, with skipRoot)
// whose closer ends its line is a candidate block.
func findBlocks(u []uint16, skipRoot bool) ([]block, error) {
	ds := delimiters(u)
	var unmatched []int
	stackStart := 0
	for _, d := range ds {
		switch {
		case d.char == 0:
			stackStart = len(unmatched)
		case d.char == '{' || d.char == '[':
			unmatched = append(unmatched, d.index)
		case len(unmatched) > stackStart && u[unmatched[len(unmatched)-1]] == opener(d.char):
			unmatched = unmatched[:len(unmatched)-1]
		default:
			unmatched = append(unmatched, d.index)
			stackStart = len(unmatched)
		}
		if len(unmatched) > maxUnmatched {
			return nil, errParseLimit
		}
	}
	var out []block
	next, depth, start, startDepth, startsLine := 0, 0, -1, 0, false
	root := 0
	if skipRoot {
		root = 1
	}
	for _, d := range ds {
		if d.char == 0 {
			continue
		}
		if next < len(unmatched) && d.index == unmatched[next] {
			next++
			continue
		}
		if d.char == '{' || d.char == '[' {
			if start < 0 && depth == root {
				start, startDepth, startsLine = d.index, depth, d.startsLine
			}
			depth++
			continue
		}
		depth--
		if start >= 0 && depth == startDepth {
			if d.endsLine {
				out = append(out, block{text: u[start : d.index+1], startsLine: startsLine})
			}
			start = -1
		}
	}
	return out, nil
}

func opener(c uint16) uint16 {
	if c == '}' {
		return '{'
	}
	return '['
}

// f1 is tool-call-f1's score over the sets of names.
func f1(expected []string, called []string) (score, precision, recall float64) {
	exp := []string{}
	for _, n := range expected {
		if !slices.Contains(exp, n) {
			exp = append(exp, n)
		}
	}
	both := 0
	for _, n := range exp {
		if slices.Contains(called, n) {
			both++
		}
	}
	if len(called) > 0 {
		precision = float64(both) / float64(len(called))
	}
	recall = float64(both) / float64(len(exp))
	if precision+recall > 0 {
		score = 2 * precision * recall / (precision + recall)
	}
	return score, precision, recall
}

// setText writes a set of names, sorted and quoted.
func setText(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	s := slices.Clone(names)
	slices.Sort(s)
	s = slices.Compact(s)
	for i := range s {
		s[i] = strconv.Quote(s[i])
	}
	return "[" + strings.Join(s, ", ") + "]"
}
