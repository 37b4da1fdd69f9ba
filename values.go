package toolgrade

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// inModel returns c with every value in the JSON value model: a case built
// in code may hold Go maps, ints or structs, which the metrics would
// otherwise compare as unequal to the same values decoded from a file. A
// case already in the model (every decoded case) is returned as it is;
// otherwise the values are converted into a copy, and c is not changed. The
// error is a *FieldError naming the field in the case format's terms.
func (c *Case) inModel() (*Case, error) {
	if c.valuesInModel() {
		return c, nil
	}
	out := *c
	for _, f := range []struct {
		name string
		v    *any
	}{
		{"input", &out.Input},
		{"actual_output", &out.ActualOutput},
		{"expected_output", &out.ExpectedOutput},
		{"trajectory", &out.Trajectory},
		{"expected_trajectory", &out.ExpectedTrajectory},
	} {
		if err := convert(f.name, f.v); err != nil {
			return c, err
		}
	}
	if !jsonvalue.InModel(out.Raw) {
		out.Raw = slices.Clone(out.Raw)
		for i := range out.Raw {
			if err := convert(out.Raw[i].Key, &out.Raw[i].Value); err != nil {
				return c, err
			}
		}
	}
	for _, list := range []struct {
		name  string
		calls *[]Call
	}{{"tools_called", &out.Called}, {"expected_tools", &out.Expected}} {
		if callsInModel(*list.calls) {
			continue
		}
		calls := slices.Clone(*list.calls)
		for i := range calls {
			where := list.name + "[" + strconv.Itoa(i) + "]."
			if text, ok := argsText(calls[i].Args); ok {
				calls[i].Args, calls[i].ArgsRaw, calls[i].Invalid = DecodeArgs(text)
			}
			if err := convert(where+"args", &calls[i].Args); err != nil {
				return c, err
			}
			if err := convert(where+"output", &calls[i].Output); err != nil {
				return c, err
			}
		}
		*list.calls = calls
	}
	if !turnsInModel(out.Turns) {
		turns := slices.Clone(out.Turns)
		for i := range turns {
			where := "turns[" + strconv.Itoa(i) + "]."
			for _, f := range []struct {
				name string
				v    *any
			}{{"input", &turns[i].Input}, {"actual_output", &turns[i].ActualOutput}, {"expected_output", &turns[i].ExpectedOutput}} {
				if err := convert(where+f.name, f.v); err != nil {
					return c, err
				}
			}
		}
		out.Turns = turns
	}
	return &out, nil
}

func (c *Case) valuesInModel() bool {
	return jsonvalue.InModel(c.Input) && jsonvalue.InModel(c.ActualOutput) &&
		jsonvalue.InModel(c.ExpectedOutput) && jsonvalue.InModel(c.Trajectory) &&
		jsonvalue.InModel(c.ExpectedTrajectory) &&
		jsonvalue.InModel(c.Raw) && callsInModel(c.Called) && callsInModel(c.Expected) && turnsInModel(c.Turns)
}

func turnsInModel(turns []Turn) bool {
	for i := range turns {
		t := &turns[i]
		if !jsonvalue.InModel(t.Input) || !jsonvalue.InModel(t.ActualOutput) || !jsonvalue.InModel(t.ExpectedOutput) {
			return false
		}
	}
	return true
}

func callsInModel(calls []Call) bool {
	for i := range calls {
		if _, text := argsText(calls[i].Args); text || !jsonvalue.InModel(calls[i].Args) || !jsonvalue.InModel(calls[i].Output) {
			return false
		}
	}
	return true
}

// argsText reports whether a call's Args is the JSON text of an object or
// array, as SDKs give a call's arguments (`{"city":"Paris"}`): such text
// is read as a case file's arguments are, parsed, or kept in ArgsRaw with
// the call invalid when it does not parse, and is not compared as a
// string. Other strings are values themselves.
func argsText(args any) (string, bool) {
	s, ok := args.(string)
	t := strings.TrimLeft(s, " \t\r\n")
	return s, ok && t != "" && (t[0] == '{' || t[0] == '[')
}

// convert puts *v into the model, or names the field it could not.
func convert(field string, v *any) error {
	mv, err := jsonvalue.From(*v)
	if err != nil {
		return &FieldError{Path: field, Err: err}
	}
	*v = mv
	return nil
}
