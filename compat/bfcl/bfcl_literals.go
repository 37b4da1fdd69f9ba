package bfcl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// BFCL's java and javascript categories pass every argument as the source
// text of a literal ("5L", "new ArrayList<>(Arrays.asList(\"a\"))",
// "{key: 'v'}"), which its checker converts by the declared type before
// the Python rules run. The converters are regular expressions run by
// Python's re module; the ones here use Go's regexp, whose leftmost-first
// matching picks the same match, with Python's classes spelled out: \d is
// any Unicode decimal digit, \s any character Python's str.isspace
// accepts, \w any letter, number or underscore, and "$" (end of text, or
// before a final newline) written as \n?$. Text without the expected form
// stays a string.

const (
	pyDigit = `\p{Nd}`
	pySpace = `[\t-\r\x1c-\x1f\x85\p{Z}]`
	pyWord  = `[\p{L}\p{N}_]`
)

// pyRegexp compiles expr, with Python's classes, when it is first used:
// compiling the converters when the program started took 4.7M
// instructions, an eighth of what every toolgrade command spent before it
// began, and only BFCL's java and javascript categories use them.
func pyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp {
		r := strings.NewReplacer(`\d`, pyDigit, `\s`, pySpace, `\w`, pyWord)
		return regexp.MustCompile(r.Replace(expr))
	})
}

var (
	javaInt            = pyRegexp(`^-?\d+\n?$`)
	javaFloat          = pyRegexp(`^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]\n?$`)
	javaDouble         = pyRegexp(`^-?\d+(\.\d+)?([eE][+-]?\d+)?\n?$`)
	javaLong           = pyRegexp(`^-?\d+[lL]\n?$`)
	javaAsList         = pyRegexp(`new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)`)
	javaAddBlock       = pyRegexp(`(?s)new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}`)
	javaAdd            = pyRegexp(`add\((.+?)\)`)
	javaEmptyArrayList = pyRegexp(`new\s+ArrayList<\w*>\(\)`)
	javaArray          = pyRegexp(`new\s+\w+\[\]\s*\{(.*?)\}`)
	javaHashMap        = pyRegexp(`(?s)new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}`)
	javaPut            = pyRegexp(`put\("(.*?)",\s*(.*?)\)`)
	javaEmptyHashMap   = pyRegexp(`new\s+HashMap<.*?>\s*\(\)`)

	jsInt     = pyRegexp(`^-?\d+\n?$`)
	jsFloat   = pyRegexp(`^-?\d+(\.\d+)?\n?$`)
	jsBigint  = pyRegexp(`^-?\d+n\n?$`)
	jsArray2D = pyRegexp(`^(?:\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|new\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\))`)
	jsArray   = pyRegexp(`^(?:\[(.*?)\]|new\s+Array\((.*?)\))`)
	jsInner   = pyRegexp(`\[(.*?)\]`)
	jsObject  = pyRegexp(`^\{(.*?)\}`)
)

// errPyValue is Python's ValueError from int() or float().
var errPyValue = errors.New("ValueError")

// javaValue converts Java source text by its declared type, as BFCL's
// java_type_converter does; nested is the items type of Array and
// ArrayList ("" for none). The error reports text on which BFCL raises.
func javaValue(text, typ, nested string) (any, error) {
	switch typ {
	case "byte", "short", "integer":
		if !javaInt().MatchString(text) {
			return text, nil
		}
		return pyIntOrRaise(text)
	case "float":
		if !javaFloat().MatchString(text) {
			return text, nil
		}
		return pyFloatOrRaise(pyTrimSuffixLetter(text, "fF"))
	case "double":
		if !javaDouble().MatchString(text) {
			return text, nil
		}
		return pyFloatOrRaise(text)
	case "long":
		if !javaLong().MatchString(text) {
			return text, nil
		}
		return pyIntOrRaise(pyTrimSuffixLetter(text, "lL"))
	case "boolean":
		if text != "true" && text != "false" {
			return text, nil
		}
		return text == "true", nil
	case "char", "String", "any":
		// BFCL's char pattern can never match, so char stays text too.
		return text, nil
	case "Array":
		return javaArrayValue(text, nested)
	case "ArrayList":
		return javaArrayListValue(text, nested)
	case "HashMap":
		return javaHashMapValue(text)
	case "Set", "Hashtable", "Queue", "Stack":
		return nil, fmt.Errorf("BFCL cannot convert Java %s literals", typ)
	}
	return nil, fmt.Errorf("unsupported Java type %q", typ)
}

