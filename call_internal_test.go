package toolgrade

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// TestDecodeUsual holds decode, which reads the usual call on a path of
// its own (DecodeUsualCall), to decodeObject, which reads every call: on
// generated call objects, mostly near the usual shape, and decoders with
// and without "args" first, both give the same call or the same error.
func TestDecodeUsual(t *testing.T) {
	keys := []string{"name", "args", "arguments", "input", "id", "type", "output", "status", "turn", "function", "description", "rules", "nmae"}
	values := []any{nil, "", "get_weather", `{"city":"Paris"}`, `{"city":`, json.Number("2"), true,
		jsonvalue.Object{{Key: "city", Value: "Paris"}}, []any{"a"}, jsonvalue.Object{}}
	decoders := []*CallDecoder{
		{},
		{ArgsKeys: []string{"args", "arguments", "input"}, Ignored: map[string]string{"description": "metadata"}},
		{ArgsKeys: []string{"arguments", "args"}},
		{ArgsKeys: []string{}},
	}
	rapid.Check(t, func(t *rapid.T) {
		var obj jsonvalue.Object
		if rapid.Bool().Draw(t, "usual") {
			obj = jsonvalue.Object{{Key: "name", Value: rapid.SampledFrom(values).Draw(t, "name")}, {Key: "args", Value: rapid.SampledFrom(values).Draw(t, "args")}}
			if rapid.Bool().Draw(t, "swap") {
				obj[0], obj[1] = obj[1], obj[0]
			}
		}
		for range rapid.IntRange(0, 3).Draw(t, "more") {
			obj = append(obj, jsonvalue.Member{Key: rapid.SampledFrom(keys).Draw(t, "key"), Value: rapid.SampledFrom(values).Draw(t, "value")})
		}
		d := rapid.SampledFrom(decoders).Draw(t, "decoder")
		var got, want Call
		gotErr := d.decode(&got, obj)
		wantErr := d.decodeObject(&want, obj, d.argsKeys())
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: error %v, want %v", jsonvalue.Append(nil, obj), gotErr, wantErr)
		}
		if gotErr == nil && !cmp.Equal(got, want, sameRegexp) {
			t.Fatalf("%s: call %s", jsonvalue.Append(nil, obj), cmp.Diff(want, got, sameRegexp))
		}
		// Over a call already written, a usual call leaves no field of it.
		var clean Call
		dirty := Call{Name: "x", Args: "a", ArgsRaw: "r", Output: "o", ID: "i", Type: "mcp", Rules: map[string]Rule{}, Turn: 2, ArgsNull: true, Invalid: true, Status: StatusError}
		if usual := DecodeUsualCall(&clean, obj); usual != DecodeUsualCall(&dirty, obj) || usual && !cmp.Equal(clean, dirty, sameRegexp) {
			t.Fatalf("%s: over a call written, %s", jsonvalue.Append(nil, obj), cmp.Diff(clean, dirty, sameRegexp))
		}
	})
}

// sameRegexp compares the regular expressions of rules by their text.
var sameRegexp = cmp.Comparer(func(a, b *regexp.Regexp) bool { return a.String() == b.String() })

// FuzzDecodeUsual is TestDecodeUsual on calls parsed from any JSON text:
// decode and decodeObject give the same call or the same error.
func FuzzDecodeUsual(f *testing.F) {
	for _, seed := range []string{
		`{"name":"f","args":{"q":1}}`,
		`{"args":{"q":1},"name":"f"}`,
		`{"name":"f","args":"{\"q\":1}"}`,
		`{"name":"f","args":"{oops"}`,
		`{"name":"f","args":null}`,
		`{"name":"","args":{}}`,
		`{"name":1,"args":{}}`,
		`{"name":"f","name":"g"}`,
		`{"args":{},"args":{}}`,
		`{"name":"f","arguments":{}}`,
		`{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}`,
		`{"name":"f","args":{},"status":"error"}`,
		`{"name":"f","args":{"q":"a"},"rules":{"q":{"regex":"a+"}}}`,
		`[]`,
	} {
		f.Add(seed)
	}
	decoders := []*CallDecoder{{}, {ArgsKeys: []string{"args", "arguments", "input"}}}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonvalue.ParseString(text)
		if err != nil {
			return
		}
		for _, d := range decoders {
			var got, want Call
			gotErr := d.decode(&got, v)
			var wantErr error
			if obj, ok := v.(jsonvalue.Object); ok {
				wantErr = d.decodeObject(&want, obj, d.argsKeys())
			} else {
				wantErr = gotErr // not an object: neither path reads it
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s: error %v, want %v", text, gotErr, wantErr)
			}
			if gotErr == nil && !cmp.Equal(got, want, sameRegexp) {
				t.Fatalf("%s: call %s", text, cmp.Diff(want, got, sameRegexp))
			}
		}
	})
}
