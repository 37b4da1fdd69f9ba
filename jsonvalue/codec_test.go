package jsonvalue_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

type point struct {
	X, Y  int
	Label string
	Tags  []string
	Score *float64
	Note  string
}

var pointCodec = jsonvalue.Struct(
	jsonvalue.NewField("x", func(p *point) *int { return &p.X }, jsonvalue.Int),
	jsonvalue.NewField("y", func(p *point) *int { return &p.Y }, jsonvalue.Int),
	jsonvalue.NewField("label", func(p *point) *string { return &p.Label }, jsonvalue.OrNull(jsonvalue.String)),
	jsonvalue.NewField("tags", func(p *point) *[]string { return &p.Tags }, jsonvalue.List[[]string](jsonvalue.String)).OmitZero(),
	jsonvalue.NewField("score", func(p *point) **float64 { return &p.Score }, jsonvalue.Nullable(jsonvalue.Float)),
	jsonvalue.NewField("note", func(p *point) *string { return &p.Note }, jsonvalue.String).OmitZero(),
)

// One definition writes and reads an object; reading is strict.
func ExampleStruct() {
	var p point
	v, _ := jsonvalue.ParseString(`{"x":1,"y":-2,"label":null,"tags":["a"],"score":0.5}`)
	if err := pointCodec.Decode(v, &p); err != nil {
		panic(err)
	}
	fmt.Println(string(pointCodec.Append(nil, &p)))

	v, _ = jsonvalue.ParseString(`{"x":1,"y":"2","label":null,"score":null}`)
	fmt.Println(pointCodec.Decode(v, &p))
	// Output:
	// {"x":1,"y":-2,"label":null,"tags":["a"],"score":0.5}
	// y: want an integer, got string
}

func TestCodecRoundTrip(t *testing.T) {
	half := 0.5
	for _, tt := range []struct {
		name string
		in   point
		line string
	}{
		{"all", point{X: 1, Y: 2, Label: "l", Tags: []string{"a", "b"}, Score: &half, Note: "n"},
			`{"x":1,"y":2,"label":"l","tags":["a","b"],"score":0.5,"note":"n"}`},
		{"optional left out", point{X: -1}, `{"x":-1,"y":0,"label":null,"score":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line := string(pointCodec.Append(nil, &tt.in))
			if line != tt.line {
				t.Fatalf("wrote %s, want %s", line, tt.line)
			}
			v, err := jsonvalue.ParseString(line)
			if err != nil {
				t.Fatal(err)
			}
			var out point
			if err := pointCodec.Decode(v, &out); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.in, out); diff != "" {
				t.Errorf("read back (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCodecErrors(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{`[]`, `want an object, got array`},
		{`{"y":1,"label":null,"score":null}`, `x: missing`},
		{`{"x":1,"y":1,"label":null,"score":null,"z":1}`, `z: unknown member`},
		{`{"x":1.0,"y":1,"label":null,"score":null}`, `x: want an integer, got number`},
		{`{"x":1e2,"y":1,"label":null,"score":null}`, `x: want an integer, got number`},
		{`{"x":99999999999999999999,"y":1,"label":null,"score":null}`, `x: want an integer of 64 bits, got 99999999999999999999`},
		{`{"x":true,"y":1,"label":null,"score":null}`, `x: want an integer, got boolean`},
		{`{"x":1,"y":1,"label":3,"score":null}`, `label: want a string, got integer`},
		{`{"x":1,"y":1,"label":null,"score":"1"}`, `score: want a number, got string`},
		{`{"x":1,"y":1,"label":null,"score":2e308}`, `score: want a number a float64 holds, got 2e308`},
		{`{"x":1,"y":1,"label":null,"score":null,"tags":["a",null]}`, `tags[1]: want a string, got null`},
		{`{"x":1,"y":1,"label":null,"score":null,"tags":{}}`, `tags: want a list, got object`},
		{`{"x":1,"y":1,"label":null,"score":null,"note":null}`, `note: want a string, got null`},
	} {
		t.Run(tt.line, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			var p point
			err = pointCodec.Decode(v, &p)
			var de *jsonvalue.DecodeError
			if err == nil || err.Error() != tt.want || !errors.As(err, &de) {
				t.Fatalf("error %v (%T), want %s", err, err, tt.want)
			}
		})
	}
}

// An optional member read with the value omit calls empty reads as if it
// were left out, so that what is read writes back to itself.
func TestCodecOmittedEmptyReadsAsZero(t *testing.T) {
	v, _ := jsonvalue.ParseString(`{"x":1,"y":1,"label":"","score":null,"tags":[],"note":""}`)
	var p point
	if err := pointCodec.Decode(v, &p); err != nil {
		t.Fatal(err)
	}
	if p.Tags != nil || p.Note != "" {
		t.Errorf("%+v", p)
	}
	if got := string(pointCodec.Append(nil, &p)); got != `{"x":1,"y":1,"label":null,"score":null}` {
		t.Errorf("wrote %s", got)
	}
}

func TestMapCodecSortsKeys(t *testing.T) {
	c := jsonvalue.Map[map[string]float64](jsonvalue.Float)
	m := map[string]float64{"b": 1, "a": 0.25, "c": -3}
	if got := string(c.Append(nil, &m)); got != `{"a":0.25,"b":1,"c":-3}` {
		t.Errorf("wrote %s", got)
	}
	v, _ := jsonvalue.ParseString(`{"a":"x"}`)
	if err := c.Decode(v, &m); err == nil || err.Error() != `a: want a number, got string` {
		t.Errorf("error %v", err)
	}
}

func TestWithin(t *testing.T) {
	err := jsonvalue.Within("metrics", jsonvalue.Within("[0]", jsonvalue.Within("score", errors.New("bad"))))
	if err.Error() != "metrics[0].score: bad" {
		t.Errorf("%v", err)
	}
	if jsonvalue.Within("x", nil) != nil {
		t.Error("Within wrapped nil")
	}
}
