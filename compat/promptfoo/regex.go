package promptfoo

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A JavaScript regular expression with the u flag (as Ajv compiles
// pattern and patternProperties) is translated into Go's syntax where
// the two agree. Go lacks lookaround and backreferences: such a pattern
// is an unsupportedError, never a guess. A pattern JavaScript rejects is a
// syntaxError, which makes Ajv's compile throw.

type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return "Invalid regular expression: " + e.msg }

type unsupportedError struct{ what string }

func (e *unsupportedError) Error() string {
	return "the pattern uses " + e.what + ", which toolgrade does not reproduce (Go's regular expressions lack it)"
}

// jsSpaceClass is the set \s matches in JavaScript, as class items.
const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// translateJSRegexp translates a u-flag JavaScript pattern into Go syntax.
func translateJSRegexp(src string) (string, error) {
	t := &reTranslator{s: []rune(src)}
	var b strings.Builder
	depth := 0
	canQuantify := false
	for t.i < len(t.s) {
		c := t.s[t.i]
		switch c {
		case '\\':
			piece, err := t.escape(false)
			if err != nil {
				return "", err
			}
			b.WriteString(piece)
			canQuantify = piece != `\b` && piece != `\B`
		case '.':
			t.i++
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
			canQuantify = true
		case '[':
			piece, err := t.class()
			if err != nil {
				return "", err
			}
			b.WriteString(piece)
			canQuantify = true
		case '(':
			t.i++
			switch {
			case t.has("?:"):
				t.i += 2
				b.WriteString("(?:")
			case t.has("?="), t.has("?!"), t.has("?<="), t.has("?<!"):
				return "", &unsupportedError{"lookaround"}
			case t.has("?<"):
				name, ok := t.until(t.i+2, '>')
				if !ok || !validGroupName(name) {
					return "", &syntaxError{"invalid capture group name"}
				}
				t.i += 2 + len([]rune(name)) + 1
				b.WriteString("(?P<" + name + ">")
			case t.has("?"):
				return "", &unsupportedError{"a group modifier"}
			default:
				b.WriteString("(")
			}
			depth++
			canQuantify = false
		case ')':
			if depth == 0 {
				return "", &syntaxError{"unmatched ')'"}
			}
			t.i++
			depth--
			b.WriteString(")")
			canQuantify = true
		case '|':
			t.i++
			b.WriteString("|")
			canQuantify = false
		case '^', '$':
			t.i++
			if c == '$' {
				b.WriteString(`\z`)
			} else {
				b.WriteString(`\A`)
			}
			canQuantify = false
		case '*', '+', '?':
			if !canQuantify {
				return "", &syntaxError{"nothing to repeat"}
			}
			t.i++
			b.WriteRune(c)
			if t.i < len(t.s) && t.s[t.i] == '?' {
				t.i++
				b.WriteRune('?')
			}
			canQuantify = false
		case '{':
			q, ok := t.quantifier()
			if !ok {
				return "", &syntaxError{"incomplete quantifier"}
			}
			if !canQuantify {
				return "", &syntaxError{"nothing to repeat"}
			}
			b.WriteString(q)
			canQuantify = false
		case '}', ']':
			return "", &syntaxError{fmt.Sprintf("lone quantifier brackets %q", c)}
		default:
			t.i++
			b.WriteString(regexp.QuoteMeta(string(c)))
			canQuantify = true
		}
	}
	if depth != 0 {
		return "", &syntaxError{"unterminated group"}
	}
	return b.String(), nil
}

