package dataset_test

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// bomb is a YAML alias bomb of the given levels: each level a list of ten
// aliases of the level before, 10^levels strings in all.
func bomb(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= levels; i++ {
		prev := "*l" + string(rune('0'+i-1))
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	return b.String()
}

// countValues counts the values of v, containers and leaves.
func countValues(v any) int {
	n := 1
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			n += countValues(e)
		}
	case jsonvalue.Object:
		for _, m := range v {
			n += countValues(m.Value)
		}
	}
	return n
}

func TestYAMLAliasBudget(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     string // the error's start; "" for none
	}{
		{"a bomb", bomb(9), "line 5: the aliases of this YAML bring in more than 100000 values"},
		{"a bomb of merge keys", "a: &a {x: 1, y: 2}\n" +
			"b: &b {<<: *a, b1: {<<: *a}, b2: {<<: *a}, b3: {<<: *a}, b4: {<<: *a}, b5: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]}\n" +
			"c: &c [" + strings.Repeat("*b, ", 99) + "*b]\n" +
			"d: &d [" + strings.Repeat("*c, ", 99) + "*c]\n" +
			"e: [" + strings.Repeat("*d, ", 99) + "*d]\n", "line 4: the aliases"},
		{"nested anchors, each used once", "a: &a {b: &b {c: &c [1, 2]}}\nx: *a\ny: *b\nz: *c\n", ""},
		{"one value used many times", "a: &a {x: 1}\nlist: [" + strings.Repeat("*a, ", 999) + "*a]\n", ""},
		{"just past the budget", "a: &a [" + strings.Repeat("1, ", 999) + "1]\nlist: [" + strings.Repeat("*a, ", 99) + "*a]\n", "line 2: the aliases"},
		{"an alias inside its anchor", "a: &a [1, *a]\n", "line 1: an alias refers to a value it is part of"},
		{"a deep list", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "yaml: exceeded max depth of 10000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := dataset.YAMLValue([]byte(tt.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tt.want == "" && err != nil || !strings.HasPrefix(got, tt.want) {
				t.Fatalf("YAMLValue error = %q, want %q", got, tt.want)
			}
			if err == nil && countValues(v) > len(tt.in)+dataset.MaxAliased {
				t.Errorf("%d values, more than the budget allows", countValues(v))
			}
		})
	}
}
