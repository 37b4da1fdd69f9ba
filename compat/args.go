package compat

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// callArgs returns call i's arguments as the object Python peers hold, or
// what keeps them from being one: "null", "not valid JSON" or the kind of
// value given. Absent arguments are {}. Decoding turns absent and null
// arguments alike into nil, so the raw record (the case, or a sample of
// it) tells them apart, looking at the first of listKeys it has.
func callArgs(call *toolgrade.Call, raw jsonvalue.Object, listKeys []string, i int) (jsonvalue.Object, string) {
	switch a := call.Args.(type) {
	case jsonvalue.Object:
		return a, ""
	case nil:
		if call.Invalid {
			return nil, "not valid JSON"
		}
		if rawArgsNull(raw, listKeys, i) {
			return nil, "null"
		}
		return jsonvalue.Object{}, ""
	}
	return nil, jsonvalue.Kind(call.Args)
}

// The keys of a call's arguments, in the order toolgrade.DecodeCall tries
// them.
var rawArgsKeys = []string{"args", "input_parameters", "inputParameters", "arguments", "input"}

// rawArgsNull reports whether call i of the first list named by listKeys
// in raw gives its arguments explicitly as null.
func rawArgsNull(raw jsonvalue.Object, listKeys []string, i int) bool {
	for _, k := range listKeys {
		list, ok := raw.Get(k)
		if !ok {
			continue
		}
		l, _ := list.([]any)
		if i >= len(l) {
			return false
		}
		call, _ := l[i].(jsonvalue.Object)
		for _, ak := range rawArgsKeys {
			if v, ok := call.Get(ak); ok {
				return v == nil
			}
		}
		return false
	}
	return false
}

// The fields of a case that hold its called and expected calls, with the
// aliases package dataset accepts.
var (
	rawCalledKeys   = []string{"tools_called", "toolsCalled"}
	rawExpectedKeys = []string{"expected_tools", "expectedTools"}
)
