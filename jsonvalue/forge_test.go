package jsonvalue_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestForgedValues: values the parser boxes by hand (slab.go) are
// ordinary interface values to every reader of them: type switches and
// assertions, ==, map keys, reflect, fmt, encoding/json and go-cmp; they
// keep their content through garbage collections after their document and
// its neighbours are dropped. Run under -race, checkptr checks the
// pointer conversions too. It fails if forging is off, so that a Go
// release whose interfaces are laid out otherwise is noticed.
func TestForgedValues(t *testing.T) {
	if !jsonvalue.Forging() {
		t.Fatal("the parser boxes values the ordinary way: the runtime's interface layout is not the one slab.go assumes")
	}
	const doc = `{"s":"text","n":-12.5e3,"o":{"k":"v"},"a":[1,"x",null],"t":true,"z":null,"e":"","eo":{},"ea":[]}`
	v, err := jsonvalue.ParseString(doc)
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(jsonvalue.Object)
	get := func(k string) any { x, _ := obj.Get(k); return x }

	// Type switches and assertions see the model's types.
	for _, tt := range []struct {
		key  string
		want reflect.Type
	}{
		{"s", reflect.TypeFor[string]()}, {"n", reflect.TypeFor[json.Number]()},
		{"o", reflect.TypeFor[jsonvalue.Object]()}, {"a", reflect.TypeFor[[]any]()},
		{"t", reflect.TypeFor[bool]()}, {"e", reflect.TypeFor[string]()},
		{"eo", reflect.TypeFor[jsonvalue.Object]()}, {"ea", reflect.TypeFor[[]any]()},
	} {
		x := get(tt.key)
		var switched reflect.Type
		switch x.(type) {
		case string:
			switched = reflect.TypeFor[string]()
		case json.Number:
			switched = reflect.TypeFor[json.Number]()
		case jsonvalue.Object:
			switched = reflect.TypeFor[jsonvalue.Object]()
		case []any:
			switched = reflect.TypeFor[[]any]()
		case bool:
			switched = reflect.TypeFor[bool]()
		}
		if switched != tt.want || reflect.TypeOf(x) != tt.want {
			t.Errorf("%s: switch found %v, reflect %v, want %v", tt.key, switched, reflect.TypeOf(x), tt.want)
		}
	}
	if get("z") != nil {
		t.Errorf("z = %#v, want nil", get("z"))
	}

	// == and map keys compare by value, and distinguish string from
	// json.Number.
	if get("s") != any("text") || get("n") != any(json.Number("-12.5e3")) || get("s") == any(json.Number("text")) || get("e") != any("") {
		t.Error("== on parsed strings and numbers disagrees with the compiler's boxing")
	}
	again, _ := jsonvalue.ParseString(doc)
	if s2, _ := again.(jsonvalue.Object).Get("s"); s2 != get("s") {
		t.Error("the same string parsed twice compares unequal")
	}
	m := map[any]int{"text": 1, json.Number("-12.5e3"): 2}
	if m[get("s")] != 1 || m[get("n")] != 2 {
		t.Error("parsed strings and numbers do not find their map entries")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("== on two parsed arrays did not panic as on ordinary slices")
			}
		}()
		_ = get("a") == get("a")
	}()

	// reflect reads them as values of their types.
	if rv := reflect.ValueOf(get("a")); rv.Kind() != reflect.Slice || rv.Len() != 3 || rv.Index(1).Interface() != any("x") {
		t.Errorf("reflect reads a as %v", rv)
	}
	if rv := reflect.ValueOf(get("s")); rv.String() != "text" || rv.CanSet() {
		t.Errorf("reflect reads s as %v (settable %v)", rv, rv.CanSet())
	}

	// fmt and encoding/json write them as the compiler's boxes.
	plain := jsonvalue.Object{{Key: "s", Value: "text"}, {Key: "n", Value: json.Number("-12.5e3")},
		{Key: "o", Value: jsonvalue.Object{{Key: "k", Value: "v"}}}, {Key: "a", Value: []any{json.Number("1"), "x", nil}},
		{Key: "t", Value: true}, {Key: "z", Value: nil}, {Key: "e", Value: ""},
		{Key: "eo", Value: jsonvalue.Object{}}, {Key: "ea", Value: []any{}}}
	for _, verb := range []string{"%v", "%#v", "%+v", "%T", "%q"} {
		if got, want := fmt.Sprintf(verb, v), fmt.Sprintf(verb, plain); got != want {
			t.Errorf("Sprintf(%s) = %s, want %s", verb, got, want)
		}
	}
	gotJSON, err := json.Marshal(map[string]any{"v": v, "a": get("a"), "s": get("s"), "n": get("n")})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(map[string]any{"v": plain, "a": []any{json.Number("1"), "x", nil}, "s": "text", "n": json.Number("-12.5e3")})
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("encoding/json wrote %s, want %s", gotJSON, wantJSON)
	}
	if diff := cmp.Diff(any(plain), v); diff != "" {
		t.Errorf("go-cmp sees a difference (-plain +parsed):\n%s", diff)
	}

	// Values kept after their document (and thousands of others) is
	// dropped keep their content through collections.
	kept := []any{get("s"), get("n"), get("a"), get("o")}
	want := make([]string, len(kept))
	for i, k := range kept {
		want[i] = string(jsonvalue.Append(nil, k))
	}
	v, obj, again = nil, nil, nil
	for i := range 5000 {
		if _, err := jsonvalue.ParseString(fmt.Sprintf(`{"i":%d,"s":"%s","a":[%d,"y"]}`, i, strings.Repeat("q", i%30), i)); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i, k := range kept {
		if got := string(jsonvalue.Append(nil, k)); got != want[i] {
			t.Errorf("kept value %d reads %s after collections, want %s", i, got, want[i])
		}
	}
	if kept[0] != any("text") || kept[1] != any(json.Number("-12.5e3")) {
		t.Error("kept values compare unequal after collections")
	}
}