// pyTrimSuffixLetter is re.sub(r"[xX]$", "", s): it drops one of the
// letters at the end, or before a final newline.
func pyTrimSuffixLetter(s, letters string) string {
	body, nl := strings.CutSuffix(s, "\n")
	if body != "" && strings.ContainsRune(letters, rune(body[len(body)-1])) {
		body = body[:len(body)-1]
	}
	if nl {
		body += "\n"
	}
	return body
}

func javaItem(text, nested string) (any, error) {
	switch nested {
	case "char", "String":
		return pySlice(text, 1, -1), nil // drops the quotes, or any first and last character
	case "":
		return javaLiteral(text)
	}
	return javaValue(text, nested, "")
}

func javaArrayListValue(text, nested string) (any, error) {
	var parts []string
	if m := javaAsList().FindStringSubmatch(text); m != nil {
		for _, e := range strings.Split(m[1], ",") {
			parts = append(parts, python.Strip(e))
		}
	} else if m := javaAddBlock().FindStringSubmatch(text); m != nil {
		for _, a := range javaAdd().FindAllStringSubmatch(m[1], -1) {
			parts = append(parts, python.Strip(a[1]))
		}
	} else if javaEmptyArrayList().MatchString(text) {
		return []any{}, nil
	} else {
		return text, nil
	}
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		v, err := javaItem(p, nested)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func javaArrayValue(text, nested string) (any, error) {
	m := javaArray().FindStringSubmatch(text)
	if m == nil {
		return text, nil
	}
	out := []any{}
	for _, e := range strings.Split(m[1], ",") {
		e = python.Strip(e)
		if e == "" {
			continue
		}
		var v any
		var err error
		if nested != "" {
			v, err = javaValue(e, nested, "")
		} else {
			v, err = javaLiteral(e)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func javaHashMapValue(text string) (any, error) {
	m := javaHashMap().FindStringSubmatch(text)
	if m == nil {
		if javaEmptyHashMap().MatchString(text) {
			return jsonvalue.Object{}, nil
		}
		return text, nil
	}
	out := jsonvalue.Object{}
	if python.Strip(m[1]) == "" {
		return out, nil
	}
	for _, p := range javaPut().FindAllStringSubmatch(m[1], -1) {
		v, err := javaLiteral(python.Strip(p[2]))
		if err != nil {
			return nil, err
		}
		out.Set(p[1], v) // a repeated key keeps its place and takes the last value
	}
	return out, nil
}

// javaLiteral reads a literal without a declared type, as BFCL's
// parse_java_value: true/false, a quoted string, a long, a float, else an
// int or a float by Python's int() and float(), else the text.
func javaLiteral(s string) (any, error) {
	switch {
	case s == "true":
		return true, nil
	case s == "false":
		return false, nil
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`):
		return pySlice(s, 1, -1), nil
	case javaLong().MatchString(s):
		return pyIntOrRaise(pySlice(s, 0, -1))
	case javaFloat().MatchString(s):
		return pyFloatOrRaise(pyTrimSuffixLetter(s, "fF"))
	}
	return pyNumberOrText(s), nil
}

// pyNumberOrText is "try int(s), then float(s), else s".
func pyNumberOrText(s string) any {
	if n, err := pyInt(s); err == nil {
		return n
	}
	if f, err := pyFloat(s); err == nil {
		return f
	}
	return s
}

// jsValue converts JavaScript source text by its declared type, as BFCL's
// js_type_converter does.
func jsValue(text, typ, nested string) (any, error) {
	switch typ {
	case "String":
		if jsQuoted(text) {
			return pySlice(text, 1, -1), nil
		}
		return text, nil
	case "integer":
		if !jsInt().MatchString(text) {
			return text, nil
		}
		return pyIntOrRaise(text)
	case "float":
		if !jsFloat().MatchString(text) {
			return text, nil
		}
		return pyFloatOrRaise(text)
	case "Bigint":
		if !jsBigint().MatchString(text) {
			return text, nil
		}
		return pyIntOrRaise(pySlice(text, 0, -1))
	case "Boolean":
		if text != "true" && text != "false" {
			return text, nil
		}
		return text == "true", nil
	case "dict":
		return jsObjectValue(text), nil
	case "array":
		return jsArrayValue(text, nested), nil
	case "any":
		return text, nil
	}
	return nil, fmt.Errorf("unsupported JavaScript type %q", typ)
}

func jsQuoted(s string) bool {
	return strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) ||
		strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'")
}

// jsArrayValue is BFCL's array parser: a 2-D array of literals, or a 1-D
// array whose elements are converted by the items type. Any failure gives
// back the (stripped) text.
func jsArrayValue(text, nested string) any {
	code := python.Strip(text)
	if loc := jsArray2D().FindStringIndex(code); loc != nil {
		var out []any
		for i, m := range jsInner().FindAllStringSubmatch(code[:loc[1]], -1) {
			inner := python.Strip(m[1])
			if i == 0 {
				inner = strings.TrimPrefix(inner, "[")
			}
			var row []any
			for _, e := range strings.Split(inner, ",") {
				row = append(row, jsLiteral(python.Strip(e)))
			}
			out = append(out, row)
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
	m := jsArray().FindStringSubmatchIndex(code)
	if m == nil {
		return code
	}
	var body string
	switch {
	case m[2] >= 0:
		body = code[m[2]:m[3]]
	case m[4] >= 0:
		body = code[m[4]:m[5]]
	}
	var elems []string
	if body = python.Strip(body); body != "" {
		elems = strings.Split(body, ",")
	}
	out := make([]any, 0, len(elems))
	for _, e := range elems {
		e = python.Strip(e)
		var v any
		if nested == "" {
			v = jsLiteral(e)
		} else {
			inner := ""
			if strings.HasPrefix(e, "'") || strings.HasPrefix(e, `"`) {
				inner = "String"
			}
			var err error
			if v, err = jsValue(e, nested, inner); err != nil {
				return code // BFCL catches every failure here
			}
		}
		out = append(out, v)
	}
	return out
}

// jsObjectValue is BFCL's object parser: {key: value, ...} up to the first
// "}", keys with or without quotes, values read as literals once quotes
// are dropped.
func jsObjectValue(text string) any {
	code := python.Strip(text)
	if code == "{}" {
		return jsonvalue.Object{}
	}
	m := jsObject().FindStringSubmatch(code)
	if m == nil {
		return code
	}
	out := jsonvalue.Object{}
	for _, kv := range jsPairs(m[1]) {
		key := strings.Trim(python.Strip(kv[0]), `'"`)
		v := python.Strip(kv[1])
		switch {
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
			out.Set(key, jsArrayValue(v, ""))
		case strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}"):
			out.Set(key, jsObjectValue(v))
		default:
			out.Set(key, jsLiteral(strings.Trim(v, `'"`)))
		}
	}
	return out
}

// jsPairs is re.findall(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)", s): each
// key runs to the next colon, and each value lazily to the first comma
// that is followed (after optional space) by more text and a colon before
// any other comma, or to the end.
func jsPairs(s string) [][2]string {
	rs := []rune(s)
	n := len(rs)
	// ahead[p]: some colon follows p, with no comma from p up to it.
	ahead := make([]bool, n+1)
	nextColon := -1
	for p := n - 1; p >= 0; p-- {
		switch rs[p] {
		case ',':
			nextColon = -1
		case ':':
			ahead[p] = nextColon >= 0
			nextColon = p
			continue
		}
		ahead[p] = nextColon >= 0
	}
	// dollar: Python's $ without MULTILINE.
	dollar := func(e int) bool { return e == n || e == n-1 && rs[e] == '\n' }
	var out [][2]string
	for pos := 0; pos < n; {
		colon := pos
		for colon < n && rs[colon] != ':' {
			colon++
		}
		if colon == n {
			break // no colon left: no more matches
		}
		if colon == pos {
			pos++
			continue
		}
		end, vStart, vEnd := jsPairValue(rs, colon+1, ahead, dollar)
		if end < 0 {
			// Every start up to this colon ends its key here and fails
			// the same way.
			pos = colon + 1
			continue
		}
		out = append(out, [2]string{string(rs[pos:colon]), string(rs[vStart:vEnd])})
		pos = end
	}
	return out
}

// jsPairValue matches \s*(.*?)(?:,\s*(?=[^,]+:)|$) at start, trying the
// alternatives in a backtracking engine's order. It returns the match end
// and the value's bounds, or end < 0.
func jsPairValue(rs []rune, start int, ahead []bool, dollar func(int) bool) (end, vStart, vEnd int) {
	n := len(rs)
	wsEnd := start
	for wsEnd < n && python.IsSpace(rs[wsEnd]) {
		wsEnd++
	}
	// ends reports where the match ends when the value ends at e.
	ends := func(e int) int {
		if e < n && rs[e] == ',' {
			w := e + 1
			for w < n && python.IsSpace(rs[w]) {
				w++
			}
			for p := w; p > e; p-- { // \s* gives back one character at a time
				if p < n && ahead[p] {
					return p
				}
			}
		}
		if dollar(e) {
			return e
		}
		return -1
	}
	// (.*?) takes one more character at a time, but not a newline.
	for e := wsEnd; ; e++ {
		if end := ends(e); end >= 0 {
			return end, wsEnd, e
		}
		if e >= n || rs[e] == '\n' {
			break
		}
	}
	// \s* gives back one character at a time; the value then starts one
	// earlier, and only its new, shortest end is untried.
	for g := wsEnd - 1; g >= start; g-- {
		if end := ends(g); end >= 0 {
			return end, g, g
		}
	}
	return -1, 0, 0
}

// jsLiteral reads a literal without a declared type, as BFCL's
// parse_js_value.
func jsLiteral(s string) any {
	s = python.Strip(s)
	switch {
	case s == "true":
		return true
	case s == "false":
		return false
	case jsQuoted(s):
		return pySlice(s, 1, -1)
	}
	return pyNumberOrText(s)
}

// pySlice is Python's s[from:to] on code points, for the small non-negative
// from and to = 0 or -1 the converters use.
func pySlice(s string, from, to int) string {
	r := []rune(s)
	end := len(r) + to
	if to == 0 {
		end = len(r)
	}
	if from > len(r) {
		from = len(r)
	}
	if end < from {
		return ""
	}
	return string(r[from:end])
}

func pyIntOrRaise(s string) (any, error) {
	n, err := pyInt(s)
	if err != nil {
		return nil, fmt.Errorf("int(%q) raises ValueError", s)
	}
	return n, nil
}

func pyFloatOrRaise(s string) (any, error) {
	f, err := pyFloat(s)
	if err != nil {
		return nil, fmt.Errorf("float(%q) raises ValueError", s)
	}
	return f, nil
}

// pyMaxIntDigits is CPython's default limit on the digits int() converts
// (sys.get_int_max_str_digits, since 3.11).
const pyMaxIntDigits = 4300

// pyASCIINumber maps text as CPython does before parsing a number: Unicode
// decimal digits become ASCII digits, other Unicode white space a space,
// and surrounding ASCII white space is dropped. ok is false when other
// non-ASCII characters remain.
func pyASCIINumber(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + pyDigitValue(r)))
		case python.IsSpace(r):
			b.WriteByte(' ')
		default:
			return "", false
		}
	}
	return strings.Trim(b.String(), " \t\n\v\f\r"), true
}

