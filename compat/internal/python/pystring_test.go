package python

import "testing"

// The expected values are what CPython 3.11 returns (Unicode 14; Go's
// tables differ only for code points unassigned there, as checked over
// every code point while writing this file).

func TestPyLower(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ΟΔΟΣ", "οδος"},               // final sigma at the end
		{"ΣΑΣ ΟΔΟΣ.", "σας οδος."},     // ... and before a space or a period
		{"Σ", "σ"},                     // no cased letter before it
		{"AΣB", "aσb"},                 // a cased letter after it
		{"AΣ'B", "aσ'b"},               // the apostrophe is case-ignorable
		{"A'Σ", "a'ς"},                 // on both sides
		{"AΣ\u0301", "aς\u0301"},       // so is a combining accent
		{"İstanbul", "i\u0307stanbul"}, // one code point becomes two
		{"ǅ", "ǆ"},
		{"ẞ", "ß"},
		{"ﬁ", "ﬁ"},
		{"KELVIN \u212a", "kelvin k"},
	} {
		if got := Lower(tt.in); got != tt.want {
			t.Errorf("Lower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPyStrip(t *testing.T) {
	// U+001C..U+001F, NBSP, U+2003, U+3000 and U+0085 are whitespace to
	// Python; U+200B is not.
	in := "\u001c\u001d\u001e\u001f\u00a0\u2003 x \u200b\u3000\u0085"
	if got, want := Strip(in), "x \u200b"; got != want {
		t.Errorf("Strip(%q) = %q, want %q", in, got, want)
	}
}
