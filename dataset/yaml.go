package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"go.yaml.in/yaml/v3"
)

// readYAML splits a YAML stream into records: each document is one case,
// unless it is a block list ("- " at the start of a line), whose items are
// then one case each. Splitting works line by line, so a long list streams.
func (sp *splitter) readYAML(br *bufio.Reader) error {
	name := sp.file.source
	const (
		unknown = iota
		list
		single
	)
	kind := unknown
	var chunk []byte
	chunkLine, lineNo := 0, 0
	flush := func() bool {
		if len(bytes.TrimSpace(chunk)) == 0 {
			chunk = chunk[:0]
			return true
		}
		rec := record{data: string(chunk), line: chunkLine, yaml: true, yamlItem: kind == list}
		chunk = chunk[:0]
		return sp.emit(rec)
	}
	lr := jsonvalue.NewLineReader(br)
	lr.Limit(sp.max)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, jsonvalue.ErrLineTooLong) {
			return sp.tooLarge(lineNo+1, "line")
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
		}
		lineNo++
		switch {
		case line == "---" || strings.HasPrefix(line, "--- ") || line == "...":
			if !flush() {
				return errStop
			}
			kind = unknown
			if rest := strings.TrimSpace(strings.TrimPrefix(line, "---")); len(rest) > 0 && !strings.HasPrefix(rest, "#") && line != "..." {
				kind, chunkLine = single, lineNo
				chunk = append(chunk, rest...)
				chunk = append(chunk, '\n')
			}
			continue
		case kind == unknown:
			t := strings.TrimSpace(line)
			if len(t) == 0 || t[0] == '#' || t[0] == '%' {
				continue // blank lines, comments and directives before content
			}
			kind, chunkLine = single, lineNo
			if isItemStart(line) {
				kind = list
			}
		case kind == list && isItemStart(line):
			if !flush() {
				return errStop
			}
			chunkLine = lineNo
		}
		if len(chunk)+len(line) >= sp.max {
			return sp.tooLarge(chunkLine, "record starting here")
		}
		chunk = append(chunk, line...)
		chunk = append(chunk, '\n')
	}
	if !flush() {
		return errStop
	}
	return nil
}

func isItemStart(line string) bool {
	return len(line) > 0 && line[0] == '-' && (len(line) == 1 || line[1] == ' ' || line[1] == '\t')
}

var yamlLine = lazyregexp.New(`line (\d+)`)

// yamlLineFirst is a YAML message that names its line first, after what
// kind of error it is ("invalid YAML: line 7: ...").
var yamlLineFirst = lazyregexp.New(`^((?:invalid YAML: )?)line (\d+): `)

// yamlErrorLine takes the line out of a YAML message that names one
// first, for the message to be put as FILE:LINE: MESSAGE.
func yamlErrorLine(msg string) (int, string, bool) {
	m := yamlLineFirst.FindStringSubmatchIndex(msg)
	if m == nil {
		return 0, msg, false
	}
	line, _ := strconv.Atoi(msg[m[4]:m[5]])
	return line, msg[m[2]:m[3]] + msg[m[1]:], true
}

// decodeYAML reads one record's YAML into the value model. Line numbers in
// YAML's messages are made absolute.
func decodeYAML(data []byte, firstLine int, item bool) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, errors.New("invalid YAML: " + absoluteLines(strings.TrimPrefix(err.Error(), "yaml: "), firstLine))
	}
	v, err := nodeValue(&doc)
	if err != nil {
		// It begins "line N: "; a key or value quoted after may say "line" too.
		msg := err.Error()
		if i := strings.Index(msg, ": "); i > 0 {
			msg = absoluteLines(msg[:i], firstLine) + msg[i:]
		}
		return nil, errors.New(msg)
	}
	if item {
		l, ok := v.([]any)
		if !ok || len(l) != 1 {
			return nil, errors.New("invalid YAML: want one list item")
		}
		v = l[0]
	}
	return v, nil
}

// absoluteLines makes the line numbers of a message about a record's
// YAML, which count from the record's first line, count from the file's.
func absoluteLines(msg string, firstLine int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
		return "line " + strconv.Itoa(firstLine+n-1)
	})
}

// YAMLValue reads YAML text (one document) into the JSON value model. A
// second document (after "---", or a second JSON value) is an error naming
// its line, not text left unread.
func YAMLValue(data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("line %d: a second document: give one (a mapping, or one JSON object)", next.Line)
	}
	return nodeValue(&doc)
}

