package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"go.yaml.in/yaml/v3"
)

// readYAML splits a YAML stream into records: each document is one case,
// unless it is a block list ("- " at the start of a line), whose items are
// then one case each. Splitting works line by line, so a long list streams.
func readYAML(name string, br *bufio.Reader, yield func(toolgrade.Record, error) bool) error {
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
		rec := &record{data: string(chunk), source: name, line: chunkLine, yaml: true, yamlItem: kind == list}
		chunk = chunk[:0]
		return yield(rec, nil)
	}
	lr := jsonvalue.NewLineReader(br)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			break
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

var yamlLine = regexp.MustCompile(`line (\d+)`)

// decodeYAML reads one record's YAML into the value model. Line numbers in
// YAML's messages are made absolute.
func decodeYAML(data []byte, firstLine int, item bool) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
			n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
			return "line " + strconv.Itoa(firstLine+n-1)
		})
		return nil, errors.New("invalid YAML: " + msg)
	}
	v, err := nodeValue(&doc)
	if err != nil {
		return nil, err
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

// YAMLValue reads YAML text (one document) into the JSON value model.
func YAMLValue(data []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return nodeValue(&doc)
}

// nodeValue converts a YAML node into the JSON value model: mappings become
// Objects in document order, integers and floats json.Numbers, and other
// scalars strings, booleans or null by their resolved tags. Values with no
// JSON form (.inf, .nan, non-string keys that are collections) are errors.
func nodeValue(n *yaml.Node) (any, error) {
	return yamlNode(n, 0)
}

func yamlNode(n *yaml.Node, depth int) (any, error) {
	if depth > 1000 {
		return nil, errors.New("YAML nested too deeply (or an alias refers to itself)")
	}
	at := func(err error) error { return fmt.Errorf("line %d: %w", n.Line, err) }
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
		obj := jsonvalue.Object{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, vn := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
				merged, err := yamlNode(vn, depth+1)
				if err != nil {
					return nil, err
				}
				mo, ok := merged.(jsonvalue.Object)
				if !ok {
					return nil, at(errors.New("a merge key needs a mapping"))
				}
				for _, m := range mo {
					if !obj.Has(m.Key) {
						obj = append(obj, m)
					}
				}
				continue
			}
			if k.Kind != yaml.ScalarNode {
				return nil, at(errors.New("mapping keys must be scalars to have a JSON form"))
			}
			v, err := yamlNode(vn, depth+1)
			if err != nil {
				return nil, err
			}
			obj.Set(k.Value, v)
		}
		return obj, nil
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
		case "!!int":
			s := strings.ReplaceAll(n.Value, "_", "")
			if i, ok := new(big.Int).SetString(s, 0); ok {
				return json.Number(i.String()), nil
			}
			return nil, at(fmt.Errorf("cannot read integer %q", n.Value))
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, at(err)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, at(fmt.Errorf("%s has no JSON form", n.Value))
			}
			// Keep the spelling when it is already a JSON number.
			if _, err := jsonvalue.ParseString(n.Value); err == nil {
				return json.Number(n.Value), nil
			}
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if jsonvalue.IsIntegerLiteral(s) {
				s += ".0"
			}
			return json.Number(s), nil
		default:
			return n.Value, nil
		}
	}
	return nil, at(fmt.Errorf("unsupported YAML node kind %d", n.Kind))
}
