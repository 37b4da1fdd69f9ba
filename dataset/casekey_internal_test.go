package dataset

import (
	"slices"
	"testing"
)

// TestCaseKey: the switch of caseKey says of every key what the lists of
// the case format's keys say, and of other keys nothing.
func TestCaseKey(t *testing.T) {
	want := map[string]keyInfo{}
	set := func(keys []string, f func(k *keyInfo, i int)) {
		for i, key := range keys {
			k := want[key]
			f(&k, i)
			want[key] = k
		}
	}
	set(slices.Concat(caseFields, peerFields), func(k *keyInfo, _ int) { k.known = true })
	set(gradeFields, func(k *keyInfo, _ int) { k.grade = true })
	for field, keys := range fieldKeys {
		set(keys, func(k *keyInfo, rank int) { k.field, k.rank = int8(field+1), int8(rank) })
	}
	set(toolKeys, func(k *keyInfo, i int) { k.tools = int8(i + 1) })
	for key, k := range want {
		if got := caseKey(key); got != k {
			t.Errorf("caseKey(%q) = %+v, want %+v", key, got, k)
		}
	}
	for _, key := range []string{"", "ID", "tool", "tools_calle", "metadata", "expected_tools ", "inputs"} {
		if got := caseKey(key); got != (keyInfo{}) {
			t.Errorf("caseKey(%q) = %+v, want nothing", key, got)
		}
	}
}