// nodeValue converts a YAML node into the JSON value model: mappings become
// Objects in document order, integers and floats json.Numbers, and other
// scalars strings, booleans or null by their resolved tags, as YAML 1.2's
// core schema reads them. What YAML readers disagree on, or what has no
// JSON form, is an error naming its line rather than a guess: a key given
// twice in a mapping, a number that YAML 1.1 reads otherwise (010 is 8
// there and 10 in YAML 1.2; 0b1, 1_000, -0x1A), a tag toolgrade does not
// know (!foo, !!binary, !!set), .inf and .nan.
func nodeValue(n *yaml.Node) (any, error) {
	if err := checkAliases(n); err != nil {
		return nil, err
	}
	return yamlNode(n, 0)
}

// yamlTags are the explicit tags a value may carry: those of the JSON
// kinds. Other tags would be read as if they were not there.
var yamlTags = map[string]bool{"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true, "!!map": true, "!!seq": true}

func yamlNode(n *yaml.Node, depth int) (any, error) {
	if depth > jsonvalue.MaxDepth {
		return nil, fmt.Errorf("line %d: YAML nested deeper than %d levels", n.Line, jsonvalue.MaxDepth)
	}
	at := func(err error) error { return fmt.Errorf("line %d: %w", n.Line, err) }
	if n.Style&yaml.TaggedStyle != 0 && !yamlTags[n.ShortTag()] {
		return nil, at(fmt.Errorf("unknown tag %s: a value is a string, number, boolean, null, list or mapping; remove the tag, or quote the value for a string", n.Tag))
	}
	switch n.Kind {
	case 0:
		return nil, nil // empty document
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlNode(n.Content[0], depth+1)
	case yaml.AliasNode:
		return yamlNode(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlNode(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return yamlMapping(n, depth)
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, at(err)
			}
			return b, nil
		case "!!int", "!!float":
			// YAML 1.1 reads digits too many for an int64 as a float; YAML
			// 1.2 as an int.
			isInt := n.ShortTag() == "!!int" || n.Style&yaml.TaggedStyle == 0 && yamlInt.MatchString(n.Value)
			num, err := yamlNumber(n.Value, isInt)
			if err != nil {
				return nil, at(err)
			}
			return num, nil
		case "!!str":
			if n.Style == 0 && yamlFloat.MatchString(n.Value) {
				// A plain number too large for a float64 (1e400), which
				// YAML 1.2 reads as a number all the same.
				return yamlNumber(n.Value, false)
			}
		}
		return n.Value, nil // a plain date (!!timestamp in YAML 1.1) is a string, as in YAML 1.2
	}
	return nil, at(fmt.Errorf("unsupported YAML node kind %d", n.Kind))
}

// yamlMapping converts a mapping. Merge keys (<<) add the members of the
// mappings they name that the mapping does not give itself; a key given
// twice is an error, as YAML says it is (readers keep one or the other).
func yamlMapping(n *yaml.Node, depth int) (any, error) {
	obj := jsonvalue.Object{}
	var merged map[string]bool // keys that came from merge keys, which a key of the mapping replaces
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			v, err := yamlNode(vn, depth+1)
			if err != nil {
				return nil, err
			}
			var from []jsonvalue.Object
			switch v := v.(type) {
			case jsonvalue.Object:
				from = []jsonvalue.Object{v}
			case []any:
				for _, e := range v {
					if o, ok := e.(jsonvalue.Object); ok {
						from = append(from, o)
					} else {
						from = nil
						break
					}
				}
			}
			if from == nil {
				return nil, fmt.Errorf("line %d: a merge key needs a mapping or a list of mappings", k.Line)
			}
			for _, mo := range from {
				for _, m := range mo {
					if !obj.Has(m.Key) {
						obj = append(obj, m)
						if merged == nil {
							merged = map[string]bool{}
						}
						merged[m.Key] = true
					}
				}
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: mapping keys must be scalars to have a JSON form", k.Line)
		}
		v, err := yamlNode(vn, depth+1)
		if err != nil {
			return nil, err
		}
		if obj.Has(k.Value) {
			if !merged[k.Value] {
				return nil, fmt.Errorf("line %d: duplicate key %s in mapping: give each key once", k.Line, jsonvalue.AppendString(nil, k.Value))
			}
			delete(merged, k.Value)
		}
		obj.Set(k.Value, v)
	}
	return obj, nil
}

// yamlInt is YAML 1.2's core schema decimal integer.
var yamlInt = lazyregexp.New(`^[-+]?[0-9]+$`)

