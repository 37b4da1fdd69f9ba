package jsonvalue

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// refAppendFloat is AppendFloat as strconv writes it, without the fast
// paths and the cache: NaN and infinities as null, the shortest text,
// with an exponent below 1e-6 and from 1e21.
func refAppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(dst, "null"...)
	case f != 0 && (math.Abs(f) < 1e-6 || math.Abs(f) >= 1e21):
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// TestAppendFloatAgreesWithStrconv: whole numbers, ratios of small
// counts (scores), their signs and any bits write as strconv writes them.
func TestAppendFloatAgreesWithStrconv(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 9, 10, 99, 100, 0.5, 1.0 / 3, 2.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1), 1 << 53, 1e21, 1e-7}
	rapid.Check(t, func(t *rapid.T) {
		var f float64
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			f = rapid.SampledFrom(special).Draw(t, "special")
		case 1:
			f = float64(rapid.IntRange(-1000, 1000).Draw(t, "whole"))
		case 2:
			d := rapid.IntRange(1, 50).Draw(t, "d")
			f = float64(rapid.IntRange(-d, d).Draw(t, "n")) / float64(d)
		default:
			f = math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
		}
		if got, want := AppendFloat([]byte("x"), f), refAppendFloat([]byte("x"), f); !bytes.Equal(got, want) {
			t.Fatalf("AppendFloat(%v) = %s, strconv %s", f, got, want)
		}
	})
}

// TestAppendIntAgreesWithStrconv: every int, the small ones written
// without strconv among them, as strconv writes it.
func TestAppendIntAgreesWithStrconv(t *testing.T) {
	for n := -1000; n <= 1000; n++ {
		if got, want := AppendInt([]byte("x"), n), strconv.AppendInt([]byte("x"), int64(n), 10); !bytes.Equal(got, want) {
			t.Fatalf("AppendInt(%d) = %s, strconv %s", n, got, want)
		}
	}
	for _, n := range []int{math.MinInt, math.MaxInt, math.MinInt + 5, math.MaxInt - 99} {
		if got, want := AppendInt(nil, n), strconv.AppendInt(nil, int64(n), 10); !bytes.Equal(got, want) {
			t.Fatalf("AppendInt(%d) = %s, strconv %s", n, got, want)
		}
	}
}
