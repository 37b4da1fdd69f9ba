package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// parsePython reads one Python literal (what ast.literal_eval accepts,
// without complex numbers and sets) into the value model: dicts become
// Objects, lists and tuples lists, True/False/None booleans and null,
// numbers json.Number in JSON spelling (ints stay ints, floats keep a
// fraction or exponent). JSON's true/false/null are accepted too, as the
// Hermes reference parser's fallback does. Dict keys become strings as
// json.dumps makes them.
func parsePython(s string) (any, error) {
	p := pyParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.s) {
		return nil, p.errorf("unexpected %s after the value", p.describe())
	}
	return v, nil
}

// maxPyDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxPyDepth = 1000

type pyParser struct {
	s     string
	pos   int
	depth int
}

func (p *pyParser) errorf(format string, args ...any) error {
	//lint:ignore ST1005 Python is a proper noun, and the message reads inside a longer one
	return fmt.Errorf("Python syntax at byte %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *pyParser) describe() string {
	if p.pos >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *pyParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// space skips white space, line continuations and comments.
func (p *pyParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		case '\\':
			rest := p.s[p.pos+1:]
			switch {
			case strings.HasPrefix(rest, "\n"):
				p.pos += 2
			case strings.HasPrefix(rest, "\r\n"):
				p.pos += 3
			default:
				return
			}
		case '#':
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *pyParser) value() (any, error) {
	p.space()
	if p.pos >= len(p.s) {
		return nil, p.errorf("unexpected end of input")
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxPyDepth {
		return nil, p.errorf("nested too deeply")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.dict()
	case c == '[':
		p.pos++
		return p.items(']')
	case c == '(':
		return p.paren()
	case c == '"' || c == '\'':
		return p.stringLiteral()
	case c == '-' || c == '+' || c == '.' || isDigit(c):
		return p.number()
	}
	start := p.pos
	word := p.ident()
	switch word {
	case "":
		return nil, p.errorf("unexpected %s", p.describe())
	case "True", "true":
		return true, nil
	case "False", "false":
		return false, nil
	case "None", "null":
		return nil, nil
	}
	if q := p.peek(); (q == '"' || q == '\'') && len(word) <= 2 && strings.Trim(word, "rRbBuUfF") == "" {
		p.pos = start
		return p.stringLiteral()
	}
	p.pos = start
	return nil, p.errorf("%s is not a literal", word)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ident reads an identifier, or returns "" without moving.
func (p *pyParser) ident() string {
	start := p.pos
	for p.pos < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.pos:])
		if r == '_' || unicode.IsLetter(r) || (p.pos > start && unicode.IsDigit(r)) {
			p.pos += size
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *pyParser) dict() (any, error) {
	p.pos++ // {
	o := jsonvalue.Object{}
	for {
		p.space()
		if p.peek() == '}' {
			p.pos++
			return o, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.peek() != ':' {
			if len(o) == 0 && (p.peek() == ',' || p.peek() == '}') {
				return nil, p.errorf("a set is not JSON")
			}
			return nil, p.errorf("want ':' after a dict key, got %s", p.describe())
		}
		p.pos++
		key, err := pyKey(k)
		if err != nil {
			return nil, p.errorf("%v", err)
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		o.Set(key, v)
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return o, nil
		default:
			return nil, p.errorf("want ',' or '}' in a dict, got %s", p.describe())
		}
	}
}

// pyKey spells a dict key as json.dumps does.
func pyKey(k any) (string, error) {
	switch k := k.(type) {
	case string:
		return k, nil
	case json.Number:
		return string(k), nil
	case bool:
		return strconv.FormatBool(k), nil
	case nil:
		return "null", nil
	}
	return "", errors.New("a dict key must be a string, number, bool or None")
}

// items reads list items up to end; the opening bracket is consumed.
func (p *pyParser) items(end byte) ([]any, error) {
	l := []any{}
	for {
		p.space()
		if p.peek() == end {
			p.pos++
			return l, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case end:
			p.pos++
			return l, nil
		default:
			return nil, p.errorf("want ',' or %q, got %s", end, p.describe())
		}
	}
}

// paren reads a tuple (a list) or a parenthesized value.
func (p *pyParser) paren() (any, error) {
	p.pos++ // (
	p.space()
	if p.peek() == ')' {
		p.pos++
		return []any{}, nil
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	switch p.peek() {
	case ')':
		p.pos++
		return v, nil
	case ',':
		p.pos++
		rest, err := p.items(')')
		if err != nil {
			return nil, err
		}
		return append([]any{v}, rest...), nil
	}
	return nil, p.errorf("want ',' or ')', got %s", p.describe())
}

// stringLiteral reads a string literal and any literals right after it, which
// Python joins.
func (p *pyParser) stringLiteral() (any, error) {
	var buf []byte
	for {
		var err error
		if buf, err = p.str(buf); err != nil {
			return nil, err
		}
		save := p.pos
		p.space()
		c := p.peek()
		start := p.pos
		if c != '"' && c != '\'' {
			word := p.ident()
			if q := p.peek(); word == "" || len(word) > 2 || strings.Trim(word, "rRbBuU") != "" || (q != '"' && q != '\'') {
				p.pos = save
				return string(buf), nil
			}
			p.pos = start
		}
	}
}

// str reads one string literal, with its prefix, appending its value.
func (p *pyParser) str(buf []byte) ([]byte, error) {
	raw := false
	for p.pos < len(p.s) && strings.IndexByte("rRbBuUfF", p.s[p.pos]) >= 0 {
		switch p.s[p.pos] {
		case 'f', 'F':
			return nil, p.errorf("an f-string is not a literal")
		case 'r', 'R':
			raw = true
		}
		p.pos++
	}
	q := p.peek()
	if q != '"' && q != '\'' {
		return nil, p.errorf("want a quote, got %s", p.describe())
	}
	triple := strings.HasPrefix(p.s[p.pos:], strings.Repeat(string(q), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	for {
		if p.pos >= len(p.s) {
			return nil, p.errorf("unterminated string")
		}
		c := p.s[p.pos]
		switch {
		case c == q:
			if !triple {
				p.pos++
				return buf, nil
			}
			if strings.HasPrefix(p.s[p.pos:], strings.Repeat(string(q), 3)) {
				p.pos += 3
				return buf, nil
			}
		case c == '\n' && !triple:
			return nil, p.errorf("line break in a string")
		case c == '\\':
			if p.pos+1 >= len(p.s) {
				return nil, p.errorf("unterminated string")
			}
			if raw {
				buf = append(buf, c, p.s[p.pos+1])
				p.pos += 2
				continue
			}
			var err error
			if buf, err = p.escape(buf); err != nil {
				return nil, err
			}
			continue
		}
		buf = append(buf, c)
		p.pos++
	}
}

// escape reads one backslash escape of a non-raw string.
func (p *pyParser) escape(buf []byte) ([]byte, error) {
	n := p.s[p.pos+1]
	p.pos += 2
	switch n {
	case '\n':
		return buf, nil // line continuation
	case '\r':
		if p.peek() == '\n' {
			p.pos++
		}
		return buf, nil
	case '\\', '\'', '"':
		return append(buf, n), nil
	case 'a':
		return append(buf, '\a'), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'v':
		return append(buf, '\v'), nil
	case 'x', 'u', 'U':
		size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[n]
		if p.pos+size > len(p.s) {
			return nil, p.errorf("truncated \\%c escape", n)
		}
		r, err := strconv.ParseUint(p.s[p.pos:p.pos+size], 16, 32)
		if err != nil {
			return nil, p.errorf("bad \\%c escape", n)
		}
		p.pos += size
		return utf8.AppendRune(buf, rune(r)), nil
	}
	if n >= '0' && n <= '7' {
		r := rune(n - '0')
		for i := 0; i < 2 && p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '7'; i++ {
			r = r*8 + rune(p.s[p.pos]-'0')
			p.pos++
		}
		return utf8.AppendRune(buf, r), nil
	}
	return append(buf, '\\', n), nil // unknown escapes stay as written
}

// number reads an int or float literal, with an optional sign, and spells
// it as JSON: no underscores, no leading zeros, digits on both sides of
// the point, hex/octal/binary ints in decimal.
func (p *pyParser) number() (any, error) {
	neg := false
	if c := p.peek(); c == '-' || c == '+' {
		neg = c == '-'
		p.pos++
		p.space()
	}
	var num string
	if rest := p.s[p.pos:]; len(rest) > 1 && rest[0] == '0' && strings.IndexByte("xXoObB", rest[1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[rest[1]|0x20]
		p.pos += 2
		start := p.pos
		for p.pos < len(p.s) && (isHex(p.s[p.pos]) || p.s[p.pos] == '_') {
			p.pos++
		}
		n, ok := new(big.Int).SetString(strings.ReplaceAll(p.s[start:p.pos], "_", ""), base)
		if !ok {
			return nil, p.errorf("bad number")
		}
		num = n.String()
	} else {
		intPart := p.digits()
		frac, exp := "", ""
		hasDot := false
		if p.peek() == '.' {
			p.pos++
			hasDot = true
			frac = p.digits()
		}
		if intPart == "" && frac == "" {
			return nil, p.errorf("want a number, got %s", p.describe())
		}
		if c := p.peek(); c == 'e' || c == 'E' {
			save := p.pos
			p.pos++
			sign := ""
			if c := p.peek(); c == '+' || c == '-' {
				sign = string(c)
				p.pos++
			}
			if d := p.digits(); d != "" {
				exp = "e" + sign + d
			} else {
				p.pos = save
			}
		}
		if c := p.peek(); c == 'j' || c == 'J' {
			return nil, p.errorf("a complex number is not JSON")
		}
		intPart = strings.TrimLeft(intPart, "0")
		if intPart == "" {
			intPart = "0"
		}
		num = intPart
		if hasDot {
			if frac == "" {
				frac = "0"
			}
			num += "." + frac
		}
		num += exp
	}
	if neg {
		num = "-" + num
	}
	return json.Number(num), nil
}

// digits reads decimal digits, dropping underscores.
func (p *pyParser) digits() string {
	start := p.pos
	for p.pos < len(p.s) && (isDigit(p.s[p.pos]) || (p.s[p.pos] == '_' && p.pos > start)) {
		p.pos++
	}
	return strings.ReplaceAll(p.s[start:p.pos], "_", "")
}

func isHex(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
}
