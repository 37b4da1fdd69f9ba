// Package poison holds the test-only switch that has memory taken back
// for reuse filled with poison values instead of cleared (see
// jsonvalue.Recycler), so that a value kept past its release shows as
// wrong output in tests instead of reading as later data by chance.
//
// Tests set On before anything runs (an init function), or for one test
// with Set; a binary built with the tag toolgrade_poison has it on from
// the start, for checks run on the command's outputs. Nothing else sets
// it.
package poison

// On is whether released memory is poisoned.
var On = tagged

// Set sets On for a test and returns what puts it back:
// t.Cleanup(poison.Set(true)).
func Set(on bool) (restore func()) {
	was := On
	On = on
	return func() { On = was }
}