// TestForgedMatchesReference: on every document at hand (generated cases
// of both sizes, the shared conformance corpus and fixtures, the
// examples), the parser gives exactly what the reference parser gives,
// value for value (types included) and error for error, with values boxed
// by hand and with values boxed the ordinary way.
func TestForgedMatchesReference(t *testing.T) {
	docs := map[string][]string{}
	for _, calls := range []int{3, 8} {
		g := bench.NewGenerator(uint64(calls))
		g.MaxCalls = calls
		name := fmt.Sprintf("generated, %d calls", calls)
		for _, l := range g.Lines(2000) {
			docs[name] = append(docs[name], string(l))
		}
	}
	roots := []string{filepath.Join("..", "examples")}
	if _, err := os.Stat(filepath.Join("..", "testdata", "shared", "conformance")); err == nil {
		roots = append(roots, shared.Path(t, "conformance"), shared.Path(t, "fixtures"))
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(path) {
			case ".jsonl":
				f, err := os.Open(path)
				if err != nil {
					return err
				}
				defer f.Close()
				sc := bufio.NewScanner(f)
				sc.Buffer(nil, 64<<20)
				for sc.Scan() {
					docs[path] = append(docs[path], sc.Text())
				}
				return sc.Err()
			case ".json":
				b, err := os.ReadFile(path)
				docs[path] = append(docs[path], string(b))
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, forged := range []bool{true, false} {
		restore := jsonvalue.SetForging(forged)
		for name, list := range docs {
			for i, doc := range list {
				want, wantErr := jsonvalue.RefParse([]byte(doc))
				got, err := jsonvalue.ParseString(doc)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("%s, document %d (forged %v): error %v, reference %v", name, i+1, forged, err, wantErr)
				}
				// reflect.DeepEqual tells types, and nil from empty, as
				// go-cmp does, in a fraction of the time.
				if !reflect.DeepEqual(want, got) {
					t.Fatalf("%s, document %d (forged %v) differs from the reference (-reference +got):\n%s", name, i+1, forged, cmp.Diff(want, got))
				}
				n++
			}
		}
		restore()
	}
	t.Logf("%d documents compared", n)
}
