package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An UnknownOptionError is a metric entry key that its profile does not
// take. Built by [Metric], it names the nearest option of the profile, or
// the profile's own spelling of what another profile calls Key.
type UnknownOptionError struct {
	Key     string
	Profile string // "" when not known
	// Valid lists the profile's options.
	Valid []string
}

func (e *UnknownOptionError) Error() string {
	msg := fmt.Sprintf("unknown option %q", e.Key)
	if e.Profile == "" {
		return msg
	}
	if near, ok := suggest.Nearest(e.Key, e.Valid); ok {
		return msg + fmt.Sprintf("; did you mean %q?", near)
	}
	if own, other := sameIdea(e.Key, e.Profile); own != "" {
		return msg + fmt.Sprintf(": %s is how the %s profile spells it; under %s, set %s", e.Key, other, e.Profile, own)
	}
	if ps := OptionProfiles(e.Key); len(ps) > 0 {
		return msg + fmt.Sprintf(": it is an option of the %s profile, not of %s (want %s, or profile, name, metric)", strings.Join(ps, ", "), e.Profile, strings.Join(e.Valid, ", "))
	}
	return msg + fmt.Sprintf(" (want %s, or profile, name, metric)", strings.Join(e.Valid, ", "))
}

// optionNames lists a profile's option keys, from its struct's JSON tags.
func optionNames(profile string) []string {
	return fieldNames(profiles[profile].options)
}

// fieldNames lists the option keys of an options struct; nil for nil.
func fieldNames(t reflect.Type) []string {
	if t == nil {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		if name := optionName(f); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// optionName is the option key of an options struct's field, from its
// JSON tag; "" for a field that is no option.
func optionName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// OptionProfiles lists the profiles that take an option named key.
func OptionProfiles(key string) []string {
	var out []string
	for _, p := range Profiles() {
		if slices.Contains(optionNames(p), key) {
			out = append(out, p)
		}
	}
	return out
}

// ideas are the options that several profiles spell differently: per
// idea, each profile's spelling.
var ideas = []map[string]string{
	{ // which parts of a call are compared beyond its name
		"default": "args", "deepeval": "evaluation_params", "axion": "check_parameters",
		"agentevals": "tool_args_match_mode",
	},
	{ // how the order of calls counts
		"default": "order", "deepeval": "should_consider_ordering", "axion": "strict_order",
		"agentevals": "trajectory_match_mode", "ragas": "strict_order", "adk": "match_type",
	},
	{ // whether outputs are compared
		"default": "output", "deepeval": "evaluation_params",
	},
	{ // any score below 1 counts as 0
		"default": "strict", "deepeval": "strict_mode",
	},
	{ // how arguments compare
		"default": "args", "axion": "parameter_matching_strategy", "agentevals": "tool_args_match_mode",
	},
}

// sameIdea returns profile's spelling of what another profile calls key,
// and that profile's name.
func sameIdea(key, profile string) (own, other string) {
	for _, idea := range ideas {
		own, ok := idea[profile]
		if !ok || own == key {
			continue
		}
		for p, k := range idea {
			if k == key && p != profile {
				return own, p
			}
		}
	}
	return "", ""
}

// coerceLists lets a list option be given as one string, as --option
// evaluation_params=input_parameters gives it: "a" or "a,b" becomes
// ["a"] or ["a", "b"] when the profile's option is a list of strings.
func coerceLists(profile string, opts jsonvalue.Object) {
	t := profiles[profile].options
	if t == nil {
		return
	}
	for i := range opts {
		s, ok := opts[i].Value.(string)
		if !ok {
			continue
		}
		for f := range t.Fields() {
			if optionName(f) != opts[i].Key || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.String {
				continue
			}
			var list []any
			for _, part := range strings.Split(s, ",") {
				list = append(list, strings.TrimSpace(part))
			}
			opts[i].Value = list
		}
	}
}
