package report

import (
	"bytes"
	"html/template"
	"math"
	"os"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// TestPageAsTemplate: the hand-written page is byte for byte what the
// template it replaces wrote, for any data.
func TestPageAsTemplate(t *testing.T) {
	src, err := os.ReadFile("html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("page").Parse(string(src)))
	hostile := rapid.SampledFrom([]string{"", "pass", "fail", "error", "none", "</script><script>alert(1)</script>", `" onmouseover="x`, "javascript:alert(1)", "a\u2028b\u2029c", "\xff\xfe<\x00>", "1+1 & 'q' \"q\"", "%s %d %g %", "\r\n\t", "{{.}}", "&amp;", "\uFFFD"})
	anyText := rapid.OneOf(hostile,
		rapid.String(),
		rapid.StringOf(rapid.SampledFrom([]rune{'<', '>', '&', '"', '\'', '+', 0, 0xFFFD, 0x2028, 'a', '%', '\n', '`', '=', 0xFDD0, 0xFFFE})),
		rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }))
	float := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e6, 1e21, 1e-5, 3.6e-5, math.Inf(1), math.Inf(-1), math.NaN(), 334.2857142857143}))
	line := rapid.Custom(func(t *rapid.T) summaryLine {
		return summaryLine{anyText.Draw(t, "lead"), rapid.SliceOf(anyText).Draw(t, "items")}
	})
	gen := rapid.MakeCustom[htmlPage](rapid.MakeConfig{Types: map[reflect.Type]*rapid.Generator[any]{
		reflect.TypeFor[string]():      anyText.AsAny(),
		reflect.TypeFor[float64]():     float.AsAny(),
		reflect.TypeFor[summaryLine](): line.AsAny(),
		reflect.TypeFor[int]():         rapid.OneOf(rapid.IntRange(-3, 3), rapid.Int()).AsAny(),
	}})
	rapid.Check(t, func(t *rapid.T) {
		pg := gen.Draw(t, "page")
		var want, got bytes.Buffer
		if err := tmpl.Execute(&want, pg); err != nil {
			t.Fatal(err)
		}
		if err := writePage(&got, &pg); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			w, g := want.Bytes(), got.Bytes()
			i := 0
			for i < len(w) && i < len(g) && w[i] == g[i] {
				i++
			}
			lo := max(i-200, 0)
			t.Fatalf("differ at %d:\ntemplate: %q\nwriter:   %q", i, w[lo:min(i+200, len(w))], g[lo:min(i+200, len(g))])
		}
	})
}
