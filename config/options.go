package config

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// unknownOptionHint says more about an option that an entry gives and
// its metric does not take: the nearest option it takes, or the profile
// whose option it is. valid lists the metric's options; profile is ""
// for a metric without profiles. "" for other errors, and for a key
// inside an option's value.
func unknownOptionHint(err error, profile string, valid []string) string {
	oe, ok := errors.AsType[*toolgrade.OptionError](err)
	if !ok || oe.Err != toolgrade.ErrUnknownOption || valid == nil || strings.ContainsAny(oe.Option, ".[") {
		return ""
	}
	key := oe.Option
	if near, ok := suggest.Nearest(key, valid); ok {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	if profile == "" {
		return fmt.Sprintf(" (want %s, or name, metric)", strings.Join(valid, ", "))
	}
	if own, other := sameIdea(key, profile); own != "" {
		return fmt.Sprintf(": %s is how the %s profile spells it; under %s, set %s", key, other, profile, own)
	}
	if ps := OptionProfiles(key); len(ps) > 0 {
		return fmt.Sprintf(": it is an option of the %s profile, not of %s (want %s, or profile, name, metric)", strings.Join(ps, ", "), profile, strings.Join(valid, ", "))
	}
	return fmt.Sprintf(" (want %s, or profile, name, metric)", strings.Join(valid, ", "))
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
		"agentevals": "tool_args_match_mode", "openevals": "tool_args_match_mode",
	},
	{ // how the order of calls counts
		"default": "order", "deepeval": "should_consider_ordering", "axion": "strict_order",
		"agentevals": "trajectory_match_mode", "openevals": "trajectory_match_mode", "ragas": "strict_order",
		"adk": "match_type", "evalite": "mode",
	},
	{ // whether outputs are compared
		"default": "output", "deepeval": "evaluation_params",
	},
	{ // any score below 1 counts as 0
		"default": "strict", "deepeval": "strict_mode",
	},
	{ // how arguments compare
		"default": "args", "axion": "parameter_matching_strategy", "agentevals": "tool_args_match_mode",
		"openevals": "tool_args_match_mode",
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
		// In name order, as two profiles may spell an option alike.
		for _, p := range slices.Sorted(maps.Keys(idea)) {
			if idea[p] == key && p != profile {
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