// yamlFloat is YAML 1.2's core schema float, .inf and .nan aside.
var yamlFloat = lazyregexp.New(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yamlNumber reads a number YAML has resolved as an int or a float into
// its exact JSON spelling, as YAML 1.2's core schema reads it: decimal,
// 0o octal and 0x hexadecimal integers, decimal floats. Spellings that
// YAML 1.1 reads otherwise are errors, not a guess.
func yamlNumber(s string, isInt bool) (json.Number, error) {
	ambiguous := func(v11 string) error {
		return fmt.Errorf("%s is %s in YAML 1.1 and %s in YAML 1.2: write the number plainly (decimal, 0o for octal, 0x for hexadecimal), or quote it for a string", s, v11, yaml12(s))
	}
	switch {
	case strings.ContainsRune(s, '_'):
		return "", ambiguous(strings.ReplaceAll(s, "_", ""))
	case strings.HasPrefix(s, "0o"), strings.HasPrefix(s, "0x"):
		if i, ok := new(big.Int).SetString(s, 0); ok {
			return json.Number(i.String()), nil
		}
		return "", fmt.Errorf("cannot read integer %q", s)
	case isInt && !yamlFloat.MatchString(s):
		if i, ok := new(big.Int).SetString(s, 0); ok { // 0b101, -0x1A, +0o7
			return "", ambiguous(i.String())
		}
		return "", fmt.Errorf("cannot read integer %q", s)
	case !yamlFloat.MatchString(s):
		return "", fmt.Errorf("%s has no JSON form", s) // .inf, .nan
	}
	t := strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	mant, exp := t, ""
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant, exp = t[:i], t[i:]
	}
	ip, fp, hasPoint := strings.Cut(mant, ".")
	if len(ip) > 1 && ip[0] == '0' {
		if !hasPoint && exp == "" {
			v11 := "the string " + strconv.Quote(s) // 08, 09: not octal
			if i, ok := new(big.Int).SetString(s, 8); ok {
				v11 = i.String()
			}
			return "", ambiguous(v11)
		}
		ip = strings.TrimLeft(ip, "0")
	}
	if ip == "" {
		ip = "0"
	}
	out := ip
	if hasPoint {
		if fp == "" {
			fp = "0"
		}
		out += "." + fp
	}
	if isInt && (hasPoint || exp != "") {
		return "", fmt.Errorf("cannot read integer %q", s)
	}
	if !isInt && !hasPoint && exp == "" {
		out += ".0" // !!float 1: a float, as Python's json would hold it
	}
	if neg {
		out = "-" + out
	}
	return json.Number(out + exp), nil
}

// yaml12 says what YAML 1.2's core schema makes of a spelling yamlNumber
// refuses.
func yaml12(s string) string {
	if yamlFloat.MatchString(s) {
		t := strings.TrimLeft(strings.TrimLeft(s, "+-"), "0")
		if t == "" || t[0] == '.' {
			t = "0" + t
		}
		if strings.HasPrefix(s, "-") {
			t = "-" + t
		}
		return t
	}
	return "the string " + strconv.Quote(s)
}

// MaxAliased is the most values the aliases of one YAML document (a
// document or list item of a case file, a config) may bring in, each
// counted every time an alias is used: aliases of aliases multiply, and
// a document of a kilobyte could otherwise stand for billions of values
// (an alias bomb). The YAML library's own check applies to decoding into
// Go values, not to the node tree read here.
const MaxAliased = 100_000

// checkAliases refuses a document whose aliases bring in more than
// MaxAliased values, or that refer to a value they are part of, before
// anything is expanded. It visits each node once.
func checkAliases(doc *yaml.Node) error {
	const busy = -1 // being counted: an alias reaching it is a cycle
	var sizes map[*yaml.Node]int
	aliased := 0
	var size func(n *yaml.Node, depth int) (int, error)
	size = func(n *yaml.Node, depth int) (int, error) {
		if depth > jsonvalue.MaxDepth {
			return 0, fmt.Errorf("line %d: YAML nested deeper than %d levels", n.Line, jsonvalue.MaxDepth)
		}
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return 1, nil
			}
			s, err := size(n.Alias, depth+1)
			if err != nil {
				return 0, err
			}
			if aliased += s; aliased > MaxAliased {
				return 0, fmt.Errorf("line %d: the aliases of this YAML bring in more than %d values (an alias used again and again, or aliases of aliases): write the values out, or use fewer aliases", n.Line, MaxAliased)
			}
			return s, nil
		}
		anchored := n.Anchor != "" // only these can be aliased: remember them
		if anchored {
			if sizes == nil {
				sizes = map[*yaml.Node]int{}
			}
			switch s, seen := sizes[n]; {
			case s == busy && seen:
				return 0, fmt.Errorf("line %d: an alias refers to a value it is part of", n.Line)
			case seen:
				return s, nil
			}
			sizes[n] = busy
		}
		total := 1
		for _, c := range n.Content {
			s, err := size(c, depth+1)
			if err != nil {
				return 0, err
			}
			total = min(total+s, MaxAliased+1) // a value past the budget is refused when aliased
		}
		if anchored {
			sizes[n] = total
		}
		return total, nil
	}
	_, err := size(doc, 0)
	return err
}
