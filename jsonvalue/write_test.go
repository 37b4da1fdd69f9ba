package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
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
		want := refAppendFloat([]byte("x"), f)
		for range 2 { // the second remembered
			if got := AppendFloat([]byte("x"), f); !bytes.Equal(got, want) {
				t.Fatalf("AppendFloat(%v) = %s, strconv %s", f, got, want)
			}
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

// genFormatValue draws values of the model whose text runs past
// AppendFormat's limit at any point: strings of the pieces AppendString
// treats apart (multi-byte characters and escapes among them), numbers,
// literals, arrays and objects.
func genFormatValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 4
		if depth > 0 {
			kinds = 6
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return rapid.SampledFrom([]any{nil, true, false}).Draw(t, "literal")
		case 1:
			return json.Number(rapid.SampledFrom([]string{"0", "1", "-2.50", "1e400", "123456789012"}).Draw(t, "number"))
		case 2, 3:
			return strings.Join(rapid.SliceOfN(rapid.SampledFrom(stringPieces), 0, 12).Draw(t, "pieces"), "")
		case 4:
			return rapid.SliceOfN(genFormatValue(depth-1), 0, 5).Draw(t, "elems")
		}
		var o Object
		for i, v := range rapid.SliceOfN(genFormatValue(depth-1), 0, 5).Draw(t, "members") {
			o = append(o, Member{Key: rapid.SampledFrom([]string{"a", "key", "é\"", strconv.Itoa(i)}).Draw(t, "key") + strconv.Itoa(i), Value: v})
		}
		return o
	})
}

// TestAppendFormatAgreesWithAppend: AppendFormat writes what Append
// writes, cut after 77 bytes (at a character's start) and marked when it
// runs past 80, however early it stops writing.
func TestAppendFormatAgreesWithAppend(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := genFormatValue(3).Draw(t, "v")
		want := Append(nil, v)
		if len(want) > 80 {
			cut := 77
			for cut > 0 && want[cut]&0xC0 == 0x80 {
				cut--
			}
			want = append(want[:cut], "..."...)
		}
		prefix := []byte(rapid.StringN(0, 5, -1).Draw(t, "prefix"))
		if got := AppendFormat(bytes.Clone(prefix), v); !bytes.Equal(got, append(prefix, want...)) {
			t.Fatalf("AppendFormat(%s) = %q, want %q", Append(nil, v), got[len(prefix):], want)
		}
	})
}
