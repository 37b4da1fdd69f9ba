package dataset_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/sniff"
)

// records reads every record of input with a Source of budget max, and
// returns the lines they start on and the fatal error, if any.
func records(name string, r io.Reader, max int64) ([]int, error) {
	var lines []int
	for rec, err := range (dataset.Source{MaxRecord: max}).Reader(name, r, dataset.Auto) {
		if err != nil {
			return lines, err
		}
		c, _ := rec.Decode()
		lines = append(lines, c.Line)
	}
	return lines, nil
}

// endless is an input of its head, then of fill without end.
type endless struct {
	head []byte
	fill byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.head)
	e.head = e.head[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.fill
	}
	return len(p), nil
}

// A record past the budget, in every format, is a fatal error naming
// the file, the line it starts on and the flag; the records before it
// are read.
func TestSourceBudget(t *testing.T) {
	const max = 100
	long := strings.Repeat("x", max)
	for _, tt := range []struct {
		name, file, in string
		before         []int // the lines of the records read first
		want           string
	}{
		{"a long line", "c.jsonl", `{"id":"a"}` + "\n" + `{"input":"` + long + `"}` + "\n",
			[]int{1}, "c.jsonl:2: the line is larger than 100 bytes, the most toolgrade reads at once (--max-line-size raises it)"},
		{"a long array element", "c.json", "[{\"id\":\"a\"},\n{\"input\":\n\"" + long + "\"}]",
			[]int{1}, "c.json:2: the record starting here is larger than 100 bytes"},
		{"an element of many short lines", "c.json", "[{\"id\":\"a\"},\n[" + strings.Repeat("1,\n", 100) + "1]]",
			[]int{1}, "c.json:2: the record starting here is larger than 100 bytes"},
		{"a long scalar", "c.json", "[{\"id\":\"a\"}, " + strings.Repeat("1", 200) + "]",
			[]int{1}, "c.json:1: the record starting here is larger than 100 bytes"},
		{"a pretty-printed value", "-", "{\n\"id\": \"a\"\n}\n{\n\"input\": \"" + long + "\"\n}\n",
			[]int{1}, "-:4: the record starting here is larger than 100 bytes"},
		{"a YAML list item", "c.yaml", "- id: a\n- input: >\n" + strings.Repeat("    word\n", 30),
			[]int{1}, "c.yaml:2: the record starting here is larger than 100 bytes"},
		{"a YAML document", "c.yaml", "id: a\n---\nid: b\ninput: |\n" + strings.Repeat("  line\n", 30),
			[]int{1}, "c.yaml:3: the record starting here is larger than 100 bytes"},
		{"a JSON string holding the cases (ADK's results)", "r.json", `"[{\"id\":\"a\",\"input\":\"` + long + `\"}]"`,
			nil, "r.json:1: the record starting here is larger than 100 bytes"},
		{"a JSON string holding many short cases", "r.json", `"[` + strings.Repeat(`{\"id\":\"a\"},`, 20) + `{}]"`,
			nil, "r.json:1: the record starting here is larger than 100 bytes"},
		{"a long YAML line", "c.yaml", "- id: a\n- input: " + long + "\n",
			nil, "c.yaml:2: the line is larger than 100 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines, err := records(tt.file, strings.NewReader(tt.in), max)
			var be *budget.Error
			if !errors.As(err, &be) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %v, want one starting %q", err, tt.want)
			}
			if !slices.Equal(lines, tt.before) {
				t.Errorf("records read first start on lines %v, want %v", lines, tt.before)
			}
			// Within a budget the input fits, it reads whole.
			if _, err := records(tt.file, strings.NewReader(tt.in), int64(len(tt.in))); err != nil {
				t.Errorf("within a budget of the input's size: %v", err)
			}
		})
	}
}

// An endless input in each format (/dev/zero, an endless line, an
// endless string or list) ends in the budget's error.
func TestSourceEndless(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		in         *endless
	}{
		{"an endless line of standard input", "-", &endless{fill: 'x'}},
		{"an endless JSON line", "c.jsonl", &endless{head: []byte(`{"input":"`), fill: 'x'}},
		{"an endless array element", "c.json", &endless{head: []byte(`[{"input":[`), fill: ' '}},
		{"an endless YAML document", "c.yaml", &endless{head: []byte("input: |\n"), fill: '\n'}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := records(tt.file, tt.in, 1<<20)
			var be *budget.Error
			if !errors.As(err, &be) {
				t.Errorf("error = %v, want the budget's", err)
			}
		})
	}
	// /dev/zero is not text: refused by its first bytes, before a budget.
	_, err := records("-", &endless{fill: 0}, 1<<20)
	var nt *sniff.NotTextError
	if !errors.As(err, &nt) {
		t.Errorf("zeros: error = %v, want not text", err)
	}
}

// FuzzSourceBudget: whatever the input and the budget, reading never
// holds a record past the budget: it reads what an unbounded reader
// reads, or stops with the budget's error, after the same records.
func FuzzSourceBudget(f *testing.F) {
	for _, s := range []string{
		"{\"id\":\"a\"}\n{\"id\":\"bbbbbbbbbbbbbbbbbbbb\"}\n",
		"[{\"id\":1},{\"x\":[1,{\"y\":\"]\"}]}]",
		"- id: a\n  expected_tools: [{name: f}]\n- [\n",
		"{\n\"id\": \"a\"\n}\n{",
		"---\nid: a\n---\n- x\n",
	} {
		f.Add([]byte(s), uint8(10))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		for _, name := range []string{"f.jsonl", "f.json", "f.yaml"} {
			all, allErr := records(name, bytes.NewReader(data), int64(len(data))+2)
			got, err := records(name, bytes.NewReader(data), int64(max)+1)
			var be *budget.Error
			switch {
			case errors.As(err, &be):
				if len(got) > len(all) || !slices.Equal(got, all[:len(got)]) {
					t.Fatalf("%s: before the budget's error, records on lines %v; unbounded %v", name, got, all)
				}
			case (err == nil) != (allErr == nil) || !slices.Equal(got, all):
				t.Fatalf("%s: within the budget, records on lines %v (%v); unbounded %v (%v)", name, got, err, all, allErr)
			}
		}
	})
}
