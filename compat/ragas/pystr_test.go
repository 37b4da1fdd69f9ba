package ragas

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// The expected texts are what CPython 3.11 prints.

func TestPyStr(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`1`, "1"},
		{`-0`, "0"},
		{`100000000000000000000`, "100000000000000000000"},
		{`1.0`, "1.0"},
		{`-0.0`, "-0.0"},
		{`0.1`, "0.1"},
		{`0.30000000000000004`, "0.30000000000000004"},
		{`100000.0`, "100000.0"},
		{`1e15`, "1000000000000000.0"},
		{`9999999999999998.0`, "9999999999999998.0"},
		{`1e16`, "1e+16"},
		{`1e+22`, "1e+22"},
		{`1.5e300`, "1.5e+300"},
		{`1234567890123456789.0`, "1.2345678901234568e+18"},
		{`0.0001`, "0.0001"},
		{`0.00001`, "1e-05"},
		{`1e-7`, "1e-07"},
		{`1.5E-10`, "1.5e-10"},
		{`1e400`, "inf"},
		{`-1e400`, "-inf"},
		{`1e-400`, "0.0"},
		{`true`, "True"},
		{`false`, "False"},
		{`null`, "None"},
		{`"plain"`, "plain"},
		{`"it's"`, "it's"},
		{`["it's", "say \"hi\"", "both ' \"", "back\\slash"]`, `["it's", 'say "hi"', 'both \' "', 'back\\slash']`},
		{`["\n\t\r", "\u0000\u001f\u007f", "\u0085\u00a0\u00ad", "é😀", "\u200b\u2028\u3000", "\udb40\udc01"]`,
			`['\n\t\r', '\x00\x1f\x7f', '\x85\xa0\xad', 'é😀', '\u200b\u2028\u3000', '\U000e0001']`},
		{`[1, "a", null, true, 1.5, {"k": [], "j": {}}]`, `[1, 'a', None, True, 1.5, {'k': [], 'j': {}}]`},
		{`{"b": 1, "a": [false]}`, `{'b': 1, 'a': [False]}`},
		{`["\ud800", "a\udfffb"]`, `['\ud800', 'a\udfffb']`},
	} {
		t.Run(tt.in, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := pyStr(v); got != tt.want {
				t.Errorf("str(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestUnicodeVersion guards the table of characters newer than CPython
// 3.11's Unicode: it lists what Unicode 15.0 added, which is right only
// while Go's tables are Unicode 15.0.
func TestUnicodeVersion(t *testing.T) {
	if unicode.Version != "15.0.0" {
		t.Errorf("Go's Unicode tables are %s: extend unicode15 with the characters assigned since 15.0, which CPython 3.11 (Unicode %s) escapes in repr", unicode.Version, pythonUnicode)
	}
	for _, r := range []rune{0x1e048, 0x1b132, 0xcf3, 0x1f6dc} { // Unicode 15 additions
		if pyPrintable(r) {
			t.Errorf("%U: printable, but unassigned in Unicode 14", r)
		}
	}
	for _, r := range []rune{'é', 0x1f600, 0x20b9f, 0x1fae0} {
		if !pyPrintable(r) {
			t.Errorf("%U: not printable", r)
		}
	}
}

func TestPyRound4(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{2.0 / 3, 0.6667},
		{2.0 / 7, 0.2857},
		{0.8, 0.8},
		{6.0 / 11, 0.5455},
		{0.28125, 0.2812}, // an exact half: to even
		{0.28135, 0.2813}, // the double is below the half
		{1.00005, 1.0001}, // ... and this one above it
		{0.00005, 0.0001},
		{1, 1},
		{0, 0},
	} {
		if got := pyRound4(tt.in); got != tt.want {
			t.Errorf("round(%v, 4) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// scalarGen makes the hashable values json.loads returns, with many
// spellings of equal numbers.
var scalarGen = rapid.OneOf(
	rapid.SampledFrom([]any{nil, true, false, "1", "", "True", json.Number("1"), json.Number("1.0"), json.Number("1e0"),
		json.Number("0"), json.Number("-0.0"), json.Number("0e5"), json.Number("10"), json.Number("1e1"),
		json.Number("9007199254740993"), json.Number("9007199254740992.0"), json.Number("0.5"), json.Number("5e-1")}),
	rapid.Map(rapid.Int64(), func(n int64) any { return json.Number(strconv.FormatInt(n, 10)) }),
	rapid.Map(rapid.Float64(), func(f float64) any { return json.Number(strconv.FormatFloat(f, 'g', -1, 64)) }),
)

func TestHashKeyIsPythonEquality(t *testing.T) {
	// Two values collapse in ToolCallF1's sets exactly when Python's ==
	// holds between them.
	rapid.Check(t, func(t *rapid.T) {
		a, b := scalarGen.Draw(t, "a"), scalarGen.Draw(t, "b")
		ka, _ := hashKey(a)
		kb, _ := hashKey(b)
		if (ka == kb) != python.Equal(a, b) {
			t.Fatalf("%v and %v: keys %q and %q, Python == %v", a, b, ka, kb, python.Equal(a, b))
		}
	})
}

// unrepr reads back a Python str literal as appendStrRepr writes it.
func unrepr(t testing.TB, lit string) string {
	t.Helper()
	if len(lit) < 2 || lit[0] != lit[len(lit)-1] || (lit[0] != '\'' && lit[0] != '"') {
		t.Fatalf("not a quoted literal: %s", lit)
	}
	q, body := lit[0], lit[1:len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == q {
			t.Fatalf("unescaped quote in %s", lit)
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			t.Fatalf("dangling backslash in %s", lit)
		}
		n := 0
		switch body[i] {
		case '\\', '\'', '"':
			b.WriteByte(body[i])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			n = 2
		case 'u':
			n = 4
		case 'U':
			n = 8
		default:
			t.Fatalf("unknown escape in %s", lit)
		}
		if n > 0 {
			r, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32)
			if err != nil {
				t.Fatalf("bad escape in %s: %v", lit, err)
			}
			b.WriteRune(rune(r))
			i += n
		}
	}
	return b.String()
}

// FuzzPyRepr checks the str() and repr() emulation on any argument
// values: a string's repr reads back to the string and prints only
// printable characters, a float's repr reads back to the float in
// Python's shape, an int prints as itself, containers print their items'
// reprs, and equal hash keys go with Python equality.
func FuzzPyRepr(f *testing.F) {
	f.Add("it's", 1.0, int64(1))
	f.Add("say \"hi\" it's", 1e16, int64(-7))
	f.Add("\x00\n\u0085\u00a0é😀\u200b\U000e0001", 1e-05, int64(0))
	f.Add("", math.Copysign(0, -1), int64(math.MinInt64))
	f.Add("[1, 2]", 123456789.125, int64(42))
	f.Fuzz(func(t *testing.T, s string, x float64, n int64) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		r := pyRepr(s)
		if back := unrepr(t, r); back != s {
			t.Fatalf("repr(%q) = %s reads back as %q", s, r, back)
		}
		for _, c := range r {
			if c < 0x20 || c == 0x7f || (c >= 0x80 && !pyPrintable(c)) {
				t.Fatalf("repr(%q) = %s holds unprintable %U", s, r, c)
			}
		}
		if pyStr(s) != s {
			t.Fatalf("str(%q) = %q", s, pyStr(s))
		}
		if math.IsNaN(x) {
			return // JSON has no NaN
		}
		xs := json.Number(strconv.FormatFloat(x, 'e', -1, 64)) // a float literal
		fr := pyNumber(xs)
		if math.IsInf(x, 0) {
			if fr != "inf" && fr != "-inf" {
				t.Fatalf("repr(%v) = %s", x, fr)
			}
		} else {
			back, err := strconv.ParseFloat(fr, 64)
			if err != nil || back != x || math.Signbit(back) != math.Signbit(x) {
				t.Fatalf("repr(%v) = %s reads back as %v (%v)", x, fr, back, err)
			}
			if !strings.ContainsAny(fr, ".e") {
				t.Fatalf("repr(%v) = %s has neither a point nor an exponent", x, fr)
			}
			if mant, exp, ok := strings.Cut(fr, "e"); ok && (strings.HasSuffix(mant, ".0") || len(strings.TrimLeft(exp, "+-")) < 2) {
				t.Fatalf("repr(%v) = %s: not Python's exponent form", x, fr)
			}
		}
		ns := strconv.FormatInt(n, 10)
		if got := pyNumber(json.Number(ns)); got != ns {
			t.Fatalf("str(%s) = %s", ns, got)
		}
		list := []any{s, xs, json.Number(ns), nil, true}
		if got, want := pyStr(list), "["+r+", "+fr+", "+ns+", None, True]"; got != want {
			t.Fatalf("str(%v) = %s, want %s", list, got, want)
		}
		obj := jsonvalue.Object{{Key: s, Value: list}}
		if got, want := pyStr(obj), "{"+r+": "+pyRepr(list)+"}"; got != want {
			t.Fatalf("str(%v) = %s, want %s", obj, got, want)
		}
		is := json.Number(ns)
		kx, _ := hashKey(xs)
		ki, _ := hashKey(is)
		if !math.IsInf(x, 0) && (kx == ki) != python.Equal(xs, is) {
			t.Fatalf("%s and %s: keys %q and %q disagree with Python ==", xs, is, kx, ki)
		}
	})
}
