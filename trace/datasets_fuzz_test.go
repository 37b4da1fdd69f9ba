package trace_test

import (
	"path/filepath"
	"testing"
)

// The data sets' files as wholes: NexusRaven's query files and glaive's
// rows.

func FuzzNexusRaven(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "nexusraven"))
	fuzzFormat(f, "nexusraven",
		`[{"query": "q", "reference": "f(a = 1)"}, {"turns_1": {"instruction": "i", "golden_answer": "[\"g()\"]", "backup": null}}]`)
}

func FuzzGlaiveRows(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "glaive"))
	fuzzFormat(f, "glaive",
		`{"system": "SYSTEM: -", "chat": "USER: hi\n\n\nASSISTANT: <functioncall> {\"name\": \"f\", \"arguments\": '{}'} <|endoftext|>"}`)
}
