package dataset

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
)

// The records of a file share what they hold of it, and RecordsFor gives
// them a copy with the run's metrics: the records it did not pass keep
// theirs.
func TestRecordsShareTheirFile(t *testing.T) {
	metrics := make([]toolgrade.Metric, 1)
	lines := strings.Repeat(`{"id":"x"}`+"\n", 3*recordChunk)
	var plain []*record
	for rec, err := range Reader("a.jsonl", strings.NewReader(lines), JSONL) {
		if err != nil {
			t.Fatal(err)
		}
		plain = append(plain, rec.(*record))
	}
	for _, r := range plain {
		if r.file != plain[0].file || r.file.source != "a.jsonl" || r.file.metrics != nil {
			t.Fatalf("record of line %d: file %+v, want the first record's, a.jsonl, no metrics", r.line, *r.file)
		}
	}
	for i, src := range []func(func(toolgrade.Record, error) bool){
		RecordsFor(metrics, Reader("a.jsonl", strings.NewReader(lines), JSONL)),
		Source{Metrics: metrics}.Reader("a.jsonl", strings.NewReader(lines), JSONL),
	} {
		var first *recordFile
		for rec, err := range src {
			if err != nil {
				t.Fatal(err)
			}
			r := rec.(*record)
			if first == nil {
				first = r.file
			}
			if r.file != first || len(r.file.metrics) != 1 || r.file.source != "a.jsonl" {
				t.Fatalf("source %d, record of line %d: file %+v, want one shared with the run's metrics", i, r.line, *r.file)
			}
		}
	}
	if plain[0].file.metrics != nil {
		t.Errorf("RecordsFor changed the metrics of records it was not given")
	}
}