func validGroupName(n string) bool {
	if n == "" {
		return false
	}
	for i, r := range n {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

type reTranslator struct {
	s []rune
	i int
}

// until returns the runes from from up to the next r, and whether there
// is one.
func (t *reTranslator) until(from int, r rune) (string, bool) {
	for j := from; j < len(t.s); j++ {
		if t.s[j] == r {
			return string(t.s[from:j]), true
		}
	}
	return "", false
}

func (t *reTranslator) has(p string) bool { return strings.HasPrefix(string(t.s[t.i:]), p) }

// quantifier reads {n}, {n,} or {n,m} at t.i.
func (t *reTranslator) quantifier() (string, bool) {
	rest := string(t.s[t.i:])
	m := regexp.MustCompile(`^\{([0-9]+)(,([0-9]*))?\}(\??)`).FindStringSubmatch(rest)
	if m == nil {
		return "", false
	}
	lo, err := strconv.Atoi(m[1])
	if err != nil || lo > 1000 {
		return "", false
	}
	if m[3] != "" {
		hi, err := strconv.Atoi(m[3])
		if err != nil || hi > 1000 || hi < lo {
			return "", false
		}
	}
	t.i += len([]rune(m[0]))
	return m[0], true
}

// escape reads an escape at t.i (a backslash), in a class or not, and
// returns it in Go syntax.
func (t *reTranslator) escape(inClass bool) (string, error) {
	t.i++
	if t.i >= len(t.s) {
		return "", &syntaxError{`\ at end of pattern`}
	}
	c := t.s[t.i]
	t.i++
	switch c {
	case 'd', 'D', 'w', 'W':
		return `\` + string(c), nil
	case 's':
		if inClass {
			return jsSpaceClass, nil
		}
		return "[" + jsSpaceClass + "]", nil
	case 'S':
		if inClass {
			return "", &unsupportedError{`\S inside a character class`}
		}
		return "[^" + jsSpaceClass + "]", nil
	case 'b':
		if inClass {
			return `\x08`, nil
		}
		return `\b`, nil
	case 'B':
		if inClass {
			return "", &syntaxError{"invalid class escape"}
		}
		return `\B`, nil
	case 't':
		return `\t`, nil
	case 'n':
		return `\n`, nil
	case 'v':
		return `\v`, nil
	case 'f':
		return `\f`, nil
	case 'r':
		return `\r`, nil
	case '0':
		if t.i < len(t.s) && t.s[t.i] >= '0' && t.s[t.i] <= '9' {
			return "", &syntaxError{"invalid decimal escape"}
		}
		return `\x00`, nil
	case 'c':
		if t.i < len(t.s) && (t.s[t.i] >= 'a' && t.s[t.i] <= 'z' || t.s[t.i] >= 'A' && t.s[t.i] <= 'Z') {
			r := t.s[t.i] % 32
			t.i++
			return fmt.Sprintf(`\x{%x}`, r), nil
		}
		return "", &syntaxError{"invalid unicode escape"}
	case 'x':
		if t.i+2 <= len(t.s) {
			if n, err := strconv.ParseUint(string(t.s[t.i:t.i+2]), 16, 8); err == nil {
				t.i += 2
				return fmt.Sprintf(`\x{%x}`, n), nil
			}
		}
		return "", &syntaxError{"invalid escape"}
	case 'u':
		r, err := t.unicodeEscape()
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(`\x{%x}`, r), nil
	case 'p', 'P':
		if t.i >= len(t.s) || t.s[t.i] != '{' {
			return "", &syntaxError{"invalid property name"}
		}
		name, ok := t.until(t.i+1, '}')
		if !ok {
			return "", &syntaxError{"invalid property name"}
		}
		t.i += len([]rune(name)) + 2
		if v, ok := strings.CutPrefix(name, "General_Category="); ok {
			name = v
		} else if v, ok := strings.CutPrefix(name, "gc="); ok {
			name = v
		} else if v, ok := strings.CutPrefix(name, "Script="); ok {
			name = v
		} else if v, ok := strings.CutPrefix(name, "sc="); ok {
			name = v
		}
		if _, ok := unicode.Categories[name]; !ok {
			if _, ok := unicode.Scripts[name]; !ok {
				return "", &unsupportedError{`the property escape \p{` + name + `}`}
			}
		}
		return `\` + string(c) + "{" + name + "}", nil
	case 'k':
		return "", &unsupportedError{"a named backreference"}
	}
	if c >= '1' && c <= '9' {
		return "", &unsupportedError{"a backreference"}
	}
	if strings.ContainsRune(`^$\.*+?()[]{}|/`, c) || inClass && c == '-' {
		return regexp.QuoteMeta(string(c)), nil
	}
	return "", &syntaxError{fmt.Sprintf("invalid escape \\%c", c)}
}

// unicodeEscape reads the rest of \uXXXX (joining a surrogate pair) or
// \u{X...}.
func (t *reTranslator) unicodeEscape() (rune, error) {
	if t.i < len(t.s) && t.s[t.i] == '{' {
		hex, ok := t.until(t.i+1, '}')
		if !ok {
			return 0, &syntaxError{"invalid unicode escape"}
		}
		n, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || n > unicode.MaxRune || hex == "" {
			return 0, &syntaxError{"invalid unicode escape"}
		}
		t.i += len([]rune(hex)) + 2
		return rune(n), nil
	}
	read4 := func() (rune, bool) {
		if t.i+4 > len(t.s) {
			return 0, false
		}
		n, err := strconv.ParseUint(string(t.s[t.i:t.i+4]), 16, 16)
		if err != nil {
			return 0, false
		}
		t.i += 4
		return rune(n), true
	}
	r, ok := read4()
	if !ok {
		return 0, &syntaxError{"invalid unicode escape"}
	}
	if r >= 0xd800 && r < 0xdc00 && t.has(`\u`) {
		save := t.i
		t.i += 2
		if lo, ok := read4(); ok && lo >= 0xdc00 && lo < 0xe000 {
			return (r-0xd800)<<10 + (lo - 0xdc00) + 0x10000, nil
		}
		t.i = save
	}
	if r >= 0xd800 && r < 0xe000 {
		return 0, &unsupportedError{"a lone surrogate"}
	}
	return r, nil
}

// class reads a character class at t.i.
func (t *reTranslator) class() (string, error) {
	t.i++
	var b strings.Builder
	b.WriteString("[")
	if t.i < len(t.s) && t.s[t.i] == '^' {
		t.i++
		b.WriteString("^")
	}
	empty := true
	// atom reads one class atom: its Go text, and its rune when it is a
	// single character (a range end).
	atom := func() (string, rune, bool, error) {
		c := t.s[t.i]
		if c == '\\' {
			start := t.i
			piece, err := t.escape(true)
			if err != nil {
				return "", 0, false, err
			}
			esc := t.s[start+1]
			if strings.ContainsRune("dDwWsS", esc) {
				return piece, 0, false, nil
			}
			r, ok := singleRune(piece)
			return piece, r, ok, nil
		}
		t.i++
		return regexp.QuoteMeta(string(c)), c, true, nil
	}
	for {
		if t.i >= len(t.s) {
			return "", &syntaxError{"unterminated character class"}
		}
		if t.s[t.i] == ']' {
			t.i++
			break
		}
		piece, lo, single, err := atom()
		if err != nil {
			return "", err
		}
		if t.i+1 < len(t.s) && t.s[t.i] == '-' && t.s[t.i+1] != ']' {
			t.i++
			hiPiece, hi, hiSingle, err := atom()
			if err != nil {
				return "", err
			}
			if !single || !hiSingle {
				return "", &syntaxError{"invalid character class"}
			}
			if hi < lo {
				return "", &syntaxError{"range out of order in character class"}
			}
			b.WriteString(piece + "-" + hiPiece)
		} else {
			if piece == "-" {
				piece = `\-`
			}
			b.WriteString(piece)
		}
		empty = false
	}
	if empty {
		if strings.HasSuffix(b.String(), "^") {
			return `[\x{0}-\x{10FFFF}]`, nil // [^] matches anything
		}
		return `[^\x{0}-\x{10FFFF}]`, nil // [] matches nothing
	}
	b.WriteString("]")
	return b.String(), nil
}

// singleRune reads back the rune of a one-character piece.
func singleRune(piece string) (rune, bool) {
	if strings.HasPrefix(piece, `\x{`) {
		n, err := strconv.ParseUint(strings.TrimSuffix(piece[3:], "}"), 16, 32)
		return rune(n), err == nil
	}
	switch piece {
	case `\t`:
		return '\t', true
	case `\n`:
		return '\n', true
	case `\v`:
		return '\v', true
	case `\f`:
		return '\f', true
	case `\r`:
		return '\r', true
	}
	rs := []rune(strings.TrimPrefix(piece, `\`))
	if len(rs) == 1 {
		return rs[0], true
	}
	return 0, false
}

// compileJSRegexp compiles a u-flag JavaScript pattern.
func compileJSRegexp(src string) (*regexp.Regexp, error) {
	goSrc, err := translateJSRegexp(src)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(goSrc)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, &unsupportedError{"a construct Go's regular expressions reject (" + err.Error() + ")"}
	}
	return re, nil
}
