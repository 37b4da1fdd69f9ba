package dataset

import (
	"slices"
	"testing"
)

// keyFacts is what a keyInfo says, field by field.
type keyFacts struct {
	known, grade       bool
	field, rank, tools int8
}

func factsOf(k keyInfo) keyFacts {
	return keyFacts{k.known(), k.grade(), k.field(), k.rank(), k.tools()}
}

// TestCaseKey: the switch of caseKey says of every key what the lists of
// the case format's keys say, and of other keys nothing; every known key
// has an id of its own, which id and trial's constants name.
func TestCaseKey(t *testing.T) {
	want := map[string]keyFacts{}
	set := func(keys []string, f func(k *keyFacts, i int)) {
		for i, key := range keys {
			k := want[key]
			f(&k, i)
			want[key] = k
		}
	}
	set(slices.Concat(caseFields, peerFields), func(k *keyFacts, _ int) { k.known = true })
	set(gradeFields, func(k *keyFacts, _ int) { k.grade = true })
	for field, keys := range fieldKeys {
		set(keys, func(k *keyFacts, rank int) { k.field, k.rank = int8(field+1), int8(rank) })
	}
	set(toolKeys, func(k *keyFacts, i int) { k.tools = int8(i + 1) })
	ids := map[uint]string{}
	for key, k := range want {
		got := caseKey(key)
		if factsOf(got) != k {
			t.Errorf("caseKey(%q) = %+v, want %+v", key, factsOf(got), k)
		}
		if id := got.id(); id == 0 || ids[id] != "" {
			t.Errorf("caseKey(%q) has id %d, which is 0 or %q's", key, id, ids[id])
		} else {
			ids[id] = key
		}
	}
	if caseKey("id") != keyID || caseKey("trial") != keyTrial {
		t.Errorf("caseKey(id), caseKey(trial) = %#x, %#x; want keyID %#x, keyTrial %#x", caseKey("id"), caseKey("trial"), keyID, keyTrial)
	}
	for _, key := range []string{"", "ID", "tool", "tools_calle", "metadata", "expected_tools ", "inputs"} {
		if got := caseKey(key); got != 0 {
			t.Errorf("caseKey(%q) = %+v, want nothing", key, factsOf(got))
		}
	}
}
