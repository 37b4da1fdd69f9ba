package namekey

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestWordsTellNamesApart: two names of up to 16 bytes have the same
// words and length only when they are equal, names alike but for one
// byte at any place included.
func TestWordsTellNamesApart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 16).Draw(t, "len")
		a := []byte(strings.Repeat("a", n))
		b := []byte(strings.Repeat("a", n))
		switch {
		case rapid.Bool().Draw(t, "other length"):
			b = []byte(strings.Repeat("a", rapid.IntRange(0, 16).Draw(t, "len b")))
		case n > 0:
			b[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.ByteRange(0, 'a'-1).Draw(t, "byte")
		}
		alo, ahi := Words(string(a))
		blo, bhi := Words(string(b))
		same := alo == blo && ahi == bhi && len(a) == len(b)
		if same != (string(a) == string(b)) {
			t.Fatalf("Words(%q) = %x %x, Words(%q) = %x %x", a, alo, ahi, b, blo, bhi)
		}
	})
}
