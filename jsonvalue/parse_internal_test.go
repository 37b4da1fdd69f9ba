package jsonvalue

import (
	"math/bits"
	"testing"

	"pgregory.net/rapid"
)

// TestStopsFindsTheFirstStop: for any eight bytes, the lowest byte stops
// flags is the first that plainByte rejects, and stops flags none when
// there is none (the bytes after the first may be flagged or not).
func TestStopsFindsTheFirstStop(t *testing.T) {
	// Each byte alone, after plain ones: only a stop borrows from the
	// byte after it, so this and the first-stop rule below make the
	// lowest flag exact.
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			want := uint64(0)
			if !plainByte[c] {
				want = 0x80 << (8 * at)
			}
			if got := stops(word(string(w), 0)) & (1<<(8*at+8) - 1); got != want {
				t.Fatalf("stops(%q) = %#x in its first %d bytes, want %#x", w, got, at+1, want)
			}
		}
	}
	// The bytes around each edge of the test, and any byte.
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xa2, 0xdc, 0xff}
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(edges), rapid.Byte()), 8, 8).Draw(t, "word")
		first := 8
		for k, c := range w {
			if !plainByte[c] {
				first = k
				break
			}
		}
		m := stops(word(string(w), 0))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != first || m&^msb != 0 {
			t.Fatalf("stops(%q) = %#x: first stop at %d, want %d", w, m, got, first)
		}
	})
}
