package trace

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	isCalls := func(s string) level {
		_, err := parseCalls(s)
		return when(err == nil, guess)
	}
	register(format{
		name:    "pythonic",
		read:    readPythonicList,
		text:    readPythonic,
		textual: isCalls,
		keys:    []string{}, // its element sniffer claims strings, no object
		item: func(e any) level {
			s, ok := e.(string)
			if !ok {
				return no
			}
			return isCalls(s) // BFCL-style call strings
		},
	})
}

// readPythonic reads calls written as Python: "get_weather(city='Paris',
// days=3)" (BFCL, NexusRaven "Call: ..."), a list "[f(a=1), g(b='x')]",
// or calls separated by commas, semicolons or line breaks. Keyword
// arguments with literal values become args (Python literals as JSON, see
// [parsePython]); a call with positional arguments or a value that is not
// a literal (a nested call, a variable) gets args null, args_raw = the
// text between its parentheses, and is marked invalid. "f()" has args {}.
func readPythonic(b *builder, s string) error {
	calls, err := parseCalls(s)
	if err != nil {
		return err
	}
	for _, c := range calls {
		b.add(nil, c)
	}
	return nil
}

// readPythonicList reads a list of Python-call strings.
func readPythonicList(b *builder, v any) error {
	l, ok := v.([]any)
	if !ok {
		return wantError("Python call text or a list of Python call strings", v)
	}
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return fieldError(index("", i), "want a Python call string, got %s", jsonvalue.Kind(e))
		}
		if err := addPythonCalls(b, s, index("", i)); err != nil {
			return err
		}
	}
	return nil
}

func addPythonCalls(b *builder, s, path string) error {
	calls, err := parseCalls(s)
	if err != nil {
		return fieldError(path, "%v", err)
	}
	for _, c := range calls {
		b.add(nil, c)
	}
	return nil
}

// parseCalls reads Python-call text into calls.
func parseCalls(s string) ([]toolgrade.Call, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "Call:"); ok { // NexusRaven
		s = rest
		for _, end := range []string{"<bot_end>", "\nThought:"} {
			if i := strings.Index(s, end); i >= 0 {
				s = s[:i]
			}
		}
	}
	p := pyParser{s: strings.TrimSpace(s)}
	bracket := p.peek() == '['
	if bracket {
		p.pos++
	}
	var calls []toolgrade.Call
	for {
		p.space()
		if bracket && p.peek() == ']' {
			p.pos++
			p.space()
			if p.pos < len(p.s) {
				return nil, p.errorf("unexpected %s after the list of calls", p.describe())
			}
			break
		}
		if p.pos >= len(p.s) {
			if bracket {
				return nil, p.errorf("missing ']'")
			}
			break
		}
		c, err := p.call()
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
		p.space()
		if c := p.peek(); c == ',' || c == ';' {
			p.pos++
		}
	}
	if len(calls) == 0 {
		return nil, errors.New("no Python call")
	}
	return calls, nil
}

// call reads name(arguments).
func (p *pyParser) call() (toolgrade.Call, error) {
	start := p.pos
	for {
		if p.ident() == "" {
			p.pos = start
			return toolgrade.Call{}, p.errorf("want a function name, got %s", p.describe())
		}
		if p.peek() != '.' {
			break
		}
		p.pos++
	}
	c := toolgrade.Call{Name: p.s[start:p.pos]}
	p.space()
	if p.peek() != '(' {
		return c, p.errorf("want '(' after %s, got %s", c.Name, p.describe())
	}
	end, err := p.closing(p.pos)
	if err != nil {
		return c, err
	}
	text := p.s[p.pos+1 : end]
	p.pos = end + 1
	if a, err := keywordArgs(text); err == nil {
		c.Args = a
	} else {
		c.ArgsRaw, c.Invalid = text, true
	}
	return c, nil
}

// closing finds the bracket that closes the one at open, skipping strings
// and nested brackets.
func (p *pyParser) closing(open int) (int, error) {
	var stack []byte
	for i := open; i < len(p.s); i++ {
		switch c := p.s[i]; c {
		case '(', '[', '{':
			stack = append(stack, map[byte]byte{'(': ')', '[': ']', '{': '}'}[c])
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return 0, fmt.Errorf("unbalanced %q at byte %d", c, i+1)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i, nil
			}
		case '"', '\'':
			triple := strings.HasPrefix(p.s[i:], strings.Repeat(string(c), 3))
			i = skipString(p.s, i, c, triple)
		}
	}
	return 0, fmt.Errorf("unclosed '(' at byte %d", open+1)
}

// skipString returns the index of the last byte of the string literal
// starting at i.
func skipString(s string, i int, q byte, triple bool) int {
	if triple {
		i += 3
	} else {
		i++
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			if !triple {
				return i
			}
			if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
				return i + 2
			}
		}
	}
	return len(s)
}

// keywordArgs reads "a=1, b='x'" into an object; positional arguments and
// values that are not literals are errors.
func keywordArgs(text string) (jsonvalue.Object, error) {
	q := pyParser{s: text}
	o := jsonvalue.Object{}
	for {
		q.space()
		if q.pos >= len(q.s) {
			return o, nil
		}
		kw := q.ident()
		q.space()
		if kw == "" || q.peek() != '=' || strings.HasPrefix(q.s[q.pos:], "==") {
			return nil, errors.New("positional argument")
		}
		q.pos++
		v, err := q.value()
		if err != nil {
			return nil, err
		}
		if o.Has(kw) {
			return nil, fmt.Errorf("keyword argument %s repeated", kw)
		}
		o = append(o, jsonvalue.Member{Key: kw, Value: v})
		q.space()
		if q.pos >= len(q.s) {
			return o, nil
		}
		if q.peek() != ',' {
			return nil, q.errorf("want ',' between arguments, got %s", q.describe())
		}
		q.pos++
	}
}