// pyDigitValue is the value of a Unicode decimal digit: decimal digits come
// in runs of ten from zero.
func pyDigitValue(r rune) int {
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}

// pyUnderscores drops underscores that sit between two digits, as Python
// allows in numbers; any other underscore makes the text invalid.
func pyUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	isDigit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if !isDigit(i-1) || !isDigit(i+1) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// pyInt is Python's int(s) for a str, as a JSON integer.
func pyInt(s string) (json.Number, error) {
	t, ok := pyASCIINumber(s)
	if !ok {
		return "", errPyValue
	}
	t, ok = pyUnderscores(t)
	if !ok {
		return "", errPyValue
	}
	digits := strings.TrimLeft(t, "+-")
	if len(t)-len(digits) > 1 || digits == "" || len(digits) > pyMaxIntDigits {
		return "", errPyValue
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", errPyValue
		}
	}
	n, ok := new(big.Int).SetString(t, 10)
	if !ok {
		return "", errPyValue
	}
	return json.Number(n.String()), nil
}

// pyFloat is Python's float(s) for a str, as a JSON number spelled as a
// float (inf as 1e999, nan as nan).
func pyFloat(s string) (json.Number, error) {
	t, ok := pyASCIINumber(s)
	if !ok {
		return "", errPyValue
	}
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return "", errPyValue
	}
	neg := strings.HasPrefix(t, "-")
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return "-1e999", nil
		}
		return "1e999", nil
	case "nan":
		return nan, nil
	}
	body, ok = pyUnderscores(body)
	if !ok || !pyDecimalFloat(body) {
		return "", errPyValue
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", errPyValue
	}
	if neg {
		f = -f
	}
	return pyFloatNumber(f), nil
}

// pyDecimalFloat reports digits [. digits] [e [sign] digits], with digits on
// at least one side of the point.
func pyDecimalFloat(s string) bool {
	i, n := 0, len(s)
	digits := func() int {
		j := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	mantissa := digits()
	if i < n && s[i] == '.' {
		i++
		mantissa += digits()
	}
	if mantissa == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == n
}

// pyFloatNumber spells a float so that it reads back as a float.
func pyFloatNumber(f float64) json.Number {
	switch {
	case math.IsInf(f, 1):
		return "1e999"
	case math.IsInf(f, -1):
		return "-1e999"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if jsonvalue.IsIntegerLiteral(s) {
		s += ".0"
	}
	return json.Number(s)
}
